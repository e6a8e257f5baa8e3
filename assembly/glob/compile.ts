// Compiling globs: pattern → picomatch's regex text (translate.ts) → automaton (regex.ts) → facts
// for the prefilters (facts.ts, analyze.ts), assembled into one self-contained program per pattern,
// or a set of them in one call.

import { Ch, unitAt } from "./text";
import { translate, translateWorkspaceSize, translateSourceCapacity, lastErrorIndex } from "./translate";
import { compileRegex, classBytesUsed, I_CLASS } from "./regex";
import { INSTR_SIZE, UnitSet, UNIT_SET_SIZE, instrAt } from "./layout";
import {
  literalPrefix, literalSuffix, literalInfix, slashMin, slashMax, unitsAfterPrefix, suffixKeys, SLASHES_UNBOUNDED,
} from "./facts";
import { analyze, addUnitTo, fillSet } from "./analyze";
import {
  P_SIZE, P_FLAGS, P_COUNT, P_CODE, P_TEXT, P_TEXT_LEN, P_PREFIX, P_PREFIX_LEN, P_SUFFIX, P_SUFFIX_LEN,
  P_SOURCE_LEN, P_INFIX, P_INFIX_LEN, P_SLASH_MIN, P_SLASH_MAX, P_KEYS, P_KEY_COUNT, MAX_KEYS, P_AFTER,
  PROGRAM_HEADER, FACT_CAP, F_FIRST, F_LAST, P_PLAN, P_PLAN_LEN,
} from "./program";
import { compilePlan } from "./plan";
import { utf8LengthUtf16 } from "../utf8";
import {
  GLOB_EMPTY, GLOB_TOO_LONG, GLOB_UNSUPPORTED, GLOB_NO_SPACE, GLOB_INTERNAL, GLOB_MAX_PATTERN_BYTES,
  GLOB_RESULT_NEGATED, GLOB_RESULT_INVALID, REGEX_INVALID, PROGRAM_NEGATED, PROGRAM_NEVER, GLOB_FLAG_DOT,
  PROGRAM_SUFFIX_OPT_SLASH as SUFFIX_OPT_SLASH,
} from "../abi";

let detail: i32 = 0;

/** The number that goes with the last error: bytes for TOO_LONG/NO_SPACE, index for UNSUPPORTED. */
export function globDetail(): i32 {
  return detail;
}

// @ts-ignore: decorator
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
 * holds GLOB_RESULT_NEGATED (and GLOB_RESULT_INVALID) on success.
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
  if (units == 0) return GLOB_EMPTY;
  // A UTF-16 unit is at most 3 UTF-8 bytes: only a long pattern needs counting.
  if (<i64>units * 3 > <i64>GLOB_MAX_PATTERN_BYTES) {
    const bytes = <i32>utf8LengthUtf16(pattern, units);
    if (bytes > GLOB_MAX_PATTERN_BYTES) { detail = bytes; return GLOB_TOO_LONG; }
  }
  const one = stageOneBytes(units);
  if (workBytes < one + 8) { detail = <i32>(one + 8); needWork = detail; return GLOB_NO_SPACE; }
  const src = work + 8;
  const r = translate(pattern, units, flags, src + align8(<usize>translateSourceCapacity(units) << 1), src, translateSourceCapacity(units), work);
  if (r < 0) {
    if (r == GLOB_UNSUPPORTED) detail = lastErrorIndex();
    else if (r == GLOB_NO_SPACE) return GLOB_INTERNAL; // the translator's own bounds were wrong
    return r;
  }
  const negated = (load<i32>(work) & GLOB_RESULT_NEGATED) != 0;
  const srcLen = r;
  // Stage two reuses the translator's scratch: AST, instructions, class records, literal facts.
  let brackets = 0;
  for (let i = 0; i < srcLen; i++) if (unitAt(src, i) == Ch.LBRACKET) brackets++;
  const ast = align8(src + (<usize>srcLen << 1));
  const codeCap = 4 * srcLen + 16;
  // analyze() runs once the program is assembled at `out`, with everything from the AST on as its
  // scratch (marks, a stack, its partition's masks: 512 + 16 × count bytes, count <= codeCap); the
  // AST and instruction regions together always hold that much.
  const code = ast + <usize>max((2 * srcLen + 8) * 16, 512 + 4 * codeCap);
  const classes = code + <usize>codeCap * INSTR_SIZE;
  const facts = align8(classes + <usize>(4 * srcLen + 24 * brackets + 64));
  const planAt = facts + <usize>(FACT_CAP * 6 + 32 + MAX_KEYS * 4);
  const planCap = srcLen + 8; // a plan takes fewer words than the source has units
  const end = planAt + (<usize>planCap << 1);
  if (end - work > workBytes) { detail = <i32>(end - work); needWork = detail; return GLOB_NO_SPACE; }
  let count = (load<i32>(work) & GLOB_RESULT_INVALID) != 0 ? REGEX_INVALID : compileRegex(src, srcLen, ast, code, codeCap, classes, classes);
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
    changetype<UnitSet>(after).nonAscii = 1;
    changetype<UnitSet>(after).mayEnd = 1;
  }
  const planLen = count > 0 && !negated ? compilePlan(src, srcLen, (flags & GLOB_FLAG_DOT) != 0, planAt, planCap) : 0;
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
  const planOff = align8(classOff + classBytes);
  const size = align8(planOff + (<usize>planLen << 1));
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
  memory.copy(out + P_AFTER, after, UNIT_SET_SIZE);
  store<i32>(out + P_KEYS, <i32>keysOff);
  memory.copy(out + keysOff, keys, <usize>(max(keyCount, 0) * 4));
  memory.copy(out + infixOff, facts + <usize>(FACT_CAP * 4), <usize>infixLen << 1);
  memory.copy(out + textOff, pattern, <usize>units << 1);
  memory.copy(out + prefixOff, facts, <usize>prefixLen << 1);
  memory.copy(out + suffixOff, facts + <usize>(FACT_CAP * 2), <usize>suffixLen << 1);
  memory.copy(out + codeOff, code, <usize>count * INSTR_SIZE);
  memory.copy(out + classOff, classes, classBytes);
  memory.copy(out + planOff, planAt, <usize>planLen << 1);
  // Class operands become offsets from the program start.
  for (let i = 0; i < count; i++) {
    const ins = instrAt(out + codeOff, i);
    if (ins.op == I_CLASS) ins.a += <i32>classOff;
  }
  analyze(out, out + codeOff, count, ast, planLen > 0); // the AST and code are no longer needed: their space is the scratch
  // A path equal to the pattern text matches whatever the regex says: its ends join the sets. A
  // negated program matches what its regex does not: no prefilter applies.
  addUnitTo(out + F_FIRST, unitAt(pattern, 0));
  addUnitTo(out + F_LAST, unitAt(pattern, units - 1));
  if (negated) { fillSet(out + F_FIRST); fillSet(out + F_LAST); }
  store<i32>(out + P_KEY_COUNT, keyCount); // after analyze(), which clears the facts area
  store<i32>(out + P_PLAN, planLen > 0 ? <i32>planOff : 0);
  store<i32>(out + P_PLAN_LEN, planLen);
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
