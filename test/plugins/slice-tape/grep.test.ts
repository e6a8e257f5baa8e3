// expand_result's grep over untrusted text with a model-supplied pattern (ST-31 [U], issue 18
// item 2): it runs in linear time on RE2, answers as JavaScript's RegExp does on the patterns both
// accept, refuses what RE2 cannot run (naming why) and work over its bound (naming the numbers), and
// leaves the text whole for a pattern JavaScript itself rejects, as ST-31 says.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { checkGrepWork, compileGrep, grepWork, GREP_LINE_WORK, GREP_MAX_PATTERN, GREP_MAX_PROGRAM, GREP_MAX_WORK } from '../../../src/plugins/slice-tape/grep.js';
import { programBound } from '../../../src/plugins/slice-tape/grep-cost.js';
import { expandResult } from '../../../src/plugins/slice-tape/expand.js';
import type { SessionEvent } from '../../../src/host/index.js';
import { built, runScript } from '../../support/processes.js';

/** A log with one tool result whose text is `text` (seq 1). */
function log(text: string): SessionEvent[] {
  return [
    { seq: 0, type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' } },
    { seq: 1, type: 'tool/result', data: { turn: 1, step: 1, message: { id: 'm', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text }] }], source: { kind: 'tool', callId: 'c1' } } } },
  ] as unknown as SessionEvent[];
}
const expand = (text: string, grep: unknown, lines?: string) => expandResult(log(text), { seq: 1, formatVersion: 3, grep, ...(lines === undefined ? {} : { lines }) }, undefined);

