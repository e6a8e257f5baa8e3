// The panel (spec CP-UI-01..CP-UI-06): one self-contained page served at `/session-context-config/`
// that works only through the API. Cards follow the messages of the final request; every
// configurable item is a checkbox (or select) with its description. Untrusted text (tool
// descriptions, section names) is only ever set through textContent, and names from data (tools,
// servers, sections, profile ids) are looked up as own properties only (issue 32, item 13). Every
// API call carries the server's access token (item 4): from the page (DSH's own server) or from the
// link `profiles serve` printed (`#token=…`, kept for the tab in sessionStorage and removed from the
// address bar). The page may not be framed, and its one script runs under a hash-pinned CSP.

import { createHash } from 'node:crypto';
import { BUILTIN_TRANSLATIONS } from './translations.js';

/** CP-UI-06: where the per-tool language choice is kept. */
export const LANG_KEY = 'dsh-session-context-config:tool-lang';
/** Where a tab keeps the access token its link carried. */
export const TOKEN_KEY = 'dsh-session-context-config:token';

const STYLE = `
body{font:14px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1f2328}
header{display:flex;gap:12px;align-items:center;padding:10px 16px;background:#fff;border-bottom:1px solid #d0d7de;position:sticky;top:0}
main{max-width:980px;margin:0 auto;padding:16px;display:grid;gap:16px}
.card{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:12px 16px}
.card h2{font-size:15px;margin:0 0 8px;display:flex;justify-content:space-between}
.role{font:12px monospace;color:#57606a;border:1px solid #d0d7de;border-radius:10px;padding:0 8px}
.row{display:flex;gap:8px;align-items:flex-start;padding:4px 0}
.row .desc{color:#57606a;white-space:normal;overflow-wrap:anywhere}
.tag{display:inline-block;border:1px solid;border-radius:10px;padding:0 8px;font-size:12px;margin-left:4px;white-space:nowrap}
.tag.inject{color:#1a7f37;border-color:#1a7f37;background:#dafbe1}.tag.defer{color:#9a6700;border-color:#bf8700;background:#fff8c5}
.tag.hidden{color:#57606a;border-color:#8c959f;background:#f6f8fa}.tag.tokens{color:#57606a;border-color:#d0d7de}
.sub{font-weight:600;margin-top:8px}hr{border:0;border-top:1px solid #d0d7de}
textarea{width:100%;min-height:48px}.group{margin-top:10px;font-weight:600}.server{margin-left:16px;font-weight:500}
#notice{margin:12px 16px 0;padding:8px 12px;border:1px solid #d4a72c;border-radius:6px;background:#fff8c5;white-space:pre-wrap}
#status{color:#57606a}.row button{flex-shrink:0;white-space:nowrap}`;

