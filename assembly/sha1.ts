// SHA-1 (FIPS 180-4 §6.1). Contexts use the shared layout of util/md.ts; state words are stored as
// native u32 values.

import {
  mdReset, mdUpdate, mdUpdateUtf16, mdFinish, stateToHex, stateToBytes,
} from "./util/md";
import { add, loadBigEndian, loadTransposed, rotlx4, ZERO } from "./util/lanes";

const SHA1_WORDS: usize = 5;
/** Initial hash value H(0) (FIPS 180-4 §5.3.1). */
const SHA1_IV: usize = memory.data<u32>([0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0]);
const SHA1_K0: u32 = 0x5a827999;
const SHA1_K1: u32 = 0x6ed9eba1;
const SHA1_K2: u32 = 0x8f1bbcdc;
const SHA1_K3: u32 = 0xca62c1d6;

/** W[t] + K[t] of the block being compressed, written by the schedule four words at a time. */
const SCHEDULE: usize = memory.data(80 * 4, 16);

// @ts-ignore: decorator
@inline function ch(b: u32, c: u32, d: u32): u32 { return d ^ (b & (c ^ d)); }
// @ts-ignore: decorator
@inline function parity(b: u32, c: u32, d: u32): u32 { return b ^ c ^ d; }
// @ts-ignore: decorator
@inline function maj(b: u32, c: u32, d: u32): u32 { return (b & c) | (d & (b | c)); }
// @ts-ignore: decorator
@inline function kw(t: usize): u32 { return load<u32>(SCHEDULE + (t << 2)); }

// Lane moves for the schedule (lanes are words; `a` holds W[t-16..t-13], `b` the next four).
// @ts-ignore: decorator
@inline function words2to5(a: v128, b: v128): v128 {
  return i8x16.shuffle(a, b, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23);
}
// @ts-ignore: decorator
@inline function shiftDown1(v: v128): v128 {
  return i8x16.shuffle(v, ZERO, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19);
}
// @ts-ignore: decorator
@inline function lane0ToLane3(v: v128): v128 {
  return i8x16.shuffle(ZERO, v, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 16, 17, 18, 19);
}

/** K of each 20-round stage, four copies each (one vector per stage). */
const SHA1_K4: usize = memory.data<u32>([
  SHA1_K0, SHA1_K0, SHA1_K0, SHA1_K0, SHA1_K1, SHA1_K1, SHA1_K1, SHA1_K1,
  SHA1_K2, SHA1_K2, SHA1_K2, SHA1_K2, SHA1_K3, SHA1_K3, SHA1_K3, SHA1_K3,
], 16);

/** W[4g..4g+3] + K into the schedule. */
// @ts-ignore: decorator
@inline function storeKw(g: usize, w: v128): void {
  v128.store(SCHEDULE + (g << 4), i32x4.add(w, v128.load(SHA1_K4 + (((g << 2) / 20) << 4))));
}

/** W[4g..4g+3] for 4 <= g < 8, from the definition W[t] = rotl1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]). */
// @ts-ignore: decorator
@inline function wordsByDefinition(g4: v128, g3: v128, g2: v128, g1: v128): v128 {
  const x = v128.xor(v128.xor(g4, words2to5(g4, g3)), v128.xor(g2, shiftDown1(g1)));
  // Lane 3 needs lane 0 of this very group: rotl1(x ^ W[t]) = rotl1(x) ^ rotl2(x') where
  // W[t] = rotl1(x'), so it is patched with rotl2 of lane 0's input.
  return v128.xor(rotlx4(x, 1), rotlx4(lane0ToLane3(x), 2));
}

/**
 * W[4g..4g+3] for g >= 8, from W[t] = rotl2(W[t-6] ^ W[t-16] ^ W[t-28] ^ W[t-32]), which follows
 * from applying the definition twice and holds for t >= 32: no term comes from the same group.
 */
// @ts-ignore: decorator
@inline function wordsBySkip(g8: v128, g7: v128, g4: v128, g2: v128, g1: v128): v128 {
  return rotlx4(v128.xor(v128.xor(i8x16.shuffle(g2, g1, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23), g4), v128.xor(g7, g8)), 2);
}

