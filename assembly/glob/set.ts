// Matching compiled globs: paths are normalized, each (path, pattern) pair goes through the
// prefilters in order of cost, and what survives runs the pattern's lazily built DFA (dfa.ts) or,
// for very large programs, the Pike VM (vm.ts). A set adds candidate masks (by the path's first and
// last unit, its last two units and its number of `/`) and a signature of the path's adjacent unit
// pairs, so most patterns are never looked at for a given path.

import { Ch, unitAt, isLineTerminator } from "./text";
import { suffixKey } from "./facts";
import { runProgram, vmWorkspaceSize } from "./vm";
import { run as runDfa, resetCache, dfaScratchBytes } from "./dfa";
import { inSet } from "./analyze";
import {
  P_FLAGS, P_COUNT, P_CODE, P_TEXT, P_TEXT_LEN, P_PREFIX, P_PREFIX_LEN, P_SUFFIX, P_SUFFIX_LEN, P_INFIX,
  P_INFIX_LEN, P_SLASH_MIN, P_SLASH_MAX, P_KEYS, P_KEY_COUNT, P_AFTER, F_CACHE_BYTES, F_FIRST, F_LAST, P_PLAN,
} from "./program";
import { planMatch } from "./plan";
import { UnitSet } from "./layout";
import { PROGRAM_NEGATED, PROGRAM_NEVER, PROGRAM_SUFFIX_OPT_SLASH as SUFFIX_OPT_SLASH } from "../abi";

/** Scratch bytes globMatch / globMatchSet need for this program. */
export function globMatchWorkspace(program: usize): usize {
  return vmWorkspaceSize(load<i32>(program + P_COUNT));
}

/**
 * The bit of the ordered pair of adjacent units (a, b) in a 64-bit pair signature. A path holds
 * every pair of a literal it contains, so a program whose literals' pairs are not all among the
 * path's cannot match it (a collision only lets a program through to its exact checks).
 */
// @ts-ignore: decorator
@inline function pairBit(a: u32, b: u32): u64 {
  return <u64>1 << <u64>((((a * 31 + b) * PAIR_MUL) & 0xffff) >>> 10);
}
// pairBit's multiplier: the top 6 bits of a 16-bit product, so that 8 pairs can be hashed in the
// 16-bit lanes of a v128 (pairBits8).
const PAIR_MUL: u32 = 0x9e37;

/** pairBit of the 8 pairs (lane k of `a`, lane k of `b`), ORed. */
// @ts-ignore: decorator
@inline function pairBits8(a: v128, b: v128): u64 {
  const h = i16x8.shr_u(i16x8.mul(i16x8.add(i16x8.mul(a, i16x8.splat(31)), b), i16x8.splat(<i16>PAIR_MUL)), 10);
  return (<u64>1 << <u64>i16x8.extract_lane_u(h, 0)) | (<u64>1 << <u64>i16x8.extract_lane_u(h, 1))
    | (<u64>1 << <u64>i16x8.extract_lane_u(h, 2)) | (<u64>1 << <u64>i16x8.extract_lane_u(h, 3))
    | (<u64>1 << <u64>i16x8.extract_lane_u(h, 4)) | (<u64>1 << <u64>i16x8.extract_lane_u(h, 5))
    | (<u64>1 << <u64>i16x8.extract_lane_u(h, 6)) | (<u64>1 << <u64>i16x8.extract_lane_u(h, 7));
}

let normStart: usize = 0;
let pathSlashes: i32 = 0;

/**
 * The first step of normalizing a path: leading `./` (or `.\`, since `\` reads as `/`) dropped;
 * returns the remaining length, its start in normStart. slashPath() does the rest.
 */
function dropDotSlash(path: usize, n: i32): i32 {
  while (n >= 2 && unitAt(path, 0) == Ch.DOT && (unitAt(path, 1) == Ch.SLASH || unitAt(path, 1) == Ch.BACKSLASH)) {
    path += 4;
    n -= 2;
  }
  normStart = path;
  return n;
}

function noLineTerminator(path: usize, n: i32): bool {
  for (let i = 0; i < n; i++) if (isLineTerminator(unitAt(path, i))) return false;
  return true;
}

