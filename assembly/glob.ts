// The glob ABI: compile a pattern into a self-contained program (translate.ts → regex.ts), match
// programs against paths one at a time or as a whole set in one call (vm.ts), with prefilters that
// reject most (path, pattern) pairs without running a program. Layouts are in assembly/README.md.

import { Ch, unitAt, isLineTerminator } from "./glob/text";
import {
  translate, translateWorkspaceSize, translateSourceCapacity, lastErrorIndex, FLAG_NEGATED, FLAG_INVALID,
  GLOB_UNSUPPORTED, GLOB_NO_SPACE,
} from "./glob/translate";
import { compileRegex, literalPrefix, literalSuffix, classBytesUsed, REGEX_INVALID, I_CLASS, INSTR_SIZE } from "./glob/regex";
import { runProgram, vmWorkspaceSize } from "./glob/vm";
import { utf8LengthUtf16 } from "./utf8";

/** Longest pattern, in UTF-8 bytes (picomatch's limit is the same number, in UTF-16 units). */
export const GLOB_MAX_PATTERN_BYTES: i32 = 65536;

export const GLOB_TOO_LONG: i32 = -2;
export const GLOB_INTERNAL: i32 = -5;

// Program header (i32 words at byte offsets).
const P_SIZE = 0, P_FLAGS = 4, P_COUNT = 8, P_CODE = 12, P_TEXT = 16, P_TEXT_LEN = 20, P_PREFIX = 24,
  P_PREFIX_LEN = 28, P_SUFFIX = 32, P_SUFFIX_LEN = 36, P_SOURCE_LEN = 40;
export const PROGRAM_HEADER: usize = 64;
export const PROGRAM_NEGATED: i32 = 2;
export const PROGRAM_NEVER: i32 = 4;
const SUFFIX_OPT_SLASH: i32 = 1 << 30;
const FACT_CAP: i32 = 256;

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
  if (workBytes < one + 8) { detail = <i32>(one + 8); return GLOB_NO_SPACE; }
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
  const code = ast + <usize>(2 * srcLen + 8) * 16;
  const classes = code + <usize>codeCap * INSTR_SIZE;
  const facts = align8(classes + <usize>(4 * srcLen + 24 * brackets + 64));
  const end = facts + <usize>(FACT_CAP * 4);
  if (end - work > workBytes) { detail = <i32>(end - work); return GLOB_NO_SPACE; }
  let count = (load<i32>(work) & FLAG_INVALID) != 0 ? REGEX_INVALID : compileRegex(src, srcLen, ast, code, codeCap, classes, classes);
  let progFlags = negated ? PROGRAM_NEGATED : 0;
  let prefixLen = 0, suffixWord = 0;
  if (count == REGEX_INVALID) { progFlags |= PROGRAM_NEVER; count = 0; }
  else if (count < 0) return GLOB_INTERNAL;
  else if (!negated) {
    prefixLen = literalPrefix(facts, FACT_CAP);
    suffixWord = literalSuffix(facts + <usize>(FACT_CAP * 2), FACT_CAP);
  }
  const suffixLen = suffixWord & ~SUFFIX_OPT_SLASH;
  const classBytes = count > 0 ? classBytesUsed(classes) : 0;
  // Assemble: header | pattern text | prefix | suffix (reversed) | code | class records.
  const textOff = PROGRAM_HEADER;
  const prefixOff = align8(textOff + (<usize>units << 1));
  const suffixOff = align8(prefixOff + (<usize>prefixLen << 1));
  const codeOff = align8(suffixOff + (<usize>suffixLen << 1));
  const classOff = codeOff + <usize>count * INSTR_SIZE;
  const size = align8(classOff + classBytes);
  if (size > outCap) { detail = <i32>size; return GLOB_NO_SPACE; }
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
  return <i32>size;
}

/** Scratch bytes globMatch / globMatchSet need for this program. */
export function globMatchWorkspace(program: usize): usize {
  return vmWorkspaceSize(load<i32>(program + P_COUNT));
}

let normStart: usize = 0;

/** `\` → `/` in place, then leading `./` removed; returns the remaining length (start in normStart). */
function normalize(path: usize, units: i32): i32 {
  for (let i = 0; i < units; i++) if (unitAt(path, i) == Ch.BACKSLASH) store<u16>(path + (<usize>i << 1), Ch.SLASH);
  let p = path, n = units;
  while (n >= 2 && unitAt(p, 0) == Ch.DOT && unitAt(p, 1) == Ch.SLASH) { p += 4; n -= 2; }
  normStart = p;
  return n;
}

function noLineTerminator(path: usize, n: i32): bool {
  for (let i = 0; i < n; i++) if (isLineTerminator(unitAt(path, i))) return false;
  return true;
}

/** The decision for one normalized, non-empty path. */
function decide(program: usize, path: usize, n: i32, work: usize): bool {
  const textLen = load<i32>(program + P_TEXT_LEN);
  if (textLen == n && memory.compare(program + <usize>load<i32>(program + P_TEXT), path, <usize>n << 1) == 0) return true;
  const flags = load<i32>(program + P_FLAGS);
  if ((flags & PROGRAM_NEVER) != 0) return false;
  const count = load<i32>(program + P_COUNT);
  const code = program + <usize>load<i32>(program + P_CODE);
  if ((flags & PROGRAM_NEGATED) != 0) {
    return !runProgram(program, code, count, path, n, work) && noLineTerminator(path, n);
  }
  const prefixLen = load<i32>(program + P_PREFIX_LEN);
  if (prefixLen > 0) {
    if (n < prefixLen || memory.compare(program + <usize>load<i32>(program + P_PREFIX), path, <usize>prefixLen << 1) != 0) return false;
  }
  const suffixWord = load<i32>(program + P_SUFFIX_LEN);
  if (suffixWord != 0 && !suffixHolds(program + <usize>load<i32>(program + P_SUFFIX), suffixWord, path, n)) return false;
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
  return decide(program, normStart, n, work) ? 1 : 0;
}

/**
 * Matches `pathCount` packed paths (UTF-16 at `paths`, unit offsets at `offsets`, pathCount + 1
 * entries) against the `count` programs of a set (u32 byte offsets from `set` at `set`). For each
 * path, ceil(count / 32) u32 words of bits go to `out`: bit i set when program i matches. Paths are
 * normalized in place. `work` holds the largest globMatchWorkspace of the set.
 */
export function globMatchSet(set: usize, count: i32, paths: usize, offsets: usize, pathCount: i32, out: usize, work: usize): void {
  const words = (count + 31) >>> 5;
  for (let p = 0; p < pathCount; p++) {
    const from = load<u32>(offsets + (<usize>p << 2));
    const to = load<u32>(offsets + (<usize>(p + 1) << 2));
    const bits = out + <usize>p * (<usize>words << 2);
    memory.fill(bits, 0, <usize>words << 2);
    const n = normalize(paths + (<usize>from << 1), <i32>(to - from));
    if (n == 0) continue;
    const path = normStart;
    for (let i = 0; i < count; i++) {
      const program = set + <usize>load<u32>(set + (<usize>i << 2));
      if (decide(program, path, n, work)) {
        const w = bits + (<usize>(i >>> 5) << 2);
        store<u32>(w, load<u32>(w) | (1 << (i & 31)));
      }
    }
  }
}
