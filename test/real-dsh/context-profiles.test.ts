// context-profiles in real DSH 0.1.0-rc.8, installed from our packed tarball with `dsh plugin add`:
// the tool groups of every stock profile's tools, listed from DSH itself; deferral and tool_search
// under full, lean and minimal; the panel and API served by DSH's own web server (opened in headless
// Chromium, a profile edited and saved, the next session using it); translation through DSH's llm
// service; the state file shared by DSH processes and `dsh-context profiles serve`.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtinProfiles, TOKEN_HEADER, type Profile, type ToolState } from '../../src/plugins/context-profiles/index.js';
import { TOOL_SEARCH } from '../../src/plugins/context-profiles/placeholders.js';
import { firstSentence, groupOf } from '../../src/plugins/context-profiles/resolve.js';
import { TRANSLATE_SYSTEM } from '../../src/plugins/context-profiles/translate.js';
import { serveProfiles } from '../../src/cli/profiles.js';
import type { ChatRequest, DshHost } from '../../src/testing/index.js';
import { dshHost, stderrOf } from './support.js';

const STATE = 'session-context-config.json';
const WEB = { profile: 'web', args: ['--no-open', '--port', '0'] } as const;

/** Writes the state file into the host's DSH home: the built-ins (edited), `lastUsedId`, sessions. */
function writeState(host: DshHost, lastUsedId: string, edit: (profiles: Profile[]) => void = () => {}, sessions: Record<string, string> = {}): void {
  const profiles = builtinProfiles();
  edit(profiles);
  host.write(STATE, `${JSON.stringify({ version: 4, lastUsedId, profiles, sessions }, null, 2)}\n`, host.dshHome);
}

function readState(host: DshHost): { lastUsedId: string; profiles: Profile[]; sessions: Record<string, string> } {
  return JSON.parse(readFileSync(join(host.dshHome, STATE), 'utf8')) as never;
}

/** The access token DSH's own server hands to the panel page at `base` (issue 32, item 4). */
async function pageToken(base: string): Promise<string> {
  const page = await (await fetch(`${base}/session-context-config/`)).text();
  return (JSON.parse(/<script type="application\/json" id="boot">(.*?)<\/script>/.exec(page)![1]!) as { token: string }).token;
}

/** Headers that carry a panel server's access token. */
const withToken = (token: string, headers: Record<string, string> = {}) => ({ [TOKEN_HEADER]: token, ...headers });

/** The API of a panel (DSH's own server or `dsh-context profiles serve`) at `base`, with its token. */
function panelApi(base: string, token: string) {
  const api = `${base}/session-context-config/api`;
  return {
    state: async () => (await (await fetch(`${api}/state`, { headers: withToken(token) })).json()) as { revision: string; lastUsedId: string; profiles: Profile[]; baseline: unknown; load: { kind: string; keptAt?: string; problems?: string[] } },
    save: async (body: unknown) => {
      const response = await fetch(`${api}/state`, { method: 'POST', headers: withToken(token, { 'content-type': 'application/json' }), body: JSON.stringify(body) });
      if (response.status !== 200) throw new Error(`POST /state: ${response.status} ${await response.text()}`);
    },
  };
}

/** The panel API on DSH's own web server at `base`. */
const dshPanel = async (base: string) => panelApi(base, await pageToken(base));

/** `dsh-context profiles serve` on the host's DSH home (a second process's worth of writer: its own store). */
async function servePanel(host: DshHost) {
  const served = await serveProfiles({ port: 0, environment: { env: { DSH_HOME: host.dshHome }, homedir: host.home, processCwd: host.cwd } });
  closers.push(served.close);
  return panelApi(new URL(served.url).origin, served.token);
}

/** The lines context-profiles logged in the running DSH process (DSH itself shows no plugin warning). */
async function ours(host: DshHost): Promise<string[]> {
  return (await host.logs()).filter((line) => line.name === 'context-profiles').map((line) => `${line.level === 'warn' ? '' : `${line.level}: `}${line.text}`);
}

const closers: (() => Promise<void>)[] = [];
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: process.env.DSH_TEST_CHROMIUM ?? '/usr/bin/chromium', headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
  await browser?.close();
});

/** Sets one profile's tool state in a panel's full-list save, as the page does. */
const withTool = (profiles: Profile[], id: string, tool: string, state: ToolState): Profile[] => profiles.map((p) => (p.id === id ? { ...p, tools: { ...p.tools, [tool]: state } } : p));