/**
 * The decision for one normalized, non-empty path. `cache` is the program's DFA cache (0: run the
 * Pike VM).
 */
function decide(program: usize, path: usize, n: i32, work: usize, cache: usize): bool {
  const textLen = load<i32>(program + P_TEXT_LEN);
  if (textLen == n && unitsEqual(program + <usize>load<i32>(program + P_TEXT), path, n)) return true;
  const flags = load<i32>(program + P_FLAGS);
  if ((flags & PROGRAM_NEVER) != 0) return false;
  if ((flags & PROGRAM_NEGATED) != 0) return !execute(program, path, n, work, cache) && noLineTerminator(path, n);
  if (pathSlashes < load<i32>(program + P_SLASH_MIN) || pathSlashes > load<i32>(program + P_SLASH_MAX)) return false;
  const prefixLen = load<i32>(program + P_PREFIX_LEN);
  if (prefixLen > 0) {
    if (n < prefixLen || !unitsEqual(program + <usize>load<i32>(program + P_PREFIX), path, prefixLen)) return false;
  }
  if (n > prefixLen ? !inSet(program + P_AFTER, unitAt(path, prefixLen)) : changetype<UnitSet>(program + P_AFTER).mayEnd == 0) return false;
  const suffixWord = load<i32>(program + P_SUFFIX_LEN);
  if (suffixWord != 0 && !suffixHolds(program + <usize>load<i32>(program + P_SUFFIX), suffixWord, path, n)) return false;
  const infixLen = load<i32>(program + P_INFIX_LEN);
  if (infixLen > 0 && !contains(path, n, program + <usize>load<i32>(program + P_INFIX), infixLen)) return false;
  return execute(program, path, n, work, cache);
}

function unitsEqual(a: usize, b: usize, len: i32): bool {
  let i = 0;
  for (; i + 4 <= len; i += 4) if (load<u64>(a + (<usize>i << 1)) != load<u64>(b + (<usize>i << 1))) return false;
  for (; i < len; i++) if (load<u16>(a + (<usize>i << 1)) != load<u16>(b + (<usize>i << 1))) return false;
  return true;
}

/** Whether the needle occurs in the path; the first unit is searched 8 at a time. */
function contains(path: usize, n: i32, needle: usize, len: i32): bool {
  const first = load<u16>(needle);
  const splat = i16x8.splat(<i16>first);
  const last = n - len; // last possible start
  let i = 0;
  for (; i + 8 <= last + 1; i += 8) {
    let hits = i16x8.bitmask(i16x8.eq(v128.load(path + (<usize>i << 1)), splat));
    while (hits != 0) {
      const at = i + <i32>ctz(hits);
      hits &= hits - 1;
      if (unitsEqual(path + (<usize>at << 1), needle, len)) return true;
    }
  }
  for (; i <= last; i++) {
    if (load<u16>(path + (<usize>i << 1)) == first && unitsEqual(path + (<usize>i << 1), needle, len)) return true;
  }
  return false;
}

function execute(program: usize, path: usize, n: i32, work: usize, cache: usize): bool {
  const plan = load<i32>(program + P_PLAN);
  if (plan != 0) return planMatch(program + <usize>plan, path, n);
  const count = load<i32>(program + P_COUNT);
  const code = program + <usize>load<i32>(program + P_CODE);
  if (cache != 0) {
    const r = runDfa(program, code, count, cache, path, n, work);
    if (r >= 0) return r == 1;
  }
  return runProgram(program, code, count, path, n, work);
}

function suffixHolds(suffix: usize, word: i32, path: usize, n: i32): bool {
  const len = word & ~SUFFIX_OPT_SLASH;
  let end = n;
  if ((word & SUFFIX_OPT_SLASH) != 0 && n > 0 && unitAt(path, n - 1) == Ch.SLASH) {
    if (endsWithReversed(suffix, len, path, n)) return true;
    end = n - 1;
  }
  return endsWithReversed(suffix, len, path, end);
}

