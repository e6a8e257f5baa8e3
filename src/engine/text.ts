// Character budgets in code points (spec X-06): a surrogate pair is one code point, a lone surrogate
// is one code point, as Array.from(text) counts them.

import { engine } from '../wasm/instance.js';
import { MAX_PIECE_UNITS, pieceEnd, putUtf16 } from '../wasm/memory.js';
import { expectLimit, expectString } from './args.js';

/** Number of code points in `text`. */
export function codePointLength(text: string): number {
  expectString('codePointLength', 'text', text);
  let total = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, MAX_PIECE_UNITS);
    total += engine.codePointCountUtf16(putUtf16(text, start, end), end - start) >>> 0;
    start = end;
  }
  return total;
}

/** The longest prefix of `text` with at most `max` code points; a surrogate pair is never split. */
export function capCodePoints(text: string, max: number): string {
  expectString('capCodePoints', 'text', text);
  expectLimit('capCodePoints', 'max', max, true);
  if (text.length <= max) return text; // code points never outnumber code units
  let left = max;
  let start = 0;
  while (left > 0) {
    // `left` code points span at most 2 × left code units: nothing beyond that is moved in.
    const end = pieceEnd(text, start, Math.min(MAX_PIECE_UNITS, 2 * left));
    const units = end - start;
    const ptr = putUtf16(text, start, end);
    const offset = engine.codePointOffsetUtf16(ptr, units, left) >>> 0;
    if (offset < units || end === text.length) return text.slice(0, start + offset);
    left -= engine.codePointCountUtf16(ptr, units) >>> 0;
    start = end;
  }
  return text.slice(0, start);
}
