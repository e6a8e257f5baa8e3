// The regex sources picomatch's routes produce, compiled to a Thompson automaton (Pike VM program).
// The dialect is JavaScript's without flags, restricted to what glob translation emits: literals and
// identity escapes, `.`, classes, `(?:…)`/`(…)` groups, `|`, the quantifiers `*` `+` `?` (lazy or
// not: for a yes/no full match laziness is irrelevant), `^`, `$`, and the six fixed lookaheads of
// picomatch's fragments, each compiled to one position test. A source that JavaScript would reject
// (unbalanced group, range out of order, nothing to repeat) compiles to a program that never
// matches, which is what picomatch does with such a RegExp (it substitutes `/$^/`).

import {
  Ch, unitAt, spanEqualsStr, isWordUnit, NO_DOT, ONE_CHAR, NO_DOTS, NO_DOT_SLASH, NO_DOTS_SLASH,
  GLOBSTAR_NO_DOT_LOOKAHEAD,
} from "./text";
import { parseClass, classRecordSize } from "./classes";
import { CLASS_INVALID, CLASS_UNSUPPORTED, REGEX_INVALID, REGEX_UNSUPPORTED, REGEX_NO_SPACE } from "../abi";
import { Instr, AstNode, AST_NODE_SIZE, instrAt } from "./layout";

// Instructions (layout.ts Instr: op, a, b).
export const I_CHAR: i32 = 1; // a = unit
export const I_CLASS: i32 = 2; // a = class record offset from the program start
export const I_ANY: i32 = 3; // any unit but a line terminator
export const I_NOT_SLASH: i32 = 4; // [^/]
export const I_NOT_DOT_SLASH: i32 = 5; // [^.\/]
export const I_SPLIT: i32 = 6; // a, b = pcs
export const I_JMP: i32 = 7; // a = pc
export const I_ASSERT: i32 = 8; // a = assertion kind
export const I_MATCH: i32 = 9;
export { INSTR_SIZE } from "./layout";

/** Whether an instruction consumes a unit (CHAR, CLASS, ANY, NOT_SLASH, NOT_DOT_SLASH). */
// @ts-ignore: decorator
@inline export function isConsuming(op: i32): bool {
  return op >= I_CHAR && op <= I_NOT_DOT_SLASH;
}

/**
 * Pushes onto `stack` where the non-consuming instruction `op` at `at` (at `ins`) leads: a jump's
 * target, both sides of a split, the next instruction after an assertion when `holds`. Returns the
 * new stack depth. The three walkers (analysis, DFA closure, Pike VM) share it.
 */
// @ts-ignore: decorator
@inline export function pushSuccessors(stack: usize, sp: i32, ins: Instr, op: i32, at: i32, holds: bool): i32 {
  if (op == I_JMP) {
    store<i32>(stack + (<usize>sp << 2), ins.a);
    return sp + 1;
  }
  if (op == I_SPLIT) {
    store<i32>(stack + (<usize>sp << 2), ins.b);
    store<i32>(stack + (<usize>(sp + 1) << 2), ins.a);
    return sp + 2;
  }
  if (op == I_ASSERT && holds) {
    store<i32>(stack + (<usize>sp << 2), at + 1);
    return sp + 1;
  }
  return sp;
}

// Assertion kinds.
export const A_BOL: i32 = 1;
export const A_EOL: i32 = 2;
export const A_ONE_CHAR: i32 = 3; // (?=.)
export const A_NO_DOT: i32 = 4; // (?!\.)
export const A_NO_DOTS: i32 = 5; // (?!(?:^|\/)\.{1,2}(?:\/|$))
export const A_NO_DOT_SLASH: i32 = 6; // (?!\.{0,1}(?:\/|$))
export const A_NO_DOTS_SLASH: i32 = 7; // (?!\.{1,2}(?:\/|$))
export const A_GS_NO_DOT: i32 = 8; // (?!(?:^|\/)\.)

// AST nodes (layout.ts AstNode: kind, a, b, next sibling). facts.ts reads the tree of the last compile.
export const N_CHAR: i32 = 1, N_CLASS: i32 = 2, N_ANY: i32 = 3, N_ASSERT: i32 = 4, N_CAT: i32 = 5, N_ALT: i32 = 6,
  N_STAR: i32 = 7, N_PLUS: i32 = 8, N_OPT: i32 = 9, N_NOT_SLASH: i32 = 10, N_NOT_DOT_SLASH: i32 = 11;

