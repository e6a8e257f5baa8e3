// Pure logic without a host (AM-38): virtual paths, frontmatter, names and issues, index lines,
// and the text edits. Property tests where a function has an invariant.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countOccurrences, editLines, replaceOnce, splitLines } from '../../../src/plugins/auto-memory/edit.js';
import { memoryFields, rulePaths, splitFrontmatter } from '../../../src/plugins/auto-memory/frontmatter.js';
import {
  appendEntry, encodeTarget, entryLine, escapeTitle, INDEX_HEADER, lineEnding, parseEntry, removeEntries, syncEntries,
} from '../../../src/plugins/auto-memory/index-file.js';
import { deriveEntry, legacyTitle, memoryIssues, NAME_PATTERN, newIssues } from '../../../src/plugins/auto-memory/memory-file.js';
import { parseVirtualPath, requireMarkdown } from '../../../src/plugins/auto-memory/paths.js';
import { compareCodePoints, completeUtf8Length } from '../../../src/plugins/auto-memory/content.js';

describe('virtual paths', () => {
  it('AM-08 AM-24 /memories and /memories/<segments> parse; the exact messages name the problem', () => {
    expect(parseVirtualPath('/memories')).toEqual({ segments: [], relative: '', virtual: '/memories' });
    expect(parseVirtualPath('/memories/a b/c.md')).toEqual({ segments: ['a b', 'c.md'], relative: 'a b/c.md', virtual: '/memories/a b/c.md' });
    expect(parseVirtualPath('/memories/../x.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories/../x.md" is not allowed: the segment ".." is a relative step' });
    expect(parseVirtualPath('/memories/.x.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories/.x.md" is not allowed: the segment ".x.md" is hidden (starts with .)' });
    expect(parseVirtualPath('/memories//x.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories//x.md" is not allowed: it has an empty segment (a doubled or trailing /)' });
    expect(parseVirtualPath('/memories/a\\b.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories/a\\\\b.md" is not allowed: the segment "a\\\\b.md" contains a backslash' });
    expect(parseVirtualPath('/memories/a:b.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories/a:b.md" is not allowed: the segment "a:b.md" contains a colon' });
    expect(parseVirtualPath('/memories/a\0.md')).toEqual({ code: 'INVALID_PATH', message: '"/memories/a\\u0000.md" is not allowed: the segment "a\\u0000.md" contains a NUL character' });
    expect(parseVirtualPath('/tmp/x.md')).toEqual({ code: 'INVALID_PATH', message: '"/tmp/x.md" is outside /memories; every path must be /memories or start with /memories/' });
    expect(parseVirtualPath(7)).toEqual({ code: 'INVALID_PATH', message: 'path must be a string starting with /memories, got number' });
    expect(parseVirtualPath(`/memories/${'é'.repeat(128)}`)).toEqual({ code: 'INVALID_PATH', message: `"/memories/${'é'.repeat(128)}" is not allowed: a segment is 256 bytes; the limit is 255` });
  });

  it('AM-24 property: an accepted path never has a segment that climbs, hides, or holds \\ NUL :', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('/', '.', '\\', ':', '\0', 'a', 'm', '%', ' ') }), (tail) => {
      const parsed = parseVirtualPath(`/memories/${tail}`);
      if ('code' in parsed) return;
      for (const s of parsed.segments) expect(s === '' || s.startsWith('.') || /[\\:\0]/.test(s)).toBe(false);
    }));
  });

  it('AM-08 only .md files: NOT_MARKDOWN otherwise', () => {
    const md = parseVirtualPath('/memories/a.md');
    const txt = parseVirtualPath('/memories/a.txt');
    expect(['code' in md ? md : requireMarkdown(md), 'code' in txt ? txt : requireMarkdown(txt)]).toEqual([
      undefined, { code: 'NOT_MARKDOWN', message: '/memories/a.txt is not a .md file; the memory tool reads and writes only .md files' },
    ]);
  });
});

