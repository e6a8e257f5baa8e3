// SIMD plumbing for the hashes: big-endian word loads, rotations, and the four-lane layout of batch
// hashing, where four messages advance one block each per step and lane k of every v128 belongs to
// message k.

export const ZERO = v128(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);

/** Byte shuffle that turns four big-endian words into native u32 lanes. */
const BSWAP_WORDS = v128(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);

/** Four consecutive big-endian words at `ptr` as native u32 lanes. */
// @ts-ignore: decorator
@inline export function loadBigEndian(ptr: usize): v128 {
  return i8x16.swizzle(v128.load(ptr), BSWAP_WORDS);
}

/** Bytes of one lane-interleaved state: up to 8 words × 4 lanes. */
export const STATE4_SIZE: usize = 8 * 16;

/**
 * Loads one 64-byte block from each of four messages and writes the 16 big-endian words as 16
 * vectors at `dst` (vector t holds word t of lanes 0..3). The byte swap is folded into the first
 * level of the 4×4 transpose.
 */
// @ts-ignore: decorator
@inline
export function loadTransposed(dst: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
  for (let i: usize = 0; i < 64; i += 16) {
    const v0 = v128.load(p0 + i);
    const v1 = v128.load(p1 + i);
    const v2 = v128.load(p2 + i);
    const v3 = v128.load(p3 + i);
    // words 0 and 1 of lanes 0/1 and 2/3, byte-swapped
    const t0 = i8x16.shuffle(v0, v1, 3, 2, 1, 0, 19, 18, 17, 16, 7, 6, 5, 4, 23, 22, 21, 20);
    const t1 = i8x16.shuffle(v2, v3, 3, 2, 1, 0, 19, 18, 17, 16, 7, 6, 5, 4, 23, 22, 21, 20);
    // words 2 and 3
    const t2 = i8x16.shuffle(v0, v1, 11, 10, 9, 8, 27, 26, 25, 24, 15, 14, 13, 12, 31, 30, 29, 28);
    const t3 = i8x16.shuffle(v2, v3, 11, 10, 9, 8, 27, 26, 25, 24, 15, 14, 13, 12, 31, 30, 29, 28);
    const out = dst + (i << 2);
    v128.store(out, i8x16.shuffle(t0, t1, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23), 0);
    v128.store(out, i8x16.shuffle(t0, t1, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31), 16);
    v128.store(out, i8x16.shuffle(t2, t3, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23), 32);
    v128.store(out, i8x16.shuffle(t2, t3, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31), 48);
  }
}

// @ts-ignore: decorator
@inline export function add(a: v128, b: v128): v128 { return i32x4.add(a, b); }
// @ts-ignore: decorator
@inline export function rotlx4(x: v128, n: i32): v128 { return v128.or(i32x4.shl(x, n), i32x4.shr_u(x, 32 - n)); }
// @ts-ignore: decorator
@inline export function rotrx4(x: v128, n: i32): v128 { return v128.or(i32x4.shr_u(x, n), i32x4.shl(x, 32 - n)); }
