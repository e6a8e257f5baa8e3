// A lazily built DFA over a compiled program, so that a path costs one table lookup per code unit
// once the states it visits are cached. A DFA state is a "kernel": the set of instructions threads
// stand on right after consuming a unit. Because picomatch's lookaheads make the epsilon closure
// depend on the text around a position, each position has an assertion vector (one bit per
// assertion kind: the same for every unit that is not `.`, `/` or a line terminator and not first,
// computed on the spot for the others); a transition is keyed by (kernel, the program's assertion
// bits at the position, the unit's class). Only ASCII transitions are cached; other units are
// stepped directly from the kernel. When a program's cache fills, it is flushed and rebuilt from the
// current kernel (RE2's approach), so memory stays fixed.

import { unitAt } from "./text";
import { I_ASSERT, I_MATCH, isConsuming, pushSuccessors } from "./regex";
import { instrAt } from "./layout";
import { P_COUNT, F_ASSERT_MASK, F_CLASS_COUNT, F_CLASS_MAP } from "./program";
import { consumes, assertionVector, vectorAt, AV_FIRST, AV_END } from "./vm";

/** Largest program (instructions) that gets a DFA; larger ones run on the Pike VM alone. */
export const DFA_MAX_INSTRUCTIONS: i32 = 1024;
const MAX_STATES: i32 = 128;
const MAX_AV: i32 = 16;
const HASH_SLOTS: i32 = 256;
const NO_AV: u8 = 0xff;
/** Class-map flag (analyze.ts sets it): `.`, `/`, `\n`, `\r` need their position's own vector. */
export const SPECIAL: u8 = 0x80;

// The program facts analyze.ts writes at compile time are program.ts's F_* header fields.

// A state's closure under its program's ordinary assertion vector (the one of most positions) is
// kept when it has at most MEMO_PCS consuming instructions: a state is usually left through several
// unit classes at such positions, and each new transition would otherwise walk the closure again.
const MEMO_PCS: i32 = 6;
const MEMO_BYTES: usize = 16; // u8 status (0 unknown, 1 kept, 2 too long), u8 count, u16 pad, u16 pcs[MEMO_PCS]
const MEMO_KEPT: u8 = 1, MEMO_TOO_LONG: u8 = 2;

// Cache layout (byte offsets): a header, then one block per state, so that a cache touches memory
// in proportion to the states it has built (a fresh process pays a page fault for each page it
// touches first). A block holds the state's transitions (MAX_AV × classes u16: 0 unknown, else the
// next state + 1), its acceptance at a path's end per assertion vector (MAX_AV u8: 0 unknown, 1 no,
// 2 yes), its closure memo (MEMO_BYTES) and its kernel (words u32): C_STRIDE bytes in all.
const C_STATES: usize = 0, C_AVS: usize = 4, C_WORDS: usize = 8, C_CLASSES: usize = 12, C_STRIDE: usize = 16,
  C_AV_MAP: usize = 20, C_HASH: usize = 276, C_BLOCKS: usize = 792;

// @ts-ignore: decorator
@inline function strideOf(classes: i32, w: i32): i32 {
  return (MAX_AV * classes * 2 + MAX_AV + <i32>MEMO_BYTES + w * 4 + 7) & ~7;
}

// @ts-ignore: decorator
@inline function words(count: i32): i32 {
  return (count + 32) >>> 5; // instructions 0..count (a kernel may hold pc == count - 1 + 1)
}

/** Bytes of DFA cache a program with `count` instructions and `classes` unit classes needs. */
export function cacheBytes(count: i32, classes: i32): i32 {
  if (classes == 0) return 0;
  return <i32>C_BLOCKS + MAX_STATES * strideOf(classes, words(count));
}

// ---- assertion vectors ------------------------------------------------------------------------

/** The vector of every position 0 < i < n whose unit is not `.`, `/` or a line terminator. */
const ORDINARY_AV: i32 = 4 | 8 | 16 | 32 | 64 | 128;

// ---- the cache --------------------------------------------------------------------------------