describe('frontmatter', () => {
  it('AM-13 AM-14 flat keys, one metadata level, quotes stripped, type in metadata or at the top', () => {
    const text = '---\nname: "prefer-pnpm"\ndescription: \'it\'\'s: pnpm\'\nmetadata:\n  type: feedback\n  other: x\nextra: [1, 2]\n---\nbody\n';
    expect(memoryFields(text)).toEqual({ name: 'prefer-pnpm', description: "it's: pnpm", type: 'feedback' });
    expect(memoryFields('---\nname: a\ntype: user\n---\n')).toEqual({ name: 'a', type: 'user' });
    expect(memoryFields('---\ntype: user\nmetadata:\n  type: project\n---\n')).toEqual({ type: 'project' });
  });

  it('AM-14 not full YAML: a value with ": " is read as written; other lines are ignored', () => {
    expect(memoryFields('---\ndescription: use a: b\n  stray: indented\n- list\nname: x\n---\n')).toEqual({ description: 'use a: b', name: 'x' });
    expect(memoryFields('---\nmetadata:\n  type: user\nname: x\n  type: ignored\n---\n')).toEqual({ name: 'x', type: 'user' });
  });

  it('AM-14 the block is the leading --- line through the next ---; CRLF fences count; no closing fence means no block', () => {
    expect(splitFrontmatter('---\r\nname: a\r\n---\r\nbody')).toEqual({ lines: ['name: a'], body: 'body' });
    expect(splitFrontmatter('---\nname: a\nbody')).toEqual({ lines: undefined, body: '---\nname: a\nbody' });
    expect(splitFrontmatter('\n---\nname: a\n---\n')).toEqual({ lines: undefined, body: '\n---\nname: a\n---\n' });
    expect(memoryFields('text\n---\nname: a\n---\n')).toEqual({});
  });

  it('AM-33 paths: block list (quoted or not), flow list, single scalar; absent or empty is []', () => {
    const lines = (t: string) => splitFrontmatter(t).lines;
    expect(rulePaths(lines('---\npaths:\n  - "src/api/**/*.ts"\n  - src/**/*.{ts,tsx}\n  - \'*.md\'\ndescription: x\n---\n'))).toEqual(['src/api/**/*.ts', 'src/**/*.{ts,tsx}', '*.md']);
    expect(rulePaths(lines('---\npaths:\n- a/**\n\n- b/**\nother: 1\n- c\n---\n'))).toEqual(['a/**', 'b/**']);
    expect(rulePaths(lines('---\npaths: ["a/*.ts", \'b/*.ts\']\n---\n'))).toEqual(['a/*.ts', 'b/*.ts']);
    expect(rulePaths(lines('---\npaths: "**/*.md"\n---\n'))).toEqual(['**/*.md']);
    expect(rulePaths(lines('---\npaths: src/**\n---\n'))).toEqual(['src/**']);
    expect(rulePaths(lines('---\npaths:\n---\n'))).toEqual([]);
    expect(rulePaths(lines('---\npaths: []\n---\n'))).toEqual([]);
    expect(rulePaths(lines('---\ndescription: no paths\n---\n'))).toEqual([]);
    expect(rulePaths(undefined)).toEqual([]);
  });
});

describe('names, titles and issues', () => {
  it('AM-15 kebab-case names', () => {
    for (const good of ['a', 'prefer-pnpm', 'a1-b2', '2024-notes']) expect(NAME_PATTERN.test(good)).toBe(true);
    for (const bad of ['', 'A', 'a_b', 'a--b', '-a', 'a-', 'a b', 'ä']) expect(NAME_PATTERN.test(bad)).toBe(false);
  });

  it('AM-18 title and description derivation', () => {
    expect(deriveEntry('---\nname: prefer-pnpm\ndescription: d\n---\nbody', 'x.md')).toEqual({ title: 'prefer-pnpm', description: 'd' });
    expect(deriveEntry('---\nname: Bad\n---\n\n  first  \n', 'sub/file name.md')).toEqual({ title: 'file name', description: 'first' });
    expect(deriveEntry('', 'x.md')).toEqual({ title: 'x', description: undefined });
    expect(legacyTitle('---\nname: Bad Name\n---\n')).toBe('Bad Name');
    expect(legacyTitle('---\nname: good\n---\n')).toBeUndefined();
  });

  it('AM-15 AM-16 [[name]] links to missing memories raise no issue; a matching top-level file has none', () => {
    expect(memoryIssues('---\nname: a\ndescription: see [[not-yet-written]]\nmetadata:\n  type: project\n---\nSee [[other]].\n', 'a.md')).toEqual([]);
  });

  it('AM-16 newIssues keeps only types the change introduced', () => {
    const before = memoryIssues('---\nname: Bad\n---\n', 'x.md');
    const after = memoryIssues('---\nname: Worse\ntype: odd\n---\n', 'x.md');
    expect(newIssues(before, after).map((i) => i.type)).toEqual(['invalid-type']);
  });
});

