// Pike VM: runs a compiled glob program over a path's UTF-16 units, all threads in lockstep, each
// instruction visited at most once per position. Time is O(path length × program size) whatever
// the pattern, so no glob can make matching blow up the way a backtracking RegExp can.

import { Ch, unitAt, isLineTerminator } from "./text";
import { classHas } from "./classes";
import {
  I_CHAR, I_CLASS, I_ANY, I_NOT_SLASH, I_NOT_DOT_SLASH, I_SPLIT, I_JMP, I_ASSERT, I_MATCH, INSTR_SIZE,
  A_BOL, A_EOL, A_ONE_CHAR, A_NO_DOT, A_NO_DOTS, A_NO_DOT_SLASH, A_NO_DOTS_SLASH, A_GS_NO_DOT,
} from "./regex";

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
@inline function dotSegment(i: i32): bool {
  if (i >= n || unitAt(path, i) != Ch.DOT) return false;
  if (i + 1 == n || unitAt(path, i + 1) == Ch.SLASH) return true;
  return unitAt(path, i + 1) == Ch.DOT && (i + 2 == n || unitAt(path, i + 2) == Ch.SLASH);
}

/** Whether the consuming instruction at `ins` (class records relative to `base`) accepts `c`. */
export function consumes(base: usize, ins: usize, c: u32): bool {
  const op = load<i32>(ins);
  if (op == I_NOT_SLASH) return c != Ch.SLASH;
  if (op == I_CHAR) return c == <u32>load<i32>(ins, 4);
  if (op == I_NOT_DOT_SLASH) return c != Ch.SLASH && c != Ch.DOT;
  if (op == I_ANY) return !isLineTerminator(c);
  if (op == I_CLASS) return classHas(base + <usize>load<i32>(ins, 4), c);
  return false;
}

/** Whether assertion `kind` holds at position `i` of the path runProgram() is matching. */
function holds(kind: i32, i: i32): bool {
  switch (kind) {
    case A_BOL: return i == 0;
    case A_EOL: return i == n;
    case A_ONE_CHAR: return i < n && !isLineTerminator(unitAt(path, i));
    case A_NO_DOT: return !(i < n && unitAt(path, i) == Ch.DOT);
    case A_NO_DOTS_SLASH: return !dotSegment(i);
    case A_NO_DOT_SLASH: {
      if (i == n || unitAt(path, i) == Ch.SLASH) return false;
      return !(unitAt(path, i) == Ch.DOT && (i + 1 == n || unitAt(path, i + 1) == Ch.SLASH));
    }
    case A_NO_DOTS: {
      if (i == 0 && dotSegment(0)) return false;
      return !(i < n && unitAt(path, i) == Ch.SLASH && dotSegment(i + 1));
    }
    case A_GS_NO_DOT: {
      if (i == 0 && n > 0 && unitAt(path, 0) == Ch.DOT) return false;
      return !(i + 1 < n && unitAt(path, i) == Ch.SLASH && unitAt(path, i + 1) == Ch.DOT);
    }
    default: return false;
  }
}

/** Adds the thread at `start` and everything it reaches without consuming to `list`. */
function addThread(code: usize, list: usize, listLen: i32, start: i32, i: i32): i32 {
  let sp = 0;
  store<i32>(stack, start);
  sp = 1;
  while (sp > 0) {
    const at = load<i32>(stack + (<usize>(--sp) << 2));
    const mark = marks + (<usize>at << 2);
    if (load<u32>(mark) == gen) continue;
    store<u32>(mark, gen);
    const ins = code + <usize>at * INSTR_SIZE;
    const op = load<i32>(ins);
    if (op == I_JMP) {
      store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
    } else if (op == I_SPLIT) {
      store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 8));
      store<i32>(stack + (<usize>(sp++) << 2), load<i32>(ins, 4));
    } else if (op == I_ASSERT) {
      if (holds(load<i32>(ins, 4), i)) store<i32>(stack + (<usize>(sp++) << 2), at + 1);
    } else if (op == I_MATCH) {
      if (i == n) hit = true;
    } else {
      store<i32>(list + (<usize>(listLen++) << 2), at);
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
      const ins = code + <usize>at * INSTR_SIZE;
      if (consumes(base, ins, c)) nlen = addThread(code, nlist, nlen, at + 1, i + 1);
    }
    const swap = clist;
    clist = nlist;
    nlist = swap;
    clen = nlen;
  }
  return hit;
}
