// Memory folders of projects whose DSH keys collide (AM-06, AM-07, issue 32 item 8): `/srv/api-server`
// and `/srv/api/server` both escape to `--srv-api-server--`, as do roots whose escaped forms agree in
// their first 251 characters, and a memory written in one was injected into the other. A folder
// records its root in a hidden owner file, the first project to use a folder claims it, and a project
// that finds another root recorded there uses its own fallback folder.

import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { projectKey } from '../../../src/host/index.js';
import * as autoMemory from '../../../src/plugins/auto-memory/index.js';
import { nodeDisk } from '../../../src/plugins/auto-memory/disk.js';
import { fallbackKey, folderOwner, OWNER_FILE } from '../../../src/plugins/auto-memory/folder.js';
import { projectAt } from '../../../src/plugins/auto-memory/project.js';
import { EMPTY_MEMORY_DIR } from '../../../src/plugins/auto-memory/render.js';
import { MemoryStore } from '../../../src/plugins/auto-memory/store.js';
import { createTestHost, type TestHost } from '../../../src/testing/index.js';
import { LIMITS, read, tempDir } from './support.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A session whose project root is `root` (it holds `.git`), with the DSH home `home`. */
function session(home: string, root: string): TestHost {
  const host = createTestHost({ cwd: root, dshHome: home, homedir: '/home/u', files: { [`${root}/.git/HEAD`]: '' } });
  host.use(autoMemory, {});
  return host;
}

/** Runs one turn that calls the memory tool with `input`, and returns what the tool answered. */
async function memoryCall(host: TestHost, input: Record<string, unknown>): Promise<string> {
  await host.run('go', [{ tools: [{ name: 'memory', input }] }, { text: 'done' }]);
  const result = host.session.events.filter((e) => e.type === 'tool/result').at(-1)!;
  const block = (result.data as { message: { content: { content: { text: string }[] }[] } }).message.content[0]!;
  return block.content[0]!.text;
}

/** The auto-memory index texts the last model request of `host` holds. */
function injectedIndex(host: TestHost): string[] {
  return host.requests.at(-1)!.messages.filter((m) => (m.source as { kind: string; channel?: string }).kind === 'auto-memory').map((m) => (m.content[0] as { text: string }).text);
}

const note = (name: string, body: string) => ({ command: 'create', path: `/memories/${name}.md`, file_text: `---\nname: ${name}\ndescription: ${body}\n---\n${body}\n` });

