// Issue 33: the facade chooses its path per call (plain JavaScript for short strings, node:crypto and
// Buffer where the runtime has them, WASM for the rest) and answers the same on every path. Each
// threshold is crossed by inputs on both of its sides, checked against the references and against the
// same call with every path forced into WASM.

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  capCodePoints, codePointLength, createDigest, digestMany, readBounded, sha1Hex, sha256Hex, truncateUtf8, utf8Length,
  type ReadChunk, type ReadResult,
} from '../../src/engine/index.js';
import { nativeByteLength, nativeCrypto } from '../../src/engine/native.js';
import {
  latin1AtSamples, LOOK_SAMPLES, LOOP_UTF8_UNITS, ONE_BYTE_PROBE_UNITS, oneByteText, SAMPLED_LOOK_UNITS, SMALL_CODE_POINT_UNITS, SMALL_UTF8_UNITS, useWasmOnly,
} from '../../src/engine/paths.js';
import { smallUtf8Length, smallUtf8Prefix } from '../../src/engine/small.js';
import { MAX_PIECE_UNITS } from '../../src/wasm/sizes.js';
import { anyText, cuts, textUnit } from '../support/arbitraries.js';
import { byteLength, nodeHash, okResult, referenceCap, referenceTruncate, splitAt, streamBytes, WHITESPACE } from '../support/reference.js';

afterEach(() => useWasmOnly(false));

/** The same call with every path forced into WASM. */
function inWasm<T>(call: () => T): T {
  useWasmOnly(true);
  try {
    return call();
  } finally {
    useWasmOnly(false);
  }
}

async function inWasmAsync<T>(call: () => Promise<T>): Promise<T> {
  useWasmOnly(true);
  try {
    return await call();
  } finally {
    useWasmOnly(false);
  }
}

/** Strings of exactly `length` code units of every class (pairs, lone surrogates, whitespace). */
const textOfLength = (length: number): fc.Arbitrary<string> =>
  fc.array(textUnit, { minLength: length, maxLength: length }).map((units) => units.join('').slice(0, length))
    .filter((text) => text.length === length);

/** Lengths on both sides of `threshold`. */
const around = (threshold: number): number[] => [0, 1, threshold - 2, threshold - 1, threshold, threshold + 1, threshold + 2, 2 * threshold];

describe('issue 33: this runtime has the natives the chosen paths use', () => {
  it('node:crypto and Buffer.byteLength are found without importing node: modules', () => {
    expect(nativeCrypto()).toBeDefined();
    expect(nativeByteLength()).toBeDefined();
    useWasmOnly(true);
    expect([nativeCrypto(), nativeByteLength()]).toEqual([undefined, undefined]);
  });

  it('oneByteText looks at the first ONE_BYTE_PROBE_UNITS units only', () => {
    const latin1 = 'aé\u00ff'.repeat(ONE_BYTE_PROBE_UNITS);
    expect(oneByteText(latin1)).toBe(true);
    expect(oneByteText(`${latin1.slice(0, ONE_BYTE_PROBE_UNITS - 1)}中${latin1}`)).toBe(false);
    expect(oneByteText(`${latin1.slice(0, ONE_BYTE_PROBE_UNITS)}中`)).toBe(true);
    expect(oneByteText('')).toBe(true);
  });
});

describe('issue 33: latin1AtSamples reads LOOK_SAMPLES evenly spaced units, the first and last included', () => {
  it('a unit above U+00FF at a sampled offset is seen, one between samples is not', () => {
    const length = 7001; // (length - 1) / 7 = 1000: the samples are at 0, 1000, …, 7000
    const plain = 'aé\u00ff'.repeat(length).slice(0, length);
    const at = (offset: number) => `${plain.slice(0, offset)}中${plain.slice(offset + 1)}`;
    expect(latin1AtSamples(plain)).toBe(true);
    for (let k = 0; k < LOOK_SAMPLES; k++) expect(latin1AtSamples(at(k * 1000)), `sample ${k}`).toBe(false);
    for (const offset of [1, 999, 1001, 3500, 6999]) expect(latin1AtSamples(at(offset)), `offset ${offset}`).toBe(true);
    expect(latin1AtSamples('中')).toBe(false);
    expect(latin1AtSamples('a')).toBe(true);
  });
});

describe('issue 33 X-05: utf8Length on both sides of SAMPLED_LOOK_UNITS, wide units sampled or missed', () => {
  it.each(around(SAMPLED_LOOK_UNITS).filter((n) => n > SMALL_UTF8_UNITS))('X-05 %i code units: Buffer, WASM and the reference count alike', (length) => {
    const plain = 'a'.repeat(length);
    const wide = (offset: number, unit: string) => `${plain.slice(0, offset)}${unit}${plain.slice(offset + unit.length)}`;
    // A pair at a sampled offset (taken to WASM), a pair and a lone surrogate between samples (Buffer).
    for (const text of [plain, wide(0, '😀'), wide(length - 2, '😀'), wide(3, '😀'), wide(length >> 4, '\uD800'), wide(length - 1, '\uDC00')]) {
      expect(utf8Length(text)).toBe(byteLength(text));
      expect(inWasm(() => utf8Length(text))).toBe(byteLength(text));
    }
  });
});

