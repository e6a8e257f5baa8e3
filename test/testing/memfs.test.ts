// Contract §9 / §12.6: the in-memory fs provider and its fault injection.

import { describe, expect, it } from 'vitest';
import { FsError } from '../../src/host/index.js';
import { createMemoryFileSystem } from '../../src/testing/index.js';
import { code, drain } from '../support/fs.js';


describe('the provider', () => {
  it('§9 resolve never fails for absence; symlinks resolve to one key; display paths stay as written', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/AGENTS.md': 'rules' }, cwd: '/repo' });
    fs.symlink('/repo/CLAUDE.md', 'AGENTS.md');
    fs.symlink('/link', '/repo');
    expect(await fs.resolve('CLAUDE.md')).toEqual({ targetKey: '/repo/AGENTS.md', displayPath: '/repo/CLAUDE.md' });
    expect(await fs.resolve('/link/x/y.md')).toEqual({ targetKey: '/repo/x/y.md', displayPath: '/link/x/y.md' });
    expect(await code(fs.resolve('/repo/AGENTS.md/child'))).toBe('FS_NOT_FOUND');
    expect(await code(fs.resolve(''))).toBe('FS_NOT_FOUND');
  });

  it('§9 stat follows symlinks, is undefined when absent, and reports the UTF-8 size', async () => {
    const fs = createMemoryFileSystem({ files: { '/d/f.md': 'héllo' } });
    fs.symlink('/to-dir', '/d');
    fs.symlink('/dangling', '/nowhere');
    expect(await fs.stat(await fs.resolve('/d/f.md'))).toEqual({ type: 'file', size: 6, version: expect.any(String) });
    expect(await fs.stat(await fs.resolve('/to-dir'))).toMatchObject({ type: 'directory' });
    expect(await fs.stat(await fs.resolve('/dangling'))).toBeUndefined();
    expect(await fs.lstat('/to-dir')).toMatchObject({ type: 'symlink' });
  });

  it('§9 versions change with every write and can be pinned explicitly', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'x' } });
    const target = await fs.resolve('/a');
    const v1 = (await fs.stat(target))!.version;
    expect((await fs.stat(target))!.version).toBe(v1);
    fs.write('/a', 'x');
    const v2 = (await fs.stat(target))!.version;
    expect(v2).not.toBe(v1);
    fs.write('/a', 'changed but same version', { version: v2 });
    expect((await fs.stat(target))!.version).toBe(v2);
    expect(await fs.readText(target)).toBe('changed but same version');
  });

  it('§9 streamText is lazy: the lookup happens while iterating, in chunks that never split a surrogate pair', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'ab😀cd' }, chunkSize: 3 });
    const target = await fs.resolve('/a');
    const stream = await fs.streamText(target);
    fs.write('/a', 'ab😀cdef');
    expect(await drain(stream)).toEqual(['ab😀', 'cde', 'f']);
    const gone = await fs.streamText(await fs.resolve('/none'));
    expect(await code(drain(gone))).toBe('FS_NOT_FOUND');
    fs.mkdir('/dir');
    expect(await code(fs.readText(await fs.resolve('/dir')))).toBe('FS_NOT_REGULAR_FILE');
    fs.write('/bin', 'a\0b');
    expect(await code(fs.readText(await fs.resolve('/bin')))).toBe('FS_NOT_TEXT');
  });

  it('§9 like the local backend, streamText strips a leading BOM and sniffs NUL in the first 8192 bytes (not code units)', async () => {
    const fs = createMemoryFileSystem({ files: { '/bom.md': '\ufeffrules\ufeff', '/late-nul.md': `${'é'.repeat(5000)}\0`, '/early-nul.md': `${'é'.repeat(4000)}\0` } });
    const bom = await fs.resolve('/bom.md');
    expect([await fs.readText(bom), (await fs.stat(bom))!.size]).toEqual(['rules\ufeff', 11]);
    expect(Array.from(await fs.readBytes(bom, undefined, 11)).slice(0, 3)).toEqual([0xef, 0xbb, 0xbf]);
    expect(await fs.readText(await fs.resolve('/late-nul.md'))).toBe(`${'é'.repeat(5000)}\0`);
    expect(await code(fs.readText(await fs.resolve('/early-nul.md')))).toBe('FS_NOT_TEXT');
  });

  it('§9 a symlink loop is an I/O error (ELOOP), not a crash of another type', async () => {
    const fs = createMemoryFileSystem();
    fs.symlink('/a', '/b');
    fs.symlink('/b', '/a');
    expect(await code(fs.resolve('/a/x'))).toBe('FS_IO_ERROR');
    expect(await code(fs.stat({ targetKey: '/a', displayPath: '/a' }))).toBe('FS_IO_ERROR');
  });

  it('§9 listDir is sorted; writeText and editText follow the provider contract; calls are recorded', async () => {
    const fs = createMemoryFileSystem({ files: { '/d/b': '1', '/d/a': '2' } });
    fs.mkdir('/d/c');
    expect((await fs.listDir(await fs.resolve('/d'))).map((e) => [e.name, e.type])).toEqual([['a', 'file'], ['b', 'file'], ['c', 'directory']]);
    const target = await fs.resolve('/d/new/x.md');
    expect(await fs.writeText(target, 'a a')).toEqual({ version: expect.any(String), created: true });
    expect(await code(fs.editText(target, { oldString: 'a', newString: 'b', replaceAll: false }))).toBe('FS_AMBIGUOUS_EDIT');
    expect(await fs.editText(target, { oldString: 'a', newString: 'b', replaceAll: true })).toMatchObject({ replacements: 2 });
    expect(fs.read('/d/new/x.md')).toBe('b b');
    expect(fs.calls.map((c) => `${c.op} ${c.path}`)).toEqual(['resolve /d', 'listDir /d', 'resolve /d/new/x.md', 'writeText /d/new/x.md', 'editText /d/new/x.md', 'editText /d/new/x.md']);
  });
});

