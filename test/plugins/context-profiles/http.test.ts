// The HTTP API on loopback (CP-36..CP-38): routes, the trust fence, JSON-only POST, unknown sessions.

import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinProfiles, TOKEN_HEADER } from '../../../src/plugins/context-profiles/index.js';
import { HostService, messageText } from '../../../src/host/index.js';
import { TRANSLATE_SYSTEM } from '../../../src/plugins/context-profiles/translate.js';
import { createTestHost, TestLlm, TestWebServer } from '../../../src/testing/index.js';
import { contextProfiles, hostTools, mcpTools, reply } from '../../support/context-profiles.js';

interface Reply { status: number; type: string; json: any; text: string; headers: Record<string, string | string[] | undefined> }
/** Each server's access token, as its page hands it over (item 4): `call` sends it unless told otherwise. */
const tokens = new Map<string, string>();
function call(base: string, method: string, path: string, options: { body?: string; headers?: Record<string, string>; token?: string | null } = {}): Promise<Reply> {
  const url = new URL(path, base);
  const token = options.token === undefined ? tokens.get(base) : options.token;
  return new Promise((resolve, reject) => {
    const headers = { ...(token != null ? { [TOKEN_HEADER]: token } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const type = String(res.headers['content-type'] ?? '');
        resolve({ status: res.statusCode!, type, text, json: type.startsWith('application/json') ? JSON.parse(text) : undefined, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** The token the panel page of the server at `base` carries (DSH's own server hands it to its page). */
async function pageToken(base: string): Promise<string> {
  const page = await call(base, 'GET', '/session-context-config/', { token: null });
  const token = /<script type="application\/json" id="boot">\{"token":"([A-Za-z0-9_-]{43})"\}<\/script>/.exec(page.text)?.[1];
  if (token === undefined) throw new Error(`no token in the page: ${page.status} ${page.text.slice(0, 200)}`);
  tokens.set(base, token);
  return token;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serve(options: { answer?: (text: string) => string | Promise<string> } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'cp-'));
  writeFileSync(join(home, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: {} }));
  const model = new TestLlm({ 'deepseek/deepseek-chat': null }, (o) => (options.answer ?? ((t: string) => `译:${t}`))(messageText(o.messages[0]!)));
  const host = createTestHost({ dshHome: home, cwd: '/repo', files: {}, llm: model, defaultModel: { provider: 'deepseek', model: 'deepseek-chat' } });
  for (const def of [...hostTools(), ...mcpTools().slice(0, 2)]) host.ctx.tools.register(def);
  const web = new TestWebServer();
  host.provide(HostService.webServer, web);
  host.use(contextProfiles, {});
  await host.run('hi', reply);
  const server = await web.listen();
  closers.push(server.close);
  const token = await pageToken(server.url);
  return { host, home, model, base: server.url, token, web };
}

describe('routes (CP-37)', () => {
  it('CP-37 GET /state: profiles, lastUsedId, baseline, the tool catalog and the unfiltered section names', async () => {
    const { base } = await serve();
    const r = await call(base, 'GET', '/session-context-config/api/state?id=session-1');
    expect(r.status).toBe(200);
    expect([r.json.lastUsedId, r.json.profiles.map((p: { id: string }) => p.id), r.json.baseline.contract]).toEqual(['lean', ['full', 'lean', 'minimal'], true]);
    expect(r.json.sections).toEqual(['session-context-config:contract', 'session-context-config:card-receipt', 'session-context-config:untrusted-download']);
    const plan = r.json.catalog.find((t: { name: string }) => t.name === 'todo_write');
    expect(plan).toMatchObject({ group: 'orchestration', states: { full: { effective: 'defer', overridden: true }, lean: { effective: 'hidden', overridden: true }, minimal: { effective: 'hidden', overridden: true } } });
    expect(plan.tokens).toBe(Math.round(0.28 * JSON.stringify({ name: 'todo_write', description: plan.description, parameters: hostTools().find((t) => t.name === 'todo_write')!.parameters }).length));
    expect(r.json.contexts).toHaveLength(7);
  });

  it('CP-37 POST /state saves normalized profiles; the file follows; a bad save is 400 and writes nothing', async () => {
    const { base, home } = await serve();
    const state = (await call(base, 'GET', '/session-context-config/api/state')).json;
    const profiles = state.profiles.map((p: { id: string }) => (p.id === 'lean' ? { ...p, sections: { 'harness:identity': false, 'tool:read': false }, contexts: { x: true } } : p));
    const saved = await call(base, 'POST', '/session-context-config/api/state', { body: JSON.stringify({ profiles }) });
    expect(saved.status).toBe(200);
    const file = JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8'));
    expect([file.profiles[1].sections, file.profiles[1].contexts]).toEqual([{ 'harness:identity': false }, {}]);
    const bad = await call(base, 'POST', '/session-context-config/api/state', { body: JSON.stringify({ profiles: [...profiles, { id: 'none' }] }) });
    expect([bad.status, bad.json]).toEqual([400, { error: 'profile id "none" is reserved' }]);
    const broken = await call(base, 'POST', '/session-context-config/api/state', { body: '{' });
    expect(broken.status).toBe(400);
    expect(broken.json.error).toMatch(/^request body is not valid JSON: /);
    expect(JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8'))).toEqual(file);
  });

  it('CP-37 GET /session reports inject/defer/hidden/loaded; POST /session switches (CP-15) and records it', async () => {
    const { base, host, home } = await serve();
    expect((await call(base, 'GET', '/session-context-config/api/session?id=session-1')).json).toEqual({
      id: 'session-1', profile: 'lean',
      tools: { grep: 'inject', bash: 'inject', ask_user_question: 'inject', todo_write: 'hidden', plugin_manager: 'hidden', cordis_inspect: 'hidden', lsp: 'inject', third_party_widget: 'defer', mcp__github__get_issue: 'defer', mcp__github__create_issue: 'defer', read: 'inject', write: 'inject', edit: 'inject' },
    });
    await host.run('load', [{ tools: [{ id: 'c1', name: 'tool_search', input: { query: 'get_issue' } }] }, { text: 'ok' }]);
    expect((await call(base, 'GET', '/session-context-config/api/session?id=session-1')).json.tools.mcp__github__get_issue).toBe('loaded');
    const switched = await call(base, 'POST', '/session-context-config/api/session', { body: JSON.stringify({ id: 'session-1', profile: 'minimal' }) });
    expect([switched.status, switched.json.profile, switched.json.tools.ask_user_question, switched.json.tools.mcp__github__get_issue]).toEqual([200, 'minimal', 'hidden', 'hidden']);
    const file = JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8'));
    expect([file.sessions, file.lastUsedId]).toEqual([{ 'session-1': 'minimal' }, 'minimal']);
    await host.run('after', reply);
    // DSH sends tools in name order.
    expect(host.requests.at(-1)!.tools.map((t) => t.name)).toEqual(['bash', 'edit', 'grep', 'lsp', 'read', 'run_code', 'write']);
  });

  it('CP-37 GET /preview is a dry run; GET /assemble gives placeholder schemas, their characters and the contexts', async () => {
    const { base } = await serve();
    const preview = await call(base, 'GET', '/session-context-config/api/preview?id=session-1&profile=full');
    expect(preview.json).toEqual({
      inject: ['read', 'write', 'edit', 'grep', 'bash', 'ask_user_question', 'lsp'],
      defer: ['todo_write', 'plugin_manager', 'cordis_inspect', 'third_party_widget', 'mcp__github__get_issue', 'mcp__github__create_issue'],
      hidden: [],
    });
    expect((await call(base, 'GET', '/session-context-config/api/session?id=session-1')).json.profile).toBe('lean');
    const assembled = (await call(base, 'GET', '/session-context-config/api/assemble?id=session-1')).json;
    expect(assembled.tools.find((t: { name: string }) => t.name === 'mcp__github__get_issue').description).toBe('Get the details of a single issue in a GitHub repository, including its title, body, state, labels, assignees and milestone.');
    expect(assembled.chars).toBe(assembled.tools.reduce((n: number, t: object) => n + JSON.stringify({ name: (t as { name: string }).name, description: (t as { description: string }).description, parameters: (t as { parameters: object }).parameters }).length, 0));
    expect(assembled.contexts).toEqual(['session-context-config:environment']);
  });

  it('CP-36 CP-37 item 3: POST /translate: cached by exact text, one model call per text, serialized, file written by the shared atomic write', async () => {
    let inFlight = 0;
    let most = 0;
    const { base, home, model, host } = await serve({
      answer: async (text) => {
        most = Math.max(most, ++inFlight);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        return `译:${text}`;
      },
    });
    const logged = host.session.events.length;
    // A temporary file a killed process left behind: the next write of the cache removes it.
    writeFileSync(join(home, '.session-context-config-translations.json.0123456789ab.tmp'), '{"half');
    const post = (text: string) => call(base, 'POST', '/session-context-config/api/translate', { body: JSON.stringify({ text }) });
    const results = await Promise.all([post('Alpha.'), post('Beta.'), post('Alpha.')]);
    expect(readdirSync(home).filter((name) => name.startsWith('.'))).toEqual([]);
    expect(results.map((r) => r.json)).toEqual([{ ok: true, zh: '译:Alpha.' }, { ok: true, zh: '译:Beta.' }, { ok: true, zh: '译:Alpha.' }]);
    expect([model.calls.map((c) => messageText(c.messages[0]!)), model.calls[0]!.system, most]).toEqual([['Alpha.', 'Beta.'], TRANSLATE_SYSTEM, 1]);
    // CP-37: the agent's default model, one user message, no tools, no session id (nothing is recorded).
    expect(model.calls.map((c) => [c.provider, c.model, c.messages.length, c.messages[0]!.role, c.messages[0]!.source, 'tools' in c, 'sessionId' in c])).toEqual([
      ['deepseek', 'deepseek-chat', 1, 'user', { kind: 'plugin', plugin: 'context-profiles' }, false, false],
      ['deepseek', 'deepseek-chat', 1, 'user', { kind: 'plugin', plugin: 'context-profiles' }, false, false],
    ]);
    expect(JSON.parse(readFileSync(join(home, 'session-context-config-translations.json'), 'utf8'))).toEqual({ 'Alpha.': '译:Alpha.', 'Beta.': '译:Beta.' });
    expect((await post('Alpha. ')).json).toEqual({ ok: true, zh: '译:Alpha.' }); // a different key: translated again
    expect(model.calls).toHaveLength(3);
    // Translation never touches a session record.
    expect(host.session.events.length).toBe(logged);
  });

  it('CP-37 a failing model gives ok:false with DSH\'s failure and caches nothing', async () => {
    const { base, home } = await serve({ answer: () => Promise.reject(new Error('model down')) });
    const r = await call(base, 'POST', '/session-context-config/api/translate', { body: JSON.stringify({ text: 'x' }) });
    expect(r.json).toEqual({ ok: false, error: 'model down (UNKNOWN)' });
    expect(existsSync(join(home, 'session-context-config-translations.json'))).toBe(false);
  });

  it('CP-37 without an llm service or a default model, translation says which is missing', async () => {
    for (const [options, error] of [
      [{}, 'the host has no llm service to translate with'],
      [{ llm: new TestLlm({ 'deepseek/deepseek-chat': null }, () => 'x') }, 'the host has no default model (agentDefaultModel) to translate with'],
    ] as const) {
      const host = createTestHost({ dshHome: mkdtempSync(join(tmpdir(), 'cp-')), ...options });
      const web = new TestWebServer();
      host.provide(HostService.webServer, web);
      host.use(contextProfiles, {});
      const server = await web.listen();
      closers.push(server.close);
      await pageToken(server.url);
      expect((await call(server.url, 'POST', '/session-context-config/api/translate', { body: JSON.stringify({ text: 'x' }) })).json).toEqual({ ok: false, error });
    }
  });
});

describe('security (CP-38)', () => {
  it('CP-38 a foreign Host or a cross-site Origin gets 403 on every route; same-origin passes', async () => {
    const { base } = await serve();
    const port = new URL(base).port;
    const fences: Record<string, string>[] = [{ host: `evil.example:${port}` }, { host: `127.0.0.1:${port}`, origin: 'http://evil.example' }, { host: `127.0.0.1:${port}`, origin: `http://localhost:${port}` }];
    for (const headers of fences) {
      for (const [method, path] of [['GET', '/session-context-config/api/state'], ['POST', '/session-context-config/api/state'], ['GET', '/session-context-config/']]) {
        const r = await call(base, method!, path!, { headers, ...(method === 'POST' ? { body: '{}' } : {}) });
        expect([method, path, r.status, r.json]).toEqual([method, path, 403, { error: 'request failed the connection trust check (Host/Origin)' }]);
      }
    }
    expect((await call(base, 'GET', '/session-context-config/api/state', { headers: { host: `localhost:${port}`, origin: `http://localhost:${port}` } })).status).toBe(200);
  });

  it('CP-38 a POST that is not application/json gets 415 and changes nothing', async () => {
    const { base, home } = await serve();
    const before = readFileSync(join(home, 'session-context-config.json'), 'utf8');
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const r = await call(base, 'POST', '/session-context-config/api/state', { body: '{"lastUsedId":"full"}', headers: { 'content-type': type } });
      expect([r.status, r.json]).toEqual([415, { error: `POST needs content-type application/json, got ${JSON.stringify(type)}` }]);
    }
    expect((await call(base, 'POST', '/session-context-config/api/state', { body: '{"lastUsedId":"full"}', headers: { 'content-type': 'application/json; charset=utf-8' } })).status).toBe(200);
    expect(readFileSync(join(home, 'session-context-config.json'), 'utf8')).not.toBe(before);
  });

  it('CP-38 an unknown session id gets 404 on session, preview and assemble; a missing id is 400', async () => {
    const { base } = await serve();
    for (const [method, path, body] of [
      ['GET', '/session-context-config/api/session?id=ghost', undefined],
      ['POST', '/session-context-config/api/session', JSON.stringify({ id: 'ghost', profile: 'lean' })],
      ['GET', '/session-context-config/api/preview?id=ghost&profile=lean', undefined],
      ['GET', '/session-context-config/api/assemble?id=ghost', undefined],
    ] as const) {
      const r = await call(base, method, path, body !== undefined ? { body } : {});
      expect([path, r.status, r.json]).toEqual([path, 404, { error: 'unknown session "ghost"' }]);
    }
    expect((await call(base, 'GET', '/session-context-config/api/session')).json).toEqual({ error: 'query parameter "id" is required' });
    expect((await call(base, 'GET', '/session-context-config/api/preview?id=session-1&profile=ghost')).status).toBe(404);
    expect((await call(base, 'DELETE', '/session-context-config/api/state')).status).toBe(405);
    expect((await call(base, 'GET', '/session-context-config/api/nothing')).status).toBe(404);
  });

  it('CP-38 the fence is DSH\'s /api fence with no extra hosts: any 127/8 address, localhost and [::1] pass; a cross-site fetch marker is refused', async () => {
    const { base } = await serve();
    const port = new URL(base).port;
    for (const host of [`127.0.0.1:${port}`, `127.1.2.3:${port}`, `localhost:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      expect([host, (await call(base, 'GET', '/session-context-config/api/state', { headers: { host } })).status]).toEqual([host, 200]);
    }
    const refused: Record<string, string>[] = [{ host: `127.0.0.1:${port}`, 'sec-fetch-site': 'cross-site' }, { host: `128.0.0.1:${port}` }, { host: `127.0.0.256:${port}` }, { host: `127.0.0.1:${port}`, origin: 'null' }];
    for (const headers of refused) {
      expect([headers, (await call(base, 'GET', '/session-context-config/api/state', { headers })).status]).toEqual([headers, 403]);
    }
    expect((await call(base, 'GET', '/session-context-config/api/state', { headers: { host: `127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin', origin: `http://127.0.0.1:${port}` } })).status).toBe(200);
  });
});

describe('DSH\'s web server (X-12, contract correction 4)', () => {
  it('X-12 the panel route appears when the web server is provided after the plugin, goes when it goes, and comes back with a new one', async () => {
    const host = createTestHost({ dshHome: mkdtempSync(join(tmpdir(), 'cp-')) });
    const handle = host.use(contextProfiles, {});
    const first = new TestWebServer();
    const server = await first.listen();
    closers.push(server.close);
    expect((await call(server.url, 'GET', '/session-context-config/api/state')).status).toBe(404);
    const remove = host.provide(HostService.webServer, first);
    expect(first.routes).toEqual(['/session-context-config']);
    await pageToken(server.url);
    expect((await call(server.url, 'GET', '/session-context-config/api/state')).status).toBe(200);
    expect((await call(server.url, 'GET', '/session-context-config')).type).toBe('text/html; charset=utf-8');
    remove();
    expect(first.routes).toEqual([]);
    expect((await call(server.url, 'GET', '/session-context-config/api/state')).status).toBe(404);
    const second = new TestWebServer();
    host.provide(HostService.webServer, second);
    expect(second.routes).toEqual(['/session-context-config']);
    handle.dispose();
    expect(second.routes).toEqual([]);
  });

  it('X-12 a path under the prefix that is no route answers 404 JSON; a route DSH already has is refused in DSH\'s words', async () => {
    const { base, host } = await serve();
    expect((await call(base, 'GET', '/session-context-config/elsewhere')).json).toEqual({ error: 'no route /session-context-config/elsewhere' });
    const web = host.ctx.get(HostService.webServer) as TestWebServer;
    expect(() => web.register({ kind: 'prefix', path: '/session-context-config', handler: () => undefined })).toThrow('webserver: duplicate prefix route "/session-context-config"');
  });
});