describe('item 2: grep cannot freeze the host', () => {
  it('ST-31 item 2: ^(a+)+$ and (a|aa)*b over 100,000-character lines finish before the deadline, with JavaScript\'s answers', async () => {
    const script = `
      const { expandResult } = await import(${JSON.stringify(built('plugins/slice-tape/expand.js'))});
      const text = ['a'.repeat(100000) + 'b', 'a'.repeat(100000), 'x'].join('\\n');
      const events = [
        { seq: 0, type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' } },
        { seq: 1, type: 'tool/result', data: { turn: 1, step: 1, message: { id: 'm', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text }] }], source: { kind: 'tool', callId: 'c1' } } } },
      ];
      const lengths = [];
      // Over one page, the answer comes in pages (issue 30): the kept lines are the pages' texts joined.
      const whole = async (grep) => {
        let text = '';
        for (let page = 1, pages = 1; page <= pages; page++) {
          const answer = await expandResult(events, { seq: 1, formatVersion: 3, grep, page }, undefined);
          const header = /^\\[expand_result\\(.*?\\) · page \\d+ of (\\d+) · [^\\n]*\\]\\n/.exec(answer);
          if (header === null) return answer;
          pages = Number(header[1]);
          text += answer.slice(header[0].length);
        }
        return text;
      };
      for (const grep of ['^(a+)+$', '^(a|aa)*b$', '(x+x+)+y']) lengths.push((await whole(grep)).length);
      process.stdout.write(JSON.stringify(lengths));
    `;
    const run = await runScript(script, [], 30_000);
    expect({ timedOut: run.timedOut, status: run.status, stderr: run.stderr }).toEqual({ timedOut: false, status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual([100000, 100001, 0]);
  });

  it('ST-31 item 2: a pattern JavaScript rejects leaves the text whole; one RE2 cannot run in linear time is an error saying why', async () => {
    expect(await expand('a\nb', '(')).toBe('a\nb');
    expect(await expand('a\nb', '[')).toBe('a\nb');
    await expect(expand('aa\nab', '(a)\\1')).rejects.toThrow('expand_result: grep "(a)\\\\1" uses the backreference \\1; grep runs in linear time (RE2 syntax), which has no backreferences');
    await expect(expand('aa', '(?<x>a)\\k<x>')).rejects.toThrow('uses the backreference \\k');
    await expect(expand('ab', 'a(?=b)')).rejects.toThrow('expand_result: grep "a(?=b)" cannot run in linear time (RE2 syntax; lookaround and backreferences are not supported): invalid or unsupported Perl syntax: `(?=`');
    // In a class, \\1 is not a backreference; RE2 decides.
    expect(await expand('a\n1', '[\\d]')).toBe('1');
  });

  it('ST-31 item 2: work over GREP_MAX_WORK is refused with the numbers; lines narrows the text first', async () => {
    const grep = compileGrep('a[ab]{200}b')!;
    const chars = Math.ceil(GREP_MAX_WORK / grep.perChar);
    const work = grep.perChar * (chars + 1) + GREP_LINE_WORK + grep.setup;
    expect(grepWork(grep, chars, 1)).toBe(work);
    expect(() => checkGrepWork(grep, chars, 1)).toThrow(
      `expand_result: grep "a[ab]{200}b" costs ${grep.perChar} per character (${grep.size} instructions, character classes weighted by their ranges) and the text is ${chars} characters in 1 lines; ` +
        `${grep.perChar} × (${chars} + 1) + ${GREP_LINE_WORK} × 1 + ${grep.setup} = ${work} is over the limit of ${GREP_MAX_WORK}: use a simpler pattern, or select lines first`,
    );
    const text = `${'ab'.repeat(Math.ceil(chars / 2))}\nok`;
    await expect(expand(text, 'a[ab]{200}b')).rejects.toThrow(`is over the limit of ${GREP_MAX_WORK}`);
    expect(await expand(text, 'a[ab]{200}b', '2-2')).toBe('');
    expect(await expand(text, '^ok$', '2-2')).toBe('ok');
  });

  it('ST-31 JavaScript spellings are translated: named groups, \\u escapes, [^]', async () => {
    expect(await expand('x1\ny\nzé', '(?<d>\\d)')).toBe('x1');
    expect(await expand('x1\ny\nzé', '\\u00e9')).toBe('zé');
    expect(await expand('x1\n\nz', '^[^]')).toBe('x1\nz');
  });
});

/** `count` lines of `length` letters after a `z`: a literal prefilter for `z` passes, and nothing matches a pattern ending in `z`. */
const letterLines = (count: number, length: number, letters = 'abcdefghijklmnopqrstuvwxy'): string =>
  Array.from({ length: count }, (_, n) => `z${Array.from({ length: length - 1 }, (_, i) => letters[(i + n) % letters.length]).join('')}`).join('\n');

describe('item 3: the bound counts what re2js spends', () => {
  it('ST-31 item 3: \\p{L}{1000}z over 132,000 characters of letters is refused at once, its class weighted by its 684 ranges', async () => {
    const text = letterLines(66, 2000);
    const grep = compileGrep('\\p{L}{1000}z')!;
    // 1,000 class instructions of 684 ranges (a binary search of 11 steps: 1 + 11/8 each), a rune, fail and match.
    expect({ size: grep.size, perChar: grep.perChar, setup: grep.setup }).toEqual({ size: 1003, perChar: 2378, setup: 684001 });
    const work = 2378 * (132000 + 66) + GREP_LINE_WORK * 66 + 684001;
    await expect(expand(text, '\\p{L}{1000}z')).rejects.toThrow(
      `expand_result: grep "\\\\p{L}{1000}z" costs 2378 per character (1003 instructions, character classes weighted by their ranges) and the text is 132000 characters in 66 lines; 2378 × (132000 + 66) + 32 × 66 + 684001 = ${work} is over the limit of ${GREP_MAX_WORK}: use a simpler pattern, or select lines first`,
    );
    // A class of one range costs one eighth of a visit more than a plain instruction.
    expect(compileGrep('[a-z]{1000}z')!.perChar).toBe(1128);
    expect(compileGrep('abc')!.perChar).toBe(5);
    // What the bound admits still runs: two lines of 1,000 letters.
    expect(await expand(letterLines(2, 1000), '\\p{L}{1000}z')).toBe('');
  });

  it('ST-31 item 3: every line costs its search setup, so 500,000 empty lines are refused', async () => {
    const grep = compileGrep('x|y')!;
    expect(grepWork(grep, 0, 500_000)).toBe(grep.perChar * 500_000 + GREP_LINE_WORK * 500_000 + grep.setup);
    await expect(expand('\n'.repeat(499_999), 'x|y')).rejects.toThrow('and the text is 0 characters in 500000 lines');
  });

  it(`ST-31 item 3: a pattern longer than ${GREP_MAX_PATTERN} characters is refused before it is parsed`, async () => {
    const pattern = 'ab'.repeat(GREP_MAX_PATTERN / 2) + 'c';
    await expect(expand('ab', pattern)).rejects.toThrow(`expand_result: grep is a pattern of ${GREP_MAX_PATTERN + 1} characters; the limit is ${GREP_MAX_PATTERN}`);
    expect(await expand('ab\nc', 'ab'.repeat(GREP_MAX_PATTERN / 2))).toBe('');
  });

  it(`ST-31 item 3: a pattern whose repetitions expand past ${GREP_MAX_PROGRAM} instructions is refused before it is compiled`, async () => {
    // 42 characters that RE2 would compile to 6,002 instructions (about 2 s for 140 copies in 1,000 characters).
    const pattern = 'a{1000}'.repeat(6);
    await expect(expand('a', pattern)).rejects.toThrow(`expand_result: grep "${pattern}" would compile to as many as 6015 instructions (its repetitions expanded); the limit is ${GREP_MAX_PROGRAM}: use a simpler pattern`);
    expect(RE2JS.compile(pattern).programSize()).toBe(6002);
    expect(compileGrep('a{1000}'.repeat(4))!.size).toBe(4002);
  });
});

/**
 * Patterns both engines run, built from a small grammar: literals, classes, anchors, groups,
 * alternation, quantifiers. Text is in the Basic Multilingual Plane without CR, U+2028 and U+2029:
 * the differences outside it are documented and pinned below.
 */
const atom = fc.constantFrom('a', 'b', 'c', '-', ' ', 'é', '\\d', '\\w', '\\s', '.', '\\.', '[ab]', '[^a]', '[a-c]', '\\b', '数');
const piece = fc.tuple(atom, fc.constantFrom('', '*', '+', '?', '{2}', '{1,3}', '*?', '+?')).map(([a, q]) => (a === '\\b' ? a : a + q));
const sequence = fc.array(piece, { minLength: 1, maxLength: 5 }).map((ps) => ps.join(''));
const regex = fc.tuple(fc.constantFrom('', '^'), fc.array(sequence, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '$'), fc.boolean())
  .map(([start, alts, end, group]) => `${start}${group ? `(${alts.join('|')})` : alts.join('|')}${end}`);
const line = fc.array(fc.constantFrom('a', 'b', 'c', '-', ' ', '\t', '1', 'é', '数', '.', '_'), { maxLength: 16 }).map((cs) => cs.join(''));

describe('the linear engine answers as JavaScript does', () => {
  it('ST-31 item 2: on random patterns from a common grammar and random lines, RE2 keeps exactly the lines RegExp keeps', () => {
    fc.assert(fc.property(regex, fc.array(line, { maxLength: 8 }), (pattern, lines) => {
      const grep = compileGrep(pattern)!;
      const js = new RegExp(pattern);
      expect(lines.filter((l) => grep.test(l))).toEqual(lines.filter((l) => js.test(l)));
    }), { numRuns: 3000 });
  });

  it('ST-31 the documented differences: RE2 reads code points, its . takes CR and line separators, its \\s is ASCII', () => {
    const both = (pattern: string, text: string) => [compileGrep(pattern)!.test(text), new RegExp(pattern).test(text)];
    expect(both('^.$', '😀')).toEqual([true, false]);
    expect(both('^😀*$', '')).toEqual([true, false]);
    expect(both('a.b', 'a\rb')).toEqual([true, false]);
    expect(both('a.b', 'a\u2028b')).toEqual([true, false]);
    expect(both('\\s', '\u00a0')).toEqual([false, true]);
  });
});

/** RE2-syntax patterns with the constructs whose size the bound reads: escapes, classes, groups, flags, repetitions. */
const re2Atom = fc.constantFrom('a', 'é', '😀', '\\d', '\\pL', '\\p{Greek}', '\\x41', '\\x{42}', '\\101', '.', '^', '$', '\\b', '[ab]', '[^]a]', '[]a]', '[[:alpha:]x]', '[a\\]b]', '\\Qa.b\\E', '(?i)', '\\{', '{', '}');
const re2Quantifier = fc.constantFrom('', '', '*', '+', '?', '*?', '{2}', '{3,}', '{2,5}', '{0,9}', '{7}?', '{,3}', '{12}');
const re2Pattern = fc.letrec((tie) => ({
  piece: fc.oneof(
    { depthSize: 'small' },
    fc.tuple(re2Atom, re2Quantifier).map(([a, q]) => a + q),
    fc.tuple(tie('alternation'), fc.constantFrom('(', '(?:', '(?P<n>', '(?i:'), re2Quantifier).map(([body, open, q]) => `${open}${body as string})${q}`),
  ),
  sequence: fc.array(tie('piece'), { maxLength: 5 }).map((pieces) => (pieces as string[]).join('')),
  alternation: fc.array(tie('sequence'), { minLength: 1, maxLength: 3 }).map((alternatives) => (alternatives as string[]).join('|')),
})).alternation;

describe('item 3: the size bound read from the pattern', () => {
  it('ST-31 item 3: programBound is never below the size RE2 compiles a pattern to', () => {
    let compiled = 0;
    fc.assert(fc.property(re2Pattern, (pattern) => {
      let size: number;
      try {
        size = RE2JS.compile(pattern).programSize();
      } catch {
        return; // RE2 rejects it: the compiler refuses it anyway
      }
      compiled++;
      expect(programBound(pattern)).toBeGreaterThanOrEqual(size);
    }), { numRuns: 3000 });
    expect(compiled).toBeGreaterThan(500);
    // Close on the forms that matter: a repeated class, an alternation.
    expect([programBound('\\p{L}{1000}z'), programBound('error|warn')]).toEqual([1006, 13]);
  });
});