describe('index lines', () => {
  it('AM-18 exact line format; whitespace targets in <...>; no description → no dash', () => {
    expect(entryLine('prefer-pnpm.md', { title: 'prefer-pnpm', description: '这个仓库只用 pnpm，不用 npm' })).toBe('- [prefer-pnpm](prefer-pnpm.md) — 这个仓库只用 pnpm，不用 npm');
    expect(entryLine('my note.md', { title: 'my note', description: undefined })).toBe('- [my note](<my note.md>)');
    expect(entryLine('sub/a\tb.md', { title: 'a]b', description: 'x' })).toBe('- [a\\]b](<sub/a\tb.md>) — x');
  });

  it('AM-20 entries: list marker then [title](target); nested titles; <...> targets; tasks and other links are not entries', () => {
    expect(parseEntry('- [a [nested](x.md) title](a.md) — d [link](b.md)')).toEqual({ prefix: '- ', rawTitle: 'a [nested](x.md) title', rawTarget: 'a.md', target: 'a.md', rest: ' — d [link](b.md)' });
    expect(parseEntry('* [t](<my note.md>)')).toMatchObject({ target: 'my note.md', rawTarget: '<my note.md>', rest: '' });
    expect(parseEntry('12. [t](a(1).md)')).toMatchObject({ prefix: '12. ', target: 'a(1).md' });
    for (const line of ['- [ ] task', '- [x] done [a](a.md)', 'text [a](a.md)', '-[a](a.md)', '- see [a](a.md)', '[a](a.md)', '- [a](my note.md)', '- [a]', '- [a](<a.md)']) {
      expect([line, parseEntry(line)]).toEqual([line, undefined]);
    }
  });

  it('AM-20 property: a written line parses back to its target and title', () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }).filter((s) => !/[\n\r]/.test(s)), (title, target) => {
      fc.pre(!/[\n\r]/.test(title));
      const entry = parseEntry(entryLine(target, { title, description: undefined }));
      expect(entry).toMatchObject({ target, rawTitle: escapeTitle(title) });
    }));
  });

  it('AM-20 AM-23 property: removing a target keeps every other line byte for byte', () => {
    const line = fc.oneof(fc.constantFrom('- [a](a.md) — x', '- [b](b.md)', '- [ ] task', '# h', ''), fc.string().filter((s) => !s.includes('\n')));
    fc.assert(fc.property(fc.array(line), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, eol, final) => {
      const text = lines.join(eol) + (final && lines.length > 0 ? eol : '');
      const kept = removeEntries(text, 'a.md');
      const expected = text.split(/(?<=\n)/).filter((piece) => parseEntry(piece.replace(/\r?\n$/, ''))?.target !== 'a.md').join('');
      expect(kept).toBe(expected);
    }));
  });

  it('AM-21 AM-23 property: syncing one target changes only that target\'s entry lines, and keeps every line ending', () => {
    const line = fc.oneof(fc.constantFrom('- [a](a.md) — old', '- [Mine](a.md) — old', '- [a](a.md)', '- [b](b.md) — old', '- [ ] [a](a.md)', '# h', ''), fc.string().filter((s) => !s.includes('\n')));
    fc.assert(fc.property(fc.array(line, { minLength: 1 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
      const text = lines.map((l) => l + eol).join('');
      const synced = syncEntries(text, { target: 'a.md', newTarget: 'z.md', before: { title: 'a', description: 'old' }, after: { title: 'z', description: 'new' } });
      const before = text.split(/(?<=\n)/);
      const after = synced.split(/(?<=\n)/);
      expect(after).toHaveLength(before.length);
      before.forEach((piece, i) => {
        const entry = parseEntry(piece.replace(/\r?\n$/, ''));
        if (entry?.target === 'a.md') expect(parseEntry(after[i]!.replace(/\r?\n$/, ''))?.target).toBe('z.md');
        else expect(after[i]).toBe(piece);
        expect(after[i]!.endsWith(eol)).toBe(true);
      });
    }));
  });

  it('AM-19 AM-23 append uses the index line ending and ends an unterminated last line first', () => {
    expect(appendEntry('', 'L')).toBe('L\n');
    expect(appendEntry(INDEX_HEADER, 'L')).toBe('# Memory index\n\nL\n');
    expect(appendEntry('a\r\nb', 'L')).toBe('a\r\nb\r\nL\r\n');
    expect([lineEnding('x'), lineEnding('x\r\ny\n'), lineEnding('x\ny\r\n')]).toEqual(['\n', '\r\n', '\n']);
  });

  it('AM-21 sync rewrites generated parts only, and the target on rename', () => {
    const text = '- [a](a.md) — old\n- [Mine](a.md) — old\n- [a](a.md) — mine\n- [a](b.md) — old\n';
    const synced = syncEntries(text, { target: 'a.md', newTarget: 'n n.md', before: { title: 'a', description: 'old' }, after: { title: 'n', description: undefined } });
    expect(synced).toBe('- [n](<n n.md>)\n- [Mine](<n n.md>)\n- [n](<n n.md>) — mine\n- [a](b.md) — old\n');
  });

  it('encodeTarget: bare when possible', () => {
    expect([encodeTarget('a/b.md'), encodeTarget('a b.md'), encodeTarget('a<b>.md')]).toEqual(['a/b.md', '<a b.md>', '<a\\<b\\>.md>']);
  });
});

