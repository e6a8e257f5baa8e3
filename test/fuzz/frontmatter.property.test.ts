// Frontmatter and memory paths under random and hostile input (issue 18 item 1, AM-14, AM-18,
// AM-24, AM-33): the hand-scanned reader agrees with the regular-expression reader it replaced on
// every line, its work (counted in steps, not timed) is linear in the text for every input up to
// 128 KiB, and an index line built from any accepted path parses back to that path and comes out
// again as it went in.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isFence, keyValue, listItem, memoryFields, rawFields, rawPaths, rulePaths, splitFrontmatter, type Meter,
} from '../../src/plugins/auto-memory/frontmatter.js';
import { appendEntry, entryLine, INDEX_HEADER, parseEntry, removeEntries, syncEntries } from '../../src/plugins/auto-memory/index-file.js';
import { deriveEntry } from '../../src/plugins/auto-memory/memory-file.js';
import { isPathProblem, parseVirtualPath, requireMarkdown } from '../../src/plugins/auto-memory/paths.js';
import { referenceFields, referenceLine, referencePaths, referenceSplit } from '../support/frontmatter-reference.js';

/** Characters the line grammar cares about, and a few it must pass through untouched. */
const GRAMMAR = ['a', 'Z', '_', '-', '0', ':', ' ', ' ', '\t', '\r', '\u2028', '\u2029', '"', "'", '[', ']', '{', '}', ',', '#', 'é', '\u00a0', '\ufeff', '\ud800', '😀'];
const grammarChar = fc.constantFrom(...GRAMMAR);
const shortLine = fc.array(grammarChar, { maxLength: 24 }).map((cs) => cs.join(''));
const KEYS = ['name', 'description', 'type', 'metadata', 'paths', 'other'];
const structuredLine = fc.oneof(
  shortLine,
  fc.tuple(fc.constantFrom(...KEYS), fc.constantFrom('', ' ', '\t', '  '), fc.constantFrom(':', ': ', ':\t', ':  '), shortLine).map(([k, s, c, v]) => `${k}${s}${c}${v}`),
  fc.tuple(fc.constantFrom('  ', '\t', ' '), fc.constantFrom(...KEYS), fc.constantFrom(': ', ':'), shortLine).map(([i, k, c, v]) => `${i}${k}${c}${v}`),
  fc.tuple(fc.constantFrom('', '  ', '\t'), fc.constantFrom('-', '- ', '-\t', '-  '), shortLine).map(([i, d, v]) => `${i}${d}${v}`),
  fc.constantFrom('---', '--- ', '---\t', '---\r', '----', ' ---', ''),
);

describe('item 1: the hand scan reads every line as the regular expressions did', () => {
  it('AM-14 AM-33 fence, key: value and list item agree with the old regular expressions on random lines', () => {
    fc.assert(fc.property(structuredLine, (line) => {
      const reference = referenceLine(line);
      expect({ fence: isFence(line), keyValue: keyValue(line), listItem: listItem(line) }).toEqual(reference);
    }), { numRuns: 5000 });
  });

  it('AM-14 AM-33 split, fields and paths agree with the old reader on random blocks', () => {
    fc.assert(fc.property(fc.array(structuredLine, { maxLength: 12 }), fc.boolean(), (lines, crlf) => {
      const text = ['---', ...lines, '---', 'body'].join(crlf ? '\r\n' : '\n');
      const split = splitFrontmatter(text);
      expect(split).toEqual(referenceSplit(text));
      if (split.lines === undefined) return;
      const fields = rawFields(split.lines);
      expect({ top: [...fields.top], metadata: [...fields.metadata] }).toEqual(referenceFields(split.lines));
      expect(rawPaths(split.lines)).toEqual(referencePaths(split.lines));
    }), { numRuns: 3000 });
  });

  it('AM-33 flow lists: commas split outside quotes and brackets, quoted items are decoded, whole nested collections are dropped', () => {
    const paths = (value: string) => rulePaths(splitFrontmatter(`---\npaths: ${value}\n---\n`).lines);
    expect(paths('["a/*.ts", \'b/*.ts\']')).toEqual(['a/*.ts', 'b/*.ts']);
    expect(paths('[src/**/*.{ts,tsx}, "x,y", docs/**]')).toEqual(['src/**/*.{ts,tsx}', 'x,y', 'docs/**']);
    expect(paths('[a, [b, c], {d: e}, f,]')).toEqual(['a', 'f']);
    expect(paths('["a\\u0041\\"b", \'it\'\'s\']')).toEqual(['aA"b', "it's"]);
    expect(paths('[]')).toEqual([]);
    expect(paths('[a, "open]')).toEqual(['[a, "open]']);
    expect(paths('[a, b')).toEqual(['[a, b']);
  });
});