const names = (request: ChatRequest): string[] => (request.tools ?? []).map((t) => t.function.name);
const toolOf = (request: ChatRequest, name: string) => request.tools!.find((t) => t.function.name === name)!.function;
/** The text of the last tool result a request carries. */
const lastResult = (request: ChatRequest): string => String(request.messages.filter((m) => m.role === 'tool').at(-1)!.content);

/** The tool names Code Mode declares to the model (the `code` preset sends `run_code` only): DSH's `interface ToolArgsMap` in the system prompt. */
function sdkTools(request: ChatRequest): string[] {
  const system = String(request.messages[0]!.content);
  const body = system.slice(system.indexOf('interface ToolArgsMap {\n'), system.indexOf('\n}\n', system.indexOf('interface ToolArgsMap {\n')));
  return body.split('\n').flatMap((line) => /^ {2}([a-z_][a-z0-9_]*): /.exec(line)?.[1] ?? []).sort();
}

/**
 * CP-04: the group the seed intends for each tool rc.8's stock profiles register, written out here
 * (not read from the package's table) so the test says what the groups mean.
 */
const INTENDED: Readonly<Record<string, string>> = {
  read: 'files', write: 'files', edit: 'files', read_image: 'files', str_replace_editor: 'files',
  glob: 'search', grep: 'search',
  bash: 'terminal', job_list: 'terminal', job_output: 'terminal', job_kill: 'terminal',
  ask_user_question: 'interaction',
  skill: 'skills', web_search: 'skills',
  subagent: 'collaboration', subagent_fork: 'collaboration', send_message: 'collaboration', interrupt_agent: 'collaboration', list_agents: 'collaboration',
  todo_write: 'orchestration', exit_plan_mode: 'orchestration', workflow: 'orchestration', ralph: 'orchestration',
  create_goal: 'goal', get_goal: 'goal', update_goal: 'goal',
  cordis_define: 'plugin-dev', cordis_inspect_list: 'plugin-dev', cordis_inspect_query: 'plugin-dev', cordis_inspect_self: 'plugin-dev', cordis_run: 'plugin-dev', cordis_stop: 'plugin-dev', cordis_undefine: 'plugin-dev',
};

const HEADLESS_TOOLS = ['bash', 'create_goal', 'edit', 'exit_plan_mode', 'get_goal', 'glob', 'grep', 'interrupt_agent', 'job_kill', 'job_list', 'job_output', 'list_agents', 'ralph', 'read', 'read_image', 'send_message', 'skill', 'str_replace_editor', 'subagent', 'subagent_fork', 'todo_write', 'update_goal', 'web_search', 'workflow', 'write'];
const STANDARD_TOOLS = ['ask_user_question', ...HEADLESS_TOOLS.filter((t) => t !== 'str_replace_editor')].sort();

describe('tool groups of DSH’s stock profiles (CP-04)', () => {
  it('CP-04 every tool the headless profile and the web presets (standard, code, minimal, cordis) register is in its intended group', async () => {
    const lists: Record<string, string[]> = {};
    const stock = dshHost({ packages: [] });
    await stock.run('hi', [{ text: 'hi' }]);
    lists.headless = names(stock.requests[0]!);
    for (const preset of ['standard', 'code', 'minimal', 'cordis']) {
      const web = dshHost({ packages: [], ...WEB, agentPreset: preset });
      await web.run('hi', [{ text: 'hi' }]);
      lists[preset] = preset === 'code' ? sdkTools(web.requests[0]!) : names(web.requests[0]!);
      if (preset === 'code') expect(names(web.requests[0]!)).toEqual(['run_code']);
      expect(stderrOf(web)).toBe('');
    }
    // A DSH upgrade that adds or renames a tool fails here, not as a silent "other".
    expect(lists).toEqual({
      headless: HEADLESS_TOOLS,
      standard: STANDARD_TOOLS,
      code: STANDARD_TOOLS,
      minimal: ['bash', 'str_replace_editor'],
      cordis: [...STANDARD_TOOLS, 'cordis_define', 'cordis_inspect_list', 'cordis_inspect_query', 'cordis_inspect_self', 'cordis_run', 'cordis_stop', 'cordis_undefine'].sort(),
    });
    const all = [...new Set(Object.values(lists).flat())].sort();
    expect(Object.fromEntries(all.map((name) => [name, groupOf({ name, description: '', parameters: {} })]))).toEqual(Object.fromEntries(all.map((name) => [name, INTENDED[name]])));
    expect(stderrOf(stock)).toBe('');
  });
});