let src: usize = 0;
let srcLen: i32 = 0;
let pos: i32 = 0;
let nodes: usize = 0;
let nodeCount: i32 = 0;
let classes: usize = 0; // class records, relative offsets counted from `classBase`
let classEnd: usize = 0;
let status: i32 = 0;

// @ts-ignore: decorator
@inline function nodeAt(n: i32): AstNode {
  return changetype<AstNode>(nodes + <usize>n * AST_NODE_SIZE);
}
function node(kind: i32, a: i32, b: i32): i32 {
  const n = nodeCount++;
  const p = nodeAt(n);
  p.kind = kind;
  p.a = a;
  p.b = b;
  p.next = -1;
  return n;
}
// @ts-ignore: decorator
@inline export function kindOf(n: i32): i32 { return nodeAt(n).kind; }
// @ts-ignore: decorator
@inline export function argA(n: i32): i32 { return nodeAt(n).a; }
// @ts-ignore: decorator
@inline export function nextOf(n: i32): i32 { return nodeAt(n).next; }
// @ts-ignore: decorator
@inline function setNext(n: i32, v: i32): void { nodeAt(n).next = v; }

function fail(code: i32): i32 {
  if (status == 0) status = code;
  return -1;
}

/** Appends `child` to the list whose head is in `head`/`tail` words of a CAT or ALT node. */
function appendChild(parent: i32, tail: i32, child: i32): i32 {
  if (tail < 0) nodeAt(parent).a = child;
  else setNext(tail, child);
  return child;
}

function parseAlt(depth: i32): i32 {
  const alt = node(N_ALT, -1, 0);
  let tail = -1;
  let count = 0;
  while (true) {
    const cat = parseCat(depth);
    if (cat < 0) return -1;
    tail = appendChild(alt, tail, cat);
    count++;
    if (pos < srcLen && unitAt(src, pos) == Ch.PIPE) { pos++; continue; }
    break;
  }
  if (count == 1) return argA(alt);
  return alt;
}

function lookahead(): i32 {
  // The only lookaheads glob translation emits are picomatch's fixed fragments.
  const at = src + (<usize>pos << 1);
  const rest = srcLen - pos;
  let kind = 0, n = 0;
  if (startsWith(at, rest, NO_DOTS)) { kind = A_NO_DOTS; n = NO_DOTS.length; }
  else if (startsWith(at, rest, NO_DOTS_SLASH)) { kind = A_NO_DOTS_SLASH; n = NO_DOTS_SLASH.length; }
  else if (startsWith(at, rest, NO_DOT_SLASH)) { kind = A_NO_DOT_SLASH; n = NO_DOT_SLASH.length; }
  else if (startsWith(at, rest, GLOBSTAR_NO_DOT_LOOKAHEAD)) { kind = A_GS_NO_DOT; n = GLOBSTAR_NO_DOT_LOOKAHEAD.length; }
  else if (startsWith(at, rest, NO_DOT)) { kind = A_NO_DOT; n = NO_DOT.length; }
  else if (startsWith(at, rest, ONE_CHAR)) { kind = A_ONE_CHAR; n = ONE_CHAR.length; }
  else return fail(REGEX_UNSUPPORTED);
  pos += n;
  return node(N_ASSERT, kind, 0);
}

function startsWith(at: usize, rest: i32, s: string): bool {
  return rest >= s.length && spanEqualsStr(at, s.length, s);
}

/** 1 for the ASCII units that start something other than a literal character in the regex source. */
const REGEX_SYNTAX: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  // ! " # $ % & ' ( ) * + , - . /
  0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, // ?
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, // [ \ ^
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, // {
]);

/** Whether `c` starts something other than a literal character: ( [ \ . ^ $ * + ? { ) */
// @ts-ignore: decorator
@inline function isRegexSyntax(c: u32): bool {
  return c < 128 && load<u8>(REGEX_SYNTAX + <usize>c) != 0;
}

