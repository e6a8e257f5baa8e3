// The memory store over a real temporary directory, without any host (AM-38): the six commands,
// their exact results and errors, limits, and index maintenance.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memory, mode, read, tempStore, tree } from './support.js';

const ok = (command: string, path: string, issues: object[] = [], extra: object = {}) => ({ ok: true, command, path, ...extra, issues });
const NO_ISSUES_PNPM = memory('prefer-pnpm', '这个仓库只用 pnpm，不用 npm');

describe('view', () => {
  it('AM-09 a fresh project lists nothing (the empty-dir message comes from render)', async () => {
    const { store, memdir } = tempStore();
    expect(await store.view(undefined, false)).toEqual({ ok: true, command: 'view', path: '/memories', kind: 'directory', entries: [] });
    expect(await store.view('/memories', false)).toEqual({ ok: true, command: 'view', path: '/memories', kind: 'directory', entries: [] });
    expect(tree(memdir)).toEqual([]);
  });

  it('AM-09 a listing is every .md file below the dir, recursively, relative and sorted by code point', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(join(memdir, 'sub/deep'), { recursive: true });
    for (const f of ['b.md', 'a.md', 'Z.md', 'sub/x.md', 'sub/deep/y.md', 'note.txt', '.hidden.md', 'a-b.md', '\u{1F600}.md', '\uFF21.md']) writeFileSync(join(memdir, f), 'x');
    expect(await store.view('/memories', false)).toMatchObject({ entries: ['Z.md', 'a-b.md', 'a.md', 'b.md', 'sub/deep/y.md', 'sub/x.md', '\uFF21.md', '\u{1F600}.md'] });
    expect(await store.view('/memories/sub', false)).toMatchObject({ kind: 'directory', path: '/memories/sub', entries: ['deep/y.md', 'x.md'] });
  });

  it('AM-08 a file path returns the raw content; numbered is passed through for rendering', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'a.md'), 'one\r\ntwo\n');
    expect(await store.view('/memories/a.md', true)).toEqual({ ok: true, command: 'view', path: '/memories/a.md', kind: 'file', content: 'one\r\ntwo\n', numbered: true });
  });

  it('AM-11 view errors: NOT_FOUND, NOT_MARKDOWN, INVALID_PATH', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'a.txt'), 'x');
    expect(await store.view('/memories/none.md', false)).toEqual({ ok: false, code: 'NOT_FOUND', message: '/memories/none.md does not exist' });
    expect(await store.view('/memories/a.txt', false)).toEqual({ ok: false, code: 'NOT_MARKDOWN', message: '/memories/a.txt is not a .md file; the memory tool reads and writes only .md files' });
    expect(await store.view('/etc/passwd', false)).toMatchObject({ ok: false, code: 'INVALID_PATH' });
  });
});

