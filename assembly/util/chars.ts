// Named code units and masks used by the UTF-16 and UTF-8 primitives.

export const SURROGATE_MASK: u32 = 0xfc00; // keeps the 6 bits that tell high/low surrogates apart
export const HIGH_SURROGATE: u32 = 0xd800; // D800..DBFF
export const LOW_SURROGATE: u32 = 0xdc00; // DC00..DFFF
export const SURROGATE_OFFSET: u32 = 0x35fdc00; // (0xd800 << 10) + 0xdc00 - 0x10000

export const UTF8_1_LIMIT: u32 = 0x80; // below: one byte
export const UTF8_2_LIMIT: u32 = 0x800; // below: two bytes (else three, or four for a pair)

/** U+FFFD REPLACEMENT CHARACTER as UTF-8 bytes EF BF BD, little-endian packed. */
export const REPLACEMENT_UTF8: u32 = 0xbdbfef;
export const REPLACEMENT_BYTES: usize = 3;

// @ts-ignore: decorator
@inline export function isHighSurrogate(c: u32): bool {
  return (c & SURROGATE_MASK) == HIGH_SURROGATE;
}

// @ts-ignore: decorator
@inline export function isLowSurrogate(c: u32): bool {
  return (c & SURROGATE_MASK) == LOW_SURROGATE;
}
