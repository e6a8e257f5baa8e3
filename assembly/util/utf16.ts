// SIMD helpers shared by the UTF-16 kernels (utf8.ts, codepoints.ts). A "vector" is 8 code units.

import { SURROGATE_MASK, HIGH_SURROGATE, LOW_SURROGATE } from "./chars";

export const UNITS_PER_VECTOR: usize = 8;
export const BYTES_PER_VECTOR: usize = 16;

/**
 * Lanes (as -1) where `cur` holds a low surrogate whose preceding unit is a high surrogate, i.e. the
 * second half of a well-formed pair. `prev` is the vector before `cur` (zero at the start), so a
 * pair split across two vectors is seen.
 */
// @ts-ignore: decorator
@inline
export function pairSecondHalves(cur: v128, prev: v128): v128 {
  const before = i8x16.shuffle(prev, cur, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29);
  const mask = i16x8.splat(<i16>SURROGATE_MASK);
  const low = i16x8.eq(v128.and(cur, mask), i16x8.splat(<i16>LOW_SURROGATE));
  const high = i16x8.eq(v128.and(before, mask), i16x8.splat(<i16>HIGH_SURROGATE));
  return v128.and(low, high);
}

/** Sum of the eight u16 lanes. */
// @ts-ignore: decorator
@inline
export function sumU16(v: v128): u32 {
  const pairs = i32x4.extadd_pairwise_i16x8_u(v);
  const halves = i32x4.add(pairs, i8x16.shuffle(pairs, pairs, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  return <u32>(i32x4.extract_lane(halves, 0) + i32x4.extract_lane(halves, 1));
}

/** Sum of the four u32 lanes. */
// @ts-ignore: decorator
@inline
export function sumU32(v: v128): u32 {
  const halves = i32x4.add(v, i8x16.shuffle(v, v, 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7));
  return <u32>(i32x4.extract_lane(halves, 0) + i32x4.extract_lane(halves, 1));
}