/** Empties a program's cache (its layout depends only on the program). */
export function resetCache(program: usize, cache: usize): void {
  const count = load<i32>(program + P_COUNT);
  store<i32>(cache + C_AVS, 0);
  store<i32>(cache + C_WORDS, words(count));
  store<i32>(cache + C_CLASSES, load<i32>(program + F_CLASS_COUNT));
  store<i32>(cache + C_STRIDE, strideOf(load<i32>(program + F_CLASS_COUNT), words(count)));
  memory.fill(cache + C_AV_MAP, NO_AV, 256);
  flush(cache);
}

const fixedKernel: usize = memory.data(256, 8);

/** Forgets every state but the two fixed ones: 0 is dead (no thread), 1 is the start ({0}). */
function flush(cache: usize): void {
  const w = load<i32>(cache + C_WORDS);
  store<i32>(cache + C_STATES, 0);
  memory.fill(cache + C_HASH, 0, <usize>HASH_SLOTS * 2);
  memory.fill(fixedKernel, 0, <usize>w << 2);
  intern(cache, fixedKernel);
  store<u32>(fixedKernel, 1);
  intern(cache, fixedKernel);
}

// @ts-ignore: decorator
@inline function blockAt(cache: usize, s: i32): usize {
  return cache + C_BLOCKS + <usize>s * <usize>load<i32>(cache + C_STRIDE);
}
// @ts-ignore: decorator
@inline function acceptsOf(cache: usize, s: i32, classes: i32): usize {
  return blockAt(cache, s) + <usize>(MAX_AV * classes * 2);
}
// @ts-ignore: decorator
@inline function memoOf(cache: usize, s: i32, classes: i32): usize {
  return acceptsOf(cache, s, classes) + <usize>MAX_AV;
}
// @ts-ignore: decorator
@inline function kernelAt(cache: usize, s: i32, classes: i32): usize {
  return memoOf(cache, s, classes) + MEMO_BYTES;
}

function hashKernel(k: usize, w: i32): u32 {
  let h: u32 = 2166136261;
  for (let i = 0; i < w; i++) h = (h ^ load<u32>(k + (<usize>i << 2))) * 16777619;
  return h ^ (h >> 15);
}

/** Whether the `w` words at `a` and `b` are equal. */
// @ts-ignore: decorator
@inline function wordsEqual(a: usize, b: usize, w: i32): bool {
  for (let i = 0; i < w; i++) if (load<u32>(a + (<usize>i << 2)) != load<u32>(b + (<usize>i << 2))) return false;
  return true;
}

/** The state for kernel `k`, created if new; -1 when the cache is full. */
function intern(cache: usize, k: usize): i32 {
  const w = load<i32>(cache + C_WORDS), classes = load<i32>(cache + C_CLASSES);
  let slot = <i32>(hashKernel(k, w) & <u32>(HASH_SLOTS - 1));
  while (true) {
    const entry = <i32>load<u16>(cache + C_HASH + (<usize>slot << 1));
    if (entry == 0) return addState(cache, k, slot);
    if (wordsEqual(kernelAt(cache, entry - 1, classes), k, w)) return entry - 1;
    slot = (slot + 1) & (HASH_SLOTS - 1);
  }
}

/** A new state for kernel `k`, entered at hash slot `slot`; -1 when the cache is full. */
function addState(cache: usize, k: usize, slot: i32): i32 {
  const w = load<i32>(cache + C_WORDS), classes = load<i32>(cache + C_CLASSES);
  const s = load<i32>(cache + C_STATES);
  if (s >= MAX_STATES) return -1;
  store<i32>(cache + C_STATES, s + 1);
  memory.copy(kernelAt(cache, s, classes), k, <usize>w << 2);
  store<u16>(cache + C_HASH + (<usize>slot << 1), <u16>(s + 1));
  // The transitions, the acceptance and the memo's status start at 0.
  memory.fill(blockAt(cache, s), 0, <usize>(MAX_AV * classes * 2) + MAX_AV + 1);
  return s;
}

// Scratch for closures (set by run()).
let marks: usize = 0;
let stack: usize = 0;
let list: usize = 0;
let gen: u32 = 0;
let marksCount: i32 = 0; // instructions whose marks must be cleared before the run's first closure
let marksClean = false; // the scratch moves between calls: marks are cleared lazily, once per run

