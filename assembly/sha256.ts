// SHA-256 (FIPS 180-4 §6.2). Contexts use the shared layout of util/md.ts; state words are stored as
// native u32 values.

import {
  mdReset, mdUpdate, mdUpdateUtf16, mdFinish, stateToHex, stateToBytes,
} from "./util/md";
import { add, loadBigEndian, loadTransposed, rotrx4, ZERO } from "./util/lanes";

const SHA256_WORDS: usize = 8;

/** Round constants K0..K63: first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const SHA256_K: usize = memory.data<u32>([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
]);

/** Initial hash value H(0): first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const SHA256_H: usize = memory.data<u32>([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);

/** W[t] + K[t] of the block being compressed, written by the schedule four words at a time. */
const SCHEDULE: usize = memory.data(64 * 4, 16);

// Σ0 and Σ1 factored as rotr(x ^ rotr(x, i) ^ rotr(x, j), k): the same rotations with fewer register
// copies on x86 (measured ~5% faster than the three-rotation form).
// @ts-ignore: decorator
@inline function bigSigma0(x: u32): u32 { return rotr<u32>(x ^ rotr<u32>(x, 11) ^ rotr<u32>(x, 20), 2); }
// @ts-ignore: decorator
@inline function bigSigma1(x: u32): u32 { return rotr<u32>(x ^ rotr<u32>(x, 5) ^ rotr<u32>(x, 19), 6); }
// @ts-ignore: decorator
@inline function ch(x: u32, y: u32, z: u32): u32 { return z ^ (x & (y ^ z)); }
// @ts-ignore: decorator
@inline function kw(t: usize): u32 { return load<u32>(SCHEDULE + (t << 2)); }

// @ts-ignore: decorator
@inline function smallSigma0x4(x: v128): v128 {
  return v128.xor(v128.xor(rotrx4(x, 7), rotrx4(x, 18)), i32x4.shr_u(x, 3));
}
// @ts-ignore: decorator
@inline function smallSigma1x4(x: v128): v128 {
  return v128.xor(v128.xor(rotrx4(x, 17), rotrx4(x, 19)), i32x4.shr_u(x, 10));
}