describe('create', () => {
  it('AM-17 AM-18 AM-19 the first memory writes the file and creates the index with the header and its line', async () => {
    const { store, memdir } = tempStore();
    expect(await store.create('/memories/prefer-pnpm.md', NO_ISSUES_PNPM)).toEqual(ok('create', '/memories/prefer-pnpm.md'));
    expect(read(join(memdir, 'prefer-pnpm.md'))).toBe(NO_ISSUES_PNPM);
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [prefer-pnpm](prefer-pnpm.md) — 这个仓库只用 pnpm，不用 npm\n');
  });

  it('AM-19 later creates append at the end of the index, keeping hand-written lines', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'MEMORY.md'), '# Mine\n\nSome prose I wrote.\n- [ ] a task\n- [old](old.md) — hand written');
    await store.create('/memories/b.md', memory('b', 'Bee'));
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Mine\n\nSome prose I wrote.\n- [ ] a task\n- [old](old.md) — hand written\n- [b](b.md) — Bee\n');
  });

  it('AM-18 without frontmatter the title is the file name and the description the first non-empty body line', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/my note.md', '\n\n  first real line  \nsecond\n');
    await store.create('/memories/empty.md', '');
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [my note](<my note.md>) — first real line\n- [empty](empty.md)\n');
  });

  it('AM-18 an invalid name falls back to the file name as title; description comes from frontmatter', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/x.md', memory('Not Kebab', 'desc'));
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [x](x.md) — desc\n');
  });

  it('AM-17 creating MEMORY.md with empty text writes the standard header', async () => {
    const { store, memdir } = tempStore();
    expect(await store.create('/memories/MEMORY.md', '')).toEqual(ok('create', '/memories/MEMORY.md'));
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n');
    expect(tree(memdir)).toEqual(['MEMORY.md']);
  });

  it('AM-16 create reports every issue, and writes anyway', async () => {
    const { store, memdir } = tempStore();
    const result = await store.create('/memories/sub/foo.md', '---\nname: Foo_Bar\nmetadata:\n  type: opinion\n---\nbody\n');
    expect(result).toEqual(ok('create', '/memories/sub/foo.md', [
      { type: 'invalid-name', message: 'name "Foo_Bar" is not kebab-case (lowercase letters and digits joined by single hyphens)' },
      { type: 'name-mismatch', message: 'name "Foo_Bar" differs from the file name "foo"' },
      { type: 'subdirectory-name', message: '[[Foo_Bar]] resolves to /memories/Foo_Bar.md, not sub/foo.md; keep memories you link to at the top level or write the full path in the body' },
      { type: 'missing-description', message: 'no description in the frontmatter; add a one-line description' },
      { type: 'invalid-type', message: 'type "opinion" is not one of user, feedback, project, reference' },
    ]));
    expect(read(join(memdir, 'sub/foo.md'))).toContain('body');
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [foo](sub/foo.md) — body\n');
  });

  it('AM-11 AM-08 an existing target is ALREADY_EXISTS and nothing changes', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', 'one\n');
    expect(await store.create('/memories/a.md', 'two\n')).toEqual({ ok: false, code: 'ALREADY_EXISTS', message: '/memories/a.md already exists; use str_replace or insert to change it, or delete it first' });
    expect(read(join(memdir, 'a.md'))).toBe('one\n');
  });

  it('AM-25 files get mode 0600 and created directories 0700', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/sub/a.md', 'x\n');
    expect([mode(join(memdir, 'sub/a.md')), mode(join(memdir, 'MEMORY.md')), mode(memdir), mode(join(memdir, 'sub'))]).toEqual([0o600, 0o600, 0o700, 0o700]);
    expect(tree(memdir)).toEqual(['MEMORY.md', 'sub', 'sub/a.md']);
  });
});

