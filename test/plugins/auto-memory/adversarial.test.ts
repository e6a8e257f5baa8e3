// The adversarial suite (issue 6): every path-escape form we could think of, links on disk,
// interrupted writes and concurrent writers. The invariant throughout: nothing is written outside
// the memory dir, and nothing that was there is lost.

import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeDisk } from '../../../src/plugins/auto-memory/disk.js';
import { lockPathFor, runAsync, thisProcess, writeAtomic } from '../../../src/io/index.js';
import { MemoryStore } from '../../../src/plugins/auto-memory/store.js';
import { built, runScript } from '../../support/processes.js';
import { faultyDisk, LIMITS, memory, read, tempDir, tempStore, tree } from './support.js';

const ESCAPES = [
  '/memories/../x.md', '/memories/a/../../x.md', '/memories/a/../x.md', '/memories/./x.md', '/memories/a/./x.md', '/memories/..', '/memories/.',
  '/memories/.hidden.md', '/memories/.git/config.md', '/memories/...md', '/memories/..md', '/memories/a/.b/c.md', '/memories/..%2fx.md',
  '/memories/a\\..\\..\\x.md', '/memories/..\\x.md', '/memories/C:\\x.md', '/memories/C:/x.md', 'C:\\memories\\x.md', 'C:/memories/x.md',
  '\\\\server\\share\\x.md', '/memories/x.md\0.txt', '/memories/\0/x.md', '/memories//x.md', '/memories/x.md/', '/memories/', '//memories/x.md',
  '/memoriesX/x.md', '/memories../x.md', 'memories/x.md', './memories/x.md', '/etc/passwd.md', '/tmp/x.md', '~/x.md', '', ' /memories/x.md',
  '/memories/x:stream.md', '/memories/file.md:$DATA', `/memories/${'a'.repeat(253)}.md`,
];

// Literal names: odd, but they name something inside the memory dir and must stay there.
const LITERALS = [
  '/memories/%2e%2e/x.md', '/memories/%2e%2e%2fx.md', '/memories/%252e%252e/x.md', '/memories/\u2024\u2024/x.md', '/memories/\uff0e\uff0e/x.md',
  '/memories/a\uff0fb.md', '/memories/a./b.md', '/memories/ .md', '/memories/x..md', '/memories/%00.md', `/memories/${'a'.repeat(252)}.md`,
];