describe('item 8: projects whose folder names collide keep their memories apart', () => {
  it('AM-06 AM-07 item 8: /srv/api-server and /srv/api/server each see only their own memories', async () => {
    const home = tempDir();
    const memoryRoot = join(home, 'auto-memory');
    expect(projectKey('/srv/api/server')).toBe(projectKey('/srv/api-server'));
    const a = session(home, '/srv/api-server');
    expect(await memoryCall(a, note('token', 'the api-server deploy token is in vault'))).toMatch(/^Created \/memories\/token\.md\./);
    const b = session(home, '/srv/api/server');
    await b.run('hello', [{ text: 'hi' }]);
    expect(injectedIndex(b)).toEqual([]);
    expect(await memoryCall(b, { command: 'view' })).toBe(EMPTY_MEMORY_DIR);
    expect(await memoryCall(b, note('mine', 'the other project'))).toMatch(/^Created \/memories\/mine\.md\./);
    const ownFolder = fallbackKey('--srv-api-server--', '/srv/api/server');
    expect(ownFolder).toBe(`--srv-api-server--${sha256('/srv/api/server').slice(0, 12)}`);
    expect(readdirSync(memoryRoot).filter((n) => !n.startsWith('.')).sort()).toEqual(['--srv-api-server--', ownFolder]);
    expect(await folderOwner(nodeDisk, join(memoryRoot, '--srv-api-server--'))).toBe('/srv/api-server');
    expect(await folderOwner(nodeDisk, join(memoryRoot, ownFolder))).toBe('/srv/api/server');
    expect(read(join(memoryRoot, ownFolder, 'MEMORY.md'))).toContain('mine.md');
    // And back in the first project: its own memory, not the other's.
    const again = session(home, '/srv/api-server');
    await again.run('hello', [{ text: 'hi' }]);
    expect(injectedIndex(again)).toHaveLength(1);
    expect(injectedIndex(again)[0]).toContain('token.md');
    expect(injectedIndex(again)[0]).not.toContain('mine.md');
  });

  it('AM-06 item 8: two roots that agree in their first 251 escaped characters are kept apart too', async () => {
    const home = tempDir();
    const stem = `/w/${'x'.repeat(260)}`;
    const [first, second] = [`${stem}/one`, `${stem}/two`];
    expect(projectKey(first)).toBe(projectKey(second));
    const a = session(home, first);
    expect(await memoryCall(a, note('one', 'first project'))).toMatch(/^Created \/memories\/one\.md\./);
    const b = session(home, second);
    expect(await memoryCall(b, { command: 'view' })).toBe(EMPTY_MEMORY_DIR);
    const fallback = fallbackKey(projectKey(second), second);
    expect(fallback).toHaveLength(254);
    expect(existsSync(join(home, 'auto-memory', fallback))).toBe(false); // nothing written there yet
  });

  it('AM-07 item 8: a folder made before owner files is claimed by the first project that uses it; dsh-context inspect claims nothing', async () => {
    const home = tempDir();
    const legacy = join(home, 'auto-memory', '--srv-api-server--');
    mkdirSync(legacy, { recursive: true });
    writeFileSync(join(legacy, 'MEMORY.md'), '# Memory index\n\n- [Old](old.md) — from before\n');
    // Looking only (what inspect does) leaves it unclaimed.
    expect((await projectAt('/srv/api/server', [], undefined, join(home, 'auto-memory'))).memdir).toBe(legacy);
    expect(existsSync(join(legacy, OWNER_FILE))).toBe(false);
    const b = session(home, '/srv/api/server');
    await b.run('hello', [{ text: 'hi' }]);
    expect(injectedIndex(b)[0]).toContain('old.md');
    expect(await folderOwner(nodeDisk, legacy)).toBe('/srv/api/server');
    const a = session(home, '/srv/api-server');
    await a.run('hello', [{ text: 'hi' }]);
    expect(injectedIndex(a)).toEqual([]);
  });

  it('AM-25 item 8: a write finds its folder claimed by another project meanwhile, and changes nothing', async () => {
    const base = tempDir();
    const memdir = join(base, '--srv-api-server--');
    mkdirSync(memdir);
    writeFileSync(join(memdir, OWNER_FILE), `${JSON.stringify({ root: '/srv/api-server' })}\n`);
    const store = new MemoryStore(nodeDisk, memdir, LIMITS, {}, '/srv/api/server');
    expect(await store.create('/memories/x.md', 'text')).toEqual({
      ok: false, code: 'IO_ERROR', message: "this project's memory folder was just claimed by another project with the same folder name; nothing was changed, try again (the next call uses a folder of this project's own)",
    });
    expect(readdirSync(memdir)).toEqual([OWNER_FILE]);
  });

  it('AM-07 item 8: an owner file is read again whenever an lstat shows it changed: replaced, rewritten in place or removed', async () => {
    const memdir = tempDir();
    const owner = join(memdir, OWNER_FILE);
    writeFileSync(owner, `${JSON.stringify({ root: '/srv/a' })}\n`);
    expect(await folderOwner(nodeDisk, memdir)).toBe('/srv/a');
    // A claim is published by rename: a new inode.
    writeFileSync(join(memdir, 'next'), `${JSON.stringify({ root: '/srv/bb' })}\n`);
    renameSync(join(memdir, 'next'), owner);
    expect(await folderOwner(nodeDisk, memdir)).toBe('/srv/bb');
    writeFileSync(owner, `${JSON.stringify({ root: '/srv/ccc' })}\n`);
    expect(await folderOwner(nodeDisk, memdir)).toBe('/srv/ccc');
    rmSync(owner);
    expect(await folderOwner(nodeDisk, memdir)).toBeUndefined();
  });

  it('AM-07 item 8: a folder that is a link (two checkouts sharing one memory) is used as it is, and nothing is recorded through it', async () => {
    const home = tempDir();
    const memoryRoot = join(home, 'auto-memory');
    const a = session(home, '/work/checkout-a');
    expect(await memoryCall(a, note('shared', 'both checkouts'))).toMatch(/^Created /);
    symlinkSync(join(memoryRoot, '--work-checkout-a--'), join(memoryRoot, '--work-checkout-b--'));
    const b = session(home, '/work/checkout-b');
    await b.run('hello', [{ text: 'hi' }]);
    expect(injectedIndex(b)[0]).toContain('shared.md');
    expect(await memoryCall(b, note('more', 'from b'))).toMatch(/^Created /);
    expect(await folderOwner(nodeDisk, join(memoryRoot, '--work-checkout-a--'))).toBe('/work/checkout-a');
    expect(readdirSync(memoryRoot).filter((n) => !n.startsWith('.')).sort()).toEqual(['--work-checkout-a--', '--work-checkout-b--']);
  });
});