describe('deferral and tool_search in real DSH (CP-05, CP-08..CP-10)', () => {
  it('CP-05 CP-09 CP-10 full defers orchestration and goal behind placeholders; tool_search returns their definitions; a deferred tool still runs', async () => {
    const host = dshHost().use('context-profiles');
    writeState(host, 'none');
    await host.run('stock', [{ text: 'ok' }]);
    const stock = host.requests[0]!;
    await host.newSession();
    writeState(host, 'full');
    const deferred = ['todo_write', 'exit_plan_mode', 'workflow', 'ralph', 'create_goal', 'get_goal', 'update_goal'];
    const turn = await host.run('defer', [
      { tools: [{ name: TOOL_SEARCH, input: { query: 'goal' } }] },
      { tools: [{ name: 'get_goal', input: {} }] },
      { text: 'done' },
    ]);
    const [first, second, third] = turn.requests;
    expect(names(first!)).toEqual([...names(stock), TOOL_SEARCH].sort());
    for (const name of names(stock)) {
      const full = toolOf(stock, name);
      const sent = toolOf(first!, name);
      if (deferred.includes(name)) expect([name, sent.description]).toEqual([name, firstSentence(full.description!)]);
      else expect([name, sent]).toEqual([name, full]);
    }
    // CP-10: the definitions come back as a tool result; the tools array is the same at every step.
    const found = JSON.parse(lastResult(second!)) as { name: string; description: string; parameters: unknown }[];
    expect(found.sort((a, b) => a.name.localeCompare(b.name))).toEqual(['create_goal', 'get_goal', 'update_goal'].map((name) => ({ name, description: toolOf(stock, name).description, parameters: toolOf(stock, name).parameters })));
    expect([names(second!), names(third!)]).toEqual([names(first!), names(first!)]);
    expect(lastResult(third!)).not.toContain('unknown tool');
    const chars = (request: ChatRequest) => JSON.stringify(request.tools).length;
    expect(chars(first!)).toBeLessThan(chars(stock));
    expect(readState(host).sessions).toEqual({ [host.sessionId!]: 'full' });
    expect(stderrOf(host)).toBe('');
  });

  it('CP-05 CP-08 lean hides orchestration and goal, minimal also skills and collaboration: no schema sent, a call is an unknown tool, no tool_search', async () => {
    const host = dshHost().use('context-profiles');
    const sent: Record<string, string[]> = {};
    for (const profile of ['lean', 'minimal']) {
      await host.newSession();
      writeState(host, profile);
      const turn = await host.run('hidden', [{ tools: [{ name: 'todo_write', input: { todos: [] } }] }, { text: 'done' }]);
      sent[profile] = names(turn.requests[0]!);
      expect(lastResult(turn.requests[1]!)).toContain('unknown tool "todo_write"');
    }
    expect(sent).toEqual({
      lean: ['bash', 'edit', 'glob', 'grep', 'interrupt_agent', 'job_kill', 'job_list', 'job_output', 'list_agents', 'read', 'read_image', 'send_message', 'skill', 'str_replace_editor', 'subagent', 'subagent_fork', 'web_search', 'write'],
      minimal: ['bash', 'edit', 'glob', 'grep', 'job_kill', 'job_list', 'job_output', 'read', 'read_image', 'str_replace_editor', 'write'],
    });
    expect(stderrOf(host)).toBe('');
  });
});