// @ts-ignore: decorator
@inline function endsWithReversed(suffix: usize, len: i32, path: usize, end: i32): bool {
  if (end < len) return false;
  for (let i = 0; i < len; i++) if (unitAt(suffix, i) != unitAt(path, end - 1 - i)) return false;
  return true;
}

/**
 * Whether `program` matches the path at `path` (`units` UTF-16 units). The path is normalized in
 * place (`\` → `/`). `work` holds globMatchWorkspace(program) bytes. Returns 1 or 0.
 */
export function globMatch(program: usize, path: usize, units: i32, work: usize): i32 {
  const n = dropDotSlash(path, units);
  if (n == 0) return 0;
  slashPath(normStart, n);
  return decide(program, normStart, n, work, 0) ? 1 : 0;
}

// A set's cache region: candidate masks (for each ASCII unit and one slot for the rest, the
// programs whose first/last sets hold it, ceil(count / 32) words each), then an "always" mask
// (programs without suffix keys), SUFFIX_BUCKETS masks of programs by the hash of a key (a
// collision only adds candidates) and SLASH_SLOTS masks of programs by the number of `/` a match
// may have; then each program's literal pairs (a u64, see literalPairs); then a table of count u32
// offsets (from the cache's start) of each program's DFA cache, 0 for a program without one (padded
// to 8 bytes); then the DFA caches. The caches get room in program order while the host's budget
// (`dfaCap`) lasts; a program left without one runs on the Pike VM, which gives the same answers
// more slowly.
const MASK_SLOTS: usize = 129;
const SUFFIX_BUCKETS: usize = 1024;
const SLASH_SLOTS: usize = 33; // 0 … 31 `/`, and 32 or more

// @ts-ignore: decorator
@inline function rowBytesOf(count: i32): usize {
  return <usize>((count + 31) >>> 5) << 2;
}

// @ts-ignore: decorator
@inline function masksBytes(count: i32): usize {
  return (MASK_SLOTS * 2 + 1 + SUFFIX_BUCKETS + SLASH_SLOTS) * rowBytesOf(count);
}

// @ts-ignore: decorator
@inline function maskBytes(count: i32): usize {
  return masksBytes(count) + (<usize>count << 3);
}

// @ts-ignore: decorator
@inline function bucketOf(key: u32): usize {
  return <usize>(((key * 0x9e3779b1) >>> 22) & <u32>(SUFFIX_BUCKETS - 1));
}

/** The pair signature of the `n` units at `p` (read forward, or backward when `reversed`). */
function pairsOf(p: usize, n: i32, reversed: bool): u64 {
  let sig: u64 = 0;
  if (n < 2) return 0;
  let a = unitAt(p, reversed ? n - 1 : 0);
  for (let i = 1; i < n; i++) {
    const b = unitAt(p, reversed ? n - 1 - i : i);
    sig |= pairBit(a, b);
    a = b;
  }
  return sig;
}

/**
 * The pairs every path a program matches holds: those of its literal prefix, suffix and infix.
 * 0 (no filter) for a negated program, and when the pattern text lacks one of them, since a path
 * equal to the text always matches.
 */
function literalPairs(program: usize): u64 {
  if ((load<i32>(program + P_FLAGS) & (PROGRAM_NEGATED | PROGRAM_NEVER)) != 0) return 0;
  let sig = pairsOf(program + <usize>load<i32>(program + P_PREFIX), load<i32>(program + P_PREFIX_LEN), false);
  sig |= pairsOf(program + <usize>load<i32>(program + P_INFIX), load<i32>(program + P_INFIX_LEN), false);
  // The suffix is stored last unit first.
  sig |= pairsOf(program + <usize>load<i32>(program + P_SUFFIX), load<i32>(program + P_SUFFIX_LEN) & ~SUFFIX_OPT_SLASH, true);
  const text = pairsOf(program + <usize>load<i32>(program + P_TEXT), load<i32>(program + P_TEXT_LEN), false);
  return (text & sig) == sig ? sig : 0;
}

/**
 * The rest of normalizing a path of `n` > 0 units (after dropDotSlash): `\` → `/` in place, and its
 * `/` counted into pathSlashes. Eight units at a time, the last ones as one more window of eight
 * ending at the path's end; paths under eight units go unit by unit.
 */
