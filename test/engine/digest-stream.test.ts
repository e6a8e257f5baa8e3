// Streaming digests (spec X-01: incremental hashing equals one-shot hashing for every chunking).
// All streaming digests of one algorithm share one WASM context slot and swap state in and out, so
// interleaving and concurrency are tested as much as chunking.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDigest, sha1Hex, sha256Hex, type DigestInput } from '../../src/engine/index.js';
import { anyText, cuts } from '../support/arbitraries.js';
import { expectError } from '../support/errors.js';
import {
  ALGORITHMS, concatBytes, everySplit, everyTwoSplits, nodeHash, patternBytes, splitAt, streamBytes, utf8,
  type Algorithm,
} from '../support/reference.js';
import { onEveryPath } from '../support/engine-paths.js';

function streamed(algorithm: Algorithm, chunks: readonly DigestInput[]): string {
  const digest = createDigest(algorithm);
  for (const chunk of chunks) digest.update(chunk);
  return digest.digestHex();
}

// ~100 code units each: ASCII; every UTF-8 width with pairs, lone surrogates and spaces.
const TEXT_ASCII = 'The quick brown fox jumps over the lazy dog; 0123456789 - plain ASCII: ~!@#$%^&*()_+{}|:<>?. Done';
const TEXT_MIXED = 'héllo 中文 😀𝄞 a\uD800b \uDC00c \uDC00\uD800 ÿ \u3000\uFEFF 日本語 😀😀😀 \u{10FFFF} ' +
  'an ASCII run of more than sixteen units, Ωß€ 😀 x\uDBFF\uDFFF end\uD83D';
const SMALL = 'a😀é\uD800中\uDC00 😀z';

