// The glob ABI: compile a pattern into a self-contained program (translate.ts → regex.ts), match
// programs against paths one at a time or as a whole set in one call (vm.ts), with prefilters that
// reject most (path, pattern) pairs without running a program. Layouts are in assembly/README.md.

import { Ch, unitAt, isLineTerminator } from "./glob/text";
import {
  translate, translateWorkspaceSize, translateSourceCapacity, lastErrorIndex, FLAG_NEGATED, FLAG_INVALID,
  GLOB_UNSUPPORTED, GLOB_NO_SPACE,
} from "./glob/translate";
import { compileRegex, classBytesUsed, REGEX_INVALID, I_CLASS, INSTR_SIZE } from "./glob/regex";
import {
  literalPrefix, literalSuffix, literalInfix, slashMin, slashMax, unitsAfterPrefix, suffixKeys, suffixKey,
  SLASHES_UNBOUNDED,
} from "./glob/facts";
import { runProgram, vmWorkspaceSize } from "./glob/vm";
import { run as runDfa, resetCache, dfaScratchBytes, F_CACHE_BYTES, F_FIRST, F_LAST, FACTS_END } from "./glob/dfa";
import { analyze, addUnitTo, fillSet, inSet } from "./glob/analyze";
import { utf8LengthUtf16 } from "./utf8";

/** Longest pattern, in UTF-8 bytes (picomatch's limit is the same number, in UTF-16 units). */
export const GLOB_MAX_PATTERN_BYTES: i32 = 65536;

export const GLOB_TOO_LONG: i32 = -2;
export const GLOB_INTERNAL: i32 = -5;

// Program header (i32 words at byte offsets).
const P_SIZE = 0, P_FLAGS = 4, P_COUNT = 8, P_CODE = 12, P_TEXT = 16, P_TEXT_LEN = 20, P_PREFIX = 24,
  P_PREFIX_LEN = 28, P_SUFFIX = 32, P_SUFFIX_LEN = 36, P_SOURCE_LEN = 40, P_INFIX = 44, P_INFIX_LEN = 48,
  P_SLASH_MIN = 52, P_SLASH_MAX = 56, P_KEYS = 60;
const P_KEY_COUNT: usize = 120; // (in the facts area's reserved words) -1: no key list
const MAX_KEYS: i32 = 16;
// After the facts of glob/dfa.ts: the units that may follow the literal prefix (24 bytes).
const P_AFTER: usize = FACTS_END;
export const PROGRAM_HEADER: usize = FACTS_END + 32; // fields above, the facts of glob/dfa.ts, P_AFTER
export const PROGRAM_NEGATED: i32 = 2;
export const PROGRAM_NEVER: i32 = 4;
const SUFFIX_OPT_SLASH: i32 = 1 << 30;
const FACT_CAP: i32 = 64;

let detail: i32 = 0;

/** The number that goes with the last error: bytes for TOO_LONG/NO_SPACE, index for UNSUPPORTED. */
export function globDetail(): i32 {
  return detail;
}

@inline function align8(v: usize): usize {
  return (v + 7) & ~<usize>7;
}

function stageOneBytes(units: i32): usize {
  return align8(<usize>translateSourceCapacity(units) << 1) + translateWorkspaceSize(units);
}

/** A first guess at the workspace globCompile needs; it reports the exact need if more. */
export function globCompileWorkspace(units: i32): usize {
  return stageOneBytes(units) + 4096;
}

/**
 * Translates a pattern into picomatch's regex source at `out` (capacity `outCap` units) — the
 * diagnostic view of what a program does. Returns the length, or a negative status; globDetail()
 * holds FLAG_NEGATED on success.
 */
export function globTranslate(pattern: usize, units: i32, flags: i32, work: usize, workBytes: usize, out: usize, outCap: i32): i32 {
  detail = 0;
  const need = translateWorkspaceSize(units) + 8;
  if (workBytes < need) { detail = <i32>need; return GLOB_NO_SPACE; }
  if (outCap < translateSourceCapacity(units)) { detail = translateSourceCapacity(units); return GLOB_NO_SPACE; }
  const r = translate(pattern, units, flags, work + 8, out, outCap, work);
  if (r == GLOB_UNSUPPORTED) detail = lastErrorIndex();
  else if (r >= 0) detail = load<i32>(work);
  return r;
}