// The common atoms return first: V8 charges a call the code size up to the return it takes, and a
// cold start (a fresh process compiling its rules) should stay on the baseline tier rather than
// queue optimizing compiles that compete with it for the CPU.
function parseAtom(depth: i32): i32 {
  const c = unitAt(src, pos);
  if (!isRegexSyntax(c)) { pos++; return node(N_CHAR, c, 0); }
  if (c == Ch.LPAREN) {
    if (pos + 2 < srcLen && unitAt(src, pos + 1) == Ch.QMARK) {
      const k = unitAt(src, pos + 2);
      if (k == Ch.BANG || k == 61 /* = */) return lookahead();
      if (k != Ch.COLON) return fail(REGEX_UNSUPPORTED);
      pos += 3;
    } else {
      pos++;
    }
    const inner = parseAlt(depth + 1);
    if (inner < 0) return -1;
    if (pos >= srcLen || unitAt(src, pos) != Ch.RPAREN) return fail(REGEX_INVALID);
    pos++;
    return inner;
  }
  if (c == Ch.LBRACKET) {
    // [^/] and [^.\/] are most of every glob program: give them their own instructions.
    const at = src + (<usize>pos << 1);
    if (startsWith(at, srcLen - pos, "[^/]")) { pos += 4; return node(N_NOT_SLASH, 0, 0); }
    if (startsWith(at, srcLen - pos, "[^.\\/]")) { pos += 6; return node(N_NOT_DOT_SLASH, 0, 0); }
    const end = parseClass(src, srcLen, pos, classEnd);
    if (end == CLASS_INVALID) return fail(REGEX_INVALID);
    if (end == CLASS_UNSUPPORTED) return fail(REGEX_UNSUPPORTED);
    const n = node(N_CLASS, <i32>(classEnd - classes), 0);
    classEnd += <usize>classRecordSize();
    pos = end;
    return n;
  }
  if (c == Ch.BACKSLASH) {
    if (pos + 1 >= srcLen) return fail(REGEX_INVALID);
    const e = unitAt(src, pos + 1);
    if (isWordUnit(e)) return fail(REGEX_UNSUPPORTED);
    pos += 2;
    return node(N_CHAR, e, 0);
  }
  if (c == Ch.DOT) { pos++; return node(N_ANY, 0, 0); }
  if (c == Ch.CARET) { pos++; return node(N_ASSERT, A_BOL, 0); }
  if (c == Ch.DOLLAR) { pos++; return node(N_ASSERT, A_EOL, 0); }
  if (c == Ch.STAR || c == Ch.PLUS || c == Ch.QMARK) return fail(REGEX_INVALID); // nothing to repeat
  if (c == Ch.LBRACE && looksLikeQuantifier(pos)) return fail(REGEX_INVALID);
  if (c == Ch.RPAREN) return fail(REGEX_INVALID);
  // Only a `{` that is not a quantifier is left: a literal. (Written with the constant so that the
  // optimizer does not merge this tail with the fast path's, which would move that return here.)
  pos++;
  return node(N_CHAR, Ch.LBRACE, 0);
}

/** `{n}`, `{n,}` or `{n,m}` at `i`, which JavaScript reads as a quantifier even in Annex B. */
function looksLikeQuantifier(i: i32): bool {
  let k = i + 1;
  const digits = k;
  while (k < srcLen && unitAt(src, k) - 48 < 10) k++;
  if (k == digits) return false;
  if (k < srcLen && unitAt(src, k) == Ch.COMMA) { k++; while (k < srcLen && unitAt(src, k) - 48 < 10) k++; }
  return k < srcLen && unitAt(src, k) == Ch.RBRACE;
}

function parseCat(depth: i32): i32 {
  const cat = node(N_CAT, -1, 0);
  let tail = -1;
  while (pos < srcLen) {
    const c = unitAt(src, pos);
    if (c == Ch.PIPE) break;
    if (c == Ch.RPAREN) {
      if (depth == 0) return fail(REGEX_INVALID); // unmatched ')'
      break;
    }
    let atom = parseAtom(depth);
    if (atom < 0) return -1;
    if (pos < srcLen) {
      const q = unitAt(src, pos);
      let kind = 0;
      if (q == Ch.STAR) kind = N_STAR;
      else if (q == Ch.PLUS) kind = N_PLUS;
      else if (q == Ch.QMARK) kind = N_OPT;
      else if (q == Ch.LBRACE && looksLikeQuantifier(pos)) return fail(REGEX_UNSUPPORTED);
      if (kind != 0) {
        if (kindOf(atom) == N_ASSERT) return fail(argA(atom) <= A_EOL ? REGEX_INVALID : REGEX_UNSUPPORTED);
        pos++;
        if (pos < srcLen && unitAt(src, pos) == Ch.QMARK) pos++; // lazy
        if (pos < srcLen) {
          const r = unitAt(src, pos);
          if (r == Ch.STAR || r == Ch.PLUS || r == Ch.QMARK) return fail(REGEX_INVALID);
          if (r == Ch.LBRACE && looksLikeQuantifier(pos)) return fail(REGEX_INVALID);
        }
        atom = node(kind, atom, 0);
      }
    }
    tail = appendChild(cat, tail, atom);
  }
  return cat;
}

