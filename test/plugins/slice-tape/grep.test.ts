// expand_result's grep over untrusted text with a model-supplied pattern (ST-31 [U], issue 18
// item 2): it runs in linear time on RE2, answers as JavaScript's RegExp does on the patterns both
// accept, refuses what RE2 cannot run (naming why) and work over its bound (naming the numbers), and
// leaves the text whole for a pattern JavaScript itself rejects, as ST-31 says.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGrepWork, compileGrep, GREP_MAX_WORK } from '../../../src/plugins/slice-tape/grep.js';
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
      for (const grep of ['^(a+)+$', '^(a|aa)*b$', '(x+x+)+y']) lengths.push((await expandResult(events, { seq: 1, formatVersion: 3, grep }, undefined)).length);
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

  it('ST-31 item 2: work over GREP_MAX_WORK (program size × characters) is refused with the numbers; lines narrows the text first', async () => {
    const grep = compileGrep('a[ab]{200}b')!;
    const chars = Math.ceil(GREP_MAX_WORK / grep.size) + 1;
    expect(() => checkGrepWork(grep, chars)).toThrow(`expand_result: grep "a[ab]{200}b" is a program of size ${grep.size} and the text is ${chars} characters; ${grep.size} × ${chars} = ${grep.size * chars} is over the limit of ${GREP_MAX_WORK}: use a simpler pattern, or select lines first`);
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
