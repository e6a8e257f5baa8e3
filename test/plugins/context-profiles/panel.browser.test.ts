// The panel in headless Chromium (CP-UI-02..CP-UI-06): loaded from the routes of a running local
// server, a tool switched to deferred and a section off, saved; then the state file and a fresh
// session's tools and prompt are checked. A screenshot goes to build/test-artifacts/.
// Needs Debian's chromium at /usr/bin/chromium (.ci/run installs it); it is never skipped.

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProfiles } from '../../../src/plugins/context-profiles/index.js';
import { LANG_KEY, TOKEN_KEY } from '../../../src/plugins/context-profiles/panel.js';
import { serveProfiles } from '../../../src/cli/profiles.js';
import { createServer } from 'node:http';
import { RULE_TEXTS } from '../../../src/plugins/context-profiles/model.js';
import { HostService, messageText } from '../../../src/host/index.js';
import { createTestHost, TestLlm, TestWebServer, type TestHost } from '../../../src/testing/index.js';
import { contextProfiles, hostTools, mcpTools, reply } from '../../support/context-profiles.js';
import { referenceEncode } from '../../support/tokenizer.js';

const ARTIFACTS = join(process.cwd(), 'build', 'test-artifacts');
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
});

function deployment(host: TestHost): void {
  host.ctx.systemPrompt.section({ name: 'harness:identity', order: -1000, text: 'IDENTITY' });
  host.ctx.systemPrompt.section({ name: 'deployment:persona-prefix', order: 0, text: 'PREFIX' });
  host.ctx.systemPrompt.section({ name: 'tool:grep', order: 150, text: 'GREP GUIDE' });
  host.ctx.systemPrompt.section({ name: 'harness:source', order: 500, text: 'SOURCE' });
  host.ctx.systemPrompt.section({ name: 'deployment:persona-suffix', order: 10200, text: 'SUFFIX' });
}

/** The model fails the first request for the widget's description, so the panel shows the retry path. */
function session(home: string, sessionId: string): TestHost {
  let widgetFailures = 1;
  const model = new TestLlm({ 'deepseek/deepseek-chat': null }, (o) => {
    const text = messageText(o.messages[0]!);
    if (text.startsWith('A third-party plugin tool') && widgetFailures-- > 0) throw new Error('model busy');
    return `译:${text}`;
  });
  const host = createTestHost({ dshHome: home, cwd: '/repo', files: {}, sessionId, llm: model, defaultModel: { provider: 'deepseek', model: 'deepseek-chat' } });
  for (const def of [...hostTools(), ...mcpTools().slice(0, 2)]) host.ctx.tools.register(def);
  deployment(host);
  host.use(contextProfiles, {});
  host.provide(HostService.webServer, new TestWebServer());
  return host;
}