describe('the bundle’s own profile, frugal (issue 30, CP-10, CP-12, CP-31, CP-37)', () => {
  /** What frugal defers of the tools DSH's web profile gives an agent (its standard preset: rc.8's headless tools but str_replace_editor, plus ask_user_question). */
  const FRUGAL_DEFERRED = ['create_goal', 'exit_plan_mode', 'get_goal', 'interrupt_agent', 'job_kill', 'job_list', 'job_output', 'list_agents', 'ralph', 'read_image', 'send_message', 'skill', 'subagent', 'subagent_fork', 'todo_write', 'update_goal', 'web_search', 'workflow'];

  it('issue 30 CP-31 CP-10 CP-12 CP-37 the whole bundle with no state file: the session starts on frugal (recorded, written with the built-ins), DSH’s other tools deferred behind tool_search and still running, their family guidance gone; DSH’s panel API lists it and switches away from it', async () => {
    // One DSH start for all of it (a real-DSH start costs seconds); str_replace_editor, which only the
    // headless profile has, is resolved against rc.8's headless list in config-profiles.test.ts.
    const host = dshHost({ ...WEB });
    const turn = await host.run('frugal', [
      { tools: [{ name: TOOL_SEARCH, input: { query: 'job_' } }] },
      { tools: [{ name: 'job_list', input: {} }] },
      { text: 'done' },
    ]);
    const [first, second, third] = turn.requests;
    expect(names(first!)).toEqual(['ask_user_question', 'bash', 'edit', 'expand_result', 'glob', 'grep', 'memory', 'read', 'recall_search', 'recall_step', 'recall_turn', 'write', ...FRUGAL_DEFERRED, TOOL_SEARCH].sort());
    // CP-10: tool_search gives the three job tools' full definitions, whose first sentences the placeholders are; a deferred tool runs.
    const found = JSON.parse(lastResult(second!)) as { name: string; description: string }[];
    expect(found.map((t) => t.name).sort()).toEqual(['job_kill', 'job_list', 'job_output']);
    for (const t of found) expect([t.name, toolOf(first!, t.name).description]).toEqual([t.name, firstSentence(t.description)]);
    expect(lastResult(third!)).not.toContain('unknown tool');
    // CP-12: DSH's guidance for background jobs and goals is named after the family (tool:jobs, tool:goal), none of whose tools is injected.
    const system = String(first!.messages[0]!.content);
    expect([system.includes('Track every background job id'), system.includes('Use goal tools')]).toEqual([false, false]);
    const file = readState(host);
    expect([file.lastUsedId, file.sessions, file.profiles.map((p) => [p.id, p.name])]).toEqual(['frugal', { [host.sessionId!]: 'frugal' }, [['full', '完整'], ['lean', '精简'], ['minimal', '极简'], ['frugal', '节俭']]]);
    // CP-37: the panel's API lists it beside the built-ins with its state per tool, and a session switches away from it.
    const token = await pageToken(host.webUrl!);
    const get = async (path: string) => (await fetch(`${host.webUrl}/session-context-config/api/${path}?id=${host.sessionId}`, { headers: withToken(token) })).json();
    const state = await get('state') as { lastUsedId: string; profiles: Profile[]; catalog: { name: string; states: Record<string, { effective: string }> }[] };
    expect([state.lastUsedId, state.profiles.map((p) => p.id)]).toEqual(['frugal', ['full', 'lean', 'minimal', 'frugal']]);
    const of = (tool: string) => Object.fromEntries(Object.entries(state.catalog.find((t) => t.name === tool)!.states).map(([id, s]) => [id, s.effective]));
    expect([of('bash'), of('job_list'), of('web_search')]).toEqual([
      { full: 'inject', lean: 'inject', minimal: 'inject', frugal: 'inject' },
      { full: 'inject', lean: 'inject', minimal: 'inject', frugal: 'defer' },
      { full: 'inject', lean: 'inject', minimal: 'hidden', frugal: 'defer' },
    ]);
    const session = async () => (await get('session')) as { profile: string; tools: Record<string, string> };
    // job_list was found through tool_search (loaded); web_search is still deferred.
    expect([(await session()).profile, (await session()).tools.job_list, (await session()).tools.web_search]).toEqual(['frugal', 'loaded', 'defer']);
    const post = await fetch(`${host.webUrl}/session-context-config/api/session`, { method: 'POST', headers: withToken(token, { 'content-type': 'application/json' }), body: JSON.stringify({ id: host.sessionId, profile: 'full' }) });
    expect(post.status).toBe(200);
    expect([(await session()).profile, (await session()).tools.web_search, readState(host).sessions]).toEqual(['full', 'inject', { [host.sessionId!]: 'full' }]);
    expect(stderrOf(host)).toBe('');
  });
});