/** Closure of kernel `k` under assertion bits `av`: consuming pcs into `list`; returns count, or -1 - count when MATCH is in it. */
function closure(code: usize, count: i32, k: usize, w: i32, av: i32): i32 {
  if (!marksClean) {
    memory.fill(marks, 0, <usize>marksCount << 2);
    gen = 0;
    marksClean = true;
  }
  gen++;
  let n = 0;
  let matched = false;
  for (let wi = 0; wi < w; wi++) {
    let bits = load<u32>(k + (<usize>wi << 2));
    while (bits != 0) {
      const start = (wi << 5) + <i32>ctz(bits);
      bits &= bits - 1;
      let sp = 1;
      store<i32>(stack, start);
      while (sp > 0) {
        const at = load<i32>(stack + (<usize>(--sp) << 2));
        if (at >= count) continue;
        const mark = marks + (<usize>at << 2);
        if (load<u32>(mark) == gen) continue;
        store<u32>(mark, gen);
        const ins = instrAt(code, at);
        const op = ins.op;
        if (isConsuming(op)) store<i32>(list + (<usize>(n++) << 2), at);
        else if (op == I_MATCH) matched = true;
        else sp = pushSuccessors(stack, sp, ins, op, at, op == I_ASSERT && (av & (1 << (ins.a - 1))) != 0);
      }
    }
  }
  return matched ? -1 - n : n;
}

/** Puts a kept closure in `list`; returns its length. */
function recall(memo: usize): i32 {
  const n = <i32>load<u8>(memo + 1);
  for (let t = 0; t < n; t++) store<i32>(list + (<usize>t << 2), <i32>load<u16>(memo + 4 + (<usize>t << 1)));
  return n;
}

/** closure() of `k` under `av` into `list`, kept in `memo` (0: none) when short; returns its length. */
function closureInto(code: usize, count: i32, k: usize, w: i32, av: i32, memo: usize): i32 {
  let n = closure(code, count, k, w, av);
  if (n < 0) n = -1 - n;
  if (memo == 0) return n;
  if (n <= MEMO_PCS) {
    for (let t = 0; t < n; t++) store<u16>(memo + 4 + (<usize>t << 1), <u16>load<i32>(list + (<usize>t << 2)));
    store<u8>(memo + 1, <u8>n);
    store<u8>(memo, MEMO_KEPT);
  } else {
    store<u8>(memo, MEMO_TOO_LONG);
  }
  return n;
}

/**
 * The kernel after consuming `c` from kernel `k` at a position with bits `av`, into `dst`. `memo`
 * is the state's closure memo when `av` is the program's ordinary vector, else 0.
 */
function step(program: usize, code: usize, count: i32, k: usize, w: i32, av: i32, c: u32, dst: usize, memo: usize): void {
  memory.fill(dst, 0, <usize>w << 2);
  const n = memo != 0 && load<u8>(memo) == MEMO_KEPT ? recall(memo) : closureInto(code, count, k, w, av, memo);
  for (let t = 0; t < n; t++) {
    const at = load<i32>(list + (<usize>t << 2));
    if (consumes(program, instrAt(code, at), c)) {
      const next = at + 1;
      const word = dst + (<usize>(next >>> 5) << 2);
      store<u32>(word, load<u32>(word) | (1 << (next & 31)));
    }
  }
}

/** Scratch bytes run() needs for a program of `count` instructions. */
export function dfaScratchBytes(count: i32): usize {
  // marks (count), stack (every instruction can be pushed by two predecessors, plus the kernel's
  // own starts: 3 × count), list (count), next kernel
  return <usize>count * 20 + <usize>words(count) * 8 + 64;
}

/** The cache's id for assertion vector `av` (already masked), or -1 when the cache has no room. */
function avId(cache: usize, av: i32): i32 {
  let id = <i32>load<u8>(cache + C_AV_MAP + <usize>av);
  if (id != NO_AV) return id;
  id = load<i32>(cache + C_AVS);
  if (id >= MAX_AV) return -1;
  store<i32>(cache + C_AVS, id + 1);
  store<u8>(cache + C_AV_MAP + <usize>av, <u8>id);
  return id;
}

