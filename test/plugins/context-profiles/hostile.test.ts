// Hostile input against context-profiles (issue 32, round 2): a save that lost its lock, a panel
// only its user can drive (token, peer, caps, framing), a state file with size bounds, a newer
// version refused once, unknown keys kept, deep JSON and a lock-path directory answered in our
// words, and names that Object.prototype answers (`constructor`, `__proto__`) treated as data.

import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockPathFor, nodeFileOpsSync, thisProcess } from '../../../src/io/index.js';
import { HostService, messageText } from '../../../src/host/index.js';
import { builtinProfiles, createApiHandler, StateStore, TOKEN_HEADER, Translator } from '../../../src/plugins/context-profiles/index.js';
import { defaultBaseline, defaultSlot, STATE_LIMITS } from '../../../src/plugins/context-profiles/model.js';
import { isLoopbackAddress, procEndpoints, peerUser, socketOwner } from '../../../src/plugins/context-profiles/peer.js';
import { TRANSLATE_TEXT_MAX } from '../../../src/plugins/context-profiles/translate.js';
import { serveProfiles } from '../../../src/cli/profiles.js';
import { createTestHost, TestLlm, TestWebServer } from '../../../src/testing/index.js';
import { contextProfiles, hostTools, mountHost, reply, tool } from '../../support/context-profiles.js';

const FILE = 'session-context-config.json';
const home = () => mkdtempSync(join(tmpdir(), 'cp-hostile-'));
const read = (dir: string) => JSON.parse(readFileSync(join(dir, FILE), 'utf8')) as Record<string, any>;
const warnings: unknown[][] = [];
const logger = { warn: (...args: unknown[]) => void warnings.push(args) };
const v4 = (over: Record<string, unknown> = {}) => JSON.stringify({ version: 4, lastUsedId: 'none', profiles: builtinProfiles(), sessions: {}, baseline: defaultBaseline(), ...over });
const custom = (id: string, over: Record<string, unknown> = {}) => ({ id, groups: {}, servers: {}, tools: {}, prompt: { prefix: defaultSlot(), suffix: defaultSlot() }, contexts: {}, sections: {}, ...over });
const thrown = (run: () => unknown): { message: string; status?: number } => {
  try {
    run();
  } catch (error) {
    return { message: (error as Error).message, status: (error as { status?: number }).status };
  }
  throw new Error('did not throw');
};

interface Reply { status: number; json: any; text: string; headers: Record<string, string | string[] | undefined> }
function call(base: string, method: string, path: string, options: { body?: string; headers?: Record<string, string>; token?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { ...(options.token !== undefined ? { [TOKEN_HEADER]: options.token } : {}), ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers };
    const req = httpRequest(new URL(path, base), { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, text, json: String(res.headers['content-type']).startsWith('application/json') ? JSON.parse(text) : undefined, headers: res.headers });
      });
    });
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
/** The token a panel page carries (null: none; a page without the boot element, as before issue 32, carries none either). */
const pageToken = (page: string): string | null => {
  const boot = /<script type="application\/json" id="boot">(.*?)<\/script>/.exec(page)?.[1];
  return boot === undefined ? null : (JSON.parse(boot) as { token: string | null }).token;
};

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The plugin on DSH's web server (the simulated one), with a model that translates. */
async function onDsh(dir = home(), options: { tools?: ReturnType<typeof hostTools>; answer?: (text: string) => string } = {}) {
  const model = new TestLlm({ 'deepseek/deepseek-chat': null }, (o) => (options.answer ?? ((t: string) => `译:${t}`))(messageText(o.messages[0]!)));
  const host = createTestHost({ dshHome: dir, cwd: '/repo', files: {}, llm: model, defaultModel: { provider: 'deepseek', model: 'deepseek-chat' } });
  for (const def of options.tools ?? hostTools()) host.ctx.tools.register(def);
  const web = new TestWebServer();
  host.provide(HostService.webServer, web);
  const handle = host.use(contextProfiles, {});
  const server = await web.listen();
  closers.push(server.close);
  const page = await call(server.url, 'GET', '/session-context-config/');
  return { host, dir, model, base: server.url, token: pageToken(page.text) ?? undefined, page, profiles: contextProfiles.mounted.get(handle.ctx)! };
}