describe('the panel and API on DSH’s web server (CP-37, CP-38, CP-UI)', () => {
  it('CP-37 CP-UI-05 the page from DSH’s own server lists the preset’s tools; a profile edited and saved there is what the next session gets', async () => {
    const host = dshHost({ ...WEB }).use('context-profiles');
    writeState(host, 'lean');
    await host.run('first', [{ text: 'one' }]);
    // The web preset composes the tools in its own scope: lean still hides orchestration and goal.
    expect(names(host.requests[0]!)).toEqual(STANDARD_TOOLS.filter((t) => !['todo_write', 'exit_plan_mode', 'workflow', 'ralph', 'create_goal', 'get_goal', 'update_goal'].includes(t)));
    const session = await (await fetch(`${host.webUrl}/session-context-config/api/session?id=${host.sessionId}`, { headers: withToken(await pageToken(host.webUrl!)) })).json() as { profile: string; tools: Record<string, string> };
    expect([session.profile, session.tools.bash, session.tools.todo_write, Object.keys(session.tools).sort()]).toEqual(['lean', 'inject', 'hidden', STANDARD_TOOLS]);
    const page = await browser.newPage();
    try {
      await page.goto(`${host.webUrl}/session-context-config/?id=${host.sessionId}`);
      const tid = (id: string) => page.locator(`[data-testid="${id}"]`);
      await tid('card-tools').waitFor();
      expect(await tid('state-todo_write').textContent()).toBe('隐藏');
      expect(await tid('state-bash').textContent()).toBe('开启');
      await tid('tool-bash').selectOption('defer');
      await tid('section-app:web-surface').uncheck();
      await tid('save').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.textContent === '已保存');
      expect(await tid('state-bash').textContent()).toBe('延迟');
    } finally {
      await page.close();
    }
    const lean = readState(host).profiles.find((p) => p.id === 'lean')!;
    expect([lean.tools, lean.sections, readState(host).sessions]).toEqual([{ bash: 'defer' }, { 'app:web-surface': false }, { [host.sessionId!]: 'lean' }]);
    const bash = toolOf(host.requests[0]!, 'bash');
    expect(String(host.requests[0]!.messages[0]!.content)).toContain('DeepSeek Harness Web GUI');
    await host.newSession();
    await host.run('second', [{ text: 'two' }]);
    const next = host.requests.at(-1)!;
    expect(toolOf(next, 'bash').description).toBe(firstSentence(bash.description!));
    expect(names(next)).toContain(TOOL_SEARCH);
    expect(String(next.messages[0]!.content)).not.toContain('DeepSeek Harness Web GUI');
    expect(stderrOf(host)).toBe('');
  });

  it('CP-37 CP-36 POST /translate goes through DSH’s llm service on the default model: one auxiliary request, cached, nothing in the session', async () => {
    const host = dshHost({ ...WEB }).use('context-profiles');
    await host.run('hi', [{ text: 'ok' }]);
    const before = (await host.session()).events.length;
    const titles = host.auxiliaryRequests.length;
    const token = await pageToken(host.webUrl!);
    const post = () => fetch(`${host.webUrl}/session-context-config/api/translate`, { method: 'POST', headers: withToken(token, { 'content-type': 'application/json' }), body: JSON.stringify({ text: 'Read a file.' }) }).then((r) => r.json());
    expect(await post()).toEqual({ ok: true, zh: 'Scripted session' });
    expect(await post()).toEqual({ ok: true, zh: 'Scripted session' });
    const calls = host.auxiliaryRequests.slice(titles);
    expect(calls.map((r) => [r.model, r.messages])).toEqual([[host.requests[0]!.model, [{ role: 'system', content: TRANSLATE_SYSTEM }, { role: 'user', content: 'Read a file.' }]]]);
    expect(JSON.parse(readFileSync(join(host.dshHome, 'session-context-config-translations.json'), 'utf8'))).toEqual({ 'Read a file.': 'Scripted session' });
    expect((await host.session()).events.length).toBe(before);
    expect(stderrOf(host)).toBe('');
  });

  it('CP-38 issue 32 item 4: DSH’s server hands every path under the prefix to the plugin, which wants the token its page carries, refuses a foreign Host and a cross-site request, and cannot be framed', async () => {
    const host = dshHost({ ...WEB }).use('context-profiles');
    await host.start();
    const url = `${host.webUrl}/session-context-config/api/state`;
    const page = await fetch(`${host.webUrl}/session-context-config/`);
    expect([page.status, page.headers.get('x-frame-options'), page.headers.get('content-security-policy')?.endsWith("frame-ancestors 'none'")]).toEqual([200, 'DENY', true]);
    const token = await pageToken(host.webUrl!);
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: withToken(token) })).status).toBe(200);
    expect((await fetch(url, { headers: withToken(token, { 'sec-fetch-site': 'cross-site' }) })).status).toBe(403);
    expect((await fetch(`${host.webUrl}/session-context-config/nope`, { headers: withToken(token) })).status).toBe(404);
    const post = await fetch(url, { method: 'POST', headers: withToken(token, { 'content-type': 'text/plain' }), body: '{}' });
    expect(post.status).toBe(415);
    expect(stderrOf(host)).toBe('');
  });
});