/**
 * The state after consuming `c` from state `s` at a position with assertion bits `av` (masked).
 * The transition is cached at `entry` (0: not cached, for a unit outside ASCII). A full cache is
 * flushed first. Returns the state; 0 is dead. Out of `run`'s loop: only a new transition gets here.
 */
function advance(program: usize, code: usize, count: i32, cache: usize, s: i32, av: i32, c: u32, entry: usize, k2: usize): i32 {
  const w = load<i32>(cache + C_WORDS), classes = load<i32>(cache + C_CLASSES);
  const memo = av == (ORDINARY_AV & load<i32>(program + F_ASSERT_MASK)) ? memoOf(cache, s, classes) : 0;
  step(program, code, count, kernelAt(cache, s, classes), w, av, c, k2, memo);
  let t = intern(cache, k2);
  if (t < 0) { flush(cache); t = intern(cache, k2); }
  else if (entry != 0) store<u16>(entry, <u16>(t + 1));
  return t;
}

/** Whether state `s` (not dead) accepts at the end of a path of `n` units; -1 when the cache has no room. */
function acceptsAtEnd(code: usize, count: i32, cache: usize, s: i32, av: i32): i32 {
  const id = avId(cache, av);
  if (id < 0) return -1;
  const classes = load<i32>(cache + C_CLASSES);
  const acceptAt = acceptsOf(cache, s, classes) + <usize>id;
  const known = load<u8>(acceptAt);
  if (known != 0) return known == 2 ? 1 : 0;
  const r = closure(code, count, kernelAt(cache, s, classes), load<i32>(cache + C_WORDS), av) < 0;
  store<u8>(acceptAt, r ? 2 : 1);
  return r ? 1 : 0;
}

/**
 * Runs the program's DFA over the path (`path`/`n`) with its cache at `cache`; `scratch` holds
 * dfaScratchBytes(count). Returns 1 or 0, or -1 when the path needs more assertion classes than the
 * cache keeps (the caller then uses the Pike VM). The loop itself only follows cached transitions;
 * advance() builds the others.
 */
export function run(program: usize, code: usize, count: i32, cache: usize, path: usize, n: i32, scratch: usize): i32 {
  const classes = load<i32>(cache + C_CLASSES);
  const mask = load<i32>(program + F_ASSERT_MASK);
  const map = program + F_CLASS_MAP;
  marks = scratch;
  stack = marks + (<usize>count << 2);
  list = stack + (<usize>count * 12);
  const k2 = list + (<usize>count << 2);
  marksCount = count;
  marksClean = false;
  const stride = <usize>load<i32>(cache + C_STRIDE); // from one state's transitions to the next's
  const rows = cache + C_BLOCKS;
  const ordinaryId = avId(cache, ORDINARY_AV & mask);
  if (ordinaryId < 0) return -1;
  const ordinaryCol = ordinaryId * classes;
  let row = rows + stride; // the start state, 1
  for (let i = 0; i < n; i++) {
    const c = unitAt(path, i);
    let av = ORDINARY_AV;
    let entry: usize = 0;
    if (c < 128) {
      const cls = <i32>load<u8>(map + c);
      let col = ordinaryCol + (cls & 0x7f);
      if ((cls & <i32>SPECIAL) != 0 || i == 0) {
        av = (cls & <i32>SPECIAL) != 0 ? vectorAt(path, n, i, c) : AV_FIRST;
        const id = avId(cache, av & mask);
        if (id < 0) return -1;
        col = id * classes + (cls & 0x7f);
      }
      entry = row + (<usize>col << 1);
      const next = <i32>load<u16>(entry);
      if (next == 1) return 0; // the dead state: no thread left
      if (next != 0) { row = rows + <usize>(next - 1) * stride; continue; }
    } else {
      av = assertionVector(path, n, i);
    }
    const t = advance(program, code, count, cache, <i32>((row - rows) / stride), av & mask, c, entry, k2);
    if (t == 0) return 0;
    row = rows + <usize>t * stride;
  }
  const s = <i32>((row - rows) / stride);
  if (s == 0) return 0;
  return acceptsAtEnd(code, count, cache, s, (n > 0 ? AV_END : assertionVector(path, n, n)) & mask);
}