// ---- emission ---------------------------------------------------------------------------------

let code: usize = 0;
let pc: i32 = 0;
let codeCap: i32 = 0;

function instr(op: i32, a: i32, b: i32): i32 {
  const at = pc++;
  if (at >= codeCap) { status = REGEX_NO_SPACE; return at; }
  const p = instrAt(code, at);
  p.op = op;
  p.a = a;
  p.b = b;
  return at;
}

/** Sets operand `a` of the instruction at `at` (when it was emitted). */
function patchA(at: i32, v: i32): void {
  if (at < codeCap) instrAt(code, at).a = v;
}

/** Sets operand `b` of the instruction at `at` (when it was emitted). */
function patchB(at: i32, v: i32): void {
  if (at < codeCap) instrAt(code, at).b = v;
}

/** The instruction of each leaf node kind (N_CHAR ... N_NOT_DOT_SLASH; 0: not a leaf). */
const LEAF_OP: usize = memory.data<u8>([
  0, <u8>I_CHAR, <u8>I_CLASS, <u8>I_ANY, <u8>I_ASSERT, 0, 0, 0, 0, 0, <u8>I_NOT_SLASH, <u8>I_NOT_DOT_SLASH,
]);

// Leaves return first, through one instr() (see parseAtom on why the common cases come first).
function emitNode(n: i32): void {
  const kind = kindOf(n);
  const leaf = <i32>load<u8>(LEAF_OP + <usize>kind);
  if (leaf != 0) { instr(leaf, argA(n), 0); return; }
  if (kind == N_CAT) {
    for (let c = argA(n); c >= 0; c = nextOf(c)) emitNode(c);
    return;
  }
  if (kind == N_ALT) {
    // SPLIT next, L2; branch; JMP end; L2: SPLIT ... last branch; end:
    let jumps = -1; // chain of JMPs to patch, linked through their `a` word
    for (let c = argA(n); c >= 0; c = nextOf(c)) {
      if (nextOf(c) >= 0) {
        const split = instr(I_SPLIT, pc + 1, 0);
        emitNode(c);
        const j = instr(I_JMP, jumps, 0);
        jumps = j;
        patchB(split, pc);
      } else {
        emitNode(c);
      }
    }
    while (jumps >= 0) {
      const nextJump = jumps < codeCap ? instrAt(code, jumps).a : -1;
      patchA(jumps, pc);
      jumps = nextJump;
    }
    return;
  }
  if (kind == N_STAR) {
    const loop = instr(I_SPLIT, pc + 1, 0);
    emitNode(argA(n));
    instr(I_JMP, loop, 0);
    patchB(loop, pc);
    return;
  }
  if (kind == N_PLUS) {
    const top = pc;
    emitNode(argA(n));
    instr(I_SPLIT, top, pc + 1);
    return;
  }
  // N_OPT
  const split = instr(I_SPLIT, pc + 1, 0);
  emitNode(argA(n));
  patchB(split, pc);
}

/** Root node of the last successful parse (for prefilter analysis). */
let root: i32 = -1;

/** The last compile's AST root (-1 if it failed) and class records' base, for facts.ts. */
export function astRoot(): i32 {
  return root;
}
export function classBase(): usize {
  return classes;
}

/**
 * Compiles `srcPtr`/`len` into instructions at `codePtr` (room for `cap`), class records at
 * `classPtr` (offsets relative to `classBase`), with AST scratch at `scratch` (16 bytes per source
 * unit + 16). Returns the instruction count, or REGEX_INVALID / REGEX_UNSUPPORTED / REGEX_NO_SPACE.
 */
export function compileRegex(srcPtr: usize, len: i32, scratch: usize, codePtr: usize, cap: i32, classPtr: usize, classBase: usize): i32 {
  src = srcPtr;
  srcLen = len;
  pos = 0;
  nodes = scratch;
  nodeCount = 0;
  classes = classBase;
  classEnd = classPtr;
  status = 0;
  root = parseAlt(0);
  if (status != 0) return status;
  if (pos != srcLen) return REGEX_INVALID;
  code = codePtr;
  pc = 0;
  codeCap = cap;
  emitNode(root);
  instr(I_MATCH, 0, 0);
  if (status != 0) return status;
  return pc;
}

/** Bytes of class records written by the last compileRegex. */
export function classBytesUsed(classPtr: usize): usize {
  return classEnd - classPtr;
}