/**
 * Compiles the glob at `pattern` (`units` UTF-16 units; flags: 1 = dot) into a program at `out`
 * (capacity `outCap` bytes), using `work` (`workBytes`) as scratch. Returns the program size in
 * bytes, or a negative status with globDetail() saying more.
 */
export function globCompile(pattern: usize, units: i32, flags: i32, work: usize, workBytes: usize, out: usize, outCap: usize): i32 {
  detail = 0;
  if (units == 0) return -1;
  const bytes = <i32>utf8LengthUtf16(pattern, units);
  if (bytes > GLOB_MAX_PATTERN_BYTES) { detail = bytes; return GLOB_TOO_LONG; }
  const one = stageOneBytes(units);
  if (workBytes < one + 8) { detail = <i32>(one + 8); needWork = detail; return GLOB_NO_SPACE; }
  const src = work + 8;
  const r = translate(pattern, units, flags, src + align8(<usize>translateSourceCapacity(units) << 1), src, translateSourceCapacity(units), work);
  if (r < 0) {
    if (r == GLOB_UNSUPPORTED) detail = lastErrorIndex();
    else if (r == GLOB_NO_SPACE) return GLOB_INTERNAL; // the translator's own bounds were wrong
    return r;
  }
  const negated = (load<i32>(work) & FLAG_NEGATED) != 0;
  const srcLen = r;
  // Stage two reuses the translator's scratch: AST, instructions, class records, literal facts.
  let brackets = 0;
  for (let i = 0; i < srcLen; i++) if (unitAt(src, i) == Ch.LBRACKET) brackets++;
  const ast = align8(src + (<usize>srcLen << 1));
  const codeCap = 4 * srcLen + 16;
  // The AST's space doubles as analyze()'s scratch (marks, a stack, its partition's masks).
  const code = ast + <usize>max((2 * srcLen + 8) * 16, 512 + 16 * codeCap);
  const classes = code + <usize>codeCap * INSTR_SIZE;
  const facts = align8(classes + <usize>(4 * srcLen + 24 * brackets + 64));
  const end = facts + <usize>(FACT_CAP * 6 + 32 + MAX_KEYS * 4);
  if (end - work > workBytes) { detail = <i32>(end - work); needWork = detail; return GLOB_NO_SPACE; }
  let count = (load<i32>(work) & FLAG_INVALID) != 0 ? REGEX_INVALID : compileRegex(src, srcLen, ast, code, codeCap, classes, classes);
  let progFlags = negated ? PROGRAM_NEGATED : 0;
  let prefixLen = 0, suffixWord = 0, infixLen = 0;
  if (count == REGEX_INVALID) { progFlags |= PROGRAM_NEVER; count = 0; }
  else if (count < 0) return GLOB_INTERNAL;
  else if (!negated) {
    prefixLen = literalPrefix(facts, FACT_CAP);
    suffixWord = literalSuffix(facts + <usize>(FACT_CAP * 2), FACT_CAP);
    infixLen = literalInfix(facts + <usize>(FACT_CAP * 4), FACT_CAP);
  }
  const after = facts + <usize>(FACT_CAP * 6);
  const keys = after + 32;
  let keyCount = -1;
  let minSlashes = 0, maxSlashes = SLASHES_UNBOUNDED;
  if (count > 0 && !negated) {
    minSlashes = slashMin();
    maxSlashes = slashMax();
    unitsAfterPrefix(prefixLen, after);
    keyCount = suffixKeys(keys, MAX_KEYS);
  } else {
    memory.fill(after, 0xff, 16);
    store<i32>(after + 16, 1);
    store<i32>(after + 20, 1);
  }
  const suffixLen = suffixWord & ~SUFFIX_OPT_SLASH;
  const classBytes = count > 0 ? classBytesUsed(classes) : 0;
  // Assemble: header | pattern text | prefix | suffix (reversed) | code | class records.
  const textOff = PROGRAM_HEADER;
  const prefixOff = align8(textOff + (<usize>units << 1));
  const suffixOff = align8(prefixOff + (<usize>prefixLen << 1));
  const infixOff = align8(suffixOff + (<usize>suffixLen << 1));
  const keysOff = align8(infixOff + (<usize>infixLen << 1));
  const codeOff = align8(keysOff + <usize>(max(keyCount, 0) * 4));
  const classOff = codeOff + <usize>count * INSTR_SIZE;
  const size = align8(classOff + classBytes);
  if (size > outCap) { detail = <i32>size; needOut = detail; return GLOB_NO_SPACE; }
  memory.fill(out, 0, PROGRAM_HEADER);
  store<i32>(out + P_SIZE, <i32>size);
  store<i32>(out + P_FLAGS, progFlags);
  store<i32>(out + P_COUNT, count);
  store<i32>(out + P_CODE, <i32>codeOff);
  store<i32>(out + P_TEXT, <i32>textOff);
  store<i32>(out + P_TEXT_LEN, units);
  store<i32>(out + P_PREFIX, <i32>prefixOff);
  store<i32>(out + P_PREFIX_LEN, prefixLen);
  store<i32>(out + P_SUFFIX, <i32>suffixOff);
  store<i32>(out + P_SUFFIX_LEN, suffixWord);
  store<i32>(out + P_SOURCE_LEN, srcLen);
  store<i32>(out + P_INFIX, <i32>infixOff);
  store<i32>(out + P_INFIX_LEN, infixLen);
  store<i32>(out + P_SLASH_MIN, minSlashes);
  store<i32>(out + P_SLASH_MAX, maxSlashes);
  memory.copy(out + P_AFTER, after, 24);
  store<i32>(out + P_KEYS, <i32>keysOff);
  memory.copy(out + keysOff, keys, <usize>(max(keyCount, 0) * 4));
  memory.copy(out + infixOff, facts + <usize>(FACT_CAP * 4), <usize>infixLen << 1);
  memory.copy(out + textOff, pattern, <usize>units << 1);
  memory.copy(out + prefixOff, facts, <usize>prefixLen << 1);
  memory.copy(out + suffixOff, facts + <usize>(FACT_CAP * 2), <usize>suffixLen << 1);
  memory.copy(out + codeOff, code, <usize>count * INSTR_SIZE);
  memory.copy(out + classOff, classes, classBytes);
  // Class operands become offsets from the program start.
  for (let i = 0; i < count; i++) {
    const ins = out + codeOff + <usize>i * INSTR_SIZE;
    if (load<i32>(ins) == I_CLASS) store<i32>(ins, load<i32>(ins, 4) + <i32>classOff, 4);
  }
  analyze(out, out + codeOff, count, ast); // the AST is no longer needed: its space is the scratch
  // A path equal to the pattern text matches whatever the regex says: its ends join the sets. A
  // negated program matches what its regex does not: no prefilter applies.
  addUnitTo(out + F_FIRST, unitAt(pattern, 0));
  addUnitTo(out + F_LAST, unitAt(pattern, units - 1));
  if (negated) { fillSet(out + F_FIRST); fillSet(out + F_LAST); }
  store<i32>(out + P_KEY_COUNT, keyCount); // after analyze(), which clears the facts area
  return <i32>size;
}

