// Character classes as JavaScript reads them without the `u` flag: UTF-16 code units, identity
// escapes, `a-z` ranges taken left to right, `-` literal at either end, an out-of-order range a
// syntax error. A parsed class is stored as a record the matcher tests in constant time for ASCII:
// a layout.ts ClassRecord (negated, high-range count, ASCII membership with the negation applied),
// then u16 lo, hi per range above 127.

import { Ch, unitAt, isWordUnit } from "./text";
import { CLASS_INVALID, CLASS_UNSUPPORTED } from "../abi";
import { ClassRecord, CLASS_ASCII, CLASS_HEADER, asciiWord } from "./layout";

let parsedLen: i32 = 0; // record size in bytes of the last parse

export function classRecordSize(): i32 {
  return parsedLen;
}

/** One atom at `i`: its unit in the low 16 bits and the index after it above; negative on error. */
function atom(src: usize, len: i32, i: i32): i64 {
  const c = unitAt(src, i);
  if (c != Ch.BACKSLASH) return (<i64>(i + 1) << 16) | c;
  if (i + 1 >= len) return CLASS_INVALID;
  const e = unitAt(src, i + 1);
  if (isWordUnit(e)) return CLASS_UNSUPPORTED;
  return (<i64>(i + 2) << 16) | e;
}

function addRange(dst: usize, lo: u32, hi: u32): void {
  if (dst == 0) return;
  const bits = dst + CLASS_ASCII;
  const top = min<u32>(hi, 127);
  for (let c = lo; c <= top; c++) store<u32>(asciiWord(bits, c), load<u32>(asciiWord(bits, c)) | (1 << (c & 31)));
  if (hi >= 128) {
    const record = changetype<ClassRecord>(dst);
    const n = record.ranges;
    const at = dst + CLASS_HEADER + (<usize>n << 2);
    store<u16>(at, <u16>max<u32>(lo, 128));
    store<u16>(at, <u16>hi, 2);
    record.ranges = n + 1;
  }
}

/**
 * Parses the class whose `[` is at `src[i]`; returns the index after its `]`, or CLASS_INVALID /
 * CLASS_UNSUPPORTED. When `dst` is not 0 the record is written there (room for `len` ranges).
 */
export function parseClass(src: usize, len: i32, i: i32, dst: usize): i32 {
  let k = i + 1;
  let negated = false;
  if (k < len && unitAt(src, k) == Ch.CARET) { negated = true; k++; }
  if (dst != 0) memory.fill(dst, 0, CLASS_HEADER);
  while (true) {
    if (k >= len) return CLASS_INVALID;
    if (unitAt(src, k) == Ch.RBRACKET) { k++; break; }
    const a = atom(src, len, k);
    if (a < 0) return <i32>a;
    const lo = <u32>(a & 0xffff);
    k = <i32>(a >> 16);
    if (k + 1 < len && unitAt(src, k) == Ch.DASH && unitAt(src, k + 1) != Ch.RBRACKET) {
      const b = atom(src, len, k + 1);
      if (b < 0) return <i32>b;
      const hi = <u32>(b & 0xffff);
      if (lo > hi) return CLASS_INVALID;
      addRange(dst, lo, hi);
      k = <i32>(b >> 16);
    } else {
      addRange(dst, lo, lo);
    }
  }
  if (dst != 0) {
    const record = changetype<ClassRecord>(dst);
    record.negated = negated ? 1 : 0;
    if (negated) v128.store(dst + CLASS_ASCII, v128.not(v128.load(dst + CLASS_ASCII)));
    parsedLen = <i32>CLASS_HEADER + (record.ranges << 2);
  }
  return k;
}

/** Whether `[ ... ]` spanning the whole text is a valid class (expandRange's `new RegExp` test). */
export function validClass(src: usize, len: i32): bool {
  return parseClass(src, len, 0, 0) == len;
}

/** Whether the class record at `rec` contains the code unit `c`. */
// @ts-ignore: decorator
@inline export function classHas(rec: usize, c: u32): bool {
  if (c < 128) return (load<u32>(asciiWord(rec + CLASS_ASCII, c)) & (1 << (c & 31))) != 0;
  const record = changetype<ClassRecord>(rec);
  const n = record.ranges;
  let inside = false;
  for (let r = 0; r < n; r++) {
    const at = rec + CLASS_HEADER + (<usize>r << 2);
    if (c >= <u32>load<u16>(at) && c <= <u32>load<u16>(at, 2)) { inside = true; break; }
  }
  return inside != (record.negated != 0);
}