// Lane moves for the schedule (lanes are words).
// @ts-ignore: decorator
@inline function words1to4(a: v128, b: v128): v128 {
  return i8x16.shuffle(a, b, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
}
// @ts-ignore: decorator
@inline function upperHalfDown(v: v128): v128 {
  return i8x16.shuffle(v, ZERO, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
}
// @ts-ignore: decorator
@inline function lowerHalfUp(v: v128): v128 {
  return i8x16.shuffle(ZERO, v, 0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23);
}
// @ts-ignore: decorator
@inline function storeKw(group: usize, w: v128): void {
  v128.store(SCHEDULE + (group << 4), i32x4.add(w, v128.load(SHA256_K + (group << 4))));
}

/**
 * Compresses one 64-byte block at `block` into the eight state words at `state`.
 *
 * The message schedule W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16] runs in SIMD, four words
 * at a time, woven between the scalar rounds: words 4g..4g+3 are computed during rounds 4g-16 to
 * 4g-13, so the vector units work while the integer units run the rounds (1.3× faster than a
 * schedule computed before the rounds, on V8/x64). The σ1 terms of lanes 2 and 3 depend on lanes 0
 * and 1 of the same group and are added in a second step. The 64 rounds are unrolled; the working
 * variables rotate names instead of moving, and Maj(a, b, c) = b ^ ((a ^ b) & (b ^ c)) reuses this
 * round's a ^ b as the next round's b ^ c.
 */
function sha256Compress(state: usize, block: usize): void {
  let a = load<u32>(state, 0);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  let e = load<u32>(state, 16);
  let f = load<u32>(state, 20);
  let g = load<u32>(state, 24);
  let h = load<u32>(state, 28);
  let w0 = loadBigEndian(block + 0);
  let w1 = loadBigEndian(block + 16);
  let w2 = loadBigEndian(block + 32);
  let w3 = loadBigEndian(block + 48);
  storeKw(0, w0);
  storeKw(1, w1);
  storeKw(2, w2);
  storeKw(3, w3);
  let t1: u32, ab: u32, bc = b ^ c;
  let base: v128, low: v128;

  // rounds 0-3, W[16..19]
  t1 = h + kw(0) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w0, smallSigma0x4(words1to4(w0, w1))), words1to4(w2, w3));
  t1 = g + kw(1) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w3)));
  t1 = f + kw(2) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w0 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(3) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(4, w0);
  // rounds 4-7, W[20..23]
  t1 = d + kw(4) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w1, smallSigma0x4(words1to4(w1, w2))), words1to4(w3, w0));
  t1 = c + kw(5) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w0)));
  t1 = b + kw(6) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w1 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(7) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(5, w1);
  // rounds 8-11, W[24..27]
  t1 = h + kw(8) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w2, smallSigma0x4(words1to4(w2, w3))), words1to4(w0, w1));
  t1 = g + kw(9) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w1)));
  t1 = f + kw(10) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w2 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(11) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(6, w2);
  // rounds 12-15, W[28..31]
  t1 = d + kw(12) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w3, smallSigma0x4(words1to4(w3, w0))), words1to4(w1, w2));
  t1 = c + kw(13) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w2)));
  t1 = b + kw(14) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w3 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(15) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(7, w3);
  // rounds 16-19, W[32..35]
  t1 = h + kw(16) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w0, smallSigma0x4(words1to4(w0, w1))), words1to4(w2, w3));
  t1 = g + kw(17) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w3)));
  t1 = f + kw(18) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w0 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(19) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(8, w0);
  // rounds 20-23, W[36..39]
  t1 = d + kw(20) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w1, smallSigma0x4(words1to4(w1, w2))), words1to4(w3, w0));
  t1 = c + kw(21) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w0)));
  t1 = b + kw(22) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w1 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(23) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(9, w1);
  // rounds 24-27, W[40..43]
  t1 = h + kw(24) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w2, smallSigma0x4(words1to4(w2, w3))), words1to4(w0, w1));
  t1 = g + kw(25) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w1)));
  t1 = f + kw(26) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w2 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(27) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(10, w2);
  // rounds 28-31, W[44..47]
  t1 = d + kw(28) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w3, smallSigma0x4(words1to4(w3, w0))), words1to4(w1, w2));
  t1 = c + kw(29) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w2)));
  t1 = b + kw(30) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w3 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(31) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(11, w3);
  // rounds 32-35, W[48..51]
  t1 = h + kw(32) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w0, smallSigma0x4(words1to4(w0, w1))), words1to4(w2, w3));
  t1 = g + kw(33) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w3)));
  t1 = f + kw(34) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w0 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(35) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(12, w0);
  // rounds 36-39, W[52..55]
  t1 = d + kw(36) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w1, smallSigma0x4(words1to4(w1, w2))), words1to4(w3, w0));
  t1 = c + kw(37) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w0)));
  t1 = b + kw(38) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w1 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(39) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(13, w1);
  // rounds 40-43, W[56..59]
  t1 = h + kw(40) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w2, smallSigma0x4(words1to4(w2, w3))), words1to4(w0, w1));
  t1 = g + kw(41) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w1)));
  t1 = f + kw(42) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  w2 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = e + kw(43) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  storeKw(14, w2);
  // rounds 44-47, W[60..63]
  t1 = d + kw(44) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  base = i32x4.add(i32x4.add(w3, smallSigma0x4(words1to4(w3, w0))), words1to4(w1, w2));
  t1 = c + kw(45) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  low = i32x4.add(base, smallSigma1x4(upperHalfDown(w2)));
  t1 = b + kw(46) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  w3 = i32x4.add(low, lowerHalfUp(smallSigma1x4(low)));
  t1 = a + kw(47) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  storeKw(15, w3);
  // rounds 48-51
  t1 = h + kw(48) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  t1 = g + kw(49) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  t1 = f + kw(50) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  t1 = e + kw(51) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  // rounds 52-55
  t1 = d + kw(52) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  t1 = c + kw(53) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  t1 = b + kw(54) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  t1 = a + kw(55) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;
  // rounds 56-59
  t1 = h + kw(56) + ch(e, f, g) + bigSigma1(e); d += t1; ab = a ^ b; h = bigSigma0(a) + (b ^ (ab & bc)) + t1; bc = ab;
  t1 = g + kw(57) + ch(d, e, f) + bigSigma1(d); c += t1; ab = h ^ a; g = bigSigma0(h) + (a ^ (ab & bc)) + t1; bc = ab;
  t1 = f + kw(58) + ch(c, d, e) + bigSigma1(c); b += t1; ab = g ^ h; f = bigSigma0(g) + (h ^ (ab & bc)) + t1; bc = ab;
  t1 = e + kw(59) + ch(b, c, d) + bigSigma1(b); a += t1; ab = f ^ g; e = bigSigma0(f) + (g ^ (ab & bc)) + t1; bc = ab;
  // rounds 60-63
  t1 = d + kw(60) + ch(a, b, c) + bigSigma1(a); h += t1; ab = e ^ f; d = bigSigma0(e) + (f ^ (ab & bc)) + t1; bc = ab;
  t1 = c + kw(61) + ch(h, a, b) + bigSigma1(h); g += t1; ab = d ^ e; c = bigSigma0(d) + (e ^ (ab & bc)) + t1; bc = ab;
  t1 = b + kw(62) + ch(g, h, a) + bigSigma1(g); f += t1; ab = c ^ d; b = bigSigma0(c) + (d ^ (ab & bc)) + t1; bc = ab;
  t1 = a + kw(63) + ch(f, g, h) + bigSigma1(f); e += t1; ab = b ^ c; a = bigSigma0(b) + (c ^ (ab & bc)) + t1; bc = ab;

  store<u32>(state, load<u32>(state, 0) + a, 0);
  store<u32>(state, load<u32>(state, 4) + b, 4);
  store<u32>(state, load<u32>(state, 8) + c, 8);
  store<u32>(state, load<u32>(state, 12) + d, 12);
  store<u32>(state, load<u32>(state, 16) + e, 16);
  store<u32>(state, load<u32>(state, 20) + f, 20);
  store<u32>(state, load<u32>(state, 24) + g, 24);
  store<u32>(state, load<u32>(state, 28) + h, 28);
}