function slashPath(path: usize, n: i32): void {
  let slashes = 0;
  if (n >= 8) {
    const slash = i16x8.splat(<i16>Ch.SLASH), backslash = i16x8.splat(<i16>Ch.BACKSLASH);
    let i = 0;
    for (; i + 8 <= n; i += 8) {
      const at = path + (<usize>i << 1);
      let v = v128.load(at);
      const back = i16x8.eq(v, backslash);
      if (v128.any_true(back)) {
        v = v128.bitselect(slash, v, back);
        v128.store(at, v);
      }
      slashes += <i32>popcnt(i16x8.bitmask(i16x8.eq(v, slash)));
    }
    if (i < n) {
      // Units i .. n - 1 are left (1 to 7): the window n - 8 .. n - 1, lane k holding unit n - 8 + k.
      // (Written out rather than folded into the loop with min(): the loop's code is what V8 charges
      // each iteration, and folded, this function spent V8's budget in the bench's cold start:
      // +0.53 ms [0.09, 0.93], 150 paired rounds.)
      const at = path + (<usize>(n - 8) << 1);
      let v = v128.load(at);
      const back = i16x8.eq(v, backslash);
      if (v128.any_true(back)) {
        v = v128.bitselect(slash, v, back);
        v128.store(at, v);
      }
      slashes += <i32>popcnt(i16x8.bitmask(i16x8.eq(v, slash)) >>> <u32>(i - n + 8));
    }
    pathSlashes = slashes;
    return;
  }
  for (let i = 0; i < n; i++) {
    const c = unitAt(path, i);
    if (c == Ch.BACKSLASH) store<u16>(path + (<usize>i << 1), Ch.SLASH);
    if (c == Ch.BACKSLASH || c == Ch.SLASH) slashes++;
  }
  pathSlashes = slashes;
}

/**
 * pairsOf() of a normalized path of `n` > 0 units: the pairs eight at a time while a ninth unit
 * follows, the last ones as one more window ending at the path's end; paths under nine units go
 * through pairsOf(). (slashPath and signPath are two functions, not one pass: V8 charges a call the code
 * up to its return, and each stays under the budget after which V8 optimizes a function.)
 */
function signPath(path: usize, n: i32): u64 {
  let sig: u64 = 0;
  if (n >= 9) {
    let i = 0;
    for (; i + 9 <= n; i += 8) {
      const at = path + (<usize>i << 1);
      sig |= pairBits8(v128.load(at), v128.load(at, 2));
    }
    if (i < n) {
      const at = path + (<usize>(n - 9) << 1);
      sig |= pairBits8(v128.load(at), v128.load(at, 2));
    }
    return sig;
  }
  return pairsOf(path, n, false);
}

/** The number of `/` in the `n` units at `p`. */
function slashesOf(p: usize, n: i32): i32 {
  let slashes = 0;
  for (let i = 0; i < n; i++) if (unitAt(p, i) == Ch.SLASH) slashes++;
  return slashes;
}

/** Sets `bit` at `word` in the rows of `masks` (`rowBytes` apart; row 128: non-ASCII) of the units in `set`. */
function addToRows(set: usize, masks: usize, rowBytes: usize, word: usize, bit: u32): void {
  for (let k: u32 = 0; k < 4; k++) {
    let units = load<u32>(set + (<usize>k << 2));
    while (units != 0) {
      const row = masks + <usize>((k << 5) + ctz(units)) * rowBytes + word;
      units &= units - 1;
      store<u32>(row, load<u32>(row) | bit);
    }
  }
  if (changetype<UnitSet>(set).nonAscii != 0) {
    const row = masks + 128 * rowBytes + word;
    store<u32>(row, load<u32>(row) | bit);
  }
}

// @ts-ignore: decorator
@inline function programAt(set: usize, i: i32): usize {
  return set + <usize>load<u32>(set + (<usize>i << 2));
}

// @ts-ignore: decorator
@inline function tableBytes(count: i32): usize {
  return (<usize>count * 4 + 7) & ~<usize>7;
}

