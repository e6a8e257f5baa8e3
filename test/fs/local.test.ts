// The node:fs provider against real temp directories (contract §9): symlink-following resolve and
// stat, versions that change with content, lazy streamText that honours abort signals and surfaces
// read errors while iterating.

import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/fs/index.js';
import { FsError } from '../../src/host/index.js';
import { code, drain } from '../support/fs.js';

let root: string;
const fs = createNodeFileSystem({ cwd: '/' });

beforeEach(async () => {
  // realpath: os.tmpdir() may itself be behind a symlink (macOS /var → /private/var).
  root = await realpath(await mkdtemp(join(tmpdir(), 'dsh-fs-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const aborted = () => {
  const c = new AbortController();
  c.abort();
  return c.signal;
};

describe('resolve', () => {
  it('keys an existing path by its realpath and keeps the display path as written', async () => {
    await mkdir(join(root, 'real'));
    await writeFile(join(root, 'real', 'a.md'), 'x');
    await symlink(join(root, 'real'), join(root, 'link'));
    const target = await fs.resolve('link/a.md', { cwd: root });
    expect(target).toEqual({ targetKey: join(root, 'real', 'a.md'), displayPath: join(root, 'link', 'a.md') });
    expect(fs.processPath(target)).toBe(join(root, 'real', 'a.md'));
    expect(fs.fileUrl(target)).toBe(`file://${join(root, 'real', 'a.md')}`);
  });

  it('follows a final-component symlink for identity', async () => {
    await writeFile(join(root, 'AGENTS.md'), 'x');
    await symlink(join(root, 'AGENTS.md'), join(root, 'CLAUDE.md'));
    expect((await fs.resolve(join(root, 'CLAUDE.md'))).targetKey).toBe(join(root, 'AGENTS.md'));
  });

  it('never fails for absence: the key is the nearest existing ancestor plus the missing rest', async () => {
    await mkdir(join(root, 'real'));
    await symlink(join(root, 'real'), join(root, 'link'));
    expect(await fs.resolve(join(root, 'link', 'no', 'such.md'))).toEqual({
      targetKey: join(root, 'real', 'no', 'such.md'),
      displayPath: join(root, 'link', 'no', 'such.md'),
    });
  });

  it('an empty path, or a file used as a directory, is FS_NOT_FOUND; an aborted signal is FS_ABORTED', async () => {
    await writeFile(join(root, 'file'), 'x');
    expect(await code(fs.resolve(''))).toBe('FS_NOT_FOUND');
    expect(await code(fs.resolve(join(root, 'file', 'child')))).toBe('FS_NOT_FOUND');
    expect(await code(fs.resolve(join(root, 'file', 'a', 'b')))).toBe('FS_NOT_FOUND');
    expect(await code(fs.resolve(join(root, 'file'), { signal: aborted() }))).toBe('FS_ABORTED');
  });

  it('item 10: a remembered directory that became a link, or a link that was retargeted, resolves to its new real path', async () => {
    const provider = createNodeFileSystem({ cwd: '/' });
    await mkdir(join(root, 'a'));
    await mkdir(join(root, 'one'));
    await mkdir(join(root, 'two'));
    await symlink(join(root, 'one'), join(root, 'l'));
    expect((await provider.resolve(join(root, 'a', 'x.md'))).targetKey).toBe(join(root, 'a', 'x.md'));
    expect((await provider.resolve(join(root, 'l', 'f.md'))).targetKey).toBe(join(root, 'one', 'f.md'));
    await rename(join(root, 'a'), join(root, 'moved'));
    await symlink(join(root, 'two'), join(root, 'a'));
    await rm(join(root, 'l'));
    await symlink(join(root, 'two'), join(root, 'l'));
    expect((await provider.resolve(join(root, 'a', 'x.md'))).targetKey).toBe(join(root, 'two', 'x.md'));
    expect((await provider.resolve(join(root, 'l', 'f.md'))).targetKey).toBe(join(root, 'two', 'f.md'));
    await rm(join(root, 'l'));
    await writeFile(join(root, 'l'), 'now a file');
    expect(await code(provider.resolve(join(root, 'l', 'f.md')))).toBe('FS_NOT_FOUND');
    await rm(join(root, 'two'), { recursive: true });
    expect((await provider.resolve(join(root, 'a', 'x.md'))).targetKey).toBe(join(root, 'a', 'x.md'));
  });

  it('contains compares target keys by path segments', async () => {
    const parent = await fs.resolve(join(root, 'a'));
    expect(fs.contains(parent, await fs.resolve(join(root, 'a', 'b')))).toBe(true);
    expect(fs.contains(parent, parent)).toBe(true);
    expect(fs.contains(parent, await fs.resolve(join(root, 'ab')))).toBe(false);
  });
});

describe('stat and lstat', () => {
  it('reports files with size, directories, and undefined for absent paths', async () => {
    await writeFile(join(root, 'f.md'), 'héllo');
    await mkdir(join(root, 'd'));
    const file = await fs.stat(await fs.resolve(join(root, 'f.md')));
    expect(file).toMatchObject({ type: 'file', size: 6 });
    expect(typeof file!.version).toBe('string');
    expect(await fs.stat(await fs.resolve(join(root, 'd')))).toMatchObject({ type: 'directory' });
    expect(await fs.stat(await fs.resolve(join(root, 'missing.md')))).toBeUndefined();
    expect(await fs.stat(await fs.resolve(join(root, 'missing', 'deeper.md')))).toBeUndefined();
  });

  it('follows symlinks: a link to a directory is a directory, a dangling link is absent', async () => {
    await mkdir(join(root, 'd'));
    await symlink(join(root, 'd'), join(root, 'to-dir'));
    await symlink(join(root, 'nowhere'), join(root, 'dangling'));
    expect(await fs.stat(await fs.resolve(join(root, 'to-dir')))).toMatchObject({ type: 'directory' });
    expect(await fs.stat(await fs.resolve(join(root, 'dangling')))).toBeUndefined();
    expect(await fs.lstat(join(root, 'to-dir'))).toMatchObject({ type: 'symlink' });
    expect(await fs.lstat('dangling', { cwd: root })).toMatchObject({ type: 'symlink' });
    expect(await fs.lstat(join(root, 'none'))).toBeUndefined();
  });

  it('a target resolved before the file existed sees it once it is created', async () => {
    const target = await fs.resolve(join(root, 'later.md'));
    expect(await fs.stat(target)).toBeUndefined();
    await writeFile(join(root, 'later.md'), 'now');
    expect(await fs.stat(target)).toMatchObject({ type: 'file', size: 3 });
  });

  it('versions are stable while nothing changes and change when content changes, even at the same size', async () => {
    const path = join(root, 'v.md');
    await writeFile(path, 'aaaa');
    const target = await fs.resolve(path);
    const v1 = (await fs.stat(target))!.version;
    expect((await fs.stat(target))!.version).toBe(v1);
    await writeFile(path, 'bbbb');
    const v2 = (await fs.stat(target))!.version;
    expect(v2).not.toBe(v1);
    await writeFile(join(root, 'other'), 'cccc');
    await rename(join(root, 'other'), path);
    expect((await fs.stat(target))!.version).not.toBe(v2);
  });

  it('an aborted signal is FS_ABORTED', async () => {
    await writeFile(join(root, 'f'), 'x');
    expect(await code(fs.stat(await fs.resolve(join(root, 'f')), aborted()))).toBe('FS_ABORTED');
    expect(await code(fs.lstat(join(root, 'f'), {}, aborted()))).toBe('FS_ABORTED');
  });
});

describe('streamText', () => {
  it('resolves at once and reports absence only while iterating', async () => {
    const stream = await fs.streamText(await fs.resolve(join(root, 'missing.md')));
    expect(await code(drain(stream))).toBe('FS_NOT_FOUND');
  });

  it('a file removed between streamText and iteration fails while iterating', async () => {
    await writeFile(join(root, 'gone.md'), 'x');
    const stream = await fs.streamText(await fs.resolve(join(root, 'gone.md')));
    await rm(join(root, 'gone.md'));
    expect(await code(drain(stream))).toBe('FS_NOT_FOUND');
  });

  it('reads through symlinks, strips a leading BOM, and decodes sequences split across chunks', async () => {
    const text = `${'é'.repeat(40_000)}😀${'中'.repeat(30_000)}`;
    await writeFile(join(root, 'big.md'), `\ufeff${text}`);
    await symlink(join(root, 'big.md'), join(root, 'link.md'));
    const chunks = await drain(await fs.streamText(await fs.resolve(join(root, 'link.md'))));
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('')).toBe(text);
    expect(await fs.readText(await fs.resolve(join(root, 'big.md')))).toBe(text);
  });

  it('small files (one short read, no extra read for the end) and empty files read whole', async () => {
    for (const text of ['', 'a', 'é😀 small file\n', 'x'.repeat(65535), 'y'.repeat(65536), 'z'.repeat(65537)]) {
      await writeFile(join(root, 'f.md'), text);
      expect((await drain(await fs.streamText(await fs.resolve(join(root, 'f.md'))))).join('')).toBe(text);
    }
  });

  it('a directory is FS_NOT_REGULAR_FILE; NUL bytes or invalid UTF-8 are FS_NOT_TEXT', async () => {
    await mkdir(join(root, 'd'));
    await writeFile(join(root, 'nul.bin'), Buffer.from([0x61, 0x00, 0x62]));
    await writeFile(join(root, 'bad.txt'), Buffer.from([0x61, 0xff, 0x62]));
    await writeFile(join(root, 'cut.txt'), Buffer.from([0x61, 0xe4, 0xb8]));
    expect(await code(fs.readText(await fs.resolve(join(root, 'd'))))).toBe('FS_NOT_REGULAR_FILE');
    expect(await code(fs.readText(await fs.resolve(join(root, 'nul.bin'))))).toBe('FS_NOT_TEXT');
    expect(await code(fs.readText(await fs.resolve(join(root, 'bad.txt'))))).toBe('FS_NOT_TEXT');
    expect(await code(fs.readText(await fs.resolve(join(root, 'cut.txt'))))).toBe('FS_NOT_TEXT');
  });

  it.skipIf(process.platform === 'win32')('a FIFO is refused at once as FS_NOT_REGULAR_FILE by streamText, readBytes and writeText (opening it must not block)', async () => {
    const fifo = join(root, 'AGENTS.md');
    execFileSync('mkfifo', [fifo]);
    const target = await fs.resolve(fifo);
    expect(await fs.stat(target)).toMatchObject({ type: 'other' });
    expect(await code(drain(await fs.streamText(target)))).toBe('FS_NOT_REGULAR_FILE');
    expect(await code(fs.readBytes(target, undefined, 10))).toBe('FS_NOT_REGULAR_FILE');
    expect(await code(fs.writeText(target, 'x'))).toBe('FS_NOT_REGULAR_FILE');
  }, 2000);

  it('honours the signal: aborted before iterating, or between chunks', async () => {
    await writeFile(join(root, 'big.md'), 'x'.repeat(300_000));
    const target = await fs.resolve(join(root, 'big.md'));
    expect(await code(drain(await fs.streamText(target, aborted())))).toBe('FS_ABORTED');
    const controller = new AbortController();
    const seen: number[] = [];
    const failure = await code((async () => {
      for await (const chunk of await fs.streamText(target, controller.signal)) {
        seen.push(chunk.length);
        controller.abort();
      }
    })());
    expect(failure).toBe('FS_ABORTED');
    expect(seen).toEqual([65536]);
  });

  it('an early return closes the file, and the file can be removed afterwards', async () => {
    await writeFile(join(root, 'big.md'), 'y'.repeat(200_000));
    for await (const chunk of await fs.streamText(await fs.resolve(join(root, 'big.md')))) {
      expect(chunk.length).toBe(65536);
      break;
    }
    await rm(join(root, 'big.md'));
    expect(await fs.stat(await fs.resolve(join(root, 'big.md')))).toBeUndefined();
  });
});

describe('readBytes, listDir, writeText, editText', () => {
  it('readBytes returns the bytes or FS_TOO_LARGE past maxBytes', async () => {
    await writeFile(join(root, 'b'), 'abc');
    const target = await fs.resolve(join(root, 'b'));
    expect(Array.from(await fs.readBytes(target, undefined, 3))).toEqual([97, 98, 99]);
    expect(await code(fs.readBytes(target, undefined, 2))).toBe('FS_TOO_LARGE');
  });

  it('listDir lists entries in code-point order, typed after following symlinks (a dangling link is other, keyed by its own path)', async () => {
    await writeFile(join(root, 'b.md'), 'x');
    await mkdir(join(root, 'A'));
    await symlink(join(root, 'A'), join(root, 'c'));
    await symlink(join(root, 'none'), join(root, 'd'));
    const entries = await fs.listDir(await fs.resolve(root));
    expect(entries.map((e) => [e.name, e.type, e.target.targetKey])).toEqual([
      ['A', 'directory', join(root, 'A')],
      ['b.md', 'file', join(root, 'b.md')],
      ['c', 'directory', join(root, 'A')],
      ['d', 'other', join(root, 'd')],
    ]);
  });

  it('writeText creates parents, reports created, and refuses a stale expected version', async () => {
    const target = await fs.resolve(join(root, 'new', 'dir', 'f.md'));
    const first = await fs.writeText(target, 'one');
    expect(first.created).toBe(true);
    const second = await fs.writeText(target, 'two!', { version: first.version });
    expect(second.created).toBe(false);
    expect(await fs.readText(target)).toBe('two!');
    expect(await code(fs.writeText(target, 'three', { version: first.version }))).toBe('FS_STALE_VERSION');
  });

  it('editText replaces exactly one occurrence, or all with replaceAll, and names the failure otherwise', async () => {
    const target = await fs.resolve(join(root, 'e.md'));
    await fs.writeText(target, 'a-b-a');
    await expect(fs.editText(target, { oldString: 'a', newString: 'x', replaceAll: false })).rejects.toThrow(
      new FsError('FS_AMBIGUOUS_EDIT', `editText ${join(root, 'e.md')}: oldString occurs 2 times; pass replaceAll to replace every one`),
    );
    expect(await code(fs.editText(target, { oldString: 'zz', newString: 'x', replaceAll: false }))).toBe('FS_EDIT_NOT_FOUND');
    expect(await fs.editText(target, { oldString: 'b', newString: 'B', replaceAll: false })).toMatchObject({ replacements: 1 });
    expect(await fs.editText(target, { oldString: 'a', newString: 'x', replaceAll: true })).toMatchObject({ replacements: 2 });
    expect(await fs.readText(target)).toBe('x-B-x');
    expect(await code(fs.editText(await fs.resolve(join(root, 'none')), { oldString: 'a', newString: 'b', replaceAll: false }))).toBe('FS_NOT_FOUND');
  });
});
