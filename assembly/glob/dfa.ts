// A lazily built DFA over a compiled program, so that a path costs one table lookup per code unit
// once the states it visits are cached. A DFA state is a "kernel": the set of instructions threads
// stand on right after consuming a unit. Because picomatch's lookaheads make the epsilon closure
// depend on the text around a position, each position gets an assertion vector (one bit per
// assertion kind, computed once per path and shared by every program of a set); a transition is
// keyed by (kernel, the program's assertion bits at the position, the unit's class). Only ASCII
// transitions are cached; other units are stepped directly from the kernel. When a program's cache
// fills, it is flushed and rebuilt from the current kernel (RE2's approach), so memory stays fixed.

import { Ch, unitAt, isLineTerminator } from "./text";
import { I_CHAR, I_CLASS, I_ANY, I_NOT_SLASH, I_NOT_DOT_SLASH, I_SPLIT, I_JMP, I_ASSERT, I_MATCH, INSTR_SIZE } from "./regex";
import { consumes } from "./vm";

/** Largest program (instructions) that gets a DFA; larger ones run on the Pike VM alone. */
export const DFA_MAX_INSTRUCTIONS: i32 = 1024;
const MAX_STATES: i32 = 128;
const MAX_AV: i32 = 16;
const HASH_SLOTS: i32 = 256;
const NO_AV: u8 = 0xff;
const SPECIAL: u8 = 0x80; // class-map flag: `.`, `/`, `\n`, `\r`

// Program facts written at compile time (byte offsets in the program header).
export const F_ASSERT_MASK: usize = 64;
export const F_CLASS_COUNT: usize = 68; // 0: no DFA
export const F_FIRST: usize = 72; // u32[4] ASCII bits, then i32 "may be non-ASCII"
export const F_LAST: usize = 92;
export const F_CACHE_BYTES: usize = 112;
export const F_CLASS_MAP: usize = 128; // u8[128]
export const FACTS_END: usize = 256;

// Cache layout (byte offsets).
const C_STATES: usize = 0, C_AVS: usize = 4, C_WORDS: usize = 8, C_CLASSES: usize = 12, C_AV_MAP: usize = 16,
  C_HASH: usize = 272, C_FLAGS: usize = 784, C_ACCEPT: usize = C_FLAGS + <usize>MAX_STATES,
  C_ROWS: usize = C_ACCEPT + <usize>(MAX_STATES * MAX_AV);

@inline function words(count: i32): i32 {
  return (count + 32) >>> 5; // instructions 0..count (a kernel may hold pc == count - 1 + 1)
}

/** Bytes of DFA cache a program with `count` instructions and `classes` unit classes needs. */
export function cacheBytes(count: i32, classes: i32): i32 {
  if (classes == 0) return 0;
  return <i32>C_ROWS + MAX_STATES * (MAX_AV * classes * 2 + words(count) * 4);
}

// ---- compile-time analysis --------------------------------------------------------------------

/** Adds the unit `c` to the first/last set at `set`. */
export function addUnitTo(set: usize, c: u32): void {
  if (c < 128) store<u32>(set + ((c >> 5) << 2), load<u32>(set + ((c >> 5) << 2)) | (1 << (c & 31)));
  else store<i32>(set + 16, 1);
}

const ALL_ASCII = i32x4.splat(-1);
const bitsScratch: usize = memory.data(32, 16);

/**
 * The ASCII units the consuming instruction at `ins` accepts, as a 128-bit mask, into bitsScratch;
 * returns whether it may accept a unit above 127.
 */
function instrBits(base: usize, ins: usize): bool {
  const op = load<i32>(ins);
  v128.store(bitsScratch, v128.xor(ALL_ASCII, ALL_ASCII));
  if (op == I_CHAR) {
    const c = <u32>load<i32>(ins, 4);
    if (c >= 128) return true;
    store<u32>(bitsScratch + ((c >> 5) << 2), 1 << (c & 31));
    return false;
  }
  if (op == I_CLASS) {
    const rec = base + <usize>load<i32>(ins, 4);
    v128.store(bitsScratch, v128.load(rec + 8));
    return load<i32>(rec) != 0 || load<i32>(rec, 4) > 0;
  }
  v128.store(bitsScratch, ALL_ASCII);
  if (op == I_NOT_SLASH || op == I_NOT_DOT_SLASH) clearBit(Ch.SLASH);
  if (op == I_NOT_DOT_SLASH) clearBit(Ch.DOT);
  if (op == I_ANY) { clearBit(10); clearBit(13); }
  return true;
}

