// Code-point budgets (spec X-06): codePointLength counts as Array.from does (a pair is one, a lone
// surrogate is one) and capCodePoints keeps the first n of them, never splitting a pair.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { capCodePoints, codePointLength } from '../../src/engine/index.js';
import { anyText, binaryText, codeUnits } from '../support/arbitraries.js';
import { expectError } from '../support/errors.js';
import { referenceCap } from '../support/reference.js';
import { onEveryPath } from '../support/engine-paths.js';

/** capCodePoints against Array.from for every n from 0 to one past the count. */
function checkEveryCap(text: string, label: string): void {
  const points = Array.from(text);
  for (let n = 0; n <= points.length + 1; n++) {
    expect(capCodePoints(text, n), `${label}, n = ${n}`).toBe(points.slice(0, n).join(''));
  }
}

const FIXED = [
  '', 'a', 'abc', 'héllo', '中文', '😀', 'a😀', 'a😀b', '😀😀', '𝄞x\u{10FFFF}', '\uD800', '\uDC00', '\uDC00\uD800',
  '\uD800\uD800\uDC00', '\uD83D\uDE00\uDE00', 'x\uD83D', '\uDE00x', '\uD800'.repeat(9), '\uDC00'.repeat(9),
];

onEveryPath(() => {
  describe('codePointLength', () => {
    it("X-06 the README example codePointLength('a😀') is 2, and fixed cases equal Array.from(s).length", () => {
      expect(codePointLength('a😀')).toBe(2);
      for (const text of FIXED) expect(codePointLength(text), JSON.stringify(text)).toBe(Array.from(text).length);
    });

    it('X-06 pairs and lone surrogates at every position of strings up to 140 units (SIMD widths 8/16/64)', () => {
      for (let len = 0; len <= 140; len++) {
        for (let at = 0; at <= len; at++) {
          for (const insert of ['😀', '\uD83D', '\uDE00', '\uDE00\uD83D']) {
            const text = 'a'.repeat(at) + insert + 'b'.repeat(len - at);
            expect(codePointLength(text), `${JSON.stringify(insert)} at ${at} of ${len}`).toBe(Array.from(text).length);
          }
        }
      }
    });

    it('X-06 100,000 units with pairs everywhere, at both parities, and with lone surrogates mixed in', () => {
      for (const text of ['😀'.repeat(50_000), 'a' + '😀'.repeat(49_999) + 'b', '😀\uD800a\uDC00'.repeat(20_000), '\uD800'.repeat(100_000)]) {
        expect(codePointLength(text)).toBe(Array.from(text).length);
      }
    });

    it('X-06 a string longer than 2^21 units with pairs straddling the piece boundaries', () => {
      const pairs = 'a' + '😀'.repeat(2_499_999) + 'b';
      expect(codePointLength(pairs)).toBe(2_500_001);
      const lone = 'x'.repeat((1 << 21) - 1) + '\uD83D' + '\uD83D\uDE00'.repeat(10) + '\uDE00';
      expect(codePointLength(lone)).toBe(Array.from(lone).length);
    });

    it('X-06 property: equals Array.from(s).length', () => {
      fc.assert(fc.property(anyText(300), (text) => codePointLength(text) === Array.from(text).length), { numRuns: 500 });
      fc.assert(fc.property(codeUnits(300), (text) => codePointLength(text) === Array.from(text).length), { numRuns: 300 });
      fc.assert(fc.property(binaryText(300), (text) => codePointLength(text) === Array.from(text).length), { numRuns: 300 });
    });
  });

  describe('capCodePoints', () => {
    it("X-06 the README example capCodePoints('a😀b', 2) is 'a😀', and every n on fixed cases", () => {
      expect(capCodePoints('a😀b', 2)).toBe('a😀');
      expect(capCodePoints('a😀b', 1)).toBe('a');
      for (const text of FIXED) checkEveryCap(text, JSON.stringify(text));
    });

    it('X-06 pairs at SIMD boundaries (units 7/8, 15/16, 63/64, 64/65, 127/128) with every n', () => {
      for (const at of [6, 7, 8, 14, 15, 16, 62, 63, 64, 65, 126, 127, 128]) {
        for (const insert of ['😀', '😀😀', '\uD83D', '\uDE00', '\uDE00\uD83D']) {
          checkEveryCap('a'.repeat(at) + insert + 'é'.repeat(140 - at), `${JSON.stringify(insert)} at ${at}`);
        }
      }
      for (const lead of ['', 'a']) checkEveryCap(lead + '😀'.repeat(90), `pairs from unit ${lead.length}`);
    });

    it('X-06 n = 0 gives the empty string; n >= the length gives the string itself; Infinity too', () => {
      for (const text of ['abc', '😀', '\uD800', '']) expect(capCodePoints(text, 0)).toBe('');
      for (const text of FIXED) {
        expect(capCodePoints(text, text.length)).toBe(text);
        expect(capCodePoints(text, text.length + 5)).toBe(text);
        expect(capCodePoints(text, Infinity)).toBe(text);
        expect(capCodePoints(text, Number.MAX_SAFE_INTEGER)).toBe(text);
      }
      // Fewer code points than units: n between the count and the unit length keeps everything.
      expect(capCodePoints('😀😀😀', 3)).toBe('😀😀😀');
      expect(capCodePoints('😀😀😀', 4)).toBe('😀😀😀');
    });

    it('X-06 100,000 units with pairs everywhere', () => {
      const text = 'a' + '😀'.repeat(49_999) + 'b';
      for (const n of [1, 2, 31, 32, 33, 63, 64, 65, 1000, 25_000, 49_999, 50_000, 50_001, 50_002]) {
        expect(capCodePoints(text, n), `n = ${n}`).toBe(referenceCap(text, n));
      }
      const mixed = '😀\uD800a\uDC00é'.repeat(16_000);
      for (const n of [1, 2, 3, 4, 5, 63, 64, 65, 40_001, 63_999, 64_000, 64_001]) {
        expect(capCodePoints(mixed, n), `mixed, n = ${n}`).toBe(referenceCap(mixed, n));
      }
    });

    it('X-06 a string longer than 2^21 units with a pair straddling the piece boundary', () => {
      const P = 1 << 21;
      const text = 'a'.repeat(P - 1) + '😀' + 'b'.repeat(P) + '\uD83D' + '😀'.repeat(5);
      for (const n of [P - 2, P - 1, P, P + 1, 2 * P - 1, 2 * P, 2 * P + 1, 2 * P + 2]) {
        // The first P - 1 code points are 'a', then the pair, then 'b's, then a lone high, then pairs.
        const expected = n <= P - 1 ? text.slice(0, n) : n <= 2 * P ? text.slice(0, n + 1) : text.slice(0, 2 * P + 1 + 2 * (n - 2 * P - 1) + 1);
        expect(capCodePoints(text, n), `n = ${n}`).toBe(expected);
      }
      const pairs = 'a' + '😀'.repeat(2_499_999) + 'b';
      for (const n of [P / 2, P / 2 + 1, P, P + 1, 2_500_000, 2_500_001]) {
        expect(capCodePoints(pairs, n), `pairs, n = ${n}`).toBe(pairs.slice(0, n === 2_500_001 ? pairs.length : 2 * n - 1));
      }
    });

    it('X-06 property: equals Array.from(s).slice(0, n).join(\'\')', () => {
      const withN = (text: string): fc.Arbitrary<[string, number]> =>
        fc.tuple(fc.constant(text), fc.oneof(fc.integer({ min: 0, max: text.length + 2 }), fc.constant(Infinity)));
      fc.assert(fc.property(anyText(200).chain(withN), ([text, n]) => capCodePoints(text, n) === referenceCap(text, n)), { numRuns: 500 });
      fc.assert(fc.property(codeUnits(200).chain(withN), ([text, n]) => capCodePoints(text, n) === referenceCap(text, n)), { numRuns: 300 });
    });
  });

  describe('argument errors', () => {
    const RANGE = 'an integer from 0 to 9007199254740991 or Infinity';

    it('X-06 capCodePoints with a negative, fractional or NaN max is a RangeError naming max and the value', () => {
      expectError(() => capCodePoints('a', -1), RangeError, `capCodePoints: max must be ${RANGE}, got -1`);
      expectError(() => capCodePoints('a', 1.5), RangeError, `capCodePoints: max must be ${RANGE}, got 1.5`);
      expectError(() => capCodePoints('a', NaN), RangeError, `capCodePoints: max must be ${RANGE}, got NaN`);
    });

    it('X-06 non-string text and non-number max are TypeErrors', () => {
      expectError(() => capCodePoints(5 as never, 1), TypeError, 'capCodePoints: text must be a string, got 5');
      expectError(() => capCodePoints('a', '1' as never), TypeError, 'capCodePoints: max must be a number, got "1"');
      expectError(() => capCodePoints('a', undefined as never), TypeError, 'capCodePoints: max must be a number, got undefined');
      expectError(() => codePointLength(null as never), TypeError, 'codePointLength: text must be a string, got null');
      expectError(() => codePointLength(['a'] as never), TypeError, 'codePointLength: text must be a string, got an array of length 1');
    });
  });
});