let failedIndex: i32 = -1;
let needWork: i32 = 0; // after GLOB_NO_SPACE: workspace bytes that would do (0: enough)
let needOut: i32 = 0; // after GLOB_NO_SPACE: output bytes that would do (0: enough)

/** After GLOB_NO_SPACE from globCompileSet: workspace bytes to retry with (0: the workspace was enough). */
export function globNeedWork(): i32 {
  return needWork;
}

/** After GLOB_NO_SPACE from globCompileSet: output bytes to retry with (0: the output was enough). */
export function globNeedOut(): i32 {
  return needOut;
}

/** Which pattern of the last globCompileSet call failed (-1 if none). */
export function globFailedIndex(): i32 {
  return failedIndex;
}

/**
 * Compiles `count` patterns (UTF-16 at `patterns`, unit offsets at `offsets`, count + 1 entries)
 * into a set at `out` (capacity `outCap` bytes): a table of `count` u32 program offsets (from
 * `out`), padded to 8 bytes, then the programs. Returns the set's size, or a negative status with
 * globDetail() and globFailedIndex() saying more (on GLOB_NO_SPACE, retry with more room).
 */
export function globCompileSet(patterns: usize, offsets: usize, count: i32, flags: i32, work: usize, workBytes: usize, out: usize, outCap: usize): i32 {
  failedIndex = -1;
  needWork = 0;
  needOut = 0;
  let at = align8(<usize>count << 2);
  if (at > outCap) { detail = <i32>at; needOut = detail; return GLOB_NO_SPACE; }
  for (let i = 0; i < count; i++) {
    const from = load<u32>(offsets + (<usize>i << 2));
    const to = load<u32>(offsets + (<usize>(i + 1) << 2));
    const size = globCompile(patterns + (<usize>from << 1), <i32>(to - from), flags, work, workBytes, out + at, outCap - at);
    if (size < 0) {
      failedIndex = i;
      if (needOut > 0) needOut = <i32>(at + <usize>needOut); // this program needs that much after the others
      return size;
    }
    store<u32>(out + (<usize>i << 2), <u32>at);
    at += <usize>size;
  }
  return <i32>at;
}

