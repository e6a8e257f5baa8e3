// Compile-time analysis of a program for the set matcher and the DFA: which assertion kinds it
// uses, which units a match can start and end with, and the partition of ASCII units into classes
// that every instruction treats alike (the DFA's alphabet).

import { Ch } from "./text";
import {
  I_CHAR, I_CLASS, I_ANY, I_NOT_SLASH, I_NOT_DOT_SLASH, I_SPLIT, I_JMP, I_ASSERT, I_MATCH, isConsuming,
  pushSuccessors,
} from "./regex";
import { Instr, instrAt, UnitSet, ClassRecord, CLASS_ASCII, addUnit, asciiWord } from "./layout";
import {
  cacheBytes, DFA_MAX_INSTRUCTIONS, SPECIAL,
} from "./dfa";
import { F_ASSERT_MASK, F_CLASS_COUNT, F_FIRST, F_LAST, F_CACHE_BYTES, F_CLASS_MAP, FACTS_END } from "./program";

/** Adds the unit `c` to the first/last set at `set`. */
export function addUnitTo(set: usize, c: u32): void {
  addUnit(set, c);
}

const ALL_ASCII = i32x4.splat(-1);
const bitsScratch: usize = memory.data(32, 16);

/**
 * The ASCII units the consuming instruction at `ins` accepts, as a 128-bit mask, into bitsScratch;
 * returns whether it may accept a unit above 127.
 */
function instrBits(base: usize, ins: Instr): bool {
  const op = ins.op;
  v128.store(bitsScratch, v128.xor(ALL_ASCII, ALL_ASCII));
  if (op == I_CHAR) {
    const c = <u32>ins.a;
    if (c >= 128) return true;
    store<u32>(asciiWord(bitsScratch, c), 1 << (c & 31));
    return false;
  }
  if (op == I_CLASS) {
    const rec = changetype<ClassRecord>(base + <usize>ins.a);
    v128.store(bitsScratch, v128.load(changetype<usize>(rec) + CLASS_ASCII));
    return rec.negated != 0 || rec.ranges > 0;
  }
  v128.store(bitsScratch, ALL_ASCII);
  if (op == I_NOT_SLASH || op == I_NOT_DOT_SLASH) clearBit(Ch.SLASH);
  if (op == I_NOT_DOT_SLASH) clearBit(Ch.DOT);
  if (op == I_ANY) { clearBit(10); clearBit(13); }
  return true;
}

// @ts-ignore: decorator
@inline function clearBit(c: u32): void {
  store<u32>(asciiWord(bitsScratch, c), load<u32>(asciiWord(bitsScratch, c)) & ~(1 << (c & 31)));
}

/** Adds every unit the consuming instruction at `ins` accepts to the set at `set`. */
function addInstrTo(set: usize, base: usize, ins: Instr): void {
  const high = instrBits(base, ins);
  v128.store(set, v128.or(v128.load(set), v128.load(bitsScratch)));
  if (high) changetype<UnitSet>(set).nonAscii = 1;
}

/**
 * Marks (one byte per instruction at `into`) the instructions from which MATCH is reachable without
 * consuming, every assertion taken as true: propagated backwards until nothing changes.
 */
function markReachesMatch(code: usize, count: i32, into: usize): void {
  memory.fill(into, 0, <usize>count + 1);
  let changed = true;
  while (changed) {
    changed = false;
    for (let at = count - 1; at >= 0; at--) {
      if (load<u8>(into + <usize>at) != 0) continue;
      const ins = instrAt(code, at);
      const op = ins.op;
      let r = false;
      if (op == I_MATCH) r = true;
      else if (op == I_JMP) r = load<u8>(into + <usize>ins.a) != 0;
      else if (op == I_SPLIT) r = load<u8>(into + <usize>ins.a) != 0 || load<u8>(into + <usize>ins.b) != 0;
      else if (op == I_ASSERT) r = load<u8>(into + <usize>(at + 1)) != 0;
      if (r) { store<u8>(into + <usize>at, 1); changed = true; }
    }
  }
}

/**
 * Writes the program's facts: the assertion kinds it uses, the units a match can start and end
 * with (for the set prefilter), and, for programs small enough and without a segment plan, the
 * ASCII unit classes of its DFA.
 * `scratch` holds max(9 * count + 16, 512 + 16 * count) bytes.
 */
