// fast-check arbitraries for the engine's property tests: text that reaches every UTF-8 width, lone
// surrogates of both kinds and the whitespace set, byte arrays biased toward UTF-8's edge bytes, and
// chunkings.

import fc from 'fast-check';
import { NOT_WHITESPACE, utf8, WHITESPACE } from './reference.js';

const fromUnit = (c: number): string => String.fromCharCode(c);

/** One code unit or code point of any class: ASCII, 2- and 3-byte, astral, lone surrogates, spaces. */
export const textUnit: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 0x7f }).map(fromUnit) },
  { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0x7ff }).map(fromUnit) },
  { weight: 2, arbitrary: fc.integer({ min: 0x800, max: 0xffff }).map(fromUnit) }, // surrogates included
  { weight: 2, arbitrary: fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdbff }).map(fromUnit) },
  { weight: 1, arbitrary: fc.integer({ min: 0xdc00, max: 0xdfff }).map(fromUnit) },
  { weight: 2, arbitrary: fc.constantFrom(...WHITESPACE, ...NOT_WHITESPACE) },
);

/** Strings of every character class, lone surrogates included. */
export const anyText = (maxLength = 120): fc.Arbitrary<string> => fc.string({ unit: textUnit, maxLength });

/** Arbitrary UTF-16: any code unit at every position. */
export const codeUnits = (maxLength = 120): fc.Arbitrary<string> =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));

/** Well-formed strings of any code point (fast-check's 'binary' unit never yields a lone surrogate). */
export const binaryText = (maxLength = 120): fc.Arbitrary<string> => fc.string({ unit: 'binary', maxLength });

/** Cut points for splitAt (taken modulo length + 1; repeats make empty chunks). */
export const cuts = (maxCuts = 8): fc.Arbitrary<number[]> => fc.array(fc.nat(), { maxLength: maxCuts });

/** Bytes that decide UTF-8 validity: leads of every width, continuation bounds, never-valid bytes. */
export const EDGE_BYTES = [
  0x00, 0x09, 0x20, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xe2, 0xed,
  0xee, 0xef, 0xf0, 0xf3, 0xf4, 0xf5, 0xf8, 0xfe, 0xff,
] as const;

const codePoint = fc.oneof(
  fc.integer({ min: 0x80, max: 0x7ff }),
  fc.integer({ min: 0x800, max: 0xffff }).filter((c) => c < 0xd800 || c > 0xdfff),
  fc.integer({ min: 0x10000, max: 0x10ffff }),
  fc.constantFrom(0xfeff, 0x3000, 0x2028, 0xa0, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff),
);

/** Byte arrays that are often valid UTF-8 and often broken in interesting ways. */
export const utf8ishBytes = (maxPieces = 30): fc.Arbitrary<Uint8Array> =>
  fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...EDGE_BYTES).map((b) => [b]) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 0xff }).map((b) => [b]) },
      { weight: 4, arbitrary: codePoint.map((c) => Array.from(utf8(String.fromCodePoint(c)))) },
      { weight: 1, arbitrary: fc.tuple(codePoint, fc.nat()).map(([c, k]) => {
        const seq = Array.from(utf8(String.fromCodePoint(c)));
        return seq.slice(0, 1 + (k % (seq.length - 1))); // a truncated sequence
      }) },
      { weight: 1, arbitrary: fc.constant([0xef, 0xbb, 0xbf]) },
    ),
    { maxLength: maxPieces },
  ).map((pieces) => Uint8Array.from(pieces.flat()));
