// UTF-8 byte accounting (spec X-05): utf8Length equals Buffer.byteLength / TextEncoder, and
// truncateUtf8 returns the longest prefix within the budget that never splits a code point.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitsUtf8, truncateUtf8, utf8Length } from '../../src/engine/index.js';
import { SAMPLED_LOOK_UNITS, SMALL_UTF8_UNITS } from '../../src/engine/paths.js';
import { anyText, binaryText, codeUnits, textUnit } from '../support/arbitraries.js';
import { expectError } from '../support/errors.js';
import { byteLength, referenceTruncate, utf8 } from '../support/reference.js';
import { onEveryPath } from '../support/engine-paths.js';

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/** Checks every property truncateUtf8(text, max) must have, against TextEncoder and the string itself. */
function checkTruncation(text: string, max: number): void {
  const result = truncateUtf8(text, max);
  const label = `${JSON.stringify(text.length > 60 ? text.slice(0, 60) + '…' : text)} at ${max}`;
  const cut = result.text.length;
  expect(text.startsWith(result.text), `prefix: ${label}`).toBe(true);
  expect(utf8(result.text).length, `bytes: ${label}`).toBe(result.bytes);
  expect(result.bytes, `within budget: ${label}`).toBeLessThanOrEqual(max);
  expect(result.truncated, `truncated flag: ${label}`).toBe(result.text !== text);
  // Never between the halves of a pair.
  expect(cut > 0 && cut < text.length && isHigh(text.charCodeAt(cut - 1)) && isLow(text.charCodeAt(cut)), `split pair: ${label}`).toBe(false);
  // Longest: the next code point would not fit.
  if (result.truncated) {
    const next = String.fromCodePoint(text.codePointAt(cut)!);
    expect(result.bytes + byteLength(next), `longest: ${label}`).toBeGreaterThan(max);
  }
  expect(result, `reference: ${label}`).toEqual(referenceTruncate(text, max));
}

const FIXED = [
  '', 'a', 'hello, world', 'héllo', 'ÿ', 'Ω≈ç√∫', '中文字符', '日本語テキスト', '😀', '𝄞', '\u{10FFFF}', 'a😀b𝄞c',
  '\u007f\u0080\u07ff\u0800\uffff\u{10000}',
  '\uD800', '\uDBFF', '\uDC00', '\uDFFF', 'a\uD800', '\uD800a', 'a\uDC00', '\uDC00a', '\uDC00\uD800', '\uD800\uD800\uDC00',
  '\uD83D\uDE00\uDE00', 'x\uD83D', '\uDE00x', '\uD800'.repeat(20), '\uDC00'.repeat(20), '😀'.repeat(33),
];