export function analyze(program: usize, code: usize, count: i32, scratch: usize, planned: bool): void {
  const first = program + F_FIRST, last = program + F_LAST;
  memory.fill(program + F_ASSERT_MASK, 0, FACTS_END - F_ASSERT_MASK);
  const seen = scratch, stack = scratch + <usize>count + 8;
  let mask = 0;
  for (let i = 0; i < count; i++) {
    const ins = instrAt(code, i);
    if (ins.op == I_ASSERT) mask |= 1 << (ins.a - 1);
  }
  store<i32>(program + F_ASSERT_MASK, mask);
  // First units: consuming instructions reachable from the start without consuming.
  memory.fill(seen, 0, <usize>count);
  let sp = 0;
  store<i32>(stack, 0);
  sp = count > 0 ? 1 : 0;
  while (sp > 0) {
    const at = load<i32>(stack + (<usize>(--sp) << 2));
    if (load<u8>(seen + <usize>at) != 0) continue;
    store<u8>(seen + <usize>at, 1);
    const ins = instrAt(code, at);
    const op = ins.op;
    if (isConsuming(op)) addInstrTo(first, program, ins);
    else if (op != I_MATCH) sp = pushSuccessors(stack, sp, ins, op, at, true);
  }
  // Last units: consuming instructions after which MATCH is reachable without consuming.
  markReachesMatch(code, count, seen);
  for (let i = 0; i < count; i++) {
    const ins = instrAt(code, i);
    if (isConsuming(ins.op)) {
      if (load<u8>(seen + <usize>(i + 1)) != 0) addInstrTo(last, program, ins);
    }
  }
  // A program with a segment plan (plan.ts) never runs its DFA: no unit classes, no cache.
  if (count > DFA_MAX_INSTRUCTIONS || planned) return;
  // ASCII unit classes: units accepted by exactly the same instructions share a class. Refine one
  // partition instruction by instruction. A mask and its complement split the same way, so a mask
  // with few members (or few non-members: [^/], .) only moves those units; others take a full pass.
  const map = program + F_CLASS_MAP;
  memory.fill(map, 0, 128);
  const sizes = scratch; // u8 per class: how many units it has
  const hits = scratch + 128; // u8 per class: members of the current mask in it
  const moved = scratch + 256; // u8 per class: the new class its members go to, + 1
  const seenMasks = scratch + 384; // distinct masks already applied (refining twice changes nothing)
  const few = scratch + 384 + 16 * <usize>count; // the minority units of the current mask
  memory.fill(sizes, 0, 128);
  store<u8>(sizes, 128);
  let distinct = 0;
  let classes = 1;
  for (let i = 0; i < count; i++) {
    const ins = instrAt(code, i);
    if (!isConsuming(ins.op)) continue;
    instrBits(program, ins);
    const bits = v128.load(bitsScratch);
    let again = false;
    for (let d = 0; d < distinct && !again; d++) again = !v128.any_true(v128.xor(v128.load(seenMasks + (<usize>d << 4)), bits));
    if (again) continue;
    v128.store(seenMasks + (<usize>(distinct++) << 4), bits);
    classes = refine(map, bits, sizes, hits, moved, few, classes);
  }
  // Units whose position needs its own assertion vector are flagged in bit 7 (classes < 128).
  store<u8>(map + Ch.DOT, load<u8>(map + Ch.DOT) | SPECIAL);
  store<u8>(map + Ch.SLASH, load<u8>(map + Ch.SLASH) | SPECIAL);
  store<u8>(map + 10, load<u8>(map + 10) | SPECIAL);
  store<u8>(map + 13, load<u8>(map + 13) | SPECIAL);
  store<i32>(program + F_CLASS_COUNT, classes);
  store<i32>(program + F_CACHE_BYTES, cacheBytes(count, classes));
}

/**
 * Splits every class of the partition in `map` by membership in the 128-bit mask `bits`; returns
 * the new class count. Only the mask's minority side is visited.
 */
function refine(map: usize, bits: v128, sizes: usize, hits: usize, moved: usize, few: usize, classes: i32): i32 {
  // Count members; if more than half, work with the complement (same partition).
  const count = <i32>(popcnt(i64x2.extract_lane(bits, 0)) + popcnt(i64x2.extract_lane(bits, 1)));
  if (count == 0 || count == 128) return classes;
  if (count > 64) bits = v128.not(bits);
  let n = 0;
  for (let w: u32 = 0; w < 4; w++) {
    let word = i32x4.extract_lane(bits, 0);
    if (w == 1) word = i32x4.extract_lane(bits, 1);
    else if (w == 2) word = i32x4.extract_lane(bits, 2);
    else if (w == 3) word = i32x4.extract_lane(bits, 3);
    while (word != 0) {
      store<u8>(few + <usize>(n++), <u8>((w << 5) + ctz(word)));
      word &= word - 1;
    }
  }
  memory.fill(hits, 0, <usize>classes);
  memory.fill(moved, 0, <usize>classes);
  for (let k = 0; k < n; k++) {
    const cls = <usize>load<u8>(map + <usize>load<u8>(few + <usize>k));
    store<u8>(hits + cls, load<u8>(hits + cls) + 1);
  }
  // Which classes split is decided on the sizes before any unit moves.
  const before = classes;
  for (let k = 0; k < n; k++) {
    const c = <usize>load<u8>(few + <usize>k);
    const cls = <usize>load<u8>(map + c);
    if (cls >= <usize>before || load<u8>(hits + cls) == load<u8>(sizes + cls)) continue; // the whole class stays
    let to = <i32>load<u8>(moved + cls);
    if (to == 0) { to = ++classes; store<u8>(moved + cls, <u8>to); }
    store<u8>(map + c, <u8>(to - 1));
  }
  for (let cls = 0; cls < before; cls++) {
    const to = <i32>load<u8>(moved + <usize>cls);
    if (to == 0) continue;
    const count = load<u8>(hits + <usize>cls);
    store<u8>(sizes + <usize>cls, load<u8>(sizes + <usize>cls) - count);
    store<u8>(sizes + <usize>(to - 1), count);
  }
  return classes;
}

/** Makes a first/last set accept everything. */
export function fillSet(set: usize): void {
  memory.fill(asciiWord(set, 0), 0xff, 16);
  changetype<UnitSet>(set).nonAscii = 1;
}

/** Whether the unit `c` may be in the first/last set at `set`. */
// @ts-ignore: decorator
@inline export function inSet(set: usize, c: u32): bool {
  if (c < 128) return (load<u32>(asciiWord(set, c)) & (1 << (c & 31))) != 0;
  return changetype<UnitSet>(set).nonAscii != 0;
}