describe('issue 33 X-05: utf8Length and truncateUtf8 on both sides of SMALL_UTF8_UNITS', () => {
  it.each(around(SMALL_UTF8_UNITS))('X-05 strings of %i code units of every class equal Buffer and the reference cut, as in WASM', (length) => {
    fc.assert(fc.property(textOfLength(length), fc.nat({ max: 4 * length + 4 }), (text, maxBytes) => {
      const bytes = byteLength(text);
      expect(utf8Length(text)).toBe(bytes);
      expect(inWasm(() => utf8Length(text))).toBe(bytes);
      const cut = truncateUtf8(text, maxBytes);
      expect(cut).toEqual(referenceTruncate(text, maxBytes));
      expect(inWasm(() => truncateUtf8(text, maxBytes))).toEqual(cut);
      expect(truncateUtf8(text, Infinity)).toEqual({ text, bytes, truncated: false });
    }), { numRuns: 60 });
  });

  it('X-05 a pair at the threshold, and lone surrogates at either end, count and cut whole', () => {
    for (const text of ['a'.repeat(SMALL_UTF8_UNITS - 1) + '😀', '😀'.repeat(SMALL_UTF8_UNITS / 2), '\uDC00' + 'x'.repeat(SMALL_UTF8_UNITS - 2) + '\uD800']) {
      expect(utf8Length(text)).toBe(byteLength(text));
      for (let max = 0; max <= byteLength(text); max++) expect(truncateUtf8(text, max), `${max}`).toEqual(referenceTruncate(text, max));
    }
  });
});

describe('issue 33 X-05: utf8Length and truncateUtf8 on both sides of one-byte and two-byte text', () => {
  const latin1Unit = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c));
  const asciiUnit = fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c));
  const ofLength = (unit: fc.Arbitrary<string>, length: number) => fc.array(unit, { minLength: length, maxLength: length }).map((u) => u.join(''));
  it.each([...around(ONE_BYTE_PROBE_UNITS), 1000, 5000])('X-05 ASCII, Latin-1 and mixed strings of %i code units equal Buffer and the reference cut, as in WASM', (length) => {
    // Latin-1 and ASCII strings built from char codes are held one byte per unit; a CJK unit makes the mixed one two-byte.
    const texts = fc.oneof(ofLength(asciiUnit, length), ofLength(latin1Unit, length), textOfLength(length), ofLength(asciiUnit, length).map((t) => `中${t.slice(1)}`));
    fc.assert(fc.property(texts, fc.nat({ max: 3 * length + 3 }), (text, maxBytes) => {
      expect(utf8Length(text)).toBe(byteLength(text));
      expect(truncateUtf8(text, maxBytes)).toEqual(referenceTruncate(text, maxBytes));
      expect(inWasm(() => truncateUtf8(text, maxBytes))).toEqual(referenceTruncate(text, maxBytes));
    }), { numRuns: 40 });
  });
});

describe('issue 33 X-06: codePointLength and capCodePoints on both sides of SMALL_CODE_POINT_UNITS', () => {
  it.each(around(SMALL_CODE_POINT_UNITS))('X-06 strings of %i code units of every class equal Array.from, as in WASM', (length) => {
    fc.assert(fc.property(textOfLength(length), fc.nat({ max: length + 2 }), (text, max) => {
      const count = Array.from(text).length;
      expect(codePointLength(text)).toBe(count);
      expect(inWasm(() => codePointLength(text))).toBe(count);
      expect(capCodePoints(text, max)).toBe(referenceCap(text, max));
      expect(inWasm(() => capCodePoints(text, max))).toBe(referenceCap(text, max));
    }), { numRuns: 60 });
  });
});

describe('issue 33 X-01: digests through node:crypto equal the WASM digests', () => {
  it('X-01 one-shot, streamed and batched, strings (lone surrogates included) and bytes', () => {
    fc.assert(fc.property(anyText(300), fc.uint8Array({ maxLength: 300 }), cuts(5), (text, bytes, at) => {
      for (const algorithm of ['sha1', 'sha256'] as const) {
        const one = algorithm === 'sha1' ? sha1Hex : sha256Hex;
        expect(one(text)).toBe(nodeHash(algorithm, text));
        expect(inWasm(() => one(text))).toBe(nodeHash(algorithm, text));
        expect(one(bytes)).toBe(inWasm(() => one(bytes)));
        const chunks = [...splitAt(text, at), bytes, ...splitAt(text, at)];
        const streamed = (): string => chunks.reduce((d, c) => d.update(c), createDigest(algorithm)).digestHex();
        expect(streamed()).toBe(nodeHash(algorithm, streamBytes(chunks)));
        expect(inWasm(streamed)).toBe(streamed());
        expect(digestMany(algorithm, chunks)).toEqual(inWasm(() => digestMany(algorithm, chunks)));
      }
    }), { numRuns: 150 });
  });

  it('X-01 a pair split across streamed string chunks, with empty chunks and a byte chunk after a lone high surrogate', () => {
    const chunks = ['a\uD83D', '', '\uDE00b\uD800', Uint8Array.of(0x41), '\uDC00', '\uD83D'];
    expect(chunks.reduce((d, c) => d.update(c), createDigest('sha1')).digestHex()).toBe(nodeHash('sha1', streamBytes(chunks)));
  });
});