describe('panel in Chromium (CP-UI-02..CP-UI-06)', () => {
  it('CP-UI-02..06 renders the cards, switches a tool to deferred and a section off, saves; a fresh session gets both', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cp-'));
    writeFileSync(join(home, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: {} }));
    const host = session(home, 'session-1');
    await host.run('hi', reply);
    const server = await (host.ctx.get(HostService.webServer) as TestWebServer).listen();
    const page = await browser.newPage({ viewport: { width: 1100, height: 1800 } });
    try {
      await page.goto(`${server.url}/session-context-config/?id=session-1`);
      const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
      await tid('card-tools').waitFor();

      // CP-UI-02: one card per request message, with its role label, then the tools.
      expect(await page.locator('section.card h2').allTextContents()).toEqual([
        '系统提示词role: developer', '运行时上下文快照role: user', '工作区指令role: user', '时间采样role: user', '工具role: tools',
      ]);
      // CP-UI-03: sections in assembly order, slots with override and text, no tool:* rows, rules last.
      const system = tid('card-system');
      expect(await system.locator('label.row span').allTextContents()).toEqual([
        'harness:identity', 'deployment:persona-prefix · 人设前缀', '覆盖部署文本', 'harness:source', 'deployment:persona-suffix · 人设后缀', '覆盖部署文本',
        '行为契约', '卡片回执', '不可信下载', '自定义文本',
      ]);
      expect(await system.locator('textarea').count()).toBe(3);
      expect(await system.locator('.sub').textContent()).toBe('本插件附加 · 全局');
      expect(await system.locator('hr').count()).toBe(1);
      expect(await tid('rule-contract').locator('xpath=..').getAttribute('title')).toBe(RULE_TEXTS.contract);
      // CP-UI-04: seven contexts; one channel checkbox each.
      expect(await tid('card-contexts').locator('input[type=checkbox]').count()).toBe(7);
      expect([await tid('card-instructions').locator('input').count(), await tid('card-time').locator('input').count()]).toEqual([1, 1]);
      // CP-UI-05: state and token chips; an override tooltip only where a group decides.
      expect(await tid('state-grep').textContent()).toBe('开启');
      expect(await tid('state-grep').getAttribute('title')).toBeNull();
      expect(await tid('state-todo_write').textContent()).toBe('隐藏');
      expect(await tid('state-todo_write').getAttribute('title')).toBe('生效:隐藏 / 本行选择:开启');
      expect(await tid('state-mcp__github__get_issue').textContent()).toBe('延迟');
      expect(await tid('state-grep').evaluate((e) => getComputedStyle(e).color)).toBe('rgb(26, 127, 55)');
      expect(await tid('state-mcp__github__get_issue').evaluate((e) => getComputedStyle(e).borderTopStyle)).toBe('solid');
      const grepDef = hostTools().find((t) => t.name === 'grep')!;
      expect(await tid('tokens-grep').textContent()).toBe(`≈${Math.round(0.28 * JSON.stringify({ name: 'grep', description: grepDef.description, parameters: grepDef.parameters }).length)}`);
      // Issue 21: each profile's tool-definition tokens (DeepSeek V3), full and as the profile sends
      // them. Session 1 runs under lean: what its first request carried for these tools (deferred
      // placeholders, tool_search) is exactly the panel's figure for lean, by the reference tokenizer.
      // The page carries its server's access token (DSH's own server hands it over); the API wants it.
      const state = await page.evaluate(async () => (await fetch('/session-context-config/api/state?id=session-1', {
        headers: { 'x-context-profiles-token': (JSON.parse(document.getElementById('boot')!.textContent!) as { token: string }).token },
      })).json()) as {
        catalog: { name: string; deepseekTokens: { full: number; sent: Record<string, number> }; states: Record<string, { effective: string }> }[]; toolSearchTokens: number;
      };
      const wire = (t: { name: string; description: string; parameters: unknown }): number =>
        referenceEncode(JSON.stringify({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })).length;
      // Every catalog tool's full definition: the global layer's (the host's own tools included).
      const defs = new Map(state.catalog.map((t) => [t.name, host.ctx.tools.get(t.name)!]));
      for (const entry of state.catalog) expect(entry.deepseekTokens.full, entry.name).toBe(wire(defs.get(entry.name)!));
      expect(state.toolSearchTokens).toBe(wire(host.requests[0]!.tools.find((t) => t.name === 'tool_search')!));
      // The catalog's tools and tool_search (tools the plugin never manages, such as run_code, are not in it).
      const managed = new Set([...defs.keys(), 'tool_search']);
      const sentToLean = host.requests[0]!.tools.filter((t) => managed.has(t.name)).reduce((n, t) => n + wire(t), 0);
      const full = state.catalog.reduce((n, t) => n + t.deepseekTokens.full, 0);
      const perProfile = (id: string): number => state.catalog.reduce((n, t) => n + t.deepseekTokens.sent[id]!, 0)
        + (state.catalog.some((t) => t.states[id]!.effective === 'defer') ? state.toolSearchTokens : 0);
      expect(perProfile('lean')).toBe(sentToLean);
      const n = (v: number): string => v.toLocaleString('en-US');
      expect(await tid('tool-tokens').textContent()).toBe(`工具定义(DeepSeek V3 tokens):全部完整 ${n(full)} · 本档位 ${n(sentToLean)}(省 ${n(full - sentToLean)})`);
      expect(await tid('tool-tokens-profiles').textContent()).toBe(`各档位(已保存):${builtinProfiles().map((p) => `${p.name} ${n(perProfile(p.id))}`).join(' · ')}`);
      expect(await tid('tokens-grep').getAttribute('title')).toBe(`DeepSeek V3 tokens:完整 ${n(wire(defs.get('grep')!))} / 本档位 ${n(wire(defs.get('grep')!))}`);
      // CP-UI-06: built-in Chinese for a known tool; unknown tools translated one by one through the API.
      expect(await tid('tool-row-read').locator('.desc').textContent()).toBe('读取一个 UTF-8 文本文件，返回带行号的内容。');
      await page.waitForFunction(() => document.querySelector('[data-testid="tool-row-mcp__github__create_issue"] .desc')?.textContent?.startsWith('译:'));
      const long = mcpTools()[0]!.description;
      await expect.poll(() => tid('tool-row-mcp__github__get_issue').locator('.desc').textContent()).toBe(`译:${long}`);
      await tid('lang-mcp__github__get_issue').click();
      expect(await tid('tool-row-mcp__github__get_issue').locator('.desc').textContent()).toBe(long);
      expect(await page.evaluate((k) => localStorage.getItem(k), LANG_KEY)).toBe('{"mcp__github__get_issue":"orig"}');
      // A failed translation says so; a click retries.
      await expect.poll(() => tid('lang-third_party_widget').textContent()).toBe('翻译失败');
      await tid('lang-third_party_widget').click();
      await expect.poll(() => tid('tool-row-third_party_widget').locator('.desc').textContent()).toBe('译:A third-party plugin tool without an MCP server.');
      expect(await tid('lang-third_party_widget').textContent()).toBe('文A');
      // Hovering the custom row shows the current input.
      await tid('rule-custom-text').fill('line one\nline two');
      expect(await tid('rule-custom').locator('xpath=..').getAttribute('title')).toBe('line one\nline two');
      // Descriptions wrap instead of being cut.
      expect(await tid('tool-row-mcp__github__get_issue').locator('.desc').evaluate((e) => [getComputedStyle(e).whiteSpace, getComputedStyle(e).textOverflow])).toEqual(['normal', 'clip']);

      // MCP tools sit under their server's header, which has a state select and no summary editor.
      expect(await tid('server-github').inputValue()).toBe('on');
      expect(await tid('server-github').locator('xpath=..').locator('input, textarea').count()).toBe(0);
      // Edit lean: grep → deferred, harness:identity off; save.
      await tid('tool-grep').selectOption('defer');
      await tid('section-harness:identity').uncheck();
      expect(await tid('status').textContent()).toBe('未保存');
      await tid('save').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === '已保存');
      expect(await tid('state-grep').textContent()).toBe('延迟');
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: join(ARTIFACTS, 'context-profiles-panel.png'), fullPage: true });

      const file = JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8'));
      const lean = file.profiles.find((p: { id: string }) => p.id === 'lean');
      expect([lean.tools, lean.sections, file.sessions]).toEqual([{ grep: 'defer' }, { 'harness:identity': false }, { 'session-1': 'lean' }]);
      expect(file.baseline.custom).toEqual({ enabled: false, text: 'line one\nline two' });

      // The running session does not follow the edit (CP-15); a fresh one gets it.
      await host.run('again', reply);
      expect(host.requests.at(-1)!.system.startsWith('IDENTITY')).toBe(true);
      const fresh = session(home, 'session-2');
      await fresh.run('hi', reply);
      const request = fresh.requests[0]!;
      expect(request.tools.find((t) => t.name === 'grep')).toEqual({ name: 'grep', description: 'Search file contents with a regular expression.', parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'], additionalProperties: false } });
      expect(request.system).toBe(['PREFIX', 'SOURCE', 'SUFFIX', RULE_TEXTS.contract, RULE_TEXTS.cardReceipt, RULE_TEXTS.untrustedDownload].join('\n\n'));

      // CP-UI-01: the session header switch asks first, then calls POST /session.
      page.once('dialog', (d) => void d.accept());
      await tid('session-profile').selectOption('minimal');
      await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === '已切换');
      expect(JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8')).sessions['session-1']).toBe('minimal');
      await page.reload();
      await tid('card-tools').waitFor();
      expect(await tid('tool-row-mcp__github__get_issue').locator('.desc').textContent()).toBe(long);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('issue 32 item 4: `profiles serve`: the link\'s token opens the panel and leaves the address bar, a reload keeps it; without it the panel says so and calls nothing; no other site can frame it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: {} }));
    const served = await serveProfiles({ port: 0, environment: { env: { DSH_HOME: dir }, homedir: dir, processCwd: dir } });
    const origin = new URL(served.url).origin;
    // Another site on this machine that frames the panel.
    const framer = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(`<iframe id="f" src="${served.url}"></iframe>`));
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const apiCalls: [string, number][] = [];
      page.on('response', (r) => void (r.url().includes('/api/') && apiCalls.push([new URL(r.url()).pathname, r.status()])));
      await page.goto(served.url);
      const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
      await tid('card-tools').waitFor();
      expect(page.url()).toBe(`${origin}/session-context-config/`);
      expect(await page.evaluate((k) => sessionStorage.getItem(k), TOKEN_KEY)).toBe(served.token);
      await page.reload();
      await tid('card-tools').waitFor();
      expect(apiCalls.every(([, status]) => status === 200)).toBe(true);
      // A fresh tab without the link's token: no card, a notice of what to open, no API call at all.
      const bare = await context.newPage();
      const bareCalls: string[] = [];
      bare.on('request', (r) => void (r.url().includes('/api/') && bareCalls.push(r.url())));
      await bare.goto(`${origin}/session-context-config/`);
      await bare.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent !== '');
      expect(await bare.locator('[data-testid="status"]').textContent()).toBe('缺少访问令牌:请打开 dsh-context profiles serve 打印的完整链接(含 #token=…),或从 DSH 重新打开本页');
      expect([await bare.locator('section.card').count(), bareCalls]).toEqual([0, []]);
      // Framed by another origin: the browser refuses to render it.
      const host = await context.newPage();
      await host.goto(`http://127.0.0.1:${(framer.address() as { port: number }).port}/`);
      const frame = host.frames().find((f) => f !== host.mainFrame())!;
      // Chromium shows its error page in place of a document that refuses framing.
      await expect.poll(() => frame.url()).toBe('chrome-error://chromewebdata/');
      expect(await frame.locator('[data-testid="save"]').count()).toBe(0);
    } finally {
      await context.close();
      await new Promise((resolve) => framer.close(resolve));
      await served.close();
    }
  });
});