describe('one state file, several writers (CP-14, CP-31, CP-37)', () => {
  it('CP-14 CP-37 DSH sessions and `dsh-context profiles serve` on one home: a record, an edit and a default choice all survive', async () => {
    const host = dshHost().use('context-profiles');
    writeState(host, 'lean');
    const panel = await servePanel(host);
    const shown = await panel.state();
    await host.run('one', [{ text: 'one' }]);
    const first = host.sessionId!;
    expect(readState(host).sessions).toEqual({ [first]: 'lean' });
    // The panel, loaded before DSH recorded its session, saves an edit: the record stays.
    await panel.save({ profiles: withTool(shown.profiles, 'lean', 'bash', 'defer'), lastUsedId: shown.lastUsedId, baseline: shown.baseline, revision: shown.revision });
    expect([readState(host).sessions, readState(host).profiles[1]!.tools]).toEqual([{ [first]: 'lean' }, { bash: 'defer' }]);
    // The user picks full there; the next DSH session runs under it and records it; the default stays full.
    const now = await panel.state();
    await panel.save({ lastUsedId: 'full', revision: now.revision });
    await host.newSession();
    await host.run('two', [{ text: 'two' }]);
    expect(names(host.requests.at(-1)!)).toContain(TOOL_SEARCH);
    const file = readState(host);
    expect([file.lastUsedId, file.sessions, file.profiles[1]!.tools]).toEqual(['full', { [first]: 'lean', [host.sessionId!]: 'full' }, { bash: 'defer' }]);
    expect(stderrOf(host)).toBe('');
  });

  it('CP-14 CP-37 two DSH processes (headless and web) and two panels at once on one home: every record and both edits survive', async () => {
    const headless = dshHost().use('context-profiles');
    const web = dshHost({ ...WEB, env: { DSH_HOME: headless.dshHome } }).use('context-profiles');
    writeState(headless, 'minimal');
    // Both DSH processes start their sessions at the same time: two records race for the file.
    await Promise.all([headless.run('a', [{ text: 'a' }]), web.run('b', [{ text: 'b' }])]);
    const served = await servePanel(headless);
    const onDsh = await dshPanel(web.webUrl!);
    const [a, b] = [await served.state(), await onDsh.state()];
    await Promise.all([
      served.save({ profiles: withTool(a.profiles, 'lean', 'grep', 'off'), lastUsedId: a.lastUsedId, baseline: a.baseline, revision: a.revision }),
      onDsh.save({ profiles: withTool(b.profiles, 'full', 'read', 'defer'), lastUsedId: b.lastUsedId, baseline: b.baseline, revision: b.revision }),
    ]);
    await headless.newSession();
    await headless.run('c', [{ text: 'c' }]);
    const file = readState(headless);
    expect(Object.keys(file.sessions).length).toBe(3);
    expect(Object.values(file.sessions)).toEqual(['minimal', 'minimal', 'minimal']);
    expect(Object.keys(file.sessions)).toEqual(expect.arrayContaining([web.sessionId, headless.sessionId]));
    expect(file.profiles.map((p) => [p.id, p.tools])).toEqual([['full', { read: 'defer' }], ['lean', { grep: 'off' }], ['minimal', {}]]);
    expect(stderrOf(headless) + stderrOf(web)).toBe('');
  });
});