describe('item 2: the state file under a lock that can be lost', () => {
  it('item 2: a save robbed of its lock while it waited (judged abandoned) writes nothing, answers 503, and the other process\'s save stays', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), v4());
    const lock = lockPathFor(join(dir, FILE));
    let robbed = false;
    // Between this store's read and its rename, another process takes the lock (as if this one had
    // been stopped past the stale limit) and saves.
    const io = {
      ...nodeFileOpsSync,
      createExclusive(path: string, data: Uint8Array, mode: number, flush?: boolean) {
        if (!robbed && path.endsWith('.tmp')) {
          robbed = true;
          rmSync(lock);
          writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: process.ppid, since: Date.now(), token: 'thief' }));
          writeFileSync(join(dir, FILE), v4({ lastUsedId: 'minimal', sessions: { other: 'minimal' } }));
        }
        nodeFileOpsSync.createExclusive(path, data, mode, flush);
      },
    };
    const store = new StateStore(dir, logger, io);
    store.load();
    expect(thrown(() => store.save({ lastUsedId: 'lean' }))).toEqual({
      status: 503,
      message: 'not saving: another process took over the state file\'s lock while this write waited (it had not been refreshed for too long); nothing was written, save again',
    });
    expect([read(dir).lastUsedId, read(dir).sessions]).toEqual(['minimal', { other: 'minimal' }]);
    expect(readdirSync(dir).sort()).toEqual(['.session-context-config.json.lock', FILE]);
  });

  it('item 2: a live holder on this host keeps its lock however old it is (a stopped process): a save waits, then answers 503 naming it', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), v4());
    const before = readFileSync(join(dir, FILE), 'utf8');
    const lock = lockPathFor(join(dir, FILE));
    // The parent process stands in for a holder stopped 36 s between its read and its write.
    writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: process.ppid, start: '', since: Date.now() - 36_000, token: 'stopped' }));
    const hour = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hour, hour);
    const store = new StateStore(dir, logger);
    store.load();
    const error = thrown(() => store.save({ lastUsedId: 'lean' }));
    expect(error.status).toBe(503);
    expect(error.message).toMatch(new RegExp(`^not saving: .*\\.session-context-config\\.json\\.lock is held by process ${process.ppid} on .*; waited \\d+ ms$`));
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(before);
  });
});