@inline function clearBit(c: u32): void {
  store<u32>(bitsScratch + ((c >> 5) << 2), load<u32>(bitsScratch + ((c >> 5) << 2)) & ~(1 << (c & 31)));
}

/** Adds every unit the consuming instruction at `ins` accepts to the set at `set`. */
function addInstrTo(set: usize, base: usize, ins: usize): void {
  const high = instrBits(base, ins);
  v128.store(set, v128.or(v128.load(set), v128.load(bitsScratch)));
  if (high) store<i32>(set + 16, 1);
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
      const ins = code + <usize>at * INSTR_SIZE;
      const op = load<i32>(ins);
      let r = false;
      if (op == I_MATCH) r = true;
      else if (op == I_JMP) r = load<u8>(into + <usize>load<i32>(ins, 4)) != 0;
      else if (op == I_SPLIT) r = load<u8>(into + <usize>load<i32>(ins, 4)) != 0 || load<u8>(into + <usize>load<i32>(ins, 8)) != 0;
      else if (op == I_ASSERT) r = load<u8>(into + <usize>(at + 1)) != 0;
      if (r) { store<u8>(into + <usize>at, 1); changed = true; }
    }
  }
}

/**
 * Writes the program's facts: the assertion kinds it uses, the units a match can start and end
 * with (for the set prefilter), and, for programs small enough, the ASCII unit classes of its DFA.
 * `scratch` holds max(9 * count + 16, 512 + 16 * count) bytes.
 */
export function analyze(program: usize, code: usize, count: i32, scratch: usize): void {
  const first = program + F_FIRST, last = program + F_LAST;
  memory.fill(program + F_ASSERT_MASK, 0, FACTS_END - F_ASSERT_MASK);
  const seen = scratch, stack = scratch + <usize>count + 8;
  let mask = 0;
  for (let i = 0; i < count; i++) {
    const ins = code + <usize>i * INSTR_SIZE;
    const op = load<i32>(ins);
    if (op == I_ASSERT) mask |= 1 << (load<i32>(ins, 4) - 1);
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
    const ins = code + <usize>at * INSTR_SIZE;
    const op = load<i32>(ins);
    if (op == I_JMP) store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
    else if (op == I_SPLIT) {
      store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
      store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 8));
    } else if (op == I_ASSERT) store<i32>(stack + (<usize>(sp++) << 2), at + 1);
    else if (op != I_MATCH) addInstrTo(first, program, ins);
  }
  // Last units: consuming instructions after which MATCH is reachable without consuming.
  markReachesMatch(code, count, seen);
  for (let i = 0; i < count; i++) {
    const ins = code + <usize>i * INSTR_SIZE;
    const op = load<i32>(ins);
    if (op == I_CHAR || op == I_CLASS || op == I_ANY || op == I_NOT_SLASH || op == I_NOT_DOT_SLASH) {
      if (load<u8>(seen + <usize>(i + 1)) != 0) addInstrTo(last, program, ins);
    }
  }
  if (count > DFA_MAX_INSTRUCTIONS) return;
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
    const ins = code + <usize>i * INSTR_SIZE;
    const op = load<i32>(ins);
    if (op == I_SPLIT || op == I_JMP || op == I_ASSERT || op == I_MATCH) continue;
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
  for (let k = 0; k < n; k++) {
    const c = <usize>load<u8>(few + <usize>k);
    const cls = <usize>load<u8>(map + c);
    if (load<u8>(hits + cls) == load<u8>(sizes + cls)) continue; // the whole class: no split
    let to = <i32>load<u8>(moved + cls);
    if (to == 0) { to = ++classes; store<u8>(moved + cls, <u8>to); }
    store<u8>(map + c, <u8>(to - 1));
    store<u8>(sizes + cls, load<u8>(sizes + cls) - 1);
    store<u8>(sizes + <usize>(to - 1), load<u8>(sizes + <usize>(to - 1)) + 1);
  }
  return classes;
}

/** Makes a first/last set accept everything. */
export function fillSet(set: usize): void {
  memory.fill(set, 0xff, 16);
  store<i32>(set + 16, 1);
}

/** Whether the unit `c` may be in the first/last set at `set`. */
@inline export function inSet(set: usize, c: u32): bool {
  if (c < 128) return (load<u32>(set + ((c >> 5) << 2)) & (1 << (c & 31))) != 0;
  return load<i32>(set + 16) != 0;
}