/** The client script; it receives the built-in translations as JSON. */
const SCRIPT = String.raw`
const API = '/session-context-config/api';
const LANG_KEY = ${JSON.stringify(LANG_KEY)};
const TOKEN_KEY = ${JSON.stringify(TOKEN_KEY)};
const TOKEN_HEADER = 'x-context-profiles-token';
const BUILTIN = new Map(Object.entries(JSON.parse(document.getElementById('builtin').textContent)));
const BOOT = JSON.parse(document.getElementById('boot').textContent);
const sessionId = new URLSearchParams(location.search).get('id');
const STATE_LABEL = { inject: '开启', defer: '延迟', hidden: '隐藏' };
const OWN_LABEL = { on: '开启', defer: '延迟', off: '隐藏' };
let data, editing, draft, baseline, session;
const translated = new Map();
// Names from data are looked up as own properties and written as data properties: never Object.prototype's.
const own = (o, k) => (o != null && Object.hasOwn(o, k) ? o[k] : undefined);
const put = (o, k, v) => { Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true }); };
const el = (tag, props = {}, ...kids) => { const e = Object.assign(document.createElement(tag), props); for (const k of kids) e.append(k); return e; };
const langs = () => { try { const l = JSON.parse(localStorage.getItem(LANG_KEY) || '{}'); return l !== null && typeof l === 'object' ? l : {}; } catch { return {}; } };
function accessToken() {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromLink) {
    sessionStorage.setItem(TOKEN_KEY, fromLink);
    history.replaceState(null, '', location.pathname + location.search);
    return fromLink;
  }
  return BOOT.token || sessionStorage.getItem(TOKEN_KEY);
}
const token = accessToken();
async function api(path, body) {
  const headers = { [TOKEN_HEADER]: token };
  const res = await fetch(API + path, body === undefined ? { headers } : { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(json.error || res.status);
  return json;
}
function status(text) { document.getElementById('status').textContent = text; }
function checkbox(testid, checked, onchange, label, title) {
  const box = el('input', { type: 'checkbox', checked });
  box.dataset.testid = testid;
  box.addEventListener('change', () => { onchange(box.checked); status('未保存'); });
  const row = el('label', { className: 'row' }, box, el('span', { textContent: label }));
  if (title !== undefined) row.title = title;
  return row;
}
function card(title, role, testid) {
  const c = el('section', { className: 'card' }, el('h2', {}, el('span', { textContent: title }), el('span', { className: 'role', textContent: 'role: ' + role })));
  c.dataset.testid = testid;
  return c;
}
function slot(name, key, label) {
  const s = draft.prompt[key];
  const text = el('textarea', { value: s.text });
  text.dataset.testid = 'slot-text-' + key;
  text.addEventListener('input', () => { s.text = text.value; status('未保存'); });
  return el('div', {}, checkbox('slot-' + key, s.enabled, (v) => { s.enabled = v; }, name + ' · ' + label),
    checkbox('slot-override-' + key, s.override, (v) => { s.override = v; }, '覆盖部署文本'), text);
}
function systemCard() {
  const c = card('系统提示词', 'developer', 'card-system');
  for (const name of data.sections) {
    if (name.startsWith('tool:') || name.startsWith('session-context-config:')) continue;
    if (name === 'deployment:persona-prefix') { c.append(slot(name, 'prefix', '人设前缀')); continue; }
    if (name === 'deployment:persona-suffix') { c.append(slot(name, 'suffix', '人设后缀')); continue; }
    c.append(checkbox('section-' + name, own(draft.sections, name) !== false, (v) => { if (v) delete draft.sections[name]; else put(draft.sections, name, false); }, name));
  }
  for (const [name, key, label] of [['deployment:persona-prefix', 'prefix', '人设前缀'], ['deployment:persona-suffix', 'suffix', '人设后缀']]) {
    if (!data.sections.includes(name)) c.append(slot(name, key, label));
  }
  c.append(el('hr'), el('div', { className: 'sub', textContent: '本插件附加 · 全局' }));
  for (const rule of data.rules) {
    if (rule.key === 'custom') {
      const row = checkbox('rule-custom', baseline.custom.enabled, (v) => { baseline.custom.enabled = v; }, rule.label, baseline.custom.text);
      const text = el('textarea', { value: baseline.custom.text, maxLength: 20000 });
      text.dataset.testid = 'rule-custom-text';
      text.addEventListener('input', () => { baseline.custom.text = text.value; row.title = text.value; status('未保存'); });
      c.append(row, text);
    } else {
      c.append(checkbox('rule-' + rule.key, baseline[rule.key], (v) => { baseline[rule.key] = v; }, rule.label, rule.text));
    }
  }
  return c;
}
function contextsCard() {
  const c = card('运行时上下文快照', 'user', 'card-contexts');
  for (const ctx of data.contexts) c.append(checkbox('context-' + ctx.name, own(draft.contexts, ctx.name) !== false, (v) => { if (v) delete draft.contexts[ctx.name]; else put(draft.contexts, ctx.name, false); }, ctx.label + '(' + ctx.name + ')'));
  return c;
}
function channelCard(title, key, explain, testid) {
  const c = card(title, 'user', testid);
  draft.channels = draft.channels || {};
  c.append(checkbox('channel-' + key, own(draft.channels, key) !== 'off', (v) => { if (v) delete draft.channels[key]; else put(draft.channels, key, 'off'); }, explain));
  return c;
}
function description(tool) {
  const span = el('span', { className: 'desc' });
  const button = el('button', { type: 'button', textContent: '文A' });
  button.dataset.testid = 'lang-' + tool.name;
  const show = () => {
    const mode = own(langs(), tool.name) || 'zh';
    const zh = BUILTIN.get(tool.description) ?? translated.get(tool.description);
    if (mode === 'orig') { span.textContent = tool.description; button.textContent = '文A'; return; }
    if (typeof zh === 'string') { span.textContent = zh; button.textContent = '文A'; return; }
    span.textContent = tool.description;
    button.textContent = zh === null ? '翻译失败' : '翻译中…';
  };
  button.addEventListener('click', () => {
    if (translated.get(tool.description) === null) { translated.delete(tool.description); show(); queue(tool, show); return; }
    const l = langs(); put(l, tool.name, (own(l, tool.name) || 'zh') === 'zh' ? 'orig' : 'zh');
    localStorage.setItem(LANG_KEY, JSON.stringify(l)); show();
  });
  show();
  if (!BUILTIN.has(tool.description) && !translated.has(tool.description)) queue(tool, show);
  return [span, button];
}
let chain = Promise.resolve();
function queue(tool, show) {
  // CP-UI-06: one translation request at a time.
  chain = chain.then(async () => {
    if (typeof translated.get(tool.description) === 'string') return show();
    try { const r = await api('/translate', { text: tool.description }); translated.set(tool.description, r.ok ? r.zh : null); }
    catch { translated.set(tool.description, null); }
    show();
  });
}
function select(testid, value, options, onchange) {
  const s = el('select');
  s.dataset.testid = testid;
  for (const [v, label] of options) s.append(el('option', { value: v, textContent: label, selected: v === value }));
  s.addEventListener('change', () => { onchange(s.value); status('未保存'); });
  return s;
}
const count = (n) => n.toLocaleString('en-US');
/** DeepSeek V3 tokens of the tool definitions a saved profile sends: each tool's share, plus tool_search once if anything is deferred. */
function profileTokens(id) {
  let n = 0;
  let deferred = false;
  for (const t of data.catalog) {
    n += own(t.deepseekTokens.sent, id);
    if (own(t.states, id).effective === 'defer') deferred = true;
  }
  return n + (deferred ? data.toolSearchTokens : 0);
}
function tokenSummary() {
  const full = data.catalog.reduce((n, t) => n + t.deepseekTokens.full, 0);
  const mine = profileTokens(editing);
  const line = el('div', { className: 'sub', textContent: '工具定义(DeepSeek V3 tokens):全部完整 ' + count(full) + ' · 本档位 ' + count(mine) + '(省 ' + count(full - mine) + ')' });
  line.dataset.testid = 'tool-tokens';
  const all = el('div', { className: 'desc', textContent: '各档位(已保存):' + data.profiles.map((p) => (p.name || p.id) + ' ' + count(profileTokens(p.id))).join(' · ') });
  all.dataset.testid = 'tool-tokens-profiles';
  return [line, all];
}
function toolsCard() {
  const c = card('工具', 'tools', 'card-tools');
  c.append(...tokenSummary());
  const saved = data.profiles.find((p) => p.id === editing);
  for (const group of data.groups) {
    const tools = data.catalog.filter((t) => t.group === group.id);
    if (tools.length === 0) continue;
    c.append(el('div', { className: 'group' }, el('span', { textContent: group.label + ' ' }),
      select('group-' + group.id, own(draft.groups, group.id) || 'on', [['force', '强制开启'], ['on', '开启'], ['defer', '延迟'], ['off', '隐藏']], (v) => { put(draft.groups, group.id, v); })));
    let server;
    // Tools without a server first, then one block per server (code-point order); stable within.
    const key = (t) => (t.server === undefined ? '' : ' ' + t.server);
    for (const tool of tools.slice().sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))) {
      if (tool.server !== undefined && tool.server !== server) {
        // A server header: its state only, no summary editor (CP-UI-05).
        server = tool.server;
        const name = server;
        c.append(el('div', { className: 'group server' }, el('span', { textContent: 'server ' + name + ' ' }),
          select('server-' + name, own(draft.servers, name) || 'on', [['force', '强制开启'], ['on', '开启'], ['defer', '延迟'], ['off', '隐藏']], (v) => { put(draft.servers, name, v); })));
      }
      const st = own(tool.states, editing);
      const tag = el('span', { className: 'tag ' + st.effective, textContent: STATE_LABEL[st.effective] });
      tag.dataset.testid = 'state-' + tool.name;
      if (st.overridden) tag.title = '生效:' + STATE_LABEL[st.effective] + ' / 本行选择:' + OWN_LABEL[own(saved.tools, tool.name) || 'on'];
      const tokens = el('span', { className: 'tag tokens', textContent: '≈' + tool.tokens });
      tokens.title = 'DeepSeek V3 tokens:完整 ' + count(tool.deepseekTokens.full) + ' / 本档位 ' + count(own(tool.deepseekTokens.sent, editing));
      tokens.dataset.testid = 'tokens-' + tool.name;
      const row = el('div', { className: 'row' }, el('code', { textContent: tool.name }), tag, tokens,
        select('tool-' + tool.name, own(draft.tools, tool.name) || 'on', [['on', '开启'], ['defer', '延迟'], ['off', '隐藏']], (v) => { if (v === 'on') delete draft.tools[tool.name]; else put(draft.tools, tool.name, v); }),
        ...description(tool));
      row.dataset.testid = 'tool-row-' + tool.name;
      c.append(row);
    }
  }
  return c;
}
function notice() {
  const load = data.load || {};
  const box = document.getElementById('notice');
  const lines = load.kind === 'corrupt' ? ['状态文件无法读取(' + load.reason + '),已另存为 ' + load.keptAt + ',当前使用默认设置。']
    : load.kind === 'set-aside' ? ['状态文件有格式错误,原文件已另存为 ' + load.keptAt + ',其余内容照常使用:', ...load.problems]
    : load.kind === 'refused' ? ['状态文件不是普通文件(' + load.reason + '),当前使用默认设置,不会保存。'] : [];
  box.hidden = lines.length === 0;
  box.replaceChildren(...lines.map((line) => el('div', { textContent: line })));
}
function render() {
  notice();
  draft = structuredClone(data.profiles.find((p) => p.id === editing));
  baseline = structuredClone(data.baseline);
  const picker = document.getElementById('profile');
  picker.replaceChildren(...data.profiles.map((p) => el('option', { value: p.id, textContent: p.name || p.id, selected: p.id === editing })));
  document.getElementById('cards').replaceChildren(systemCard(), contextsCard(),
    channelCard('工作区指令', 'workspaceInstructions', '发送工作区指令(AGENTS.md / CLAUDE.md 等,整组开关)', 'card-instructions'),
    channelCard('时间采样', 'timeContext', '发送时间采样(Time sampled …)', 'card-time'), toolsCard());
}
async function load() {
  data = await api('/state' + (sessionId ? '?id=' + encodeURIComponent(sessionId) : ''));
  if (!data.profiles.some((p) => p.id === editing)) editing = data.lastUsedId !== 'none' && data.profiles.some((p) => p.id === data.lastUsedId) ? data.lastUsedId : data.profiles[0].id;
  if (sessionId) {
    session = await api('/session?id=' + encodeURIComponent(sessionId)).catch(() => undefined);
    const header = document.getElementById('session');
    if (session) header.replaceChildren('本会话档位 ', select('session-profile', session.profile, [['none', '不处理'], ...data.profiles.map((p) => [p.id, p.name || p.id])], async (v) => {
      if (!confirm('切换本会话的档位为 ' + v + '?')) { render(); return; }
      await api('/session', { id: sessionId, profile: v }); status('已切换'); await load();
    }));
  }
  render();
}
document.getElementById('profile').addEventListener('change', (e) => { editing = e.target.value; render(); });
document.getElementById('save').addEventListener('click', async () => {
  const profiles = data.profiles.map((p) => (p.id === editing ? draft : p));
  try { data = await api('/state' + (sessionId ? '?id=' + encodeURIComponent(sessionId) : ''), { profiles, lastUsedId: data.lastUsedId, baseline, revision: data.revision }); render(); status('已保存'); }
  catch (error) { status('保存失败:' + error.message); }
});
if (token) load().catch((error) => status('加载失败:' + error.message));
else status('缺少访问令牌:请打开 dsh-context profiles serve 打印的完整链接(含 #token=…),或从 DSH 重新打开本页');
`;