/**
 * Bytes of cache a set needs: candidate masks, the table of DFA cache offsets, and the DFA caches
 * that fit in `dfaCap` bytes, given in program order.
 */
export function globSetCacheBytes(set: usize, count: i32, dfaCap: usize): usize {
  let dfa: usize = 0;
  for (let i = 0; i < count; i++) {
    const bytes = <usize>load<i32>(programAt(set, i) + F_CACHE_BYTES);
    if (bytes <= dfaCap - dfa) dfa += bytes;
  }
  return maskBytes(count) + tableBytes(count) + dfa;
}

/**
 * Builds a set's candidate masks and its table of DFA caches (those that fit in `dfaCap` bytes, as
 * globSetCacheBytes counted them), and empties the caches; call it whenever the set (re)enters
 * memory at `set` or its cache moves.
 */
export function globSetCacheReset(set: usize, count: i32, cache: usize, dfaCap: usize): void {
  const rowBytes = rowBytesOf(count);
  const firstMasks = cache, lastMasks = cache + MASK_SLOTS * rowBytes;
  memory.fill(cache, 0, maskBytes(count));
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const word = <usize>(i >>> 5) << 2, bit: u32 = 1 << (i & 31);
    addToRows(program + F_FIRST, firstMasks, rowBytes, word, bit);
    addToRows(program + F_LAST, lastMasks, rowBytes, word, bit);
  }
  const always = lastMasks + MASK_SLOTS * rowBytes;
  const buckets = always + rowBytes;
  const slashMasks = buckets + SUFFIX_BUCKETS * rowBytes;
  const pairs = cache + masksBytes(count);
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const word = <usize>(i >>> 5) << 2, bit: u32 = 1 << (i & 31);
    const text = program + <usize>load<i32>(program + P_TEXT);
    const textLen = load<i32>(program + P_TEXT_LEN);
    store<u64>(pairs + (<usize>i << 3), literalPairs(program));
    // A path equal to the pattern text matches whatever its number of `/`.
    const textSlashes = min(slashesOf(text, textLen), <i32>SLASH_SLOTS - 1);
    // The last slot stands for 32 or more: a range that reaches it sets it.
    const lo = min(load<i32>(program + P_SLASH_MIN), <i32>SLASH_SLOTS - 1);
    const hi = min(load<i32>(program + P_SLASH_MAX), <i32>SLASH_SLOTS - 1);
    for (let k = lo; k <= hi; k++) {
      const mask = slashMasks + <usize>k * rowBytes + word;
      store<u32>(mask, load<u32>(mask) | bit);
    }
    const textRow = slashMasks + <usize>textSlashes * rowBytes + word;
    store<u32>(textRow, load<u32>(textRow) | bit);
    const keyCount = load<i32>(program + P_KEY_COUNT);
    if (keyCount < 0 || textLen < 2) { store<u32>(always + word, load<u32>(always + word) | bit); continue; }
    const keys = program + <usize>load<i32>(program + P_KEYS);
    for (let k = 0; k <= keyCount; k++) {
      // The pattern text's own last two units are a key too: a path equal to it always matches.
      const key = k < keyCount ? load<u32>(keys + (<usize>k << 2)) : suffixKey(unitAt(text, textLen - 1), unitAt(text, textLen - 2));
      const mask = buckets + bucketOf(key) * rowBytes + word;
      store<u32>(mask, load<u32>(mask) | bit);
    }
  }
  const table = cache + maskBytes(count);
  let at = table + tableBytes(count);
  let dfa: usize = 0;
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const bytes = <usize>load<i32>(program + F_CACHE_BYTES);
    let offset: u32 = 0;
    if (bytes > 0 && bytes <= dfaCap - dfa) {
      resetCache(program, at);
      offset = <u32>(at - cache);
      at += bytes;
      dfa += bytes;
    }
    store<u32>(table + (<usize>i << 2), offset);
  }
}

/** Scratch bytes globMatchSet needs for this set and paths of at most `maxUnits` units. */
export function globSetWorkspace(set: usize, count: i32, maxUnits: i32): usize {
  let most: usize = 16;
  for (let i = 0; i < count; i++) {
    const instructions = load<i32>(programAt(set, i) + P_COUNT);
    most = max(most, max(vmWorkspaceSize(instructions), dfaScratchBytes(instructions)));
  }
  // Path length does not matter today; `maxUnits` keeps the ABI free to use it.
  return most;
}