describe('item 4: a panel only its user can drive', () => {
  it('item 4: every API route wants the server\'s access token (401 without or with a wrong one); DSH\'s own server hands it to its page', async () => {
    const { base, token, page } = await onDsh();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(page.status).toBe(200);
    const refusal = { error: 'the panel\'s access token is missing or wrong: open the link `dsh-context profiles serve` printed, or reload the panel from DSH' };
    for (const [method, path, body] of [
      ['GET', '/session-context-config/api/state', undefined],
      ['POST', '/session-context-config/api/state', JSON.stringify({ baseline: { ...defaultBaseline(), untrustedDownload: false, custom: { enabled: true, text: 'INJECTED' } } })],
      ['POST', '/session-context-config/api/session', JSON.stringify({ id: 'session-1', profile: 'full' })],
      ['POST', '/session-context-config/api/translate', JSON.stringify({ text: 'x' })],
    ] as const) {
      for (const given of [undefined, 'A'.repeat(43), `${token}x`]) {
        const r = await call(base, method, path, { ...(body !== undefined ? { body } : {}), ...(given !== undefined ? { token: given } : {}) });
        expect([method, path, given, r.status, r.json]).toEqual([method, path, given, 401, refusal]);
      }
    }
    expect((await call(base, 'GET', '/session-context-config/api/state', { token })).status).toBe(200);
  });

  it('item 4: `profiles serve` prints the token in the link\'s fragment; its page carries none, and a fresh server has a fresh token', async () => {
    const dir = home();
    const environment = { env: { DSH_HOME: dir }, homedir: dir, processCwd: dir };
    const served = await serveProfiles({ port: 0, environment });
    closers.push(served.close);
    const { origin, pathname, hash } = new URL(served.url);
    expect([pathname, hash]).toEqual(['/session-context-config/', `#token=${served.token}`]);
    const page = await call(origin, 'GET', pathname);
    expect([page.status, pageToken(page.text), page.text.includes(served.token)]).toEqual([200, null, false]);
    expect((await call(origin, 'GET', '/session-context-config/api/state')).status).toBe(401);
    expect((await call(origin, 'GET', '/session-context-config/api/state', { token: served.token })).status).toBe(200);
    const again = await serveProfiles({ port: 0, environment });
    closers.push(again.close);
    expect(again.token).not.toBe(served.token);
    expect((await call(new URL(again.url).origin, 'GET', '/session-context-config/api/state', { token: served.token })).status).toBe(401);
  });

  it('item 4: a peer that is not loopback is refused even with a loopback Host, unless configured (peer and Host)', async () => {
    const { profiles } = mountHost(home(), { tools: hostTools() });
    const token = 'T'.repeat(43);
    const ask = async (handler: ReturnType<typeof createApiHandler>, remoteAddress: string, host: string) => {
      const socket = { remoteAddress, remotePort: 50_000 };
      const req = { url: '/session-context-config/api/state', method: 'GET', headers: { host, [TOKEN_HEADER]: token }, socket } as unknown as IncomingMessage;
      let status = 0;
      let body = '';
      const res = { headersSent: false, writeHead(s: number) { status = s; return this; }, end(b: string) { body = b; return this; } } as unknown as ServerResponse;
      await handler(req, res);
      return [status, JSON.parse(body) as Record<string, unknown>] as const;
    };
    const plain = createApiHandler({ profiles, translator: new Translator(home(), async () => 'x'), token });
    expect(await ask(plain, '192.168.1.50', '127.0.0.1:4311')).toEqual([403, { error: 'the panel answers this machine only: 192.168.1.50 is not a loopback address (context-profiles\' panelPeers config lists others)' }]);
    expect((await ask(plain, '::ffff:192.168.1.50', '127.0.0.1:4311'))[0]).toBe(403);
    const lan = createApiHandler({ profiles, translator: new Translator(home(), async () => 'x'), token, trustedPeers: ['192.168.1.50'], trustedHosts: ['192.168.1.10:4311'] });
    expect((await ask(lan, '::ffff:192.168.1.50', '192.168.1.10:4311'))[0]).toBe(200);
    expect((await ask(lan, '192.168.1.51', '192.168.1.10:4311'))[0]).toBe(403);
    expect((await ask(lan, '192.168.1.50', '192.168.1.11:4311'))[1]).toEqual({ error: 'request failed the connection trust check (Host/Origin)' });
    expect(['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1'].every(isLoopbackAddress)).toBe(true);
    expect(['128.0.0.1', '::2', '10.0.0.1', '::ffff:10.0.0.1', ''].some(isLoopbackAddress)).toBe(false);
  });

  it('item 4: the connecting process\'s user is read from /proc/net/tcp{,6}: this user\'s connection is "same"; another uid\'s socket is "other"', async () => {
    // Lines as the kernel writes them: the client end 127.0.0.1:50000 owned by uid 65534, as IPv4 and as IPv4-mapped IPv6.
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:10DF 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0',
      '   1: 0100007F:C350 0100007F:10DF 01 00000000:00000000 00:00000000 00000000 65534        0 2 1 0 20 4 30 10 -1',
    ].join('\n');
    const tcp6 = '   0: 0000000000000000FFFF00000100007F:C350 0000000000000000FFFF00000100007F:10DF 01 00000000:00000000 00:00000000 00000000  1000        0 3 1 0';
    expect(procEndpoints('127.0.0.1', 50_000)).toEqual(['0100007F:C350', '0000000000000000FFFF00000100007F:C350']);
    expect(procEndpoints('::ffff:127.0.0.1', 50_000)).toEqual(['0100007F:C350', '0000000000000000FFFF00000100007F:C350']);
    expect(procEndpoints('::1', 8080)).toEqual(['00000000000000000000000001000000:1F90']);
    expect([socketOwner(tcp, procEndpoints('127.0.0.1', 50_000)), socketOwner(tcp6, procEndpoints('127.0.0.1', 50_000)), socketOwner(tcp, procEndpoints('127.0.0.1', 4321))]).toEqual([65534, 1000, undefined]);
    // A real loopback connection from this process: found, and this user's.
    const { base, token } = await onDsh();
    const seen: string[] = [];
    const server = (await import('node:http')).createServer(async (req, res) => {
      seen.push(await peerUser(req.socket));
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    await call(`http://127.0.0.1:${(server.address() as { port: number }).port}`, 'GET', '/');
    expect(seen).toEqual([existsSync('/proc/net/tcp') ? 'same' : 'unknown']);
    expect((await call(base, 'GET', '/session-context-config/api/state', { token })).status).toBe(200);
  });

  it('item 4: no answer may be framed; the page\'s script runs under a hash-pinned CSP', async () => {
    const { base, token, page } = await onDsh();
    const api = await call(base, 'GET', '/session-context-config/api/state', { token });
    for (const r of [page, api]) {
      expect([r.headers['x-frame-options'], r.headers['x-content-type-options'], r.headers['referrer-policy']]).toEqual(['DENY', 'nosniff', 'no-referrer']);
      expect(String(r.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
    }
    expect(String(page.headers['content-security-policy'])).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
  });

  it('item 4: /translate takes at most 20,000 characters: a longer text is a 400 and no model call', async () => {
    const { base, token, model } = await onDsh();
    const long = await call(base, 'POST', '/session-context-config/api/translate', { token, body: JSON.stringify({ text: 'x'.repeat(2_000_010) }) });
    expect([long.status, long.json]).toEqual([400, { error: `text is 2000010 characters; the limit is ${TRANSLATE_TEXT_MAX}` }]);
    const most = await call(base, 'POST', '/session-context-config/api/translate', { token, body: JSON.stringify({ text: '😀'.repeat(TRANSLATE_TEXT_MAX) }) });
    expect([most.status, most.json.ok]).toEqual([200, true]);
    expect(model.calls).toHaveLength(1);
  });
});

describe('item 5: a state file with size bounds', () => {
  it('item 5: a save over a cap is refused naming the value and the limit, and nothing is written', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    store.load();
    const many = Array.from({ length: STATE_LIMITS.profiles + 1 }, (_, i) => custom(`p${i}`));
    for (const [save, message] of [
      [{ profiles: many }, 'profiles has 65 entries; the limit is 64'],
      [{ profiles: [custom('x'.repeat(65))] }, 'profiles[0].id is 65 characters; the limit is 64'],
      [{ profiles: [custom('a', { name: 'n'.repeat(101) })] }, 'profiles[0].name is 101 characters; the limit is 100'],
      [{ profiles: [custom('a', { prompt: { prefix: { ...defaultSlot(), text: '😀'.repeat(20_001) }, suffix: defaultSlot() } })] }, 'profiles[0].prompt.prefix.text is 20001 characters; the limit is 20000'],
      [{ profiles: [custom('a', { summaries: { mcp: 's'.repeat(2001) } })] }, 'profiles[0].summaries.mcp is 2001 characters; the limit is 2000'],
      [{ profiles: [custom('a', { tools: Object.fromEntries(Array.from({ length: 1025 }, (_, i) => [`t${i}`, 'off'])) })] }, 'profiles[0].tools has 1025 entries; the limit is 1024'],
      [{ profiles: [custom('a', { sections: { ['s'.repeat(257)]: false } })] }, 'profiles[0].sections has a key of 257 characters; the limit is 256'],
    ] as const) {
      expect(thrown(() => store.save(save))).toEqual({ message, status: 400 });
    }
    expect(existsSync(join(dir, FILE))).toBe(false);
  });

  it('item 5: saves naming the first revision cannot grow the file past the profile cap; the byte cap holds for any save', async () => {
    const { base, token, dir } = await onDsh();
    const first = (await call(base, 'GET', '/session-context-config/api/state', { token })).json;
    const batch = (n: number) => [...first.profiles, ...Array.from({ length: 40 }, (_, i) => custom(`b${n}-${i}`))];
    const post = (body: unknown) => call(base, 'POST', '/session-context-config/api/state', { token, body: JSON.stringify(body) });
    expect((await post({ revision: first.revision, profiles: batch(0) })).status).toBe(200);
    const size = statSync(join(dir, FILE)).size;
    for (let n = 1; n < 10; n++) {
      const r = await post({ revision: first.revision, profiles: batch(n) });
      expect([n, r.status, r.json]).toEqual([n, 400, { error: 'saving would leave 83 profiles in the file; the limit is 64' }]);
    }
    expect(statSync(join(dir, FILE)).size).toBe(size);
    // Profiles with two full persona slots of 3-byte characters (120 KB each): 10 fit under 2 MiB, 18 do not.
    const slot = { ...defaultSlot(), text: '中'.repeat(20_000) };
    const heavy = (from: number, n: number) => Array.from({ length: n }, (_, i) => custom(`h${from + i}`, { prompt: { prefix: slot, suffix: slot } }));
    const now = (await call(base, 'GET', '/session-context-config/api/state', { token })).json;
    expect((await post({ revision: now.revision, profiles: [...now.profiles, ...heavy(0, 10)] })).status).toBe(200);
    const full = statSync(join(dir, FILE)).size;
    // Another panel, shown the same state, adds 8 more: each body is under the 2 MiB body limit, the merged file would not be.
    const r = await post({ revision: now.revision, profiles: [...now.profiles, ...heavy(10, 8)] });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatch(/^the state file would be 2,[\d]{3},[\d]{3} bytes; the limit is 2,097,152$/);
    expect(statSync(join(dir, FILE)).size).toBe(full);
  });

  it('item 5: a file over 2 MiB is refused with a clear error and kept byte for byte (neither moved aside nor rewritten); saves are 503', async () => {
    const dir = home();
    const big = JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`session-${i}`, 'lean'])) });
    writeFileSync(join(dir, FILE), big);
    const size = Buffer.byteLength(big);
    warnings.length = 0;
    const { base, token, host } = await onDsh(dir);
    await host.run('hi', reply);
    await host.run('again', reply);
    const reason = `is ${size.toLocaleString('en-US')} bytes; the limit is 2,097,152, so context-profiles neither reads nor writes it (it stays as it is): shrink it or move it away`;
    const state = (await call(base, 'GET', '/session-context-config/api/state', { token })).json;
    expect([state.load, state.lastUsedId]).toEqual([{ kind: 'refused', reason }, 'none']);
    const save = await call(base, 'POST', '/session-context-config/api/state', { token, body: JSON.stringify({ lastUsedId: 'lean' }) });
    expect([save.status, save.json]).toEqual([503, { error: `not saving: ${join(dir, FILE)} ${reason}` }]);
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(big);
    expect(readdirSync(dir)).toEqual([FILE]);
    expect(host.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([`context-profiles: ${join(dir, FILE)} ${reason}; the defaults are in use and nothing will be saved`]);
  });

  it('item 5: a step reads the file only when it changed: an unchanged file costs one lstat, whatever its size; a change is seen at once', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), v4({ lastUsedId: 'lean' }));
    const old = new Date(Date.now() - 10_000);
    utimesSync(join(dir, FILE), old, old);
    let reads = 0;
    const io = { ...nodeFileOpsSync, readPrefix: (path: string, max: number) => (path.endsWith(FILE) && reads++, nodeFileOpsSync.readPrefix(path, max)) };
    const store = new StateStore(dir, logger, io);
    store.load();
    for (let step = 0; step < 20; step++) store.refresh();
    expect([reads, store.state.lastUsedId]).toEqual([1, 'lean']);
    // Another process saves (an atomic rename: a new inode): the next refresh reads it.
    writeFileSync(join(dir, `${FILE}.new`), v4({ lastUsedId: 'full' }));
    renameSync(join(dir, `${FILE}.new`), join(dir, FILE));
    store.refresh();
    expect([reads, store.state.lastUsedId]).toEqual([2, 'full']);
  });

  it('item 5: session records past 2,000 drop the oldest', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: Object.fromEntries(Array.from({ length: STATE_LIMITS.sessions }, (_, i) => [`s-${i}`, 'lean'])) }));
    const store = new StateStore(dir, logger);
    store.load();
    store.recordFirst('newest', 'full');
    store.choose('s-5', 'minimal');
    const sessions = Object.keys(read(dir).sessions);
    expect([sessions.length, sessions[0], sessions.at(-2), sessions.at(-1), sessions.includes('s-0')]).toEqual([STATE_LIMITS.sessions, 's-1', 'newest', 's-5', false]);
  });
});