/**
 * The page's Content-Security-Policy: its one script pinned by hash, its styles inline, requests to
 * its own origin only, and never inside a frame.
 */
export const PANEL_CSP = [
  "default-src 'none'", `script-src 'sha256-${createHash('sha256').update(SCRIPT).digest('base64')}'`, "style-src 'unsafe-inline'",
  "connect-src 'self'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

/** JSON inside a `<script>` data block: `<` escaped so no text can close the element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The page (CP-UI-02).
 * @param token - the server's access token when the page hands it over (DSH's own server); undefined when the link carries it.
 * @returns the HTML.
 */
export function panelHtml(token?: string): string {
  return `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><title>上下文档位</title><style>${STYLE}</style></head>
<body><header><strong>上下文档位</strong><label>编辑档位 <select id="profile" data-testid="profile"></select></label>
<span id="session"></span><button id="save" type="button" data-testid="save">保存</button><span id="status" data-testid="status"></span></header>
<div id="notice" data-testid="notice" role="alert" hidden></div>
<main id="cards"></main>
<script type="application/json" id="builtin">${scriptJson(BUILTIN_TRANSLATIONS)}</script>
<script type="application/json" id="boot">${scriptJson({ token: token ?? null })}</script>
<script type="module">${SCRIPT}</script></body></html>`;
}