describe('a session started with no profile, and a restart (CP-13..CP-15, CP-29)', () => {
  it('CP-14 CP-15 CP-29 a session started under none stays unprocessed after the user picks a default: no channel filtered, and after a restart no tool hidden and the record kept', async () => {
    const host = dshHost({ files: { 'AGENTS.md': '# Root\n', 'pkg/AGENTS.md': '# Pkg\nPackage rules.\n', 'pkg/a.ts': 'a\n' } }).use('context-profiles').use('workspace-context');
    writeState(host, 'none');
    await host.run('one', [{ text: 'one' }]);
    const stock = names(host.requests[0]!);
    expect(readState(host).sessions).toEqual({ [host.sessionId!]: 'none' });
    // The user picks minimal, whose channels are off, while the session runs.
    writeState(host, 'minimal', (profiles) => (profiles[2]!.channels = { workspaceInstructions: 'off', timeContext: 'off' }), readState(host).sessions);
    const turn = await host.run('read', [{ tools: [{ name: 'read', input: { file_path: 'pkg/a.ts' } }] }, { text: 'done' }]);
    expect(String(turn.requests[1]!.messages.at(-1)!.content)).toContain('Package rules.');
    await host.restart();
    await host.run('after restart', [{ text: 'three' }]);
    expect(names(host.requests.at(-1)!)).toEqual(stock);
    expect(readState(host).sessions).toEqual({ [host.sessionId!]: 'none' });
    expect(stderrOf(host)).toBe('');
  });
});

describe('state-file mistakes in real DSH (CP-31)', () => {
  it('CP-31 a FIFO at the state path: DSH boots and runs (no hang), the panel and the log say the path is refused, nothing replaces the FIFO', async () => {
    const host = dshHost({ ...WEB }).use('context-profiles');
    mkdirSync(host.dshHome, { recursive: true });
    expect(spawnSync('mkfifo', [join(host.dshHome, STATE)]).status).toBe(0);
    await host.run('hi', [{ text: 'ok' }]);
    const state = await (await dshPanel(host.webUrl!)).state();
    const reason = 'is not a regular file (a FIFO, socket or device); context-profiles reads and replaces only a regular file';
    expect(state.load).toEqual({ kind: 'refused', reason });
    const save = await fetch(`${host.webUrl}/session-context-config/api/state`, { method: 'POST', headers: withToken(await pageToken(host.webUrl!), { 'content-type': 'application/json' }), body: JSON.stringify({ lastUsedId: 'lean' }) });
    expect(save.status).toBe(503);
    expect(spawnSync('test', ['-p', join(host.dshHome, STATE)]).status).toBe(0);
    const path = join(host.dshHome, STATE);
    // Logged once: the session record is not attempted against a refused path.
    expect(await ours(host)).toEqual([`context-profiles: ${path} ${reason}; the defaults are in use and nothing will be saved`]);
    expect(stderrOf(host)).toBe('');
  });

  it('CP-31 profiles written as an object: the original kept as .corrupt, the panel page and the log say what was set aside and why', async () => {
    const host = dshHost({ ...WEB }).use('context-profiles');
    const original = JSON.stringify({ version: 4, lastUsedId: 'mine', profiles: { mine: { id: 'mine' } }, sessions: {} });
    host.write(STATE, original, host.dshHome);
    await host.run('hi', [{ text: 'ok' }]);
    const keptAt = join(host.dshHome, `${STATE}.corrupt`);
    expect(readFileSync(keptAt, 'utf8')).toBe(original);
    expect(readState(host).profiles.map((p) => p.id)).toEqual(['full', 'lean', 'minimal']);
    const page = await browser.newPage();
    try {
      await page.goto(`${host.webUrl}/session-context-config/`);
      await page.locator('[data-testid="card-tools"]').waitFor();
      expect(await page.locator('[data-testid="notice"] div').allTextContents()).toEqual([
        `状态文件有格式错误,原文件已另存为 ${keptAt},其余内容照常使用:`,
        'profiles is an object, not a list; the built-in profiles are used',
      ]);
    } finally {
      await page.close();
    }
    expect(existsSync(join(host.dshHome, STATE))).toBe(true);
    expect(await ours(host)).toEqual([
      `context-profiles: ${join(host.dshHome, STATE)} has shape errors: profiles is an object, not a list; the built-in profiles are used; the original was kept as ${keptAt} and the rest is in use`,
      `context-profiles: session ${host.sessionId} names profile "mine", which does not exist; the session is left unprocessed`,
    ]);
    expect(stderrOf(host)).toBe('');
  });
});
