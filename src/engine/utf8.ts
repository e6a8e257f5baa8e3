// UTF-8 byte accounting of JS strings (spec X-05): lengths and cuts at a byte budget, as the WHATWG
// encoder (TextEncoder, Buffer) would encode the string; a lone surrogate counts as U+FFFD.

import { engine } from '../wasm/instance.js';
import { layout, MAX_PIECE_UNITS, pieceEnd, putUtf16, readU32 } from '../wasm/memory.js';
import { expectLimit, expectString } from './args.js';

const U32_MAX = 0xffffffff;

/** Number of bytes in the UTF-8 encoding of `text`. */
export function utf8Length(text: string): number {
  expectString('utf8Length', 'text', text);
  let total = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, MAX_PIECE_UNITS);
    total += engine.utf8LengthUtf16(putUtf16(text, start, end), end - start) >>> 0;
    start = end;
  }
  return total;
}

export interface Utf8Truncation {
  /** The longest prefix of the input whose UTF-8 encoding fits; never ends inside a code point. */
  readonly text: string;
  /** UTF-8 length of `text`. */
  readonly bytes: number;
  /** Whether anything was cut off. */
  readonly truncated: boolean;
}

/**
 * The longest prefix of `text` whose UTF-8 length is at most `maxBytes`, never splitting a code point
 * (a surrogate pair is kept or dropped whole).
 */
export function truncateUtf8(text: string, maxBytes: number): Utf8Truncation {
  expectString('truncateUtf8', 'text', text);
  expectLimit('truncateUtf8', 'maxBytes', maxBytes, true);
  if (text.length * 3 <= maxBytes) return { text, bytes: utf8Length(text), truncated: false };
  let bytes = 0;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, MAX_PIECE_UNITS);
    const ptr = putUtf16(text, start, end);
    const budget = Math.min(maxBytes - bytes, U32_MAX);
    const cut = engine.utf8CutUtf16(ptr, end - start, budget, layout.out) >>> 0;
    bytes += readU32(layout.out);
    if (cut < end - start) return { text: text.slice(0, start + cut), bytes, truncated: true };
    start = end;
  }
  return { text, bytes, truncated: false };
}
