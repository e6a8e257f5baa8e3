// Code points of UTF-16 text: a well-formed surrogate pair is one code point, a lone surrogate is one
// code point (as Array.from and for..of count them).

import { isHighSurrogate, isLowSurrogate } from "./util/chars";
import { pairSecondHalves, sumU16, UNITS_PER_VECTOR } from "./util/utf16";

// A u16 lane gains at most 1 per vector; flush well before it can wrap.
const FLUSH_VECTORS: usize = 32768;
const SUPERBLOCK_UNITS: usize = 64;

// @ts-ignore: decorator
@inline function unitAt(ptr: usize, i: usize): u32 {
  return <u32>load<u16>(ptr + (i << 1));
}

/** Number of code points in `units` UTF-16 code units at `ptr`. */
export function codePointCountUtf16(ptr: usize, units: usize): u32 {
  let seconds: u32 = 0; // second halves of pairs: units that do not start a code point
  let i: usize = 0;
  let prev = i16x8.splat(0);
  let vectors = units / UNITS_PER_VECTOR;
  while (vectors != 0) {
    const batch = min(vectors, FLUSH_VECTORS);
    let acc = i16x8.splat(0);
    for (let k: usize = 0; k < batch; k++) {
      const cur = v128.load(ptr + (i << 1));
      acc = i16x8.sub(acc, pairSecondHalves(cur, prev));
      prev = cur;
      i += UNITS_PER_VECTOR;
    }
    seconds += sumU16(acc);
    vectors -= batch;
  }
  let last: u32 = i != 0 ? unitAt(ptr, i - 1) : 0;
  for (; i < units; i++) {
    const c = unitAt(ptr, i);
    if (isLowSurrogate(c) && isHighSurrogate(last)) seconds++;
    last = c;
  }
  return <u32>units - seconds;
}

/**
 * Length in code units of the longest prefix of `units` UTF-16 code units at `ptr` that holds at
 * most `max` code points; it never ends between the halves of a pair.
 */
export function codePointOffsetUtf16(ptr: usize, units: usize, max: u32): usize {
  const limit = <u64>max;
  let count: u64 = 0;
  let i: usize = 0;
  let prev = i16x8.splat(0);
  // Whole superblocks while the limit is not reached inside them, then code point by code point.
  while (i + SUPERBLOCK_UNITS <= units) {
    let acc = i16x8.splat(0);
    let p = prev;
    for (let k: usize = 0; k < SUPERBLOCK_UNITS; k += UNITS_PER_VECTOR) {
      const cur = v128.load(ptr + ((i + k) << 1));
      acc = i16x8.sub(acc, pairSecondHalves(cur, p));
      p = cur;
    }
    const block = <u64>SUPERBLOCK_UNITS - <u64>sumU16(acc);
    if (count + block >= limit) break;
    count += block;
    i += SUPERBLOCK_UNITS;
    prev = p;
  }
  // The second half of a pair that straddles the last accepted superblock was counted with its first.
  if (i != 0 && i < units && isLowSurrogate(unitAt(ptr, i)) && isHighSurrogate(unitAt(ptr, i - 1))) i++;
  while (i < units && count < limit) {
    const c = unitAt(ptr, i);
    i += isHighSurrogate(c) && i + 1 < units && isLowSurrogate(unitAt(ptr, i + 1)) ? 2 : 1;
    count++;
  }
  return i;
}