describe('path escapes', () => {
  it.each(ESCAPES)('AM-24 %j is refused with INVALID_PATH by every command and nothing is written', async (path) => {
    const { store, base } = tempStore();
    const results = [
      await store.create(path, 'x'), await store.view(path, false), await store.strReplace(path, 'a', 'b'), await store.insert(path, 0, 'x'),
      await store.delete(path), await store.rename('/memories/ok.md', path), await store.rename(path, '/memories/ok.md'),
    ];
    for (const result of results) expect(result).toMatchObject({ ok: false, code: expect.stringMatching(/^(INVALID_PATH|NOT_MARKDOWN|NOT_FOUND|FORBIDDEN)$/) });
    expect(results[0]).toMatchObject({ ok: false, code: 'INVALID_PATH' });
    expect(tree(base)).toEqual([]);
  });

  it.each(LITERALS)('AM-24 %j is a literal name: it is stored inside the memory dir or refused, never decoded', async (path) => {
    const { store, base, memdir } = tempStore();
    const result = await store.create(path, 'x');
    const inside = tree(base).filter((p) => !p.startsWith('mem/') && p !== 'mem');
    expect(inside).toEqual([]);
    if (result.ok) expect(read(join(memdir, path.slice('/memories/'.length)))).toBe('x');
    else expect(result).toMatchObject({ code: expect.stringMatching(/^(INVALID_PATH|NOT_MARKDOWN)$/) });
  });

  it('AM-24 item 6: a name with a control character, a line separator or a lone surrogate is INVALID_PATH; nothing is written, no line is forged', async () => {
    const { store, base, memdir } = tempStore();
    await store.create('/memories/ok.md', 'x');
    const index = read(join(memdir, 'MEMORY.md'));
    const cases: [string, string][] = [
      ['/memories/ok\n- [fake](evil.md) — injected line.md', 'the control character U+000A'],
      ['/memories/a\rb.md', 'the control character U+000D'],
      ['/memories/a\u001bb.md', 'the control character U+001B'],
      ['/memories/a\u007fb.md', 'the control character U+007F'],
      ['/memories/a\u0085b.md', 'the control character U+0085'],
      ['/memories/a\u2028b.md', 'the line separator U+2028'],
      ['/memories/a\u2029b.md', 'the paragraph separator U+2029'],
      ['/memories/a\ud800.md', 'the lone surrogate U+D800'],
      ['/memories/sub\udc00/x.md', 'the lone surrogate U+DC00'],
    ];
    for (const [path, what] of cases) {
      const segment = path.slice('/memories/'.length).split('/')[0]!;
      const shown = JSON.stringify(segment).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
      expect(await store.create(path, 'x')).toEqual({ ok: false, code: 'INVALID_PATH', message: `${JSON.stringify(path).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`)} is not allowed: the segment ${shown} contains ${what}` });
      expect(await store.rename('/memories/ok.md', path)).toMatchObject({ ok: false, code: 'INVALID_PATH' });
    }
    expect(tree(base)).toEqual(['mem', 'mem/MEMORY.md', 'mem/ok.md']);
    expect(read(join(memdir, 'MEMORY.md'))).toBe(index);
    // A pair is a character, not a lone surrogate: astral names are fine.
    expect(await store.create('/memories/\u{1F600}.md', 'x')).toMatchObject({ ok: true });
  });

  it('AM-18 item 6: a description holding a control character, a lone CR or a line separator stays on its one index line', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', '---\nname: a\ndescription: one\u0085- [fake](evil.md) — two\u000bthree\n---\nBody.\n');
    await store.create('/memories/b.md', 'first\u2028line\rrest\n');
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [a](a.md) — one - [fake](evil.md) — two three\n- [b](b.md) — first line rest\n');
  });

  it('AM-24 a trailing dot or space after .md is NOT_MARKDOWN (no Windows-style stripping)', async () => {
    const { store, base } = tempStore();
    for (const path of ['/memories/x.md.', '/memories/x.md ', '/memories/x.MD', '/memories/x.md..']) {
      expect(await store.create(path, 'x')).toMatchObject({ ok: false, code: 'NOT_MARKDOWN' });
    }
    expect(tree(base)).toEqual([]);
  });
});

describe('links on disk', () => {
  const setup = () => {
    const { store, memdir, base } = tempStore();
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret.md'), 'secret\n');
    mkdirSync(memdir);
    return { store, memdir, base, outside };
  };

  it('AM-24 a file link inside the memory dir is refused for reading and writing; its target is untouched', async () => {
    const { store, memdir, outside } = setup();
    symlinkSync(join(outside, 'secret.md'), join(memdir, 'evil.md'));
    symlinkSync(join(memdir, 'evil.md'), join(memdir, 'inner.md'));
    const refused = { ok: false, code: 'INVALID_PATH', message: '/memories/evil.md is a symbolic link; memory storage never follows links' };
    expect(await store.view('/memories/evil.md', false)).toEqual(refused);
    expect(await store.strReplace('/memories/evil.md', 'secret', 'pwned')).toEqual(refused);
    expect(await store.insert('/memories/evil.md', 0, 'pwned')).toEqual(refused);
    expect(await store.delete('/memories/evil.md')).toEqual(refused);
    expect(await store.rename('/memories/evil.md', '/memories/x.md')).toEqual(refused);
    expect(await store.create('/memories/evil.md', 'pwned')).toEqual(refused);
    expect(await store.view('/memories/inner.md', false)).toMatchObject({ code: 'INVALID_PATH' });
    expect(await store.view('/memories', false)).toMatchObject({ entries: [] });
    expect(read(join(outside, 'secret.md'))).toBe('secret\n');
  });

  it('AM-24 a directory link is refused, so nothing is created through it', async () => {
    const { store, memdir, outside } = setup();
    symlinkSync(outside, join(memdir, 'sub'));
    expect(await store.create('/memories/sub/new.md', 'x')).toEqual({ ok: false, code: 'INVALID_PATH', message: '/memories/sub is a symbolic link; memory storage never follows links' });
    expect(await store.create('/memories/sub/deeper/new.md', 'x')).toMatchObject({ code: 'INVALID_PATH' });
    await store.create('/memories/a.md', 'x');
    expect(await store.rename('/memories/a.md', '/memories/sub/a.md')).toMatchObject({ code: 'INVALID_PATH' });
    expect(await store.view('/memories/sub/secret.md', false)).toMatchObject({ code: 'INVALID_PATH' });
    expect(tree(outside)).toEqual(['secret.md']);
  });

  it('AM-24 a MEMORY.md link blocks index maintenance: the create is refused before anything is written', async () => {
    const { store, memdir, outside } = setup();
    symlinkSync(join(outside, 'secret.md'), join(memdir, 'MEMORY.md'));
    expect(await store.create('/memories/a.md', 'x')).toEqual({ ok: false, code: 'INVALID_PATH', message: '/memories/MEMORY.md is a symbolic link; memory storage never follows links' });
    expect(tree(memdir)).toEqual(['MEMORY.md']);
    expect(read(join(outside, 'secret.md'))).toBe('secret\n');
  });

  it('AM-24 a file used as a directory is refused', async () => {
    const { store, memdir } = setup();
    writeFileSync(join(memdir, 'file.md'), 'x');
    expect(await store.create('/memories/file.md/x.md', 'x')).toEqual({ ok: false, code: 'INVALID_PATH', message: '/memories/file.md is not a directory' });
  });

  it('AM-24 the memory dir itself may be a link (a user\'s choice); paths below it still stay inside its real path', async () => {
    const base = tempDir();
    mkdirSync(join(base, 'real'));
    symlinkSync(join(base, 'real'), join(base, 'mem'));
    const store = new MemoryStore(nodeDisk, join(base, 'mem'), LIMITS);
    expect(await store.create('/memories/a.md', 'x')).toMatchObject({ ok: true });
    expect(tree(join(base, 'real'))).toEqual(['MEMORY.md', 'a.md']);
  });
});

describe('interrupted and failed writes', () => {
  const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, open \'/somewhere/secret\''), { code: 'ENOSPC' });

  it('AM-25 AM-11 item 5: a crash between temp file and rename leaves the old file and no temp file; the error is structured', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'A'));
    const index = read(join(memdir, 'MEMORY.md'));
    faults.fail('rename', (p) => p.includes('.a.md.'));
    expect(await store.strReplace('/memories/a.md', 'Body.', 'Changed.')).toEqual({
      ok: false, code: 'IO_ERROR', message: '/memories/a.md could not be written: i/o error (EIO); nothing was changed',
    });
    expect(read(join(memdir, 'a.md'))).toBe(memory('a', 'A'));
    expect(read(join(memdir, 'MEMORY.md'))).toBe(index);
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md']);
  });

  it('AM-25 AM-11 item 5: a failed temp write (disk full) leaves the old file and no temp file, and the message has no host path', async () => {
    const faults = faultyDisk();
    const { store, memdir, base } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', 'old\n');
    faults.fail('createExclusive', (p) => p.includes('.a.md.'), enospc());
    const result = await store.insert('/memories/a.md', 1, 'new');
    expect(result).toEqual({ ok: false, code: 'IO_ERROR', message: '/memories/a.md could not be written: no space left on device (ENOSPC); nothing was changed' });
    expect(JSON.stringify(result)).not.toContain(base);
    expect(read(join(memdir, 'a.md'))).toBe('old\n');
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md']);
  });

  it('AM-25 item 3: a temp file left by a crash (cleanup failed too) is hidden, and the next write of that file removes it', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({ maxFiles: 3 }, faults.disk);
    await store.create('/memories/a.md', 'old\n');
    faults.fail('rename', (p) => p.includes('.a.md.'));
    faults.fail('unlink', (p) => p.includes('.a.md.'));
    faults.fail('unlink', (p) => p.includes('.a.md.'));
    expect(await store.strReplace('/memories/a.md', 'old', 'new')).toMatchObject({ ok: false, code: 'IO_ERROR' });
    const leftovers = tree(memdir).filter((p) => p.startsWith('.a.md.'));
    expect(leftovers).toHaveLength(1);
    expect(read(join(memdir, 'a.md'))).toBe('old\n');
    expect(await store.view('/memories', false)).toMatchObject({ entries: ['MEMORY.md', 'a.md'] });
    expect(await store.create('/memories/b.md', 'x')).toMatchObject({ ok: true });
    expect(await store.view(`/memories/${leftovers[0]}`, false)).toMatchObject({ code: 'INVALID_PATH' });
    expect(await store.strReplace('/memories/a.md', 'old', 'new')).toMatchObject({ ok: true });
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md', 'b.md']);
  });

  it('AM-25 writeAtomic over the memory disk: the target never holds partial content; a failed rename keeps the exact old bytes', async () => {
    const faults = faultyDisk();
    const dir = tempDir();
    const target = join(dir, 'x.md');
    writeFileSync(target, 'old');
    faults.before('createExclusive', () => expect(read(target)).toBe('old'));
    faults.fail('rename');
    await expect(runAsync(writeAtomic(faults.disk, target, new TextEncoder().encode('new')))).rejects.toThrow();
    expect([read(target), tree(dir)]).toEqual(['old', ['x.md']]);
    await runAsync(writeAtomic(faults.disk, target, new TextEncoder().encode('new')));
    expect([read(target), tree(dir)]).toEqual(['new', ['x.md']]);
    expect(faults.calls.map(([op]) => op)).toEqual(['readdir', 'createExclusive', 'rename', 'lstat', 'unlink', 'readdir', 'createExclusive', 'rename']);
  });

  it('AM-19 AM-21 item 4: an index update that fails undoes the file change, so the index and the file agree and the next edit still syncs', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'one'));
    faults.fail('rename', (p) => p.includes('.MEMORY.md.'), enospc());
    expect(await store.strReplace('/memories/a.md', 'description: one', 'description: two')).toEqual({
      ok: false, code: 'IO_ERROR', message: '/memories/MEMORY.md could not be updated: no space left on device (ENOSPC); nothing was changed',
    });
    expect([read(join(memdir, 'a.md')), read(join(memdir, 'MEMORY.md'))]).toEqual([memory('a', 'one'), '# Memory index\n\n- [a](a.md) — one\n']);
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md']);
    expect(await store.strReplace('/memories/a.md', 'description: one', 'description: three')).toMatchObject({ ok: true });
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [a](a.md) — three\n');
  });

  it('AM-19 item 4: a failed index update undoes a create (file and new directories gone), a delete (file back) and a rename (moved back)', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'A'));
    const index = read(join(memdir, 'MEMORY.md'));
    for (const run of [
      () => store.create('/memories/new/deep/b.md', memory('b', 'B')),
      () => store.delete('/memories/a.md'),
      () => store.rename('/memories/a.md', '/memories/sub/c.md'),
    ]) {
      faults.fail('rename', (p) => p.includes('.MEMORY.md.'));
      expect(await run()).toEqual({ ok: false, code: 'IO_ERROR', message: '/memories/MEMORY.md could not be updated: i/o error (EIO); nothing was changed' });
      expect([read(join(memdir, 'MEMORY.md')), read(join(memdir, 'a.md')), tree(memdir)]).toEqual([index, memory('a', 'A'), ['MEMORY.md', 'a.md']]);
    }
  });

  it('AM-11 item 4: when the undo fails too, the result says which file changed', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'one'));
    faults.fail('rename', (p) => p.includes('.MEMORY.md.'));
    let renames = 0;
    faults.fail('rename', (p) => p.includes('.a.md.') && renames++ === 1); // the undo, not the publish
    expect(await store.strReplace('/memories/a.md', 'description: one', 'description: two')).toEqual({
      ok: false, code: 'IO_ERROR',
      message: '/memories/MEMORY.md could not be updated: i/o error (EIO); /memories/a.md was changed and could not be restored, so /memories/MEMORY.md may not match it',
    });
    expect(read(join(memdir, 'a.md'))).toBe(memory('a', 'two'));
    expect(tree(memdir).filter((p) => p.startsWith('.'))).toEqual([]);
  });

  it('AM-11 AM-24 item 5: a create of a path too long for the file system is INVALID_PATH with the virtual path only and leaves no directory', async () => {
    const { store, base } = tempStore();
    const path = `/memories/${'d/'.repeat(2100)}x.md`;
    const result = await store.create(path, 'x');
    expect(result).toEqual({ ok: false, code: 'INVALID_PATH', message: `${path} is too long for the file system: name too long (ENAMETOOLONG); nothing was changed` });
    expect(tree(base)).toEqual([]);
    await store.create('/memories/a.md', 'x');
    expect(await store.rename('/memories/a.md', path)).toMatchObject({ ok: false, code: 'INVALID_PATH' });
    expect(tree(join(base, 'mem'))).toEqual(['MEMORY.md', 'a.md']);
  });

  it('AM-11 item 5: an OS error while reading is IO_ERROR naming the virtual path, never the host path', async () => {
    const faults = faultyDisk();
    const { store, base } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', 'x');
    faults.fail('readPrefix', () => true, Object.assign(new Error(`EACCES: permission denied, open '${base}/mem/a.md'`), { code: 'EACCES' }));
    expect(await store.view('/memories/a.md', false)).toEqual({ ok: false, code: 'IO_ERROR', message: '/memories/a.md could not be read: permission denied (EACCES); nothing was changed' });
  });
});

describe('concurrent writers', () => {
  it('AM-19 two sessions creating memories at once in one project lose no index line', async () => {
    const base = tempDir();
    const memdir = join(base, 'mem');
    const a = new MemoryStore(nodeDisk, memdir, LIMITS);
    const b = new MemoryStore(nodeDisk, memdir, LIMITS);
    const names = Array.from({ length: 12 }, (_, i) => `m${String(i).padStart(2, '0')}`);
    const results = await Promise.all(names.map((n, i) => (i % 2 === 0 ? a : b).create(`/memories/${n}.md`, memory(n, n.toUpperCase()))));
    expect(results.every((r) => r.ok)).toBe(true);
    const lines = read(join(memdir, 'MEMORY.md'))!.split('\n').filter((l) => l.startsWith('- ')).sort();
    expect(lines).toEqual(names.map((n) => `- [${n}](${n}.md) — ${n.toUpperCase()}`));
  });

  it('AM-19 AM-25 item 3: four processes creating 40 memories each at once in one project lose no index line', async () => {
    const memdir = join(tempDir(), 'mem');
    const script = `
      const { MemoryStore } = await import(${JSON.stringify(built('plugins/auto-memory/store.js'))});
      const { nodeDisk } = await import(${JSON.stringify(built('plugins/auto-memory/disk.js'))});
      const [memdir, id] = process.argv.slice(1);
      const store = new MemoryStore(nodeDisk, memdir, { maxFileBytes: 65536, maxFiles: 1000 });
      const failed = [];
      for (let i = 0; i < 40; i++) {
        const name = 'p' + id + '-m' + String(i).padStart(2, '0');
        const result = await store.create('/memories/' + name + '.md', '---\\nname: ' + name + '\\ndescription: D ' + name + '\\n---\\nBody.\\n');
        if (!result.ok) failed.push(result);
      }
      process.stdout.write(JSON.stringify(failed));
    `;
    const runs = await Promise.all([0, 1, 2, 3].map((id) => runScript(script, [memdir, String(id)])));
    expect(runs.map((r) => [r.status, r.stdout, r.stderr])).toEqual(runs.map(() => [0, '[]', '']));
    const expected = [0, 1, 2, 3].flatMap((id) => Array.from({ length: 40 }, (_, i) => `p${id}-m${String(i).padStart(2, '0')}`));
    const lines = read(join(memdir, 'MEMORY.md'))!.split('\n').filter((l) => l.startsWith('- ')).sort();
    expect(lines).toEqual(expected.sort().map((n) => `- [${n}](${n}.md) — D ${n}`));
    expect(tree(memdir).filter((p) => p.startsWith('.'))).toEqual([]);
  });

  it('AM-06 AM-25 item 3: a project key as long as a file name may be (255 bytes) still gets its lock, and the lock is gone afterwards', async () => {
    const base = tempDir();
    const memdir = join(base, `--${'k'.repeat(251)}--`);
    const store = new MemoryStore(nodeDisk, memdir, LIMITS);
    expect(await store.create('/memories/a.md', memory('a', 'A'))).toMatchObject({ ok: true });
    expect(tree(base).filter((p) => !p.startsWith('--'))).toEqual([]);
  });

  it('AM-19 another process editing MEMORY.md between read and rename: the update starts over and keeps that edit', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'A'));
    let interfered = false;
    faults.before('createExclusive', (path) => {
      if (!interfered && path.includes('.MEMORY.md.')) {
        interfered = true;
        writeFileSync(join(memdir, 'MEMORY.md'), `${read(join(memdir, 'MEMORY.md'))}- [x](x.md) — written elsewhere\n`);
      }
    });
    await store.create('/memories/b.md', memory('b', 'B'));
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [a](a.md) — A\n- [x](x.md) — written elsewhere\n- [b](b.md) — B\n');
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md', 'b.md']);
  });

  it('AM-19 issue 32 item 2: a command robbed of the lock while it was stopped (judged abandoned) publishes nothing and says so', async () => {
    const faults = faultyDisk();
    const { store, memdir } = tempStore({}, faults.disk);
    await store.create('/memories/a.md', memory('a', 'A'));
    const lock = lockPathFor(memdir);
    let robbed = false;
    faults.before('createExclusive', (path) => {
      if (!robbed && path.includes('.b.md.')) {
        robbed = true;
        rmSync(lock);
        writeFileSync(lock, JSON.stringify({ ...thisProcess(), pid: process.ppid, since: Date.now(), token: 'thief' }));
      }
    });
    expect(await store.create('/memories/b.md', memory('b', 'B'))).toEqual({
      ok: false, code: 'IO_ERROR',
      message: 'another process took over this project\'s memory lock while this command held it (judged abandoned: not refreshed for too long); nothing was changed, try again',
    });
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md']);
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [a](a.md) — A\n');
  });
});
