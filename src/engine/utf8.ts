// UTF-8 byte accounting of JS strings (spec X-05): lengths and cuts at a byte budget, as the WHATWG
// encoder (TextEncoder, Buffer) would encode the string; a lone surrogate counts as U+FFFD. Short
// strings and one-byte strings are counted by Buffer where the runtime has it, text with CJK, emoji
// and the like in WASM with SIMD (paths.ts).

import { utf8LengthOf, utf8Prefix } from '../wasm/text.js';
import { expectLimit, expectString } from './args.js';
import { nativeByteLength } from './native.js';
import { enginePaths, latin1AtSamples, LOOP_UTF8_UNITS, oneByteText, SAMPLED_LOOK_UNITS, SMALL_UTF8_UNITS } from './paths.js';
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

/**
 * Whether the UTF-8 encoding of `text` is at most `maxBytes` bytes: `utf8Length(text) <= maxBytes`,
 * answered without counting where the string's length settles it. A code unit is one to three UTF-8
 * bytes (a surrogate pair is two units and four bytes; a lone surrogate is U+FFFD, three), so a
 * string of n units has between n and 3n bytes: n * 3 <= maxBytes fits, n > maxBytes does not, and
 * only a string between the two is counted (on the path utf8Length takes).
 * @param text any string
 * @param maxBytes a non-negative integer, or Infinity
 * @returns true when its UTF-8 length is at most `maxBytes`
 */
export function fitsUtf8(text: string, maxBytes: number): boolean {
  expectString('fitsUtf8', 'text', text);
  expectLimit('fitsUtf8', 'maxBytes', maxBytes, true);
  const n = text.length;
  if (n * 3 <= maxBytes) return true;
  if (n > maxBytes) return false;
  return byteCount(text) <= maxBytes;
}

/**
 * The byte count on the path that answers sooner (paths.ts): Buffer for short strings and for any
 * string V8 holds one byte per unit (Node counts those with SIMD, no transcoding; WASM would have to
 * copy them in as UTF-16 first: told by eight sampled units up to SAMPLED_LOOK_UNITS, by the first 256
 * beyond), a loop for short strings without Buffer, WASM for the rest.
 */
function byteCount(text: string): number {
  if (enginePaths.wasmOnly) return utf8LengthOf(text);
  const native = nativeByteLength();
  if (native === undefined) return text.length <= LOOP_UTF8_UNITS ? smallUtf8Length(text) : utf8LengthOf(text);
  const n = text.length;
  return n <= SMALL_UTF8_UNITS || (n <= SAMPLED_LOOK_UNITS ? latin1AtSamples(text) : oneByteText(text)) ? native(text) : utf8LengthOf(text);
}

/** The longest prefix within `maxBytes`, on the path that answers sooner. */
function prefixOf(text: string, maxBytes: number): { units: number; bytes: number } {
  if (enginePaths.wasmOnly) return utf8Prefix(text, maxBytes);
  if (text.length <= LOOP_UTF8_UNITS) return smallUtf8Prefix(text, maxBytes);
  // ASCII (one UTF-8 byte per unit, which Buffer tells at once for a one-byte string) is cut at the budget.
  const native = nativeByteLength();
  if (native !== undefined && oneByteText(text) && native(text) === text.length) {
    const units = Math.min(text.length, maxBytes);
    return { units, bytes: units };
  }
  return utf8Prefix(text, maxBytes);
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
  const cut = prefixOf(text, maxBytes);
  if (cut.units === text.length) return { text, bytes: cut.bytes, truncated: false };
  return { text: text.slice(0, cut.units), bytes: cut.bytes, truncated: true };
}
