// Pike VM: runs a compiled glob program over a path's UTF-16 units, all threads in lockstep, each
// instruction visited at most once per position. Time is O(path length × program size) whatever
// the pattern, so no glob can make matching blow up the way a backtracking RegExp can.

import { Ch, unitAt, isLineTerminator } from "./text";
import { classHas } from "./classes";
import {
  I_CHAR, I_CLASS, I_ANY, I_NOT_SLASH, I_NOT_DOT_SLASH, I_ASSERT, I_MATCH, isConsuming, pushSuccessors,
} from "./regex";
import { Instr, instrAt } from "./layout";

let path: usize = 0;
let n: i32 = 0;
let gen: u32 = 0; // marks[pc] == gen: pc already added at this position
let marks: usize = 0;
let stack: usize = 0;
let hit = false;

/** Bytes of VM scratch a program of `count` instructions needs. */
export function vmWorkspaceSize(count: i32): usize {
  return <usize>count * 20 + 32; // marks, two thread lists, and a stack of up to 2 × count + 1
}

/** `.{1,2}` followed by `/` or the end, starting at `i`: a `.` or `..` segment. */
// @ts-ignore: decorator
@inline function isDotSegment(path: usize, n: i32, i: i32): bool {
  if (i >= n || unitAt(path, i) != Ch.DOT) return false;
  if (i + 1 == n || unitAt(path, i + 1) == Ch.SLASH) return true;
  return unitAt(path, i + 1) == Ch.DOT && (i + 2 == n || unitAt(path, i + 2) == Ch.SLASH);
}

/**
 * The assertion vector at position `i` of `path` (`n` units): bit k - 1 set when assertion kind k
 * (A_BOL … A_GS_NO_DOT) holds there. The one place that says what picomatch's lookaheads mean; the
 * Pike VM and the DFA both read it.
 */
export function assertionVector(path: usize, n: i32, i: i32): i32 {
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

// assertionVector's value in the three commonest places, worked out from its definition:
/** At a `/` (0 < i < n - 1) whose next unit is not `.`: all but ^, $, NO_DOT_SLASH. */
const AV_SLASH: i32 = 4 | 8 | 16 | 64 | 128;
/** At a `.` (0 < i < n - 1) whose next unit is neither `.` nor `/`: all but ^, $, (?!\.). */
const AV_DOT: i32 = 4 | 16 | 32 | 64 | 128;
/** At i == 0 < n when the unit there is not `.`, `/` or a line terminator: all but $. */
export const AV_FIRST: i32 = 1 | 4 | 8 | 16 | 32 | 64 | 128;
/** At i == n > 0: $, (?!\.), NO_DOTS, NO_DOTS_SLASH, (?!(?:^|\/)\.). */
export const AV_END: i32 = 2 | 8 | 16 | 64 | 128;

/**
 * assertionVector(path, n, i) for the unit `c` at `i`, without the call where the unit is a `/` or
 * `.` inside the path followed by an ordinary unit (most of the `/` and `.` in real paths).
 */
// @ts-ignore: decorator
@inline export function vectorAt(path: usize, n: i32, i: i32, c: u32): i32 {
  if (i > 0 && i + 1 < n) {
    const next = unitAt(path, i + 1);
    if (c == Ch.SLASH) {
      if (next != Ch.DOT) return AV_SLASH;
    } else if (c == Ch.DOT && next != Ch.DOT && next != Ch.SLASH) {
      return AV_DOT;
    }
  }
  return assertionVector(path, n, i);
}

/** Whether the consuming instruction at `ins` (class records relative to `base`) accepts `c`. */
export function consumes(base: usize, ins: Instr, c: u32): bool {
  const op = ins.op;
  if (op == I_NOT_SLASH) return c != Ch.SLASH;
  if (op == I_CHAR) return c == <u32>ins.a;
  if (op == I_NOT_DOT_SLASH) return c != Ch.SLASH && c != Ch.DOT;
  if (op == I_ANY) return !isLineTerminator(c);
  if (op == I_CLASS) return classHas(base + <usize>ins.a, c);
  return false;
}

/** Adds the thread at `start` and everything it reaches without consuming to `list`. */
function addThread(code: usize, list: usize, listLen: i32, start: i32, i: i32): i32 {
  store<i32>(stack, start);
  let sp = 1;
  let av = -1; // this position's assertion vector, computed at the first assertion met
  while (sp > 0) {
    const at = load<i32>(stack + (<usize>(--sp) << 2));
    const mark = marks + (<usize>at << 2);
    if (load<u32>(mark) == gen) continue;
    store<u32>(mark, gen);
    const ins = instrAt(code, at);
    const op = ins.op;
    if (isConsuming(op)) {
      store<i32>(list + (<usize>(listLen++) << 2), at);
    } else if (op == I_MATCH) {
      if (i == n) hit = true;
    } else {
      if (op == I_ASSERT && av < 0) av = assertionVector(path, n, i);
      sp = pushSuccessors(stack, sp, ins, op, at, op == I_ASSERT && (av & (1 << (ins.a - 1))) != 0);
    }
  }
  return listLen;
}

/**
 * Whether the program (`code`: `count` instructions, class records relative to `base`) matches
 * the whole of `pathPtr`/`units`. `work` holds vmWorkspaceSize(count) bytes.
 */
export function runProgram(base: usize, code: usize, count: i32, pathPtr: usize, units: i32, work: usize): bool {
  path = pathPtr;
  n = units;
  marks = work;
  let clist = work + (<usize>count << 2);
  let nlist = clist + (<usize>count << 2);
  stack = nlist + (<usize>count << 2);
  memory.fill(marks, 0, <usize>count << 2); // O(program) per call, like one step of the loop
  gen = 1;
  hit = false;
  let clen = addThread(code, clist, 0, 0, 0);
  for (let i = 0; i < n && clen > 0; i++) {
    const c = unitAt(path, i);
    gen++;
    let nlen = 0;
    for (let t = 0; t < clen; t++) {
      const at = load<i32>(clist + (<usize>t << 2));
      if (consumes(base, instrAt(code, at), c)) nlen = addThread(code, nlist, nlen, at + 1, i + 1);
    }
    const swap = clist;
    clist = nlist;
    nlist = swap;
    clen = nlen;
  }
  return hit;
}