describe('limits', () => {
  it('AM-12 a write of exactly maxFileBytes passes; one byte more is FILE_TOO_LARGE naming both numbers', async () => {
    const { store, memdir } = tempStore({ maxFileBytes: 100 });
    expect(await store.create('/memories/MEMORY.md', 'é'.repeat(50))).toMatchObject({ ok: true });
    expect(await store.create('/memories/b.md', 'é'.repeat(50) + 'x')).toEqual({ ok: false, code: 'FILE_TOO_LARGE', message: '/memories/b.md would be 101 bytes; the limit is maxFileBytes = 100' });
    expect(tree(memdir)).toEqual(['MEMORY.md']);
  });

  it('AM-12 an edit whose result exceeds maxFileBytes fails and leaves the file', async () => {
    const { store, memdir } = tempStore({ maxFileBytes: 40 });
    await store.create('/memories/a.md', 'short\n');
    expect(await store.strReplace('/memories/a.md', 'short', 'x'.repeat(40))).toEqual({ ok: false, code: 'FILE_TOO_LARGE', message: '/memories/a.md would be 41 bytes; the limit is maxFileBytes = 40' });
    expect(read(join(memdir, 'a.md'))).toBe('short\n');
  });

  it('AM-12 an index line that would push MEMORY.md over maxFileBytes fails the create and writes nothing', async () => {
    const { store, memdir } = tempStore({ maxFileBytes: 40 });
    expect(await store.create('/memories/a-rather-long-name.md', 'a fairly long first line\n')).toEqual({
      ok: false, code: 'FILE_TOO_LARGE', message: '/memories/MEMORY.md would be 91 bytes; the limit is maxFileBytes = 40',
    });
    expect(tree(memdir)).toEqual([]);
  });

  it('AM-12 a rename whose longer index target would push MEMORY.md over maxFileBytes fails and moves nothing', async () => {
    const { store, memdir } = tempStore({ maxFileBytes: 40 });
    await store.create('/memories/a.md', 'x\n');
    expect(await store.rename('/memories/a.md', '/memories/a-much-longer-name.md')).toEqual({ ok: false, code: 'FILE_TOO_LARGE', message: '/memories/MEMORY.md would be 68 bytes; the limit is maxFileBytes = 40' });
    expect(tree(memdir)).toEqual(['MEMORY.md', 'a.md']);
  });

  it('AM-12 maxFiles counts MEMORY.md and the auto-created index', async () => {
    const one = tempStore({ maxFiles: 1 });
    expect(await one.store.create('/memories/a.md', 'x')).toEqual({ ok: false, code: 'TOO_MANY_FILES', message: 'creating /memories/a.md would make 2 .md files in this project (MEMORY.md included); the limit is maxFiles = 1' });
    expect(tree(one.memdir)).toEqual([]);
    const three = tempStore({ maxFiles: 3 });
    expect(await three.store.create('/memories/a.md', 'x')).toMatchObject({ ok: true });
    expect(await three.store.create('/memories/sub/b.md', 'x')).toMatchObject({ ok: true });
    expect(await three.store.create('/memories/c.md', 'x')).toEqual({ ok: false, code: 'TOO_MANY_FILES', message: 'creating /memories/c.md would make 4 .md files in this project (MEMORY.md included); the limit is maxFiles = 3' });
    expect(await three.store.rename('/memories/a.md', '/memories/c.md')).toMatchObject({ ok: true });
  });

  it('AM-12 content with NUL or a lone surrogate is BINARY_CONTENT; a file on disk that is not UTF-8 too', async () => {
    const { store, memdir } = tempStore();
    expect(await store.create('/memories/a.md', 'a\0b')).toEqual({ ok: false, code: 'BINARY_CONTENT', message: 'the new content of /memories/a.md contains a NUL character; memory files are text' });
    expect(await store.create('/memories/a.md', 'a\ud800b')).toEqual({ ok: false, code: 'BINARY_CONTENT', message: 'the new content of /memories/a.md contains a lone surrogate, which is not valid UTF-8' });
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'bin.md'), Buffer.from([0x61, 0xff, 0x62]));
    writeFileSync(join(memdir, 'nul.md'), Buffer.from([0x61, 0x00, 0x62]));
    expect(await store.view('/memories/bin.md', false)).toEqual({ ok: false, code: 'BINARY_CONTENT', message: '/memories/bin.md is not valid UTF-8 text' });
    expect(await store.strReplace('/memories/nul.md', 'a', 'b')).toEqual({ ok: false, code: 'BINARY_CONTENT', message: '/memories/nul.md contains a NUL character, so it is binary, not text' });
    expect(tree(memdir)).toEqual(['bin.md', 'nul.md']);
  });

  it('AM-12 reading a file larger than maxFileBytes is FILE_TOO_LARGE with both numbers', async () => {
    const { store, memdir } = tempStore({ maxFileBytes: 10 });
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'big.md'), 'x'.repeat(11));
    expect(await store.view('/memories/big.md', false)).toEqual({ ok: false, code: 'FILE_TOO_LARGE', message: '/memories/big.md is 11 bytes; the limit is maxFileBytes = 10' });
  });
});

