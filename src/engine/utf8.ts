// UTF-8 byte accounting of JS strings (spec X-05): lengths and cuts at a byte budget, as the WHATWG
// encoder (TextEncoder, Buffer) would encode the string; a lone surrogate counts as U+FFFD.

import { utf8LengthOf, utf8Prefix } from '../wasm/text.js';
import { expectLimit, expectString } from './args.js';

/**
 * Bytes in the UTF-8 encoding of `text`, equal to `Buffer.byteLength(text)`.
 * @param text any string
 * @returns its UTF-8 length
 */
export function utf8Length(text: string): number {
  expectString('utf8Length', 'text', text);
  return utf8LengthOf(text);
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
  if (text.length * 3 <= maxBytes) return { text, bytes: utf8LengthOf(text), truncated: false };
  const cut = utf8Prefix(text, maxBytes);
  if (cut.units === text.length) return { text, bytes: cut.bytes, truncated: false };
  return { text: text.slice(0, cut.units), bytes: cut.bytes, truncated: true };
}