// ---- per-path assertion vectors ---------------------------------------------------------------

@inline function isDotSegment(path: usize, n: i32, i: i32): bool {
  if (i >= n || unitAt(path, i) != Ch.DOT) return false;
  if (i + 1 == n || unitAt(path, i + 1) == Ch.SLASH) return true;
  return unitAt(path, i + 1) == Ch.DOT && (i + 2 == n || unitAt(path, i + 2) == Ch.SLASH);
}

/**
 * The assertion vector at position `i` of the path: bit k - 1 set when assertion kind k holds there
 * (the same answers as vm.ts's holds()).
 */
function avAt(path: usize, n: i32, i: i32): i32 {
  const c = i < n ? unitAt(path, i) : 0xffffffff;
  const next = i + 1 < n ? unitAt(path, i + 1) : 0xffffffff;
  const segHere = isDotSegment(path, n, i);
  let v = 0;
  if (i == 0) v |= 1; // ^
  if (i == n) v |= 2; // $
  if (i < n && !isLineTerminator(c)) v |= 4; // (?=.)
  if (c != Ch.DOT) v |= 8; // (?!\.)
  if (!((i == 0 && segHere) || (c == Ch.SLASH && isDotSegment(path, n, i + 1)))) v |= 16; // NO_DOTS
  if (!(i == n || c == Ch.SLASH || (c == Ch.DOT && (i + 1 == n || next == Ch.SLASH)))) v |= 32; // NO_DOT_SLASH
  if (!segHere) v |= 64; // NO_DOTS_SLASH
  if (!((i == 0 && c == Ch.DOT) || (c == Ch.SLASH && next == Ch.DOT))) v |= 128; // (?!(?:^|\/)\.)
  return v;
}

/** The vector of every position 0 < i < n whose unit is not `.`, `/` or a line terminator. */
const ORDINARY_AV: i32 = 4 | 8 | 16 | 32 | 64 | 128;

// ---- the cache --------------------------------------------------------------------------------

/** Empties a program's cache (its layout depends only on the program). */
export function resetCache(program: usize, cache: usize): void {
  const count = load<i32>(program + 8);
  store<i32>(cache + C_AVS, 0);
  store<i32>(cache + C_WORDS, words(count));
  store<i32>(cache + C_CLASSES, load<i32>(program + F_CLASS_COUNT));
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

@inline function rowsAt(cache: usize, classes: i32): usize {
  return cache + C_ROWS;
}
@inline function kernelAt(cache: usize, s: i32, w: i32, classes: i32): usize {
  return cache + C_ROWS + <usize>MAX_STATES * <usize>(MAX_AV * classes * 2) + <usize>s * (<usize>w << 2);
}

function hashKernel(k: usize, w: i32): u32 {
  let h: u32 = 2166136261;
  for (let i = 0; i < w; i++) h = (h ^ load<u32>(k + (<usize>i << 2))) * 16777619;
  return h ^ (h >> 15);
}

/** The state for kernel `k`, created if new; -1 when the cache is full. */
function intern(cache: usize, k: usize): i32 {
  const w = load<i32>(cache + C_WORDS), classes = load<i32>(cache + C_CLASSES);
  let slot = <i32>(hashKernel(k, w) & <u32>(HASH_SLOTS - 1));
  while (true) {
    const entry = <i32>load<u16>(cache + C_HASH + (<usize>slot << 1));
    if (entry == 0) break;
    const s = entry - 1;
    if (memory.compare(kernelAt(cache, s, w, classes), k, <usize>w << 2) == 0) return s;
    slot = (slot + 1) & (HASH_SLOTS - 1);
  }
  const s = load<i32>(cache + C_STATES);
  if (s >= MAX_STATES) return -1;
  store<i32>(cache + C_STATES, s + 1);
  memory.copy(kernelAt(cache, s, w, classes), k, <usize>w << 2);
  store<u16>(cache + C_HASH + (<usize>slot << 1), <u16>(s + 1));
  let empty = true;
  for (let i = 0; i < w && empty; i++) if (load<u32>(k + (<usize>i << 2)) != 0) empty = false;
  store<u8>(cache + C_FLAGS + <usize>s, empty ? 1 : 0);
  memory.fill(cache + C_ACCEPT + <usize>(s * MAX_AV), 0, <usize>MAX_AV);
  memory.fill(rowsAt(cache, classes) + <usize>(s * MAX_AV * classes * 2), 0, <usize>(MAX_AV * classes * 2));
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
        const ins = code + <usize>at * INSTR_SIZE;
        const op = load<i32>(ins);
        if (op == I_JMP) store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
        else if (op == I_SPLIT) {
          store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 8));
          store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
        } else if (op == I_ASSERT) {
          if ((av & (1 << (load<i32>(ins, 4) - 1))) != 0) store<i32>(stack + (<usize>(sp++) << 2), at + 1);
        } else if (op == I_MATCH) matched = true;
        else store<i32>(list + (<usize>(n++) << 2), at);
      }
    }
  }
  return matched ? -1 - n : n;
}