async function read(chunks: readonly ReadChunk[], maxBytes: number): Promise<ReadResult> {
  return readBounded(chunks, { maxBytes });
}

describe('issue 33 X-03 X-04: a bounded read of one-byte text (node:crypto) and of two-byte text (WASM) give the same results', () => {
  it('X-04 the first chunk decides: Latin-1 start or not, at the probe length, with the same outcome as in WASM', async () => {
    const latin1 = '  héllo wörld\n'.repeat(40);
    for (const first of [latin1, `${latin1.slice(0, ONE_BYTE_PROBE_UNITS - 1)}中${latin1}`, `${latin1.slice(0, ONE_BYTE_PROBE_UNITS)}中 `]) {
      const chunks = [first, ' tail 😀 \n'];
      expect(await read(chunks, 1 << 20)).toEqual(okResult(chunks.join('')));
      expect(await inWasmAsync(() => read(chunks, 1 << 20))).toEqual(okResult(chunks.join('')));
    }
  });

  it('X-03 texts around the length where both digests come from one copied hash state, with and without leading whitespace', async () => {
    for (const length of [1535, 1536, 1537, 1538, 4000]) {
      const body = 'x'.repeat(length - 4);
      for (const text of [`${body}\n \t\n`, ` \n${body}\n\n`, `${body}abcd`, `\u00a0${body}\u00a0\u00a0 `, ' '.repeat(length)]) {
        expect(await read([text], 1 << 20), `${length}`).toEqual(okResult(text));
      }
    }
  });

  it('X-03 X-04 property: random one-byte and mixed text in random chunks, under random limits, equals the WASM read', async () => {
    const latin1Unit = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }), fc.constantFrom(0x09, 0x0a, 0x0d))
      .map((c) => String.fromCharCode(c));
    const latin1Text = fc.string({ unit: latin1Unit, minLength: 0, maxLength: 3000 });
    const anyStart = fc.oneof(latin1Text, anyText(200), fc.tuple(latin1Text, anyText(50)).map(([a, b]) => a + b));
    const spaces = fc.string({ unit: fc.constantFrom(...WHITESPACE), maxLength: 4 });
    await fc.assert(fc.asyncProperty(spaces, anyStart, spaces, cuts(6), fc.nat({ max: 8000 }), async (lead, text, trail, at, maxBytes) => {
      const whole = lead + text + trail;
      const chunks = splitAt(whole, at);
      const expected = byteLength(whole) <= maxBytes ? okResult(whole) : await inWasmAsync(() => read(chunks, maxBytes));
      expect(await read(chunks, maxBytes)).toEqual(expected);
      if (expected.status === 'ok') expect(await inWasmAsync(() => read(chunks, maxBytes))).toEqual(expected);
      else expect(expected).toMatchObject({ status: 'oversize', maxBytes });
    }), { numRuns: 300 });
  });

  it('X-04 oversize reads report the same byte count on both paths: a held surrogate, a pair across chunks, pieces of MAX_PIECE_UNITS', async () => {
    const cases: [ReadChunk[], number][] = [
      [['abc\uD83D', '\uDE00'], 6], [['abc\uD83D', '\uDE00'], 7], [['abc\uD83D'], 5], [['abc\uD83D'], 6], [['abc\uD83D', 'x'], 6],
      [['a'.repeat(MAX_PIECE_UNITS - 1) + '\uD83D' + '\uDE00'.repeat(3) + 'b'.repeat(MAX_PIECE_UNITS)], MAX_PIECE_UNITS + 2],
      [['é'.repeat(MAX_PIECE_UNITS + 10)], MAX_PIECE_UNITS],
      [['x'.repeat(100), 'y'.repeat(MAX_PIECE_UNITS * 2 + 5)], MAX_PIECE_UNITS + 50],
    ];
    for (const [chunks, maxBytes] of cases) {
      const wasm = await inWasmAsync(() => read(chunks, maxBytes));
      expect(await read(chunks, maxBytes), `${chunks.map((c) => c.length)} ${maxBytes}`).toEqual(wasm);
    }
    expect(await read(['abc\uD83D', '\uDE00'], 6)).toEqual({ status: 'oversize', bytes: 7, maxBytes: 6 });
  });
});
