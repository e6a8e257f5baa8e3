// Bounded streaming reads, what they return for well-behaved sources (spec ): text, byte
// count, SHA-1 and trimmed SHA-1 against Buffer, node:crypto and String.prototype.trim, for string
// and byte chunks split anywhere; fatal and replacing UTF-8 decoding against TextDecoder. Limits,
// source failures, aborts and concurrency are in read-source.test.ts.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBounded, type ReadBoundedOptions, type ReadChunk } from '../../src/engine/index.js';
import { anyText, cuts, utf8ishBytes } from '../support/arbitraries.js';
import {
  concatBytes, decodeFatal, decodeReplace, everySplit, everyTwoSplits, NOT_WHITESPACE, nodeSha1, okResult, splitAt, utf8,
  WHITESPACE,
} from '../support/reference.js';
import { onEveryPath } from '../support/engine-paths.js';

const BIG = { maxBytes: 1 << 30 } as const;
const read = (chunks: readonly ReadChunk[], options: ReadBoundedOptions = BIG) => readBounded(chunks, options);
const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

onEveryPath(() => {
  describe('ok results for string and byte sources', () => {
    it('X-04 an empty source, and sources of empty chunks, give the empty text', async () => {
      const empty = okResult('');
      expect(empty.sha1).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
      expect(await read([])).toEqual(empty);
      expect(await read(['', ''])).toEqual(empty);
      expect(await read([new Uint8Array(0)])).toEqual(empty);
      expect(await readBounded((async function* () {})(), { maxBytes: 0 })).toEqual(empty);
    });

    it('X-04 a string source and the same text as bytes give text, bytes, sha1 and trimmedSha1', async () => {
      for (const text of ['abc', 'héllo wörld', '  padded 中文 😀  ', 'line 1\nline 2\n', 'x'.repeat(5000)]) {
        expect(await read([text])).toEqual(okResult(text));
        expect(await read([utf8(text)])).toEqual(okResult(text));
        expect(await readBounded([text][Symbol.iterator](), BIG)).toEqual(okResult(text));
      }
    });

    it('X-03 whitespace only: trimmedSha1 is the SHA-1 of the empty string', async () => {
      for (const text of [' ', ' \t\n\r ', '\u3000\u00a0\ufeff', WHITESPACE.join('')]) {
        const result = await read([text]);
        expect(result).toEqual(okResult(text));
        expect(result).toMatchObject({ trimmedSha1: 'da39a3ee5e6b4b0d3255bfef95601890afd80709' });
      }
    });

    it('X-03 leading, trailing, both and inner whitespace', async () => {
      for (const text of ['  lead', 'trail  ', '  both  ', 'in  ner', ' a b c ', '\n\n# Title\n\nBody.\n']) {
        expect(await read([text]), JSON.stringify(text)).toEqual(okResult(text));
        expect(await read([utf8(text)]), JSON.stringify(text)).toEqual(okResult(text));
      }
    });

    it('X-04 a surrogate pair split across string chunks; a lone high surrogate at the very end', async () => {
      expect(await read(['a\uD83D', '\uDE00b'])).toEqual(okResult('a😀b'));
      expect(await read(['\uD83D', '', '\uDE00'])).toEqual(okResult('😀'));
      const lone = await read(['abc\uD800']);
      expect(lone).toEqual(okResult('abc\uD800'));
      expect(lone).toMatchObject({ bytes: 6, sha1: nodeSha1(bytes(0x61, 0x62, 0x63, 0xef, 0xbf, 0xbd)) });
      expect(await read(['abc', '\uD800'])).toEqual(okResult('abc\uD800'));
      expect(await read(['a\uD800', 'b'])).toEqual(okResult('a\uD800b'));
      expect(await read(['  \uDC00  '])).toEqual(okResult('  \uDC00  '));
    });

    it('X-04 string chunks are text already: a leading U+FEFF is kept (and trimmed as whitespace)', async () => {
      expect(await read(['\uFEFFabc'])).toEqual(okResult('\uFEFFabc'));
    });
  });

  describe('X-03 trimming uses exactly ECMAScript WhiteSpace and LineTerminator', () => {
    it('X-03 the reference sets agree with String.prototype.trim', () => {
      for (const w of WHITESPACE) expect(w.trim(), `U+${w.charCodeAt(0).toString(16)}`).toBe('');
      for (const c of NOT_WHITESPACE) expect(c.trim(), `U+${c.charCodeAt(0).toString(16)}`).toBe(c);
    });

    it('X-03 every whitespace character at the start, the end and in the middle, as strings and as bytes', async () => {
      for (const w of WHITESPACE) {
        for (const text of [w + 'x', 'x' + w, 'x' + w + 'y', w + w + 'a' + w + 'b' + w + w, w, 'é' + w, w + '😀']) {
          const label = `U+${w.charCodeAt(0).toString(16)} in ${JSON.stringify(text)}`;
          expect(await read([text]), label).toEqual(okResult(text));
          // As bytes a leading U+FEFF is a BOM and is dropped, as TextDecoder drops it.
          expect(await read([utf8(text)]), label).toEqual(okResult(decodeReplace(utf8(text))));
        }
      }
    });

    it('X-03 U+0085, U+180E, U+200B and other look-alikes are not trimmed', async () => {
      for (const c of NOT_WHITESPACE) {
        for (const text of [c + 'x' + c, c, ' ' + c + ' ']) {
          const label = `U+${c.charCodeAt(0).toString(16)}`;
          expect(await read([text]), label).toEqual(okResult(text));
          expect(await read([utf8(text)]), label).toEqual(okResult(text));
        }
      }
    });

    it('X-03 whitespace runs split across chunks', async () => {
      const sources: string[][] = [
        ['  ', '  a'], [' ', ' ', ''], ['a  ', '  ', '  '], ['a ', ' b'], ['  ', 'a', '  ', 'b', '  '],
        ['\u3000', '\u3000x\u3000', '\u3000'], ['\n', '\n', 'x', '\n'], ['', ' ', '', 'z', '', ' ', ''],
      ];
      for (const chunks of sources) {
        const text = chunks.join('');
        expect(await read(chunks), JSON.stringify(chunks)).toEqual(okResult(text));
        expect(await read(chunks.map(utf8)), JSON.stringify(chunks)).toEqual(okResult(text));
      }
    });
  });

  describe('byte chunks split anywhere', () => {
    const TEXT = ' \u3000é中😀\u00a0x\u2028 y\u205f';
    const ENCODED = utf8(TEXT);

    it('X-04 multi-byte and whitespace characters split at every single and every pair of split points', async () => {
      const expected = okResult(TEXT);
      for (const decode of ['fatal', 'replace'] as const) {
        for (const chunks of everySplit(ENCODED)) expect(await read(chunks, { maxBytes: 100, decode })).toEqual(expected);
        for (const chunks of everyTwoSplits(ENCODED)) expect(await read(chunks, { maxBytes: 100, decode })).toEqual(expected);
      }
    });

    it('X-04 one byte per chunk', async () => {
      expect(await read(Array.from(ENCODED, (b) => bytes(b)))).toEqual(okResult(TEXT));
    });

    it('X-04 a leading BOM is dropped, also when split across chunks; a second one stays', async () => {
      const BOM = [0xef, 0xbb, 0xbf];
      expect(await read([bytes(...BOM, 0x61, 0x62)])).toEqual(okResult('ab'));
      expect(await read([bytes(0xef), bytes(0xbb), bytes(0xbf, 0x61)])).toEqual(okResult('a'));
      expect(await read([bytes(0xef, 0xbb), bytes(0xbf), bytes(0x20, 0x61, 0x20)])).toEqual(okResult(' a '));
      expect(await read([bytes(...BOM)])).toEqual(okResult(''));
      const twice = await read([bytes(...BOM, ...BOM, 0x78)]);
      expect(twice).toEqual(okResult('\uFEFFx'));
      expect(twice).toMatchObject({ trimmedSha1: nodeSha1('x') });
      expect(await read([bytes(0x61, ...BOM)])).toEqual(okResult('a\uFEFF'));
      for (const decode of ['fatal', 'replace'] as const) {
        for (const chunks of everyTwoSplits(bytes(...BOM, 0xe2, 0x80, 0xa8, 0x61))) {
          expect(await read(chunks, { maxBytes: 10, decode })).toEqual(okResult('\u2028a'));
        }
      }
    });
  });

  describe('chunks larger than the internal piece sizes', () => {
    it('X-04 a 5,000,000-unit string chunk with pairs straddling 2^21-unit pieces, and whitespace at both ends', async () => {
      const text = '   ' + '😀'.repeat(2_499_998) + ' \u3000';
      expect(text.charCodeAt((1 << 21) - 1)).toBe(0xd83d);
      expect(await read([text])).toEqual(okResult(text));
    });

    it('X-04 a 20 MiB byte chunk with a 4-byte character straddling each 2^23-byte piece, in both modes', async () => {
      const B = 1 << 23;
      const parts: Uint8Array[] = [utf8(' '.repeat(B - 2)), utf8('😀'), utf8('中'.repeat(Math.floor(B / 3))), utf8('😀x \n')];
      const input = concatBytes(parts);
      expect(input[B - 1]).toBe(0x9f);
      const text = decodeFatal(input)!;
      expect(await read([input], { maxBytes: input.length, decode: 'fatal' })).toEqual(okResult(text));
      expect(await read([input.subarray(0, B + 1), input.subarray(B + 1)], { maxBytes: input.length, decode: 'replace' })).toEqual(okResult(text));
    });
  });

  describe('X-04 property: any chunking gives the references', () => {
    it('X-04 a random string in random string chunks', async () => {
      await fc.assert(fc.asyncProperty(anyText(120), cuts(8), async (text, at) => {
        expect(await read(splitAt(text, at))).toEqual(okResult(text));
      }), { numRuns: 300 });
    });

    it('X-04 the UTF-8 bytes of a random string in random byte chunks', async () => {
      await fc.assert(fc.asyncProperty(anyText(120), cuts(8), async (text, at) => {
        const encoded = utf8(text);
        expect(await read(splitAt(encoded, at))).toEqual(okResult(decodeReplace(encoded)));
      }), { numRuns: 300 });
    });
  });

  describe('X-04 fatal and replacing UTF-8 decoding', () => {
    const ILL_FORMED: readonly [string, Uint8Array][] = [
      ['overlong C0 80', bytes(0xc0, 0x80)],
      ['overlong C1 BF', bytes(0xc1, 0xbf)],
      ['overlong E0 80 80', bytes(0xe0, 0x80, 0x80)],
      ['overlong E0 9F BF', bytes(0xe0, 0x9f, 0xbf)],
      ['overlong F0 80 80 80', bytes(0xf0, 0x80, 0x80, 0x80)],
      ['overlong F0 8F BF BF', bytes(0xf0, 0x8f, 0xbf, 0xbf)],
      ['surrogate ED A0 80', bytes(0xed, 0xa0, 0x80)],
      ['surrogate ED BF BF', bytes(0xed, 0xbf, 0xbf)],
      ['above U+10FFFF F4 90 80 80', bytes(0xf4, 0x90, 0x80, 0x80)],
      ['F5 lead', bytes(0xf5, 0x80, 0x80, 0x80)],
      ['FF', bytes(0xff)],
      ['lone continuation 80', bytes(0x80)],
      ['continuation after ASCII', bytes(0x61, 0xbf)],
      ['truncated 2-byte at end', bytes(0x61, 0xc3)],
      ['truncated 3-byte at end', bytes(0x61, 0xe2, 0x82)],
      ['truncated 4-byte at end', bytes(0xf0, 0x9f, 0x98)],
      ['interrupted 3-byte', bytes(0xe2, 0x82, 0x41)],
      ['interrupted 4-byte', bytes(0xf0, 0x9f, 0x41, 0x41)],
    ];
    const WELL_FORMED: readonly Uint8Array[] = [
      bytes(0x7f), bytes(0xc2, 0x80), bytes(0xdf, 0xbf), bytes(0xe0, 0xa0, 0x80), bytes(0xed, 0x9f, 0xbf),
      bytes(0xee, 0x80, 0x80), bytes(0xef, 0xbf, 0xbf), bytes(0xf0, 0x90, 0x80, 0x80), bytes(0xf4, 0x8f, 0xbf, 0xbf),
    ];

    it.each(ILL_FORMED)('X-04 %s is invalid-utf8 in fatal mode, in one chunk and split at every point', async (_, input) => {
      expect(decodeFatal(input)).toBeUndefined();
      expect(await read([input])).toEqual({ status: 'invalid-utf8' });
      for (const chunks of everySplit(input)) expect(await read(chunks)).toEqual({ status: 'invalid-utf8' });
      const padded = concatBytes([utf8('ok so far '), input, utf8(' more')]);
      expect(await read([padded], { maxBytes: 100, decode: 'fatal' })).toEqual({ status: 'invalid-utf8' });
    });

    it.each(ILL_FORMED)('X-04 %s decodes as TextDecoder does in replace mode', async (_, input) => {
      for (const chunks of everySplit(input)) expect(await read(chunks, { maxBytes: 100, decode: 'replace' })).toEqual(okResult(decodeReplace(input)));
    });

    it('X-04 the boundary sequences of each width are well-formed', async () => {
      for (const input of WELL_FORMED) {
        const text = decodeFatal(input)!;
        expect(await read([input])).toEqual(okResult(text));
        for (const chunks of everySplit(input)) expect(await read(chunks)).toEqual(okResult(text));
      }
    });

    it('X-04 X-14 property: fatal mode is invalid-utf8 exactly when TextDecoder (fatal) throws, else its text', async () => {
      await fc.assert(fc.asyncProperty(utf8ishBytes(), cuts(6), async (input, at) => {
        const text = decodeFatal(input);
        const result = await read(splitAt(input, at), { maxBytes: 1000, decode: 'fatal' });
        expect(result).toEqual(text === undefined ? { status: 'invalid-utf8' } : okResult(text));
      }), { numRuns: 500 });
    });

    it('X-04 X-14 property: replace mode gives TextDecoder\'s text and its SHA-1', async () => {
      await fc.assert(fc.asyncProperty(utf8ishBytes(), cuts(6), async (input, at) => {
        expect(await read(splitAt(input, at), { maxBytes: 1000, decode: 'replace' })).toEqual(okResult(decodeReplace(input)));
      }), { numRuns: 500 });
    });
  });
});