onEveryPath(() => {
  describe('every chunking equals one-shot', () => {
    it.each(ALGORITHMS)('X-01 %s every single split point of three ~100-unit inputs', (algorithm) => {
      const bytes = patternBytes(100, 5);
      for (const text of [TEXT_ASCII, TEXT_MIXED]) {
        const expected = nodeHash(algorithm, text);
        for (const chunks of everySplit(text)) expect(streamed(algorithm, chunks), JSON.stringify(chunks)).toBe(expected);
      }
      const expected = nodeHash(algorithm, bytes);
      for (const chunks of everySplit(bytes)) expect(streamed(algorithm, chunks)).toBe(expected);
    });

    it.each(ALGORITHMS)('X-01 %s every pair of split points of a short mixed string and of its bytes', (algorithm) => {
      const expected = nodeHash(algorithm, SMALL);
      for (const chunks of everyTwoSplits(SMALL)) expect(streamed(algorithm, chunks), JSON.stringify(chunks)).toBe(expected);
      const bytes = utf8(SMALL);
      for (const chunks of everyTwoSplits(bytes)) expect(streamed(algorithm, chunks)).toBe(expected);
    });

    it.each(ALGORITHMS)('X-01 %s one code unit or one byte per update', (algorithm) => {
      expect(streamed(algorithm, TEXT_MIXED.split(''))).toBe(nodeHash(algorithm, TEXT_MIXED));
      const bytes = utf8(TEXT_MIXED);
      expect(streamed(algorithm, Array.from(bytes, (b) => Uint8Array.of(b)))).toBe(nodeHash(algorithm, bytes));
    });

    it.each(ALGORITHMS)('X-01 %s the FIPS million "a" in 1000 updates of 1000', (algorithm) => {
      const digest = createDigest(algorithm);
      const chunk = 'a'.repeat(1000);
      for (let i = 0; i < 1000; i++) digest.update(chunk);
      expect(digest.digestHex()).toBe(algorithm === 'sha1'
        ? '34aa973cd4c4daa4f61eeb2bdbad27316534016f'
        : 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
    });

    it.each(ALGORITHMS)('X-01 %s no update at all and only empty updates equal the empty digest', (algorithm) => {
      expect(streamed(algorithm, [])).toBe(nodeHash(algorithm, ''));
      expect(streamed(algorithm, ['', new Uint8Array(0), ''])).toBe(nodeHash(algorithm, ''));
    });
  });

  describe('surrogates across chunks', () => {
    it.each(ALGORITHMS)('X-01 %s a pair split across two string chunks equals the joined string', (algorithm) => {
      expect(streamed(algorithm, ['a\uD83D', '\uDE00b'])).toBe(nodeHash(algorithm, 'a😀b'));
      expect(streamed(algorithm, ['\uD83D', '\uDE00'])).toBe(nodeHash(algorithm, '😀'));
      expect(streamed(algorithm, ['\uD83D', '', '\uDE00'])).toBe(nodeHash(algorithm, '😀'));
      expect(streamed(algorithm, ['x\uD800', '\uD83D', '\uDE00'])).toBe(nodeHash(algorithm, 'x\uFFFD😀'));
    });

    it.each(ALGORITHMS)('X-01 %s a lone high surrogate chunk then a Uint8Array chunk is U+FFFD then those bytes', (algorithm) => {
      const tail = Uint8Array.of(0x80, 0x41, 0xde, 0x00);
      const expected = nodeHash(algorithm, concatBytes([utf8('x'), Uint8Array.of(0xef, 0xbf, 0xbd), tail]));
      expect(streamed(algorithm, ['x\uD83D', tail])).toBe(expected);
      expect(streamed(algorithm, ['x\uD83D', tail])).toBe(nodeHash(algorithm, streamBytes(['x\uD83D', tail])));
    });

    it.each(ALGORITHMS)('X-01 %s a high surrogate at the very end of the last chunk is U+FFFD', (algorithm) => {
      expect(streamed(algorithm, ['abc', '\uDBFF'])).toBe(nodeHash(algorithm, 'abc\uFFFD'));
      expect(streamed(algorithm, ['abc\uD800'])).toBe(nodeHash(algorithm, 'abc\uFFFD'));
    });
  });

  describe('property: arbitrary chunkings', () => {
    it.each(ALGORITHMS)('X-01 %s a random string in random string chunks equals one-shot', (algorithm) => {
      fc.assert(fc.property(anyText(150), cuts(10), (text, at) =>
        streamed(algorithm, splitAt(text, at)) === nodeHash(algorithm, text)), { numRuns: 300 });
    });

    it.each(ALGORITHMS)('X-01 %s random bytes in random chunks equal one-shot', (algorithm) => {
      fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), cuts(10), (bytes, at) =>
        streamed(algorithm, splitAt(bytes, at)) === nodeHash(algorithm, bytes)), { numRuns: 300 });
    });

    it.each(ALGORITHMS)('X-01 %s a random mix of string and Uint8Array chunks', (algorithm) => {
      const chunk = fc.oneof(anyText(40), fc.uint8Array({ maxLength: 80 }));
      fc.assert(fc.property(fc.array(chunk, { maxLength: 12 }), (chunks) =>
        streamed(algorithm, chunks) === nodeHash(algorithm, streamBytes(chunks))), { numRuns: 300 });
    });
  });

  describe('independent digests sharing one WASM slot', () => {
    it.each(ALGORITHMS)('X-01 %s two digests interleaved update by update', (algorithm) => {
      const a = createDigest(algorithm);
      const b = createDigest(algorithm);
      const partsA = splitAt(TEXT_MIXED, [3, 17, 18, 40, 77]);
      const partsB = splitAt(patternBytes(500, 9), [1, 64, 65, 200, 499]);
      for (let i = 0; i < partsA.length; i++) {
        a.update(partsA[i]!);
        b.update(partsB[i]!);
      }
      expect(b.digestHex()).toBe(nodeHash(algorithm, patternBytes(500, 9)));
      expect(a.digestHex()).toBe(nodeHash(algorithm, TEXT_MIXED));
    });

    it('X-01 a pending high surrogate survives being swapped out of the slot', () => {
      const a = createDigest('sha256');
      a.update('left\uD83D');
      const b = createDigest('sha256');
      b.update('other\uD800'); // b's own pending surrogate must not leak into a
      a.update('\uDE00right');
      expect(a.digestHex()).toBe(nodeHash('sha256', 'left😀right'));
      expect(b.update('\uDC00').digestHex()).toBe(nodeHash('sha256', 'other\uD800\uDC00'));
    });

    it('X-01 X-15 fifty concurrent digests of both algorithms give independent correct results', () => {
      const inputs = Array.from({ length: 50 }, (_, i) => `digest ${i}: ` + 'é中😀\uD800 '.repeat(i) + 'x'.repeat(i * 13));
      const algorithms = inputs.map((_, i): Algorithm => (i % 3 === 0 ? 'sha256' : 'sha1'));
      const digests = inputs.map((_, i) => createDigest(algorithms[i]!));
      const chunks = inputs.map((text, i) => splitAt(text, [i, 2 * i + 1, 5 * i + 3, 7 * i + 2, 11 * i]));
      for (let round = 0; round < 6; round++) {
        for (let i = 0; i < digests.length; i++) digests[i]!.update(chunks[i]![round]!);
      }
      for (let i = digests.length - 1; i >= 0; i--) {
        expect(digests[i]!.digestHex(), `digest ${i}`).toBe(nodeHash(algorithms[i]!, inputs[i]!));
      }
    });

    it('X-01 one-shot calls between updates do not disturb a streaming digest', () => {
      const d = createDigest('sha1');
      d.update('first half \uD83D');
      expect(sha1Hex('unrelated')).toBe(nodeHash('sha1', 'unrelated'));
      expect(sha256Hex('x'.repeat(10_000))).toBe(nodeHash('sha256', 'x'.repeat(10_000)));
      d.update('\uDE00 second half');
      expect(d.digestHex()).toBe(nodeHash('sha1', 'first half 😀 second half'));
    });

    it('X-01 an abandoned digest does not affect later ones', () => {
      createDigest('sha1').update('never finished');
      const d = createDigest('sha1');
      d.update('abc');
      createDigest('sha1').update('also abandoned');
      expect(d.digestHex()).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    });
  });

  describe('large updates', () => {
    it.each(ALGORITHMS)('X-01 %s 20 MiB in one update and in 1 MiB + 7 byte chunks', (algorithm) => {
      const bytes = patternBytes(20 << 20, 21);
      const expected = nodeHash(algorithm, bytes);
      expect(createDigest(algorithm).update(bytes).digestHex()).toBe(expected);
      const digest = createDigest(algorithm);
      for (let i = 0; i < bytes.length; i += (1 << 20) + 7) digest.update(bytes.subarray(i, i + (1 << 20) + 7));
      expect(digest.digestHex()).toBe(expected);
    });

    it('X-01 a 5,000,000-unit string split between the halves of a pair at 2^21', () => {
      const P = 1 << 21;
      const text = 'a' + '😀'.repeat(2_499_999) + 'b';
      expect(createDigest('sha256').update(text.slice(0, P)).update(text.slice(P)).digestHex())
        .toBe(nodeHash('sha256', text));
    });
  });

  describe('lifecycle and argument errors', () => {
    it('X-01 update returns the digest itself for chaining', () => {
      const d = createDigest('sha1');
      expect(d.update('a')).toBe(d);
      expect(d.update('b').update(Uint8Array.of(0x63)).digestHex()).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    });

    it.each(ALGORITHMS)('X-01 %s update after digestHex and a second digestHex throw', (algorithm) => {
      const d = createDigest(algorithm);
      d.update('abc');
      expect(d.digestHex()).toBe(nodeHash(algorithm, 'abc'));
      expectError(() => d.update('more'), Error, `${algorithm} digest: update() after digestHex()`);
      expectError(() => d.digestHex(), Error, `${algorithm} digest: digestHex() called twice`);
    });

    it("X-01 createDigest('md5') is a TypeError naming createDigest, algorithm and 'md5'", () => {
      expectError(() => createDigest('md5' as never), TypeError, `createDigest: algorithm must be 'sha1' or 'sha256', got "md5"`);
      expectError(() => createDigest('SHA1' as never), TypeError, `createDigest: algorithm must be 'sha1' or 'sha256', got "SHA1"`);
      expectError(() => createDigest(undefined as never), TypeError, `createDigest: algorithm must be 'sha1' or 'sha256', got undefined`);
    });

    it('X-01 update with a non-text chunk is a TypeError naming the chunk and leaves the digest usable', () => {
      const d = createDigest('sha256');
      d.update('ab');
      expectError(() => d.update(7 as never), TypeError, 'sha256 digest update: chunk must be a string or a Uint8Array, got 7');
      expectError(() => d.update(null as never), TypeError, 'sha256 digest update: chunk must be a string or a Uint8Array, got null');
      expect(d.update('c').digestHex()).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });
  });
});