/** Scratch bytes globMatch / globMatchSet need for this program. */
export function globMatchWorkspace(program: usize): usize {
  return vmWorkspaceSize(load<i32>(program + P_COUNT));
}

let normStart: usize = 0;

/** `\` → `/` in place, then leading `./` removed; returns the remaining length (start in normStart). */
let pathSlashes: i32 = 0;

/**
 * `\` → `/` in place, then leading `./` removed; returns the remaining length (start in normStart,
 * its number of `/` in pathSlashes).
 */
function normalize(path: usize, units: i32): i32 {
  let slashes = 0;
  const slash = i16x8.splat(<i16>Ch.SLASH), backslash = i16x8.splat(<i16>Ch.BACKSLASH);
  let i = 0;
  for (; i + 8 <= units; i += 8) {
    const at = path + (<usize>i << 1);
    const v = v128.load(at);
    const back = i16x8.eq(v, backslash);
    if (v128.any_true(back)) v128.store(at, v128.bitselect(slash, v, back));
    slashes += <i32>popcnt(i16x8.bitmask(i16x8.eq(v128.load(at), slash)));
  }
  for (; i < units; i++) {
    const c = unitAt(path, i);
    if (c == Ch.BACKSLASH) { store<u16>(path + (<usize>i << 1), Ch.SLASH); slashes++; }
    else if (c == Ch.SLASH) slashes++;
  }
  let p = path, n = units;
  while (n >= 2 && unitAt(p, 0) == Ch.DOT && unitAt(p, 1) == Ch.SLASH) { p += 4; n -= 2; slashes--; }
  normStart = p;
  pathSlashes = slashes;
  return n;
}

function noLineTerminator(path: usize, n: i32): bool {
  for (let i = 0; i < n; i++) if (isLineTerminator(unitAt(path, i))) return false;
  return true;
}

/**
 * The decision for one normalized, non-empty path. `cache` is the program's DFA cache (0: run the
 * Pike VM), `avs` the path's assertion vectors.
 */