// ---- Four messages at once (batch hashing): lane k of every vector belongs to message k. ----

/** W[t] for t < 64 of four messages, one vector per t. */
const SCHEDULE4: usize = memory.data(64 * 16, 16);

// @ts-ignore: decorator
@inline function bigSigma0x4(x: v128): v128 { return v128.xor(v128.xor(rotrx4(x, 2), rotrx4(x, 13)), rotrx4(x, 22)); }
// @ts-ignore: decorator
@inline function bigSigma1x4(x: v128): v128 { return v128.xor(v128.xor(rotrx4(x, 6), rotrx4(x, 11)), rotrx4(x, 25)); }

/**
 * Compresses one block of each of four messages (at `p0`..`p3`) into the lane-interleaved state at
 * `state` (vector j holds word j of the four lanes). Ch and Maj are single bit-selects. W[t + 16] is
 * expanded right after round t, so its inputs were stored rounds earlier (no store-to-load stall on
 * the schedule's own dependency chain).
 */
function sha256Compress4(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
  loadTransposed(SCHEDULE4, p0, p1, p2, p3);
  let a = v128.load(state, 0);
  let b = v128.load(state, 16);
  let c = v128.load(state, 32);
  let d = v128.load(state, 48);
  let e = v128.load(state, 64);
  let f = v128.load(state, 80);
  let g = v128.load(state, 96);
  let h = v128.load(state, 112);
  let t1: v128;
  // Eight rounds per iteration: the working variables' names come back every eight rounds. V8 makes
  // 7 KB of x64 of this instead of 25 KB for 64 unrolled rounds, and it ran 1.12-1.19x faster per
  // block on Zen 5 / V8 11.3 (the unrolled form's ~3.4 instructions per cycle suggest it was bound by
  // instruction fetch and decode). `ws` points at W[r] and `ks` at K[r], so W[r + i] is at offset
  // 16 * i and K[r + i] at 4 * i; rounds 0-47 also expand W[r + 16 .. r + 23]. Rounds 48-63 repeat
  // the eight rounds without the expansion: one loop with it behind `if (r < 48)` measured 4% slower.
  for (let r: usize = 0; r < 48; r += 8) {
    const ws = SCHEDULE4 + (r << 4);
    const ks = SHA256_K + (r << 2);
    t1 = add(add(add(h, add(v128.load(ws, 0), v128.load32_splat(ks, 0))), v128.bitselect(f, g, e)), bigSigma1x4(e)); d = add(d, t1);
    h = add(add(bigSigma0x4(a), v128.bitselect(c, a, v128.xor(a, b))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 224)), v128.load(ws, 144)), add(smallSigma0x4(v128.load(ws, 16)), v128.load(ws, 0))), 256);
    t1 = add(add(add(g, add(v128.load(ws, 16), v128.load32_splat(ks, 4))), v128.bitselect(e, f, d)), bigSigma1x4(d)); c = add(c, t1);
    g = add(add(bigSigma0x4(h), v128.bitselect(b, h, v128.xor(h, a))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 240)), v128.load(ws, 160)), add(smallSigma0x4(v128.load(ws, 32)), v128.load(ws, 16))), 272);
    t1 = add(add(add(f, add(v128.load(ws, 32), v128.load32_splat(ks, 8))), v128.bitselect(d, e, c)), bigSigma1x4(c)); b = add(b, t1);
    f = add(add(bigSigma0x4(g), v128.bitselect(a, g, v128.xor(g, h))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 256)), v128.load(ws, 176)), add(smallSigma0x4(v128.load(ws, 48)), v128.load(ws, 32))), 288);
    t1 = add(add(add(e, add(v128.load(ws, 48), v128.load32_splat(ks, 12))), v128.bitselect(c, d, b)), bigSigma1x4(b)); a = add(a, t1);
    e = add(add(bigSigma0x4(f), v128.bitselect(h, f, v128.xor(f, g))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 272)), v128.load(ws, 192)), add(smallSigma0x4(v128.load(ws, 64)), v128.load(ws, 48))), 304);
    t1 = add(add(add(d, add(v128.load(ws, 64), v128.load32_splat(ks, 16))), v128.bitselect(b, c, a)), bigSigma1x4(a)); h = add(h, t1);
    d = add(add(bigSigma0x4(e), v128.bitselect(g, e, v128.xor(e, f))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 288)), v128.load(ws, 208)), add(smallSigma0x4(v128.load(ws, 80)), v128.load(ws, 64))), 320);
    t1 = add(add(add(c, add(v128.load(ws, 80), v128.load32_splat(ks, 20))), v128.bitselect(a, b, h)), bigSigma1x4(h)); g = add(g, t1);
    c = add(add(bigSigma0x4(d), v128.bitselect(f, d, v128.xor(d, e))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 304)), v128.load(ws, 224)), add(smallSigma0x4(v128.load(ws, 96)), v128.load(ws, 80))), 336);
    t1 = add(add(add(b, add(v128.load(ws, 96), v128.load32_splat(ks, 24))), v128.bitselect(h, a, g)), bigSigma1x4(g)); f = add(f, t1);
    b = add(add(bigSigma0x4(c), v128.bitselect(e, c, v128.xor(c, d))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 320)), v128.load(ws, 240)), add(smallSigma0x4(v128.load(ws, 112)), v128.load(ws, 96))), 352);
    t1 = add(add(add(a, add(v128.load(ws, 112), v128.load32_splat(ks, 28))), v128.bitselect(g, h, f)), bigSigma1x4(f)); e = add(e, t1);
    a = add(add(bigSigma0x4(b), v128.bitselect(d, b, v128.xor(b, c))), t1);
    v128.store(ws, add(add(smallSigma1x4(v128.load(ws, 336)), v128.load(ws, 256)), add(smallSigma0x4(v128.load(ws, 128)), v128.load(ws, 112))), 368);
  }
  for (let r: usize = 48; r < 64; r += 8) {
    const ws = SCHEDULE4 + (r << 4);
    const ks = SHA256_K + (r << 2);
    t1 = add(add(add(h, add(v128.load(ws, 0), v128.load32_splat(ks, 0))), v128.bitselect(f, g, e)), bigSigma1x4(e)); d = add(d, t1);
    h = add(add(bigSigma0x4(a), v128.bitselect(c, a, v128.xor(a, b))), t1);
    t1 = add(add(add(g, add(v128.load(ws, 16), v128.load32_splat(ks, 4))), v128.bitselect(e, f, d)), bigSigma1x4(d)); c = add(c, t1);
    g = add(add(bigSigma0x4(h), v128.bitselect(b, h, v128.xor(h, a))), t1);
    t1 = add(add(add(f, add(v128.load(ws, 32), v128.load32_splat(ks, 8))), v128.bitselect(d, e, c)), bigSigma1x4(c)); b = add(b, t1);
    f = add(add(bigSigma0x4(g), v128.bitselect(a, g, v128.xor(g, h))), t1);
    t1 = add(add(add(e, add(v128.load(ws, 48), v128.load32_splat(ks, 12))), v128.bitselect(c, d, b)), bigSigma1x4(b)); a = add(a, t1);
    e = add(add(bigSigma0x4(f), v128.bitselect(h, f, v128.xor(f, g))), t1);
    t1 = add(add(add(d, add(v128.load(ws, 64), v128.load32_splat(ks, 16))), v128.bitselect(b, c, a)), bigSigma1x4(a)); h = add(h, t1);
    d = add(add(bigSigma0x4(e), v128.bitselect(g, e, v128.xor(e, f))), t1);
    t1 = add(add(add(c, add(v128.load(ws, 80), v128.load32_splat(ks, 20))), v128.bitselect(a, b, h)), bigSigma1x4(h)); g = add(g, t1);
    c = add(add(bigSigma0x4(d), v128.bitselect(f, d, v128.xor(d, e))), t1);
    t1 = add(add(add(b, add(v128.load(ws, 96), v128.load32_splat(ks, 24))), v128.bitselect(h, a, g)), bigSigma1x4(g)); f = add(f, t1);
    b = add(add(bigSigma0x4(c), v128.bitselect(e, c, v128.xor(c, d))), t1);
    t1 = add(add(add(a, add(v128.load(ws, 112), v128.load32_splat(ks, 28))), v128.bitselect(g, h, f)), bigSigma1x4(f)); e = add(e, t1);
    a = add(add(bigSigma0x4(b), v128.bitselect(d, b, v128.xor(b, c))), t1);
  }
  v128.store(state, add(v128.load(state, 0), a), 0);
  v128.store(state, add(v128.load(state, 16), b), 16);
  v128.store(state, add(v128.load(state, 32), c), 32);
  v128.store(state, add(v128.load(state, 48), d), 48);
  v128.store(state, add(v128.load(state, 64), e), 64);
  v128.store(state, add(v128.load(state, 80), f), 80);
  v128.store(state, add(v128.load(state, 96), g), 96);
  v128.store(state, add(v128.load(state, 112), h), 112);
}