/**
 * Compresses one 64-byte block at `block` into the five state words at `state`.
 *
 * The message schedule runs in SIMD, four words (a group) at a time, woven between the scalar
 * rounds: group g is computed during rounds 4g-16 to 4g-13, so the vector units work while the
 * integer units run the rounds (1.4× faster than a schedule computed before the rounds, on V8/x64).
 * Groups 4-7 follow the definition; from group 8 on, the skip form above takes half the vector
 * operations (25% faster on 1 MiB than the definition throughout). Each group is its own local, so
 * the compiler sees which ones are still alive. The 80 rounds are unrolled; the working variables
 * rotate names instead of moving, and rotl(a, 5), the only term that depends on the previous round,
 * is added last.
 */
function sha1Compress(state: usize, block: usize): void {
  let a = load<u32>(state, 0);
  let b = load<u32>(state, 4);
  let c = load<u32>(state, 8);
  let d = load<u32>(state, 12);
  let e = load<u32>(state, 16);
  const g0 = loadBigEndian(block + 0);
  const g1 = loadBigEndian(block + 16);
  const g2 = loadBigEndian(block + 32);
  const g3 = loadBigEndian(block + 48);
  storeKw(0, g0);
  storeKw(1, g1);
  storeKw(2, g2);
  storeKw(3, g3);
  // rounds 0-3, W[16..19]
  e = e + kw(0) + ch(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(1) + ch(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  const g4 = wordsByDefinition(g0, g1, g2, g3);
  c = c + kw(2) + ch(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  storeKw(4, g4);
  b = b + kw(3) + ch(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  // rounds 4-7, W[20..23]
  a = a + kw(4) + ch(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(5) + ch(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  const g5 = wordsByDefinition(g1, g2, g3, g4);
  d = d + kw(6) + ch(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  storeKw(5, g5);
  c = c + kw(7) + ch(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  // rounds 8-11, W[24..27]
  b = b + kw(8) + ch(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(9) + ch(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  const g6 = wordsByDefinition(g2, g3, g4, g5);
  e = e + kw(10) + ch(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  storeKw(6, g6);
  d = d + kw(11) + ch(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  // rounds 12-15, W[28..31]
  c = c + kw(12) + ch(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  b = b + kw(13) + ch(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  const g7 = wordsByDefinition(g3, g4, g5, g6);
  a = a + kw(14) + ch(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  storeKw(7, g7);
  e = e + kw(15) + ch(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  // rounds 16-19, W[32..35]
  d = d + kw(16) + ch(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  c = c + kw(17) + ch(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  const g8 = wordsBySkip(g0, g1, g4, g6, g7);
  b = b + kw(18) + ch(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  storeKw(8, g8);
  a = a + kw(19) + ch(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  // rounds 20-23, W[36..39]
  e = e + kw(20) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(21) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  const g9 = wordsBySkip(g1, g2, g5, g7, g8);
  c = c + kw(22) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  storeKw(9, g9);
  b = b + kw(23) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  // rounds 24-27, W[40..43]
  a = a + kw(24) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(25) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  const g10 = wordsBySkip(g2, g3, g6, g8, g9);
  d = d + kw(26) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  storeKw(10, g10);
  c = c + kw(27) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  // rounds 28-31, W[44..47]
  b = b + kw(28) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(29) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  const g11 = wordsBySkip(g3, g4, g7, g9, g10);
  e = e + kw(30) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  storeKw(11, g11);
  d = d + kw(31) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  // rounds 32-35, W[48..51]
  c = c + kw(32) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  b = b + kw(33) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  const g12 = wordsBySkip(g4, g5, g8, g10, g11);
  a = a + kw(34) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  storeKw(12, g12);
  e = e + kw(35) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  // rounds 36-39, W[52..55]
  d = d + kw(36) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  c = c + kw(37) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  const g13 = wordsBySkip(g5, g6, g9, g11, g12);
  b = b + kw(38) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  storeKw(13, g13);
  a = a + kw(39) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  // rounds 40-43, W[56..59]
  e = e + kw(40) + maj(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(41) + maj(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  const g14 = wordsBySkip(g6, g7, g10, g12, g13);
  c = c + kw(42) + maj(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  storeKw(14, g14);
  b = b + kw(43) + maj(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  // rounds 44-47, W[60..63]
  a = a + kw(44) + maj(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(45) + maj(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  const g15 = wordsBySkip(g7, g8, g11, g13, g14);
  d = d + kw(46) + maj(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  storeKw(15, g15);
  c = c + kw(47) + maj(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  // rounds 48-51, W[64..67]
  b = b + kw(48) + maj(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(49) + maj(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  const g16 = wordsBySkip(g8, g9, g12, g14, g15);
  e = e + kw(50) + maj(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  storeKw(16, g16);
  d = d + kw(51) + maj(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  // rounds 52-55, W[68..71]
  c = c + kw(52) + maj(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  b = b + kw(53) + maj(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  const g17 = wordsBySkip(g9, g10, g13, g15, g16);
  a = a + kw(54) + maj(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  storeKw(17, g17);
  e = e + kw(55) + maj(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  // rounds 56-59, W[72..75]
  d = d + kw(56) + maj(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  c = c + kw(57) + maj(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  const g18 = wordsBySkip(g10, g11, g14, g16, g17);
  b = b + kw(58) + maj(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  storeKw(18, g18);
  a = a + kw(59) + maj(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  // rounds 60-63, W[76..79]
  e = e + kw(60) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(61) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  const g19 = wordsBySkip(g11, g12, g15, g17, g18);
  c = c + kw(62) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  storeKw(19, g19);
  b = b + kw(63) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  // rounds 64-67
  a = a + kw(64) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(65) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(66) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  c = c + kw(67) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  // rounds 68-71
  b = b + kw(68) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(69) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(70) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  d = d + kw(71) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  // rounds 72-75
  c = c + kw(72) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  b = b + kw(73) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(74) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);
  e = e + kw(75) + parity(b, c, d) + rotl<u32>(a, 5); b = rotl<u32>(b, 30);
  // rounds 76-79
  d = d + kw(76) + parity(a, b, c) + rotl<u32>(e, 5); a = rotl<u32>(a, 30);
  c = c + kw(77) + parity(e, a, b) + rotl<u32>(d, 5); e = rotl<u32>(e, 30);
  b = b + kw(78) + parity(d, e, a) + rotl<u32>(c, 5); d = rotl<u32>(d, 30);
  a = a + kw(79) + parity(c, d, e) + rotl<u32>(b, 5); c = rotl<u32>(c, 30);

  store<u32>(state, load<u32>(state, 0) + a, 0);
  store<u32>(state, load<u32>(state, 4) + b, 4);
  store<u32>(state, load<u32>(state, 8) + c, 8);
  store<u32>(state, load<u32>(state, 12) + d, 12);
  store<u32>(state, load<u32>(state, 16) + e, 16);
}

// ---- Four messages at once (batch hashing): lane k of every vector belongs to message k. ----

/** W[t] for t < 80 of four messages, one vector per t. */
const SCHEDULE4: usize = memory.data(80 * 16, 16);

// @ts-ignore: decorator
@inline function chx4(b: v128, c: v128, d: v128): v128 { return v128.bitselect(c, d, b); }
// @ts-ignore: decorator
@inline function parityx4(b: v128, c: v128, d: v128): v128 { return v128.xor(v128.xor(b, c), d); }
// @ts-ignore: decorator
@inline function majx4(b: v128, c: v128, d: v128): v128 { return v128.bitselect(d, b, v128.xor(b, c)); }
// @ts-ignore: decorator
@inline function w4(t: usize): v128 { return v128.load(SCHEDULE4 + (t << 4)); }
// @ts-ignore: decorator
@inline function kw4(t: usize, k: v128): v128 { return add(w4(t), k); }
// @ts-ignore: decorator
@inline function schedule4(t: usize): void {
  v128.store(SCHEDULE4 + (t << 4), rotlx4(v128.xor(v128.xor(w4(t - 3), w4(t - 8)), v128.xor(w4(t - 14), w4(t - 16))), 1));
}

/** SHA-1's round function of round `t` for four lanes: Ch, Parity, Maj, Parity by groups of 20. */
// @ts-ignore: decorator
@inline function f4(t: usize, b: v128, c: v128, d: v128): v128 {
  if (t < 20) return chx4(b, c, d);
  if (t >= 40 && t < 60) return majx4(b, c, d);
  return parityx4(b, c, d);
}

/** SHA-1's round constant of round `t`, in four lanes. */
// @ts-ignore: decorator
@inline function k4(t: usize): v128 {
  return i32x4.splat(t < 20 ? SHA1_K0 : t < 40 ? SHA1_K1 : t < 60 ? SHA1_K2 : SHA1_K3);
}

/**
 * Compresses one block of each of four messages (at `p0`..`p3`) into the lane-interleaved state at
 * `state` (vector j holds word j of the four lanes). Each loop iteration runs five rounds, after
 * which the five words are back in their places (a group of 20 rounds never changes function within
 * an iteration); W[t + 16] is expanded right after round t, so its inputs were stored several rounds
 * earlier (no store-to-load stall on the schedule's own dependency chain). Unrolled, the 80 rounds
 * were 10.7 KB of the module's code, which every process validates when it loads the module (only
 * batches run this function).
 */
function sha1Compress4(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
  loadTransposed(SCHEDULE4, p0, p1, p2, p3);
  let a = v128.load(state, 0);
  let b = v128.load(state, 16);
  let c = v128.load(state, 32);
  let d = v128.load(state, 48);
  let e = v128.load(state, 64);
  for (let t: usize = 0; t < 80; t += 5) {
    const k = k4(t);
    const expand = t < 64; // W[16..79]
    e = add(add(add(e, kw4(t, k)), f4(t, b, c, d)), rotlx4(a, 5)); b = rotlx4(b, 30);
    if (expand) schedule4(t + 16);
    d = add(add(add(d, kw4(t + 1, k)), f4(t, a, b, c)), rotlx4(e, 5)); a = rotlx4(a, 30);
    if (expand) schedule4(t + 17);
    c = add(add(add(c, kw4(t + 2, k)), f4(t, e, a, b)), rotlx4(d, 5)); e = rotlx4(e, 30);
    if (expand) schedule4(t + 18);
    b = add(add(add(b, kw4(t + 3, k)), f4(t, d, e, a)), rotlx4(c, 5)); d = rotlx4(d, 30);
    if (expand) schedule4(t + 19);
    a = add(add(add(a, kw4(t + 4, k)), f4(t, c, d, e)), rotlx4(b, 5)); c = rotlx4(c, 30);
    if (t < 60) schedule4(t + 20);
  }
  v128.store(state, add(v128.load(state, 0), a), 0);
  v128.store(state, add(v128.load(state, 16), b), 16);
  v128.store(state, add(v128.load(state, 32), c), 32);
  v128.store(state, add(v128.load(state, 48), d), 48);
  v128.store(state, add(v128.load(state, 64), e), 64);
}

/** SHA-1 as the generic code in util/md.ts and batch.ts sees it. */
@final export class Sha1 {
  @inline compress(state: usize, block: usize): void { sha1Compress(state, block); }
  @inline compress4(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void {
    sha1Compress4(state, p0, p1, p2, p3);
  }
  @inline iv(): usize { return SHA1_IV; }
  @inline words(): usize { return SHA1_WORDS; }
}

/** Initializes the context at `ctx` (CTX_SIZE bytes) for a new SHA-1 digest. */
export function sha1Init(ctx: usize): void {
  assert((ctx & 15) == 0, "a hash context must be 16-byte aligned"); // debug builds only (noAssert)
  memory.copy(ctx, SHA1_IV, SHA1_WORDS << 2);
  mdReset(ctx);
}

/** Feeds `len` bytes at `ptr`. */
export function sha1Update(ctx: usize, ptr: usize, len: usize): void {
  mdUpdate<Sha1>(ctx, ptr, len);
}

/** Feeds `units` UTF-16 code units at `ptr`, hashed as UTF-8 (a lone surrogate as U+FFFD). */
export function sha1UpdateUtf16(ctx: usize, ptr: usize, units: usize): void {
  mdUpdateUtf16<Sha1>(ctx, ptr, units);
}

/** Finishes the digest: 20 raw bytes at `out`. The context must be re-initialized before reuse. */
export function sha1Final(ctx: usize, out: usize): void {
  mdFinish<Sha1>(ctx);
  stateToBytes(ctx, SHA1_WORDS, out);
}

/** Finishes the digest: 40 lowercase hex characters (ASCII bytes) at `out`. */
export function sha1FinalHex(ctx: usize, out: usize): void {
  mdFinish<Sha1>(ctx);
  stateToHex(ctx, SHA1_WORDS, out);
}

/** One-shot: hex digest of `len` bytes at `ptr`, using the context at `ctx` as scratch. */
export function sha1Hex(ctx: usize, ptr: usize, len: usize, out: usize): void {
  sha1Init(ctx);
  mdUpdate<Sha1>(ctx, ptr, len);
  sha1FinalHex(ctx, out);
}

/** One-shot: hex digest of `units` UTF-16 code units at `ptr`, hashed as UTF-8. */
export function sha1HexUtf16(ctx: usize, ptr: usize, units: usize, out: usize): void {
  sha1Init(ctx);
  mdUpdateUtf16<Sha1>(ctx, ptr, units);
  sha1FinalHex(ctx, out);
}