describe('item 10: a newer package\'s state file', () => {
  it('item 10: refused once, with one warning: over 50 steps, while the newer process rewrites it, nothing is moved aside or written', async () => {
    const dir = home();
    const newer = (n: number) => JSON.stringify({ version: 5, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: { [`newer-${n}`]: 'lean' }, somethingNew: true });
    writeFileSync(join(dir, FILE), newer(0));
    const { host } = mountHost(dir, { tools: hostTools() });
    await host.run('hi', Array.from({ length: 50 }, (_, i) => ({ tools: [{ id: `c${i}`, name: 'grep', input: { pattern: 'x' } }] })).concat([{ text: 'done' }] as never));
    for (let n = 1; n <= 3; n++) {
      writeFileSync(join(dir, FILE), newer(n));
      await host.run(`step ${n}`, reply);
    }
    expect(readdirSync(dir)).toEqual([FILE]);
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(newer(3));
    const reason = 'is version 5, written by a newer dsh-context-engine (this one reads up to version 4), so this one neither uses nor writes it: update the package';
    expect(host.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([`context-profiles: ${join(dir, FILE)} ${reason}; the defaults are in use and nothing will be saved`]);
    expect(thrown(() => new StateStore(dir, logger).save({ lastUsedId: 'lean' }))).toEqual({ status: 503, message: `not saving: ${join(dir, FILE)} ${reason}` });
  });
});

describe('item 11: keys this version does not define', () => {
  it('item 11: a note, a profile\'s futureField and __proto__ keys survive a read, a session record and a panel save; the read is not "migrated"', async () => {
    const dir = home();
    const text = `{"version":4,"note":"kept by hand","lastUsedId":"lean","profiles":[${builtinProfiles().map((p) => JSON.stringify(p)).join(',').replace('"id":"lean",', '"id":"lean","futureField":{"x":[1,2]},"__proto__":{"polluted":true},')}],"sessions":{"__proto__":"lean","old":"full"},"baseline":{"contract":true,"cardReceipt":true,"untrustedDownload":true,"custom":{"enabled":false,"text":"","tone":"dry"},"nextRule":1}}`;
    writeFileSync(join(dir, FILE), text);
    const { host, base, token } = await onDsh(dir);
    const state = (await call(base, 'GET', '/session-context-config/api/state', { token })).json;
    expect(state.load).toEqual({ kind: 'current' });
    const lean = state.profiles.find((p: { id: string }) => p.id === 'lean');
    expect([lean.futureField, Object.hasOwn(lean, '__proto__'), state.baseline.nextRule, state.baseline.custom.tone]).toEqual([{ x: [1, 2] }, true, 1, 'dry']);
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(text);
    await host.run('hi', reply);
    const profiles = state.profiles.map((p: { id: string; tools: object }) => (p.id === 'full' ? { ...p, tools: { grep: 'off' } } : p));
    const saved = await call(base, 'POST', '/session-context-config/api/state', { token, body: JSON.stringify({ revision: state.revision, profiles, baseline: { ...state.baseline, contract: false } }) });
    expect(saved.status).toBe(200);
    const file = read(dir);
    const onDisk = file.profiles.find((p: { id: string }) => p.id === 'lean');
    expect([file.note, onDisk.futureField, JSON.stringify(onDisk).includes('"__proto__":{"polluted":true}'), file.baseline.nextRule, file.baseline.custom.tone, file.baseline.contract]).toEqual(['kept by hand', { x: [1, 2] }, true, 1, 'dry', false]);
    expect(JSON.stringify(file.sessions)).toBe(`{"__proto__":"lean","old":"full","${host.agent.id}":"lean"}`);
    expect(file.profiles.find((p: { id: string }) => p.id === 'full').tools).toEqual({ grep: 'off' });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('item 12: deep JSON and a directory at the lock path', () => {
  it('item 12: a body nested 100,000 levels deep is a 400 in our words on every POST route; the state file nested so is kept aside', async () => {
    const { base, token } = await onDsh();
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const error = { error: 'request body is not valid JSON: it nests objects and arrays more than 64 levels deep; the limit is 64' };
    for (const [path, body] of [['/state', deep], ['/session', `{"id":${deep},"profile":"x"}`], ['/translate', `{"text":${deep}}`]]) {
      const r = await call(base, 'POST', `/session-context-config/api${path}`, { token, body });
      expect([path, r.status, r.json]).toEqual([path, 400, error]);
    }
    const shallow = await call(base, 'POST', '/session-context-config/api/session', { token, body: JSON.stringify({ id: { deep: [[[1]]] }, profile: 'x' }) });
    expect([shallow.status, shallow.json]).toEqual([400, { error: 'body field "id" must be a non-empty string, got an object' }]);
  });

  it('item 12: a directory at the lock path is a 503 that names the lock file, not a host path', async () => {
    const { base, token, dir } = await onDsh();
    mkdirSync(join(dir, '.session-context-config.json.lock'));
    const r = await call(base, 'POST', '/session-context-config/api/state', { token, body: JSON.stringify({ lastUsedId: 'lean' }) });
    expect([r.status, r.json]).toEqual([503, { error: 'not saving: the state file\'s lock (.session-context-config.json.lock in the DSH home) is a directory, not a lock file; remove it and save again' }]);
    expect(r.text.includes(dir)).toBe(false);
  });
});

describe('item 13: names Object.prototype answers', () => {
  const PROTO = ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__'];

  it('item 13: tools named constructor, toString, valueOf, hasOwnProperty, __proto__ belong to `other` and are hidden when it is off; a server so named follows its state', async () => {
    const dir = home();
    const profiles = builtinProfiles();
    // minimal: other off. A custom profile: other on, server `constructor` off, tool `valueOf` deferred.
    profiles.push({ ...custom('odd'), servers: { constructor: 'off' }, tools: { valueOf: 'defer' } } as never);
    writeFileSync(join(dir, FILE), JSON.stringify({ version: 4, lastUsedId: 'minimal', profiles, sessions: {} }));
    const tools = [...PROTO.map((name) => tool(name, `A tool named ${name}.`)), tool('mcp__constructor__x', 'A tool of the server constructor.'), tool('mcp__toString__y', 'A tool of the server toString.')];
    const { host, profiles: live } = mountHost(dir, { tools, sessionId: 's-minimal' });
    await host.run('hi', reply);
    expect(host.requests[0]!.tools.map((t) => t.name).filter((n) => !['read', 'write', 'edit', 'run_code'].includes(n))).toEqual([]);
    const odd = () => Object.fromEntries(Object.entries(live.session('s-minimal').tools).filter(([n]) => !['read', 'write', 'edit'].includes(n)));
    expect(odd()).toEqual(Object.fromEntries([...PROTO, 'mcp__constructor__x', 'mcp__toString__y'].map((n) => [n, 'hidden'])));
    const catalog = live.catalog('s-minimal');
    expect(catalog.filter((t) => PROTO.includes(t.name)).map((t) => [t.name, t.group])).toEqual(PROTO.map((n) => [n, 'other']));
    live.choose('s-minimal', 'odd');
    expect(odd()).toEqual({ constructor: 'inject', toString: 'inject', valueOf: 'defer', hasOwnProperty: 'inject', ['__proto__']: 'inject', mcp__constructor__x: 'hidden', mcp__toString__y: 'inject' });
  });

  it('item 13: a text equal to constructor or __proto__ is translated, never a cache hit; a profile id and a session id `__proto__` are ordinary keys', async () => {
    const { base, token, model, dir, profiles } = await onDsh();
    for (const text of ['constructor', '__proto__', 'toString']) {
      const r = await call(base, 'POST', '/session-context-config/api/translate', { token, body: JSON.stringify({ text }) });
      expect([text, r.json]).toEqual([text, { ok: true, zh: `译:${text}` }]);
    }
    expect(model.calls).toHaveLength(3);
    expect(JSON.parse(readFileSync(join(dir, 'session-context-config-translations.json'), 'utf8'))).toEqual(JSON.parse('{"constructor":"译:constructor","__proto__":"译:__proto__","toString":"译:toString"}'));
    const state = (await call(base, 'GET', '/session-context-config/api/state', { token })).json;
    const saved = await call(base, 'POST', '/session-context-config/api/state', { token, body: JSON.stringify({ revision: state.revision, profiles: [...state.profiles, custom('__proto__', { tools: { grep: 'off' } })] }) });
    expect(saved.status).toBe(200);
    const grep = saved.json.catalog.find((t: { name: string }) => t.name === 'grep');
    expect([Object.hasOwn(grep.states, '__proto__'), grep.states.__proto__?.effective, Object.hasOwn(grep.deepseekTokens.sent, '__proto__')]).toEqual([true, 'hidden', true]);
    profiles.store.recordFirst('__proto__', 'lean');
    expect([profiles.store.profileIdFor('__proto__'), profiles.store.profileIdFor('constructor')]).toEqual(['lean', 'none']);
    expect(JSON.stringify(read(dir).sessions)).toBe('{"__proto__":"lean"}');
  });
});