/**
 * Matches `pathCount` packed paths (UTF-16 at `paths`, unit offsets at `offsets`, pathCount + 1
 * entries) against the `count` programs of a set (u32 byte offsets from `set` at `set`). For each
 * path, ceil(count / 32) u32 words of bits go to `out`: bit i set when program i matches. Paths are
 * normalized in place. `work` holds globSetWorkspace(set, count, longest path) bytes; `cache` holds
 * globSetCacheBytes(set, count, dfaCap) bytes, reset by globSetCacheReset when the set was placed.
 */
export function globMatchSet(set: usize, count: i32, paths: usize, offsets: usize, pathCount: i32, out: usize, work: usize, cache: usize): void {
  const rowBytes = rowBytesOf(count);
  const words = (count + 31) >>> 5;
  const firstMasks = cache, lastMasks = cache + MASK_SLOTS * rowBytes;
  const always = lastMasks + MASK_SLOTS * rowBytes, buckets = always + rowBytes;
  const slashMasks = buckets + SUFFIX_BUCKETS * rowBytes;
  const pairs = cache + masksBytes(count);
  const table = cache + maskBytes(count); // DFA cache offsets from `cache`, 0: none
  for (let p = 0; p < pathCount; p++) {
    const from = load<u32>(offsets + (<usize>p << 2));
    const to = load<u32>(offsets + (<usize>(p + 1) << 2));
    const bits = out + <usize>p * rowBytes;
    memory.fill(bits, 0, rowBytes);
    const n = dropDotSlash(paths + (<usize>from << 1), <i32>(to - from));
    if (n == 0) continue;
    const path = normStart;
    slashPath(path, n);
    const sig = signPath(path, n);
    const first = <usize>min<u32>(unitAt(path, 0), 128), last = <usize>min<u32>(unitAt(path, n - 1), 128);
    const firstRow = firstMasks + first * rowBytes, lastRow = lastMasks + last * rowBytes;
    const slashRow = slashMasks + <usize>min(pathSlashes, <i32>SLASH_SLOTS - 1) * rowBytes;
    // A path ending in `/` may match a pattern's optional trailing slash: no suffix filter then.
    const keyed = n >= 2 && last != Ch.SLASH;
    const bucketRow = keyed ? buckets + bucketOf(suffixKey(unitAt(path, n - 1), unitAt(path, n - 2))) * rowBytes : 0;
    for (let w = 0; w < words; w++) {
      let candidates = load<u32>(firstRow + (<usize>w << 2)) & load<u32>(lastRow + (<usize>w << 2)) & load<u32>(slashRow + (<usize>w << 2));
      if (keyed) candidates &= load<u32>(always + (<usize>w << 2)) | load<u32>(bucketRow + (<usize>w << 2));
      store<u32>(bits + (<usize>w << 2), candidates != 0 ? hitsOf(set, w, candidates, path, n, sig, pairs, table, cache, work) : 0);
    }
  }
}

/**
 * The bits of word `w`'s `candidates` whose programs match the normalized path (`path`/`n`, pair
 * signature `sig`); `pairs` and `table` are the set cache's literal pairs and DFA cache offsets.
 * Kept out of globMatchSet's loop over paths, so that V8's budget for that loop is not spent here.
 */
function hitsOf(set: usize, w: i32, candidates: u32, path: usize, n: i32, sig: u64, pairs: usize, table: usize, cache: usize, work: usize): u32 {
  let hits: u32 = 0;
  while (candidates != 0) {
    const bit = ctz(candidates);
    candidates &= candidates - 1;
    const i = (w << 5) + <i32>bit;
    const need = load<u64>(pairs + (<usize>i << 3));
    if ((sig & need) != need) continue;
    const offset = <usize>load<u32>(table + (<usize>i << 2));
    if (decide(programAt(set, i), path, n, work, offset != 0 ? cache + offset : 0)) hits |= 1 << bit;
  }
  return hits;
}