/** The kernel after consuming `c` from kernel `k` at a position with bits `av`, into `dst`. */
function step(program: usize, code: usize, count: i32, k: usize, w: i32, av: i32, c: u32, dst: usize): void {
  memory.fill(dst, 0, <usize>w << 2);
  let n = closure(code, count, k, w, av);
  if (n < 0) n = -1 - n;
  for (let t = 0; t < n; t++) {
    const at = load<i32>(list + (<usize>t << 2));
    if (consumes(program, code + <usize>at * INSTR_SIZE, c)) {
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
 * Runs the program's DFA over the path (`path`/`n`) with its cache at `cache`; `scratch` holds
 * dfaScratchBytes(count). Returns 1 or 0, or -1 when the path needs more assertion classes than the
 * cache keeps (the caller then uses the Pike VM).
 */
export function run(program: usize, code: usize, count: i32, cache: usize, path: usize, n: i32, scratch: usize): i32 {
  const classes = load<i32>(cache + C_CLASSES);
  const w = load<i32>(cache + C_WORDS);
  const mask = load<i32>(program + F_ASSERT_MASK);
  const map = program + F_CLASS_MAP;
  marks = scratch;
  stack = marks + (<usize>count << 2);
  list = stack + (<usize>count * 12);
  const k2 = list + (<usize>count << 2);
  marksCount = count;
  marksClean = false;
  const rowBytes = <usize>(MAX_AV * classes * 2);
  const rows = rowsAt(cache, classes);
  const ordinaryId = avId(cache, ORDINARY_AV & mask);
  if (ordinaryId < 0) return -1;
  const ordinaryCol = ordinaryId * classes;
  let s = 1; // the start state
  let row = rows + rowBytes;
  for (let i = 0; i < n; i++) {
    const c = unitAt(path, i);
    if (c < 128) {
      const cls = <i32>load<u8>(map + c);
      let col = ordinaryCol + (cls & 0x7f);
      let av = ORDINARY_AV;
      if ((cls & <i32>SPECIAL) != 0 || i == 0) {
        av = avAt(path, n, i);
        const id = avId(cache, av & mask);
        if (id < 0) return -1;
        col = id * classes + (cls & 0x7f);
      }
      const entry = row + (<usize>col << 1);
      const next = <i32>load<u16>(entry);
      if (next == 1) return 0; // the dead state: no thread left
      if (next != 0) { row = rows + <usize>(next - 1) * rowBytes; continue; }
      s = <i32>((row - rows) / rowBytes);
      step(program, code, count, kernelAt(cache, s, w, classes), w, av & mask, c, k2);
      let t = intern(cache, k2);
      if (t < 0) { flush(cache); t = intern(cache, k2); }
      else store<u16>(entry, <u16>(t + 1));
      if (t == 0) return 0;
      row = rows + <usize>t * rowBytes;
    } else {
      const av = avAt(path, n, i);
      s = <i32>((row - rows) / rowBytes);
      step(program, code, count, kernelAt(cache, s, w, classes), w, av & mask, c, k2);
      let t = intern(cache, k2);
      if (t < 0) { flush(cache); t = intern(cache, k2); }
      if (t == 0) return 0;
      row = rows + <usize>t * rowBytes;
    }
  }
  s = <i32>((row - rows) / rowBytes);
  if (s == 0) return 0;
  const av = avAt(path, n, n) & mask;
  const id = avId(cache, av);
  if (id < 0) return -1;
  const acceptAt = cache + C_ACCEPT + <usize>(s * MAX_AV + id);
  const known = load<u8>(acceptAt);
  if (known != 0) return known == 2 ? 1 : 0;
  const r = closure(code, count, kernelAt(cache, s, w, classes), w, av) < 0;
  store<u8>(acceptAt, r ? 2 : 1);
  return r ? 1 : 0;
}