function decide(program: usize, path: usize, n: i32, work: usize, cache: usize, avs: usize): bool {
  const textLen = load<i32>(program + P_TEXT_LEN);
  if (textLen == n && memory.compare(program + <usize>load<i32>(program + P_TEXT), path, <usize>n << 1) == 0) return true;
  const flags = load<i32>(program + P_FLAGS);
  if ((flags & PROGRAM_NEVER) != 0) return false;
  if ((flags & PROGRAM_NEGATED) != 0) return !execute(program, path, n, work, cache, avs) && noLineTerminator(path, n);
  if (pathSlashes < load<i32>(program + P_SLASH_MIN) || pathSlashes > load<i32>(program + P_SLASH_MAX)) return false;
  const prefixLen = load<i32>(program + P_PREFIX_LEN);
  if (prefixLen > 0) {
    if (n < prefixLen || !unitsEqual(program + <usize>load<i32>(program + P_PREFIX), path, prefixLen)) return false;
  }
  if (n > prefixLen ? !inSet(program + P_AFTER, unitAt(path, prefixLen)) : load<i32>(program + P_AFTER + 20) == 0) return false;
  const suffixWord = load<i32>(program + P_SUFFIX_LEN);
  if (suffixWord != 0 && !suffixHolds(program + <usize>load<i32>(program + P_SUFFIX), suffixWord, path, n)) return false;
  const infixLen = load<i32>(program + P_INFIX_LEN);
  if (infixLen > 0 && !contains(path, n, program + <usize>load<i32>(program + P_INFIX), infixLen)) return false;
  return execute(program, path, n, work, cache, avs);
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

function execute(program: usize, path: usize, n: i32, work: usize, cache: usize, avs: usize): bool {
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
  const n = normalize(path, units);
  if (n == 0) return 0;
  return decide(program, normStart, n, work, 0, 0) ? 1 : 0;
}

// A set's cache region: candidate masks (for each ASCII unit and one slot for the rest, the
// programs whose first/last sets hold it, ceil(count / 32) words each), then each program's DFA cache.
// Then an "always" mask (programs without suffix keys) and SUFFIX_BUCKETS masks of programs by the
// hash of a key (a collision only adds candidates).
const MASK_SLOTS: usize = 129;
const SUFFIX_BUCKETS: usize = 1024;

@inline function maskBytes(count: i32): usize {
  return (MASK_SLOTS * 2 + 1 + SUFFIX_BUCKETS) * (<usize>((count + 31) >>> 5) << 2);
}

@inline function bucketOf(key: u32): usize {
  return <usize>(((key * 0x9e3779b1) >>> 22) & <u32>(SUFFIX_BUCKETS - 1));
}

@inline function programAt(set: usize, i: i32): usize {
  return set + <usize>load<u32>(set + (<usize>i << 2));
}

/** Bytes of cache a set needs: candidate masks plus every program's DFA cache. */
export function globSetCacheBytes(set: usize, count: i32): usize {
  let total = maskBytes(count);
  for (let i = 0; i < count; i++) total += <usize>load<i32>(programAt(set, i) + F_CACHE_BYTES);
  return total;
}

/** Builds a set's candidate masks and empties its DFA caches; call it whenever the set (re)enters memory at `set`. */
export function globSetCacheReset(set: usize, count: i32, cache: usize): void {
  const words = <usize>((count + 31) >>> 5);
  const firstMasks = cache, lastMasks = cache + MASK_SLOTS * (words << 2);
  memory.fill(cache, 0, maskBytes(count));
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const word = <usize>(i >>> 5) << 2, bit: u32 = 1 << (i & 31);
    for (let c: u32 = 0; c <= 128; c++) {
      const row = <usize>c * (words << 2) + word;
      if (inSet(program + F_FIRST, c)) store<u32>(firstMasks + row, load<u32>(firstMasks + row) | bit);
      if (inSet(program + F_LAST, c)) store<u32>(lastMasks + row, load<u32>(lastMasks + row) | bit);
    }
  }
  const always = lastMasks + MASK_SLOTS * (words << 2);
  const buckets = always + (words << 2);
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const word = <usize>(i >>> 5) << 2, bit: u32 = 1 << (i & 31);
    const keyCount = load<i32>(program + P_KEY_COUNT);
    const textLen = load<i32>(program + P_TEXT_LEN);
    if (keyCount < 0 || textLen < 2) { store<u32>(always + word, load<u32>(always + word) | bit); continue; }
    const keys = program + <usize>load<i32>(program + P_KEYS);
    for (let k = 0; k <= keyCount; k++) {
      // The pattern text's own last two units are a key too: a path equal to it always matches.
      const text = program + <usize>load<i32>(program + P_TEXT);
      const key = k < keyCount ? load<u32>(keys + (<usize>k << 2)) : suffixKey(unitAt(text, textLen - 1), unitAt(text, textLen - 2));
      const mask = buckets + bucketOf(key) * (words << 2) + word;
      store<u32>(mask, load<u32>(mask) | bit);
    }
  }
  let at = cache + maskBytes(count);
  for (let i = 0; i < count; i++) {
    const program = programAt(set, i);
    const bytes = <usize>load<i32>(program + F_CACHE_BYTES);
    if (bytes > 0) resetCache(program, at);
    at += bytes;
  }
}

