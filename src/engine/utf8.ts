// UTF-8 byte accounting of JS strings (spec X-05): lengths and cuts at a byte budget, as the WHATWG
// encoder (TextEncoder, Buffer) would encode the string; a lone surrogate counts as U+FFFD. Short
// strings are counted in JavaScript (Buffer.byteLength where the runtime has it), longer ones in WASM
// with SIMD (paths.ts).

import { utf8LengthOf, utf8Prefix } from '../wasm/text.js';
import { expectLimit, expectString } from './args.js';
import { nativeByteLength } from './native.js';
import { enginePaths, SMALL_UTF8_UNITS } from './paths.js';
import { smallUtf8Length, smallUtf8Prefix } from './small.js';

/**
 * Bytes in the UTF-8 encoding of `text`, equal to `Buffer.byteLength(text)`.
 * @param text any string
 * @returns its UTF-8 length
 */
export function utf8Length(text: string): number {
  expectString('utf8Length', 'text', text);
  return byteCount(text);
}

function byteCount(text: string): number {
  if (text.length > SMALL_UTF8_UNITS || enginePaths.wasmOnly) return utf8LengthOf(text);
  const native = nativeByteLength();
  return native === undefined ? smallUtf8Length(text) : native(text);
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
 * @param text any string
 * @param maxBytes a non-negative integer, or Infinity
 * @returns the prefix, its UTF-8 length, and whether anything was cut off
 */
export function truncateUtf8(text: string, maxBytes: number): Utf8Truncation {
  expectString('truncateUtf8', 'text', text);
  expectLimit('truncateUtf8', 'maxBytes', maxBytes, true);
  if (text.length * 3 <= maxBytes) return { text, bytes: byteCount(text), truncated: false };
  const cut = text.length > SMALL_UTF8_UNITS || enginePaths.wasmOnly ? utf8Prefix(text, maxBytes) : smallUtf8Prefix(text, maxBytes);
  if (cut.units === text.length) return { text, bytes: cut.bytes, truncated: false };
  return { text: text.slice(0, cut.units), bytes: cut.bytes, truncated: true };
}
