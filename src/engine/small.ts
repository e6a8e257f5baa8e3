// The plain-JavaScript answers for short strings (issue 33), where a loop over a few dozen code units
// costs less than the WASM crossing: UTF-8 length and cut, code points and their prefix.
// Same semantics as the WASM kernels: a lone surrogate is U+FFFD (3 bytes) and one code point, and a
// surrogate pair is never split.

const SURROGATE_MASK = 0xfc00;

/**
 * Whether a UTF-16 code unit is a high (leading) surrogate.
 * @param unit a code unit (`charCodeAt`; NaN past the end is none)
 * @returns true for U+D800–U+DBFF
 */
export function isHighSurrogate(unit: number): boolean {
  return (unit & SURROGATE_MASK) === 0xd800;
}

/**
 * Whether a UTF-16 code unit is a low (trailing) surrogate.
 * @param unit a code unit (`charCodeAt`; NaN past the end is none)
 * @returns true for U+DC00–U+DFFF
 */
export function isLowSurrogate(unit: number): boolean {
  return (unit & SURROGATE_MASK) === 0xdc00;
}

/** Whether units i and i + 1 of `text` are a surrogate pair. */
function pairAt(text: string, i: number): boolean {
  return isHighSurrogate(text.charCodeAt(i)) && i + 1 < text.length && isLowSurrogate(text.charCodeAt(i + 1));
}

/** UTF-8 bytes of the code point (or lone surrogate) at unit i: 4 for a pair, which takes two units. */
function unitBytes(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  return pairAt(text, i) ? 4 : 3;
}

/**
 * Bytes of the UTF-8 encoding of `text`, as Buffer.byteLength counts them.
 * @param text a short string
 * @returns its UTF-8 length
 */
export function smallUtf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const n = unitBytes(text, i);
    bytes += n;
    if (n === 4) i++;
  }
  return bytes;
}

/**
 * The longest prefix of `text` within `maxBytes` UTF-8 bytes that ends on a code point boundary.
 * @param text a short string
 * @param maxBytes a non-negative integer or Infinity
 * @returns its length in code units and in UTF-8 bytes
 */
export function smallUtf8Prefix(text: string, maxBytes: number): { units: number; bytes: number } {
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const n = unitBytes(text, i);
    if (bytes + n > maxBytes) break;
    bytes += n;
    i += n === 4 ? 2 : 1;
  }
  return { units: i, bytes };
}

/**
 * Code points of `text`: a pair is one, a lone surrogate is one (Array.from's count).
 * @param text a short string
 * @returns the count
 */
export function smallCodePointLength(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    if (pairAt(text, i)) {
      count--;
      i++;
    }
  }
  return count;
}

/**
 * Code units of the longest prefix of `text` with at most `max` code points.
 * @param text a short string
 * @param max a non-negative integer or Infinity
 * @returns the prefix's length in code units
 */
export function smallCodePointPrefix(text: string, max: number): number {
  let i = 0;
  for (let n = 0; n < max && i < text.length; n++) i += pairAt(text, i) ? 2 : 1;
  return i;
}