describe('str_replace and insert', () => {
  it('AM-10 str_replace needs exactly one non-overlapping occurrence and a non-empty old_str', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', 'aaa b aaa\n');
    expect(await store.strReplace('/memories/a.md', 'aa', 'x')).toEqual({ ok: false, code: 'MULTIPLE_MATCHES', message: 'old_str occurs 2 times in /memories/a.md; it must occur exactly once, so include more surrounding text' });
    expect(await store.strReplace('/memories/a.md', 'zz', 'x')).toEqual({ ok: false, code: 'NO_MATCH', message: 'old_str does not occur in /memories/a.md' });
    expect(await store.strReplace('/memories/a.md', '', 'x')).toEqual({ ok: false, code: 'NO_MATCH', message: 'old_str is empty; give the exact text to replace' });
    expect(await store.strReplace('/memories/a.md', ' b ', '-')).toEqual(ok('str_replace', '/memories/a.md'));
    expect(read(join(memdir, 'a.md'))).toBe('aaa-aaa\n');
    expect(await store.strReplace('/memories/none.md', 'a', 'b')).toEqual({ ok: false, code: 'NOT_FOUND', message: '/memories/none.md does not exist' });
  });

  it('AM-10 insert after a 0-based line in the file\'s own line endings; out-of-range lines are INVALID_LINE', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'a.md'), 'one\r\ntwo\r\n');
    expect(await store.insert('/memories/a.md', 0, 'zero')).toEqual(ok('insert', '/memories/a.md'));
    expect(await store.insert('/memories/a.md', 3, 'three\nfour\n')).toMatchObject({ ok: true });
    expect(read(join(memdir, 'a.md'))).toBe('zero\r\none\r\ntwo\r\nthree\r\nfour\r\n');
    expect(await store.insert('/memories/a.md', 6, 'x')).toEqual({ ok: false, code: 'INVALID_LINE', message: 'insert_line 6 is outside 0..5 for /memories/a.md (5 lines)' });
    expect(await store.insert('/memories/a.md', -1, 'x')).toMatchObject({ code: 'INVALID_LINE' });
    expect(await store.insert('/memories/a.md', 1.5, 'x')).toMatchObject({ code: 'INVALID_LINE' });
  });

  it('AM-16 edits report only issue types the change introduced', async () => {
    const { store } = tempStore();
    await store.create('/memories/a.md', '---\nname: Bad One\ndescription: d\nmetadata:\n  type: user\n---\nx\n');
    expect(await store.strReplace('/memories/a.md', 'Bad One', 'Worse Two')).toEqual(ok('str_replace', '/memories/a.md'));
    expect(await store.strReplace('/memories/a.md', 'type: user', 'type: nonsense')).toEqual(ok('str_replace', '/memories/a.md', [
      { type: 'invalid-type', message: 'type "nonsense" is not one of user, feedback, project, reference' },
    ]));
    expect(await store.insert('/memories/a.md', 0, '')).toEqual(ok('insert', '/memories/a.md', [
      { type: 'missing-name', message: 'no name in the frontmatter; use name: a' },
      { type: 'missing-description', message: 'no description in the frontmatter; add a one-line description' },
      { type: 'missing-type', message: 'no type in the frontmatter; add metadata.type: one of user, feedback, project, reference' },
    ]));
  });

  it('AM-21 a changed name or description updates the index line part by part; hand-edited parts stay', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', memory('a', 'first'));
    await store.create('/memories/b.md', memory('b', 'second'));
    const index = join(memdir, 'MEMORY.md');
    writeFileSync(index, read(index)!.replace('[b](b.md)', '[My B](b.md)'));
    await store.strReplace('/memories/a.md', 'description: first', 'description: FIRST');
    await store.strReplace('/memories/b.md', 'description: second', 'description: SECOND');
    await store.strReplace('/memories/a.md', 'name: a', 'name: alpha');
    expect(read(index)).toBe('# Memory index\n\n- [alpha](a.md) — FIRST\n- [My B](b.md) — SECOND\n');
    writeFileSync(index, read(index)!.replace('— FIRST', '— my words'));
    await store.strReplace('/memories/a.md', 'name: alpha', 'name: beta');
    await store.strReplace('/memories/a.md', 'description: FIRST', 'description: again');
    expect(read(index)).toBe('# Memory index\n\n- [beta](a.md) — my words\n- [My B](b.md) — SECOND\n');
  });

  it('AM-21 an edit that changes neither name nor description leaves MEMORY.md byte for byte', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', memory('a', 'first', 'user', 'old body'));
    const before = read(join(memdir, 'MEMORY.md'));
    await store.strReplace('/memories/a.md', 'old body', 'new body');
    expect(read(join(memdir, 'MEMORY.md'))).toBe(before);
  });

  it('AM-22 a legacy title equal to the current invalid name is normalized to the file name on the next edit', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'x.md'), memory('Legacy Title', 'desc'));
    writeFileSync(join(memdir, 'MEMORY.md'), '# Memory index\n\n- [Legacy Title](x.md) — desc\n');
    await store.strReplace('/memories/x.md', 'Body.', 'Body!');
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [x](x.md) — desc\n');
  });
});

describe('byte-order marks', () => {
  it('AM-23 a file written with a BOM keeps it through an edit (nothing of the user\'s file is lost)', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'a.md'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('one\r\n')]));
    expect(await store.view('/memories/a.md', false)).toMatchObject({ content: 'one\r\n' });
    await store.insert('/memories/a.md', 1, 'two');
    expect(read(join(memdir, 'a.md'))).toBe('\ufeffone\r\ntwo\r\n');
  });
});