/** SHA-256 as the generic code in util/md.ts and batch.ts sees it. */
@final export class Sha256 {
  @inline compress(state: usize, block: usize): void { sha256Compress(state, block); }
  @inline compress4(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
    sha256Compress4(state, p0, p1, p2, p3);
  }
  @inline iv(): usize { return SHA256_H; }
  @inline words(): usize { return SHA256_WORDS; }
}

/** Initializes the context at `ctx` (CTX_SIZE bytes) for a new SHA-256 digest. */
export function sha256Init(ctx: usize): void {
  assert((ctx & 15) == 0, "a hash context must be 16-byte aligned"); // debug builds only (noAssert)
  memory.copy(ctx, SHA256_H, SHA256_WORDS << 2);
  mdReset(ctx);
}

/** Feeds `len` bytes at `ptr`. */
export function sha256Update(ctx: usize, ptr: usize, len: usize): void {
  mdUpdate<Sha256>(ctx, ptr, len);
}

/** Feeds `units` UTF-16 code units at `ptr`, hashed as UTF-8 (a lone surrogate as U+FFFD). */
export function sha256UpdateUtf16(ctx: usize, ptr: usize, units: usize): void {
  mdUpdateUtf16<Sha256>(ctx, ptr, units);
}

/** Finishes the digest: 32 raw bytes at `out`. The context must be re-initialized before reuse. */
export function sha256Final(ctx: usize, out: usize): void {
  mdFinish<Sha256>(ctx);
  stateToBytes(ctx, SHA256_WORDS, out);
}

/** Finishes the digest: 64 lowercase hex characters (ASCII bytes) at `out`. */
export function sha256FinalHex(ctx: usize, out: usize): void {
  mdFinish<Sha256>(ctx);
  stateToHex(ctx, SHA256_WORDS, out);
}

/** One-shot: hex digest of `len` bytes at `ptr`, using the context at `ctx` as scratch. */
export function sha256Hex(ctx: usize, ptr: usize, len: usize, out: usize): void {
  sha256Init(ctx);
  mdUpdate<Sha256>(ctx, ptr, len);
  sha256FinalHex(ctx, out);
}

/** One-shot: hex digest of `units` UTF-16 code units at `ptr`, hashed as UTF-8. */
export function sha256HexUtf16(ctx: usize, ptr: usize, units: usize, out: usize): void {
  sha256Init(ctx);
  mdUpdateUtf16<Sha256>(ctx, ptr, units);
  sha256FinalHex(ctx, out);
}
