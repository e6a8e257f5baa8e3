// Typed adapters for the UTF-16 text exports: UTF-8 length (utf8LengthUtf16), the UTF-8 cut
// (utf8CutUtf16), code-point count (codePointCountUtf16) and the code-point prefix
// (codePointOffsetUtf16). Strings move in as UTF-16, in pieces that never split a surrogate pair.

import { engine } from './instance.js';
import { layout, putUtf16, readU32 } from './memory.js';
import { COUNT_PIECE_UNITS, MAX_PIECE_UNITS, pieceEnd } from './sizes.js';

const U32_MAX = 0xffffffff;

/** Bytes of the UTF-8 encoding of `text` (a lone surrogate counts 3, as U+FFFD). */
export function utf8LengthOf(text: string): number {
  let total = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, COUNT_PIECE_UNITS);
    total += engine.utf8LengthUtf16(putUtf16(text, start, end), end - start) >>> 0;
    start = end;
  }
  return total;
}

/**
 * The longest prefix of `text` whose UTF-8 length is at most `maxBytes` (a safe integer or
 * Infinity), never ending inside a pair: its length in code units and in UTF-8 bytes.
 */
export function utf8Prefix(text: string, maxBytes: number): { units: number; bytes: number } {
  let bytes = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, MAX_PIECE_UNITS);
    const ptr = putUtf16(text, start, end);
    const budget = Math.min(maxBytes - bytes, U32_MAX);
    const cut = engine.utf8CutUtf16(ptr, end - start, budget, layout.out) >>> 0;
    bytes += readU32(layout.out);
    if (cut < end - start) return { units: start + cut, bytes };
    start = end;
  }
  return { units: text.length, bytes };
}

/** Code points in `text` (a pair is one, a lone surrogate is one). */
export function codePointCount(text: string): number {
  let total = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, COUNT_PIECE_UNITS);
    total += engine.codePointCountUtf16(putUtf16(text, start, end), end - start) >>> 0;
    start = end;
  }
  return total;
}

/**
 * Length in code units of the longest prefix of `text` with at most `max` code points (a safe
 * integer or Infinity), never between the halves of a pair.
 */
export function codePointPrefix(text: string, max: number): number {
  let left = max;
  let start = 0;
  while (left > 0 && start < text.length) {
    // `left` code points span at most 2 × left code units: nothing beyond that is moved in.
    const end = pieceEnd(text, start, Math.min(MAX_PIECE_UNITS, 2 * left));
    const units = end - start;
    const ptr = putUtf16(text, start, end);
    const offset = engine.codePointOffsetUtf16(ptr, units, Math.min(left, U32_MAX)) >>> 0;
    if (offset < units || end === text.length) return start + offset;
    left -= engine.codePointCountUtf16(ptr, units) >>> 0;
    start = end;
  }
  return start;
}