describe('edits', () => {
  it('AM-10 countOccurrences counts non-overlapping matches', () => {
    expect([countOccurrences('aaaa', 'aa'), countOccurrences('aaa', 'aa'), countOccurrences('abc', 'd')]).toEqual([2, 1, 0]);
    expect(replaceOnce('x aaa', 'aa', 'b', 'f')).toBe('x ba');
  });

  it('AM-10 insert positions, line endings and the final newline', () => {
    expect(editLines('a\nb\n', 0, 'z', 'f')).toBe('z\na\nb\n');
    expect(editLines('a\nb\n', 1, 'z', 'f')).toBe('a\nz\nb\n');
    expect(editLines('a\nb\n', 2, 'z', 'f')).toBe('a\nb\nz\n');
    expect(editLines('a\nb', 2, 'z', 'f')).toBe('a\nb\nz');
    expect(editLines('a\r\nb\r\n', 1, 'x\ny', 'f')).toBe('a\r\nx\r\ny\r\nb\r\n');
    expect(editLines('', 0, 'first\n', 'f')).toBe('first\n');
    expect(editLines('', 0, 'first', 'f')).toBe('first');
    expect(editLines('a', 2, 'z', 'f')).toEqual({ ok: false, code: 'INVALID_LINE', message: 'insert_line 2 is outside 0..1 for f (1 lines)' });
  });

  it('AM-10 property: insert keeps every original line and adds the new ones at insert_line', () => {
    const lineText = fc.string().filter((s) => !/[\r\n]/.test(s));
    fc.assert(fc.property(fc.array(lineText), fc.array(lineText, { minLength: 1 }), fc.nat(), fc.constantFrom('\n', '\r\n'), fc.boolean(), (lines, added, at, eol, final) => {
      fc.pre((final || lines.at(-1) !== '') && added.at(-1) !== '');
      const text = lines.join(eol) + (final && lines.length > 0 ? eol : '');
      const k = at % (lines.length + 1);
      expect(splitLines(editLines(text, k, added.join('\n'), 'f') as string)).toEqual([...lines.slice(0, k), ...added, ...lines.slice(k)]);
    }));
  });
});

describe('helpers', () => {
  it('X-15 compareCodePoints orders astral characters after U+FFxx, unlike UTF-16 order', () => {
    expect(['\u{1F600}', '\uFF21', 'b', 'a'].sort(compareCodePoints)).toEqual(['a', 'b', '\uFF21', '\u{1F600}']);
  });

  it('X-04 completeUtf8Length never ends inside a sequence', () => {
    fc.assert(fc.property(fc.string(), fc.nat(), (text, cut) => {
      const bytes = new TextEncoder().encode(text);
      const prefix = bytes.subarray(0, cut % (bytes.length + 1));
      const n = completeUtf8Length(prefix);
      expect(new TextDecoder('utf-8', { fatal: true }).decode(prefix.subarray(0, n)).length).toBeGreaterThanOrEqual(0);
      expect(prefix.length - n).toBeLessThanOrEqual(3);
    }));
  });
});