describe('fault injection', () => {
  it('§12.6 a throwing stat or resolve, with a default or given error', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'x' } });
    const lift = fs.fault('/a', { op: 'stat' });
    await expect(fs.stat(await fs.resolve('/a'))).rejects.toThrow(new FsError('FS_IO_ERROR', 'injected stat failure: /a'));
    lift();
    expect(await fs.stat(await fs.resolve('/a'))).toBeDefined();
    fs.fault('/a', { op: 'resolve', error: new Error('EACCES') });
    await expect(fs.resolve('/a')).rejects.toThrow('EACCES');
  });

  it('§12.6 a read that fails mid-stream after some chunks', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'abcdefgh' }, chunkSize: 2 });
    fs.fault('/a', { op: 'read', afterChunks: 2 });
    const seen: string[] = [];
    const failure = await code((async () => {
      for await (const chunk of await fs.streamText(await fs.resolve('/a'))) seen.push(chunk);
    })());
    expect([seen, failure]).toEqual([['ab', 'cd'], 'FS_IO_ERROR']);
  });

  it('§9 §12.6 read faults are looked up lazily too: one injected after streamText() but before iterating fires', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'abc' } });
    const stream = await fs.streamText(await fs.resolve('/a'));
    fs.fault('/a', { op: 'read' });
    expect(await code(drain(stream))).toBe('FS_IO_ERROR');
  });

  it('§12.6 a missing size', async () => {
    const fs = createMemoryFileSystem();
    fs.write('/big', 'x'.repeat(10), { omitSize: true });
    expect(await fs.stat(await fs.resolve('/big'))).toEqual({ type: 'file', version: expect.any(String) });
  });

  it('§12.6 a stream that blocks until its signal aborts', async () => {
    const fs = createMemoryFileSystem({ files: { '/slow': 'text' } });
    fs.fault('/slow', { op: 'read', block: true });
    const controller = new AbortController();
    const reading = drain(await fs.streamText(await fs.resolve('/slow'), controller.signal));
    let settled = false;
    void reading.then(() => (settled = true), () => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    expect(await code(reading)).toBe('FS_ABORTED');
  });

  it('§12.6 an aborted signal rejects every operation with FS_ABORTED', async () => {
    const fs = createMemoryFileSystem({ files: { '/a': 'x' } });
    const target = await fs.resolve('/a');
    const controller = new AbortController();
    controller.abort();
    expect(await code(fs.resolve('/a', { signal: controller.signal }))).toBe('FS_ABORTED');
    expect(await code(fs.stat(target, controller.signal))).toBe('FS_ABORTED');
    expect(await code(fs.readText(target, controller.signal))).toBe('FS_ABORTED');
  });
});