onEveryPath(() => {
  describe('utf8Length', () => {
    it('X-05 ASCII, Latin-1, CJK, emoji and lone surrogates of each kind equal Buffer.byteLength and TextEncoder', () => {
      for (const text of FIXED) {
        expect(utf8Length(text), JSON.stringify(text)).toBe(byteLength(text));
        expect(utf8Length(text), JSON.stringify(text)).toBe(utf8(text).length);
      }
    });

    it('X-05 lengths 0..40 of every unit class and a pair, lone high, lone low or reversed pair at every position', () => {
      for (const fill of ['a', 'é', '中', '😀', '\uD800', '\uDC00']) {
        for (let n = 0; n <= 40; n++) {
          const plain = fill.repeat(n);
          expect(utf8Length(plain), `${n} × ${JSON.stringify(fill)}`).toBe(byteLength(plain));
          for (const insert of ['😀', '\uD83D', '\uDE00', '\uDE00\uD83D']) {
            const text = plain.slice(0, n >> 1) + insert + plain.slice(n >> 1);
            expect(utf8Length(text)).toBe(byteLength(text));
          }
        }
      }
      for (let len = 0; len <= 40; len++) {
        for (let at = 0; at < len; at++) {
          for (const insert of ['😀', '\uD83D', '\uDE00']) {
            const text = 'a'.repeat(at) + insert + 'é'.repeat(len - at);
            expect(utf8Length(text), `${JSON.stringify(insert)} at ${at} of ${len}`).toBe(byteLength(text));
          }
        }
      }
    });

    it('X-05 pairs straddling the SIMD widths 8, 16, 64 and 128 in longer strings', () => {
      for (const fill of ['a', 'é', '中']) {
        for (const at of [6, 7, 8, 14, 15, 16, 62, 63, 64, 65, 126, 127, 128]) {
          for (const insert of ['😀', '\uD83D', '\uDE00', '\uDE00\uD83D']) {
            const text = fill.repeat(at) + insert + fill.repeat(150);
            expect(utf8Length(text), `${JSON.stringify(insert)} at ${at} in ${fill}`).toBe(byteLength(text));
          }
        }
      }
    });

    it('X-05 long strings: 300,000 units of mixed classes and 5,000,000 units straddling 2^21 pieces', () => {
      const mixed = 'aé中😀\uD800 \uDC00'.repeat(37_500);
      expect(utf8Length(mixed)).toBe(byteLength(mixed));
      const pairs = 'a' + '😀'.repeat(2_499_999) + 'b';
      expect(utf8Length(pairs)).toBe(byteLength(pairs));
      const lone = 'é'.repeat((1 << 21) - 1) + '\uD800' + 'x'.repeat(3_000_000);
      expect(utf8Length(lone)).toBe(byteLength(lone));
    });

    it('X-05 property: equals Buffer.byteLength for strings with lone surrogates, arbitrary code units and any code point', () => {
      fc.assert(fc.property(anyText(300), (text) => utf8Length(text) === byteLength(text)), { numRuns: 500 });
      fc.assert(fc.property(codeUnits(300), (text) => utf8Length(text) === utf8(text).length), { numRuns: 300 });
      fc.assert(fc.property(binaryText(300), (text) => utf8Length(text) === byteLength(text)), { numRuns: 300 });
    });
  });

  describe('truncateUtf8', () => {
    it("X-05 the README example: truncateUtf8('héllo', 2) is { text: 'h', bytes: 1, truncated: true }", () => {
      expect(truncateUtf8('héllo', 2)).toEqual({ text: 'h', bytes: 1, truncated: true });
      expect(truncateUtf8('héllo', 3)).toEqual({ text: 'hé', bytes: 3, truncated: true });
    });

    it('X-05 every budget from 0 to the full length, on each fixed string: exact limits and cuts inside 2/3/4-byte sequences', () => {
      for (const text of FIXED) {
        for (let max = 0; max <= byteLength(text) + 1; max++) checkTruncation(text, max);
      }
    });

    it('X-05 budget 0 keeps nothing; a budget of at least 3 × length, Infinity or beyond 2^32 keeps everything', () => {
      expect(truncateUtf8('abc', 0)).toEqual({ text: '', bytes: 0, truncated: true });
      expect(truncateUtf8('', 0)).toEqual({ text: '', bytes: 0, truncated: false });
      for (const text of ['abc', '中文😀', '\uD800x', 'a'.repeat(100)]) {
        for (const max of [3 * text.length, 3 * text.length + 1, Infinity, 2 ** 32 + 5, Number.MAX_SAFE_INTEGER]) {
          expect(truncateUtf8(text, max)).toEqual({ text, bytes: byteLength(text), truncated: false });
        }
      }
    });

    it('X-05 cuts at and around pairs straddling SIMD widths and the 64-unit blocks', () => {
      for (const fill of ['a', 'é', '中']) {
        for (const at of [7, 8, 15, 16, 62, 63, 64, 65, 127, 128]) {
          for (const insert of ['😀', '\uD83D', '\uDE00']) {
            const text = fill.repeat(at) + insert + fill.repeat(80);
            const before = byteLength(fill.repeat(at));
            for (let max = before - 3; max <= before + 6; max++) if (max >= 0) checkTruncation(text, max);
          }
        }
      }
    });

    it('X-05 a string longer than 2^21 units cut near the piece boundary with a pair straddling it', () => {
      const P = 1 << 21;
      const text = 'a'.repeat(P - 1) + '😀' + 'é'.repeat(1000);
      for (const max of [P - 2, P - 1, P, P + 1, P + 2, P + 3, P + 4, P + 5]) {
        const result = truncateUtf8(text, max);
        const keepsPair = max >= P + 3;
        const extra = keepsPair ? Math.floor((max - (P + 3)) / 2) : 0;
        const expected = Math.min(max, P - 1);
        expect(result.bytes, `at ${max}`).toBe(keepsPair ? P + 3 + 2 * extra : expected);
        expect(result.text.length, `at ${max}`).toBe(keepsPair ? P + 1 + extra : expected);
        expect(result.truncated).toBe(true);
      }
      const long = 'a' + '😀'.repeat(2_499_999) + 'b';
      for (const max of [4 * P - 3, 4 * P - 2, 4 * P + 1, 4 * P + 2, byteLength(long) - 1, byteLength(long)]) {
        expect(truncateUtf8(long, max), `at ${max}`).toEqual(referenceTruncate(long, max));
      }
    });

    it('X-05 property: random strings (lone surrogates included) and random budgets', () => {
      const budget = (text: string): fc.Arbitrary<number> =>
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: byteLength(text) + 4 }), fc.constant(3 * text.length), fc.constant(Infinity));
      fc.assert(fc.property(anyText(150).chain((text) => fc.tuple(fc.constant(text), budget(text))), ([text, max]) => {
        checkTruncation(text, max);
      }), { numRuns: 500 });
      fc.assert(fc.property(codeUnits(150).chain((text) => fc.tuple(fc.constant(text), budget(text))), ([text, max]) => {
        checkTruncation(text, max);
      }), { numRuns: 300 });
    });
  });

  describe('fitsUtf8', () => {
    /** Budgets on both sides of each threshold of a string of n units and b bytes: 3n (fits without a count), n (cannot fit), b (the count). */
    const budgets = (n: number, b: number): number[] => [0, 1, n - 1, n, n + 1, 3 * n - 1, 3 * n, 3 * n + 1, b - 1, b, b + 1].filter((m) => m >= 0);
    const agrees = (text: string, max: number): void => {
      expect(fitsUtf8(text, max), `${JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text)} (${text.length} units, ${byteLength(text)} bytes) within ${max}`).toBe(byteLength(text) <= max);
    };

    it('X-05 equals Buffer.byteLength(text) <= maxBytes on both sides of n, 3n and the byte count, lone surrogates included', () => {
      fc.assert(fc.property(fc.oneof(anyText(200), codeUnits(200)), fc.nat({ max: 700 }), (text, max) => {
        for (const m of [...budgets(text.length, byteLength(text)), max]) agrees(text, m);
      }), { numRuns: 300 });
    });

    it.each([SMALL_UTF8_UNITS - 1, SMALL_UTF8_UNITS + 1, SAMPLED_LOOK_UNITS + 1])('X-05 strings of %i units (the count\'s paths) at every threshold', (length) => {
      const ofLength = fc.array(textUnit, { minLength: length, maxLength: length }).map((units) => units.join('').slice(0, length));
      fc.assert(fc.property(fc.oneof(ofLength, fc.constant('a'.repeat(length)), ofLength.map((t) => `${'a'.repeat(length - 1)}${t.slice(-1)}`)), (text) => {
        for (const m of budgets(text.length, byteLength(text))) agrees(text, m);
      }), { numRuns: 15 });
    });

    it('X-05 exact boundaries: one, two, three and four bytes a code point, and U+FFFD for a lone surrogate', () => {
      for (const n of [1, 2, 7, 100, 5000]) {
        for (const [unit, bytes] of [['a', 1], ['é', 2], ['中', 3], ['\uD800', 3], ['\uDFFF', 3], ['😀', 4]] as const) {
          const text = unit.repeat(n);
          expect([fitsUtf8(text, n * bytes), fitsUtf8(text, n * bytes - 1)], `${n} × ${JSON.stringify(unit)}`).toEqual([true, false]);
        }
      }
      expect([fitsUtf8('', 0), fitsUtf8('a', 0), fitsUtf8('😀'.repeat(9), Infinity), fitsUtf8('\uDC00\uD800', 6), fitsUtf8('\uDC00\uD800', 5)]).toEqual([true, false, true, true, false]);
    });

    it('X-05 a bad budget or text is the error truncateUtf8 gives, naming fitsUtf8', () => {
      expectError(() => fitsUtf8('a', -1), RangeError, 'fitsUtf8: maxBytes must be an integer from 0 to 9007199254740991 or Infinity, got -1');
      expectError(() => fitsUtf8('a', NaN), RangeError, 'fitsUtf8: maxBytes must be an integer from 0 to 9007199254740991 or Infinity, got NaN');
      expectError(() => fitsUtf8('a', '3' as never), TypeError, 'fitsUtf8: maxBytes must be a number, got "3"');
      expectError(() => fitsUtf8(null as never, 3), TypeError, 'fitsUtf8: text must be a string, got null');
    });
  });

  describe('argument errors', () => {
    const RANGE = 'an integer from 0 to 9007199254740991 or Infinity';

    it('X-05 truncateUtf8 with a negative, fractional or NaN budget is a RangeError naming maxBytes and the value', () => {
      expectError(() => truncateUtf8('a', -1), RangeError, `truncateUtf8: maxBytes must be ${RANGE}, got -1`);
      expectError(() => truncateUtf8('a', 1.5), RangeError, `truncateUtf8: maxBytes must be ${RANGE}, got 1.5`);
      expectError(() => truncateUtf8('a', NaN), RangeError, `truncateUtf8: maxBytes must be ${RANGE}, got NaN`);
      expectError(() => truncateUtf8('a', -Infinity), RangeError, `truncateUtf8: maxBytes must be ${RANGE}, got -Infinity`);
      expectError(() => truncateUtf8('a', 2 ** 53), RangeError, `truncateUtf8: maxBytes must be ${RANGE}, got 9007199254740992`);
    });

    it('X-05 truncateUtf8 with a non-number budget or a non-string text is a TypeError', () => {
      expectError(() => truncateUtf8('a', '1' as never), TypeError, 'truncateUtf8: maxBytes must be a number, got "1"');
      expectError(() => truncateUtf8(5 as never, 1), TypeError, 'truncateUtf8: text must be a string, got 5');
      expectError(() => truncateUtf8(utf8('a') as never, 1), TypeError, 'truncateUtf8: text must be a string, got a Uint8Array of 1 bytes');
    });

    it('X-05 utf8Length(null) is a TypeError naming utf8Length and text', () => {
      expectError(() => utf8Length(null as never), TypeError, 'utf8Length: text must be a string, got null');
      expectError(() => utf8Length(undefined as never), TypeError, 'utf8Length: text must be a string, got undefined');
      expectError(() => utf8Length(new String('x') as never), TypeError, 'utf8Length: text must be a string, got an object (String)');
    });
  });
});