/** Scratch bytes globMatchSet needs for this set and paths of at most `maxUnits` units. */
export function globSetWorkspace(set: usize, count: i32, maxUnits: i32): usize {
  let most: usize = 16;
  for (let i = 0; i < count; i++) {
    const instructions = load<i32>(programAt(set, i) + P_COUNT);
    most = max(most, max(vmWorkspaceSize(instructions), dfaScratchBytes(instructions)));
  }
  return ((most + 7) & ~<usize>7) + <usize>count * 4 + <usize>maxUnits + 16;
}

/**
 * Matches `pathCount` packed paths (UTF-16 at `paths`, unit offsets at `offsets`, pathCount + 1
 * entries) against the `count` programs of a set (u32 byte offsets from `set` at `set`). For each
 * path, ceil(count / 32) u32 words of bits go to `out`: bit i set when program i matches. Paths are
 * normalized in place. `work` holds globSetWorkspace(set, count, longest path) bytes; `cache` holds
 * globSetCacheBytes(set, count) bytes, reset by globSetCacheReset when the set was placed.
 */
export function globMatchSet(set: usize, count: i32, paths: usize, offsets: usize, pathCount: i32, out: usize, work: usize, cache: usize): void {
  const words = (count + 31) >>> 5;
  const rowBytes = <usize>words << 2;
  const firstMasks = cache, lastMasks = cache + MASK_SLOTS * rowBytes;
  const always = lastMasks + MASK_SLOTS * rowBytes, buckets = always + rowBytes;
  // Per-program cache addresses, then the path's assertion vectors, then the matchers' scratch.
  const caches = work;
  let at = cache + maskBytes(count);
  for (let i = 0; i < count; i++) {
    const bytes = <usize>load<i32>(programAt(set, i) + F_CACHE_BYTES);
    store<u32>(caches + (<usize>i << 2), bytes > 0 ? <u32>at : 0);
    at += bytes;
  }
  const avs = caches + <usize>count * 4;
  for (let p = 0; p < pathCount; p++) {
    const from = load<u32>(offsets + (<usize>p << 2));
    const to = load<u32>(offsets + (<usize>(p + 1) << 2));
    const bits = out + <usize>p * rowBytes;
    memory.fill(bits, 0, rowBytes);
    const n = normalize(paths + (<usize>from << 1), <i32>(to - from));
    if (n == 0) continue;
    const path = normStart;
    const scratch = (avs + <usize>n + 16) & ~<usize>7;
    const first = <usize>min<u32>(unitAt(path, 0), 128), last = <usize>min<u32>(unitAt(path, n - 1), 128);
    const firstRow = firstMasks + first * rowBytes, lastRow = lastMasks + last * rowBytes;
    // A path ending in `/` may match a pattern's optional trailing slash: no suffix filter then.
    const keyed = n >= 2 && last != Ch.SLASH;
    const bucketRow = keyed ? buckets + bucketOf(suffixKey(unitAt(path, n - 1), unitAt(path, n - 2))) * rowBytes : 0;
    for (let w = 0; w < words; w++) {
      let candidates = load<u32>(firstRow + (<usize>w << 2)) & load<u32>(lastRow + (<usize>w << 2));
      if (keyed) candidates &= load<u32>(always + (<usize>w << 2)) | load<u32>(bucketRow + (<usize>w << 2));
      let hits: u32 = 0;
      while (candidates != 0) {
        const bit = ctz(candidates);
        candidates &= candidates - 1;
        const i = (w << 5) + <i32>bit;
        if (decide(programAt(set, i), path, n, scratch, <usize>load<u32>(caches + (<usize>i << 2)), avs)) hits |= 1 << bit;
      }
      store<u32>(bits + (<usize>w << 2), hits);
    }
  }
}