describe('delete and rename', () => {
  it('AM-19 delete removes the file and every index line with that exact target', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', memory('a', 'A'));
    await store.create('/memories/ab.md', memory('ab', 'AB'));
    const index = join(memdir, 'MEMORY.md');
    writeFileSync(index, `${read(index)}* [dup](a.md)\n- see [a](a.md) too\n`);
    expect(await store.delete('/memories/a.md')).toEqual(ok('delete', '/memories/a.md'));
    expect(read(index)).toBe('# Memory index\n\n- [ab](ab.md) — AB\n- see [a](a.md) too\n');
    expect(tree(memdir)).toEqual(['MEMORY.md', 'ab.md']);
  });

  it('AM-10 delete of MEMORY.md is allowed and does no index maintenance; directories cannot be deleted', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/sub/a.md', 'x');
    expect(await store.delete('/memories/MEMORY.md')).toEqual(ok('delete', '/memories/MEMORY.md'));
    expect(tree(memdir)).toEqual(['sub', 'sub/a.md']);
    expect(await store.delete('/memories/sub')).toMatchObject({ ok: false, code: 'NOT_MARKDOWN' });
    mkdirSync(join(memdir, 'dir.md'));
    expect(await store.delete('/memories/dir.md')).toEqual({ ok: false, code: 'FORBIDDEN', message: '/memories/dir.md is a directory; only .md files can be changed' });
    expect(await store.rename('/memories/dir.md', '/memories/e.md')).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it('AM-19 rename rewrites the target and a title generated from the old file name', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/old name.md', 'no frontmatter here\n');
    await store.create('/memories/named.md', memory('named', 'N'));
    expect(await store.rename('/memories/old name.md', '/memories/sub/new.md')).toEqual(ok('rename', '/memories/old name.md', [], { new_path: '/memories/sub/new.md' }));
    expect(await store.rename('/memories/named.md', '/memories/renamed.md')).toEqual(ok('rename', '/memories/named.md', [
      { type: 'name-mismatch', message: 'name "named" differs from the file name "renamed"' },
    ], { new_path: '/memories/renamed.md' }));
    expect(read(join(memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [new](sub/new.md) — no frontmatter here\n- [named](renamed.md) — N\n');
    expect(tree(memdir)).toEqual(['MEMORY.md', 'renamed.md', 'sub', 'sub/new.md']);
  });

  it('AM-22 rename normalizes a legacy title to the new file name', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'x.md'), memory('Legacy', 'd'));
    writeFileSync(join(memdir, 'MEMORY.md'), '- [Legacy](x.md) — d\n');
    await store.rename('/memories/x.md', '/memories/y.md');
    expect(read(join(memdir, 'MEMORY.md'))).toBe('- [y](y.md) — d\n');
  });

  it('AM-10 rename refuses an existing new_path and MEMORY.md on either side', async () => {
    const { store, memdir } = tempStore();
    await store.create('/memories/a.md', 'a');
    await store.create('/memories/b.md', 'b');
    expect(await store.rename('/memories/a.md', '/memories/b.md')).toEqual({ ok: false, code: 'ALREADY_EXISTS', message: '/memories/b.md already exists; use str_replace or insert to change it, or delete it first' });
    const forbidden = { ok: false, code: 'FORBIDDEN', message: 'MEMORY.md cannot be renamed, and nothing can be renamed to it; the index must stay at /memories/MEMORY.md' };
    expect(await store.rename('/memories/MEMORY.md', '/memories/c.md')).toEqual(forbidden);
    expect(await store.rename('/memories/a.md', '/memories/MEMORY.md')).toEqual(forbidden);
    // On a case-insensitive file system these spell the index too.
    expect(await store.rename('/memories/memory.md', '/memories/c.md')).toEqual(forbidden);
    expect(await store.rename('/memories/a.md', '/memories/Memory.MD')).toEqual(forbidden);
    expect([read(join(memdir, 'a.md')), read(join(memdir, 'b.md'))]).toEqual(['a', 'b']);
  });
});

describe('line endings', () => {
  it('AM-23 a CRLF index stays CRLF under create, edit, delete and rename; LF stays LF', async () => {
    const { store, memdir } = tempStore();
    mkdirSync(memdir, { recursive: true });
    const index = join(memdir, 'MEMORY.md');
    writeFileSync(index, '# Memory index\r\n\r\nmy prose\r\n');
    await store.create('/memories/a.md', memory('a', 'A'));
    await store.create('/memories/b.md', memory('b', 'B'));
    expect(read(index)).toBe('# Memory index\r\n\r\nmy prose\r\n- [a](a.md) — A\r\n- [b](b.md) — B\r\n');
    await store.strReplace('/memories/a.md', 'description: A', 'description: AA');
    await store.rename('/memories/b.md', '/memories/c.md');
    expect(read(index)).toBe('# Memory index\r\n\r\nmy prose\r\n- [a](a.md) — AA\r\n- [b](c.md) — B\r\n');
    await store.delete('/memories/a.md');
    expect(read(index)).toBe('# Memory index\r\n\r\nmy prose\r\n- [b](c.md) — B\r\n');
    const lf = tempStore();
    await lf.store.create('/memories/a.md', memory('a', 'A'));
    expect(read(join(lf.memdir, 'MEMORY.md'))).toBe('# Memory index\n\n- [a](a.md) — A\n');
  });
});