/** Hostile shapes: a marker, a long run of one filler, an ending that makes a backtracking reader retry. */
const hostile = fc.tuple(
  fc.constantFrom('paths:', 'description:', 'name: "', '- ', '  type:', 'paths: [', 'paths: ["', '---', 'metadata:\n  type:', 'paths:\n  -'),
  fc.constantFrom(' ', '\t', ' \t', 'a', '"', "'", '\\', '[', '[[', '? ', ', ', '\\"', "''", '\r', '\u2028 ', '{', '- '),
  fc.integer({ min: 0, max: 131000 }),
  fc.constantFrom('\u2028', '\r', 'x', '', '"', ']', '\u2029\n', ':', ' #'),
).map(([marker, filler, n, end]) => `---\n${marker}${filler.repeat(Math.ceil(n / filler.length))}${end}\n---\nbody\n`);

const STEPS_PER_CHAR = 16;

function steps(run: (meter: Meter) => unknown): number {
  const meter: Meter = { steps: 0 };
  run(meter);
  return meter.steps;
}

describe('item 1: linear work, counted in steps', () => {
  it('AM-14 AM-33 item 1: memory fields and rule paths of any text up to 128 KiB take at most 16 steps per character', () => {
    fc.assert(fc.property(fc.oneof(hostile, fc.array(structuredLine, { maxLength: 400 }).map((ls) => `---\n${ls.join('\n')}\n---\n`)), (text) => {
      expect(text.length).toBeLessThanOrEqual(131072 + 64);
      const bound = STEPS_PER_CHAR * (text.length + 1);
      expect(steps((m) => memoryFields(text, m))).toBeLessThanOrEqual(bound);
      expect(steps((m) => rulePaths(splitFrontmatter(text, m).lines, m))).toBeLessThanOrEqual(bound);
    }), { numRuns: 300 });
  });

  it('AM-14 item 1: the shapes of the report, at 128 KiB, in steps', () => {
    for (const text of [
      `---\npaths:${' '.repeat(131072)}\u2028\n---\n`,
      `---\ndescription:${' '.repeat(131072)}\u2028\n---\n`,
      `---\npaths:\n${`  - ${' '.repeat(64)}\u2028\n`.repeat(1900)}---\n`,
      `---\npaths: [${'? '.repeat(65536)}]\n---\n`,
    ]) {
      const bound = STEPS_PER_CHAR * (text.length + 1);
      expect(steps((m) => rulePaths(splitFrontmatter(text, m).lines, m))).toBeLessThanOrEqual(bound);
      expect(steps((m) => memoryFields(text, m))).toBeLessThanOrEqual(bound);
    }
  });
});

/** Path segments from an alphabet with everything a name could smuggle: separators, controls, surrogates, link syntax. */
const segmentChar = fc.constantFrom('a', 'b', ' ', '.', '-', '\\', ':', '/', '\n', '\r', '\t', '\u0000', '\u001b', '\u0085', '\u2028', '\u2029', '\ud800', '\udc00', '😀', '[', ']', '(', ')', '<', '>', '—', '%', 'é');
const segment = fc.array(segmentChar, { minLength: 1, maxLength: 12 }).map((cs) => cs.join(''));
const virtualPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((ss) => `/memories/${ss.join('/')}.md`);
const description = fc.array(fc.constantFrom('w', ' ', '\r', '\u2028', '\u0085', '\u000b', '—', '[', ']', '(', ')', '<', '>', '\\', 'é', '\t'), { maxLength: 30 }).map((cs) => cs.join(''));

describe('AM-18 AM-19 AM-24 the index round-trips for every accepted memory path', () => {
  it('AM-18 AM-24 item 6: an accepted path makes one index line that parses back to it; append then delete gives the index back; rename and back too', () => {
    fc.assert(fc.property(virtualPath, description, virtualPath, (raw, text, otherRaw) => {
      const path = parseVirtualPath(raw);
      if (isPathProblem(path) || requireMarkdown(path) !== undefined) return;
      expect(raw).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      const file = `---\ndescription: ${text}\n---\nbody ${text}\n`;
      const derived = deriveEntry(file, path.relative);
      const line = entryLine(path.relative, derived);
      expect(line).not.toMatch(/[\n\r\u2028\u2029\u0085\u000b]/);
      expect(parseEntry(line)).toMatchObject({ target: path.relative });
      const index = appendEntry(INDEX_HEADER, line);
      expect(removeEntries(index, path.relative)).toBe(INDEX_HEADER);
      const other = parseVirtualPath(otherRaw);
      if (isPathProblem(other) || other.relative === path.relative) return;
      const moved = syncEntries(index, { target: path.relative, newTarget: other.relative, before: derived, after: deriveEntry(file, other.relative) });
      expect(parseEntry(moved.split('\n')[2]!)).toMatchObject({ target: other.relative });
      expect(syncEntries(moved, { target: other.relative, newTarget: path.relative, before: deriveEntry(file, other.relative), after: derived })).toBe(index);
    }), { numRuns: 3000 });
  });
});
