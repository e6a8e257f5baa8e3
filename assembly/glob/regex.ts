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
import { parseClass, classRecordSize, classHas, CLASS_INVALID, CLASS_UNSUPPORTED } from "./classes";

// Instructions: three i32 words (op, a, b).
export const I_CHAR: i32 = 1; // a = unit
export const I_CLASS: i32 = 2; // a = class record offset from the program start
export const I_ANY: i32 = 3; // any unit but a line terminator
export const I_NOT_SLASH: i32 = 4; // [^/]
export const I_NOT_DOT_SLASH: i32 = 5; // [^.\/]
export const I_SPLIT: i32 = 6; // a, b = pcs
export const I_JMP: i32 = 7; // a = pc
export const I_ASSERT: i32 = 8; // a = assertion kind
export const I_MATCH: i32 = 9;
export const INSTR_SIZE: usize = 12;

// Assertion kinds.
export const A_BOL: i32 = 1;
export const A_EOL: i32 = 2;
export const A_ONE_CHAR: i32 = 3; // (?=.)
export const A_NO_DOT: i32 = 4; // (?!\.)
export const A_NO_DOTS: i32 = 5; // (?!(?:^|\/)\.{1,2}(?:\/|$))
export const A_NO_DOT_SLASH: i32 = 6; // (?!\.{0,1}(?:\/|$))
export const A_NO_DOTS_SLASH: i32 = 7; // (?!\.{1,2}(?:\/|$))
export const A_GS_NO_DOT: i32 = 8; // (?!(?:^|\/)\.)

export const REGEX_INVALID: i32 = -10;
export const REGEX_UNSUPPORTED: i32 = -11;
export const REGEX_NO_SPACE: i32 = -12;

// AST nodes: four i32 words (kind, a, b, next sibling).
const N_CHAR: i32 = 1, N_CLASS: i32 = 2, N_ANY: i32 = 3, N_ASSERT: i32 = 4, N_CAT: i32 = 5, N_ALT: i32 = 6,
  N_STAR: i32 = 7, N_PLUS: i32 = 8, N_OPT: i32 = 9, N_NOT_SLASH: i32 = 10, N_NOT_DOT_SLASH: i32 = 11;
const NODE_SIZE: usize = 16;

let src: usize = 0;
let srcLen: i32 = 0;
let pos: i32 = 0;
let nodes: usize = 0;
let nodeCount: i32 = 0;
let classes: usize = 0; // class records, relative offsets counted from `classBase`
let classEnd: usize = 0;
let status: i32 = 0;

@inline function nodeAt(n: i32): usize {
  return nodes + <usize>n * NODE_SIZE;
}
function node(kind: i32, a: i32, b: i32): i32 {
  const n = nodeCount++;
  const p = nodeAt(n);
  store<i32>(p, kind);
  store<i32>(p, a, 4);
  store<i32>(p, b, 8);
  store<i32>(p, -1, 12);
  return n;
}
@inline function kindOf(n: i32): i32 { return load<i32>(nodeAt(n)); }
@inline function argA(n: i32): i32 { return load<i32>(nodeAt(n), 4); }
@inline function nextOf(n: i32): i32 { return load<i32>(nodeAt(n), 12); }
@inline function setNext(n: i32, v: i32): void { store<i32>(nodeAt(n), v, 12); }

function fail(code: i32): i32 {
  if (status == 0) status = code;
  return -1;
}

/** Appends `child` to the list whose head is in `head`/`tail` words of a CAT or ALT node. */
function appendChild(parent: i32, tail: i32, child: i32): i32 {
  if (tail < 0) store<i32>(nodeAt(parent), child, 4);
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

function parseAtom(depth: i32): i32 {
  const c = unitAt(src, pos);
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
  pos++;
  return node(N_CHAR, c, 0);
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
  const p = code + <usize>at * INSTR_SIZE;
  store<i32>(p, op);
  store<i32>(p, a, 4);
  store<i32>(p, b, 8);
  return at;
}

function patch(at: i32, word: usize, v: i32): void {
  if (at < codeCap) store<i32>(code + <usize>at * INSTR_SIZE + word, v);
}

function emitNode(n: i32): void {
  const kind = kindOf(n);
  if (kind == N_CHAR) { instr(I_CHAR, argA(n), 0); return; }
  if (kind == N_CLASS) { instr(I_CLASS, argA(n), 0); return; }
  if (kind == N_ANY) { instr(I_ANY, 0, 0); return; }
  if (kind == N_NOT_SLASH) { instr(I_NOT_SLASH, 0, 0); return; }
  if (kind == N_NOT_DOT_SLASH) { instr(I_NOT_DOT_SLASH, 0, 0); return; }
  if (kind == N_ASSERT) { instr(I_ASSERT, argA(n), 0); return; }
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
        patch(split, 8, pc);
      } else {
        emitNode(c);
      }
    }
    while (jumps >= 0) {
      const nextJump = jumps < codeCap ? load<i32>(code + <usize>jumps * INSTR_SIZE, 4) : -1;
      patch(jumps, 4, pc);
      jumps = nextJump;
    }
    return;
  }
  if (kind == N_STAR) {
    const loop = instr(I_SPLIT, pc + 1, 0);
    emitNode(argA(n));
    instr(I_JMP, loop, 0);
    patch(loop, 8, pc);
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
  patch(split, 8, pc);
}

/** Root node of the last successful parse (for prefilter analysis). */
let root: i32 = -1;

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

// ---- prefilter facts --------------------------------------------------------------------------
// Necessary conditions read off the top-level concatenation (entering nested groups, skipping
// zero-width assertions): the literal units every match starts and ends with.

let factLen: i32 = 0;
let factStop = false;
let factOptSlash = 0;

function childAt(cat: i32, i: i32): i32 {
  let c = argA(cat);
  for (let k = 0; k < i; k++) c = nextOf(c);
  return c;
}

function prefixWalk(cat: i32, dst: usize, cap: i32): void {
  for (let c = argA(cat); c >= 0 && !factStop; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { prefixWalk(c, dst, cap); continue; }
    if (k != N_CHAR || factLen >= cap) { factStop = true; return; }
    store<u16>(dst + (<usize>(factLen++) << 1), <u16>argA(c));
  }
}

function suffixWalk(cat: i32, dst: usize, cap: i32): void {
  let count = 0;
  for (let c = argA(cat); c >= 0; c = nextOf(c)) count++;
  for (let i = count - 1; i >= 0 && !factStop; i--) {
    const c = childAt(cat, i);
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_OPT && factLen == 0 && factOptSlash == 0 && kindOf(argA(c)) == N_CHAR && argA(argA(c)) == Ch.SLASH) {
      factOptSlash = 1;
      continue;
    }
    if (k == N_CAT) { suffixWalk(c, dst, cap); continue; }
    if (k == N_ALT) { commonBranchSuffix(c, dst, cap); factStop = true; return; }
    if (k != N_CHAR || factLen >= cap) { factStop = true; return; }
    store<u16>(dst + (<usize>(factLen++) << 1), <u16>argA(c));
  }
}

const BRANCH_CAP: i32 = 64;
const branchA: usize = memory.data(BRANCH_CAP * 2, 8);
const branchB: usize = memory.data(BRANCH_CAP * 2, 8);

/** The literal units a branch (a CAT, or one node) ends with, last first, into `dst`. */
function branchSuffix(n: i32, dst: usize): i32 {
  if (kindOf(n) == N_CHAR) { store<u16>(dst, <u16>argA(n)); return 1; }
  if (kindOf(n) != N_CAT) return 0;
  let count = 0;
  for (let c = argA(n); c >= 0; c = nextOf(c)) count++;
  let len = 0;
  for (let i = count - 1; i >= 0 && len < BRANCH_CAP; i--) {
    const c = childAt(n, i);
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k != N_CHAR) break;
    store<u16>(dst + (<usize>(len++) << 1), <u16>argA(c));
  }
  return len;
}

/** Appends the longest literal suffix all branches of an ALT share (`.{js,mjs,cjs}` ends in `js`). */
function commonBranchSuffix(alt: i32, dst: usize, cap: i32): void {
  const first = argA(alt);
  let common = branchSuffix(first, branchA);
  for (let b = nextOf(first); b >= 0 && common > 0; b = nextOf(b)) {
    const len = branchSuffix(b, branchB);
    let same = 0;
    while (same < common && same < len && load<u16>(branchA + (<usize>same << 1)) == load<u16>(branchB + (<usize>same << 1))) same++;
    common = same;
  }
  for (let i = 0; i < common && factLen < cap; i++) store<u16>(dst + (<usize>(factLen++) << 1), load<u16>(branchA + (<usize>i << 1)));
}

// The longest run of literal units in the top-level concatenation that is neither its leading run
// (the prefix) nor its trailing one (the suffix): a substring every match contains, such as
// `__tests__` in `**/__tests__/**`.
const INFIX_SCAN: i32 = 1024;
const infixBuf: usize = memory.data(INFIX_SCAN * 2, 8);
let runStart: i32 = 0;
let runLen: i32 = 0;
let bestStart: i32 = 0;
let bestLen: i32 = 0;
let atStart = true;
let unitsSeen: i32 = 0;

function infixWalk(cat: i32): void {
  for (let c = argA(cat); c >= 0; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { infixWalk(c); continue; }
    if (k == N_CHAR && unitsSeen < INFIX_SCAN) {
      store<u16>(infixBuf + (<usize>unitsSeen << 1), <u16>argA(c));
      if (runLen == 0) runStart = unitsSeen;
      runLen++;
      unitsSeen++;
      continue;
    }
    if (runLen > bestLen && !atStart) { bestStart = runStart; bestLen = runLen; }
    runLen = 0;
    atStart = false;
    unitsSeen++; // a gap in the buffer: runs never span it
  }
}

/** The infix (see above) into `dst`, at most `cap` units; its length, 0 if there is none. */
export function literalInfix(dst: usize, cap: i32): i32 {
  runStart = 0; runLen = 0; bestStart = 0; bestLen = 0; atStart = true; unitsSeen = 0;
  if (root < 0 || kindOf(root) != N_CAT) return 0;
  infixWalk(root);
  const len = min(bestLen, cap);
  memory.copy(dst, infixBuf + (<usize>bestStart << 1), <usize>len << 1);
  return len;
}

/** The literal units every match of the last compiled source starts with, into `dst`; the count. */
export function literalPrefix(dst: usize, cap: i32): i32 {
  factLen = 0;
  factStop = false;
  if (root >= 0 && kindOf(root) == N_CAT) prefixWalk(root, dst, cap);
  return factLen;
}

/**
 * The literal units every match ends with, written last-first into `dst`; the count, with bit 30
 * set when an optional `/` may follow them (picomatch's trailing `\/?`).
 */
export function literalSuffix(dst: usize, cap: i32): i32 {
  factLen = 0;
  factStop = false;
  factOptSlash = 0;
  if (root >= 0 && kindOf(root) == N_CAT) suffixWalk(root, dst, cap);
  return factLen | (factOptSlash << 30);
}

// ---- slash bounds and the units after the prefix ----------------------------------------------

/** Stands for "no upper bound" in slash counts. */
export const SLASHES_UNBOUNDED: i32 = 0x7fffffff;
let boundMin: i32 = 0;
let boundMax: i32 = 0;

@inline function addBound(a: i32, b: i32): i32 {
  return a == SLASHES_UNBOUNDED || b == SLASHES_UNBOUNDED ? SLASHES_UNBOUNDED : a + b;
}

function canBeSlash(n: i32): bool {
  const k = kindOf(n);
  if (k == N_CHAR) return argA(n) == Ch.SLASH;
  if (k == N_CLASS) return classHas(classes + <usize>argA(n), Ch.SLASH);
  return k == N_ANY;
}

/** Fewest and most `/` units a match of node `n` can contain (into boundMin/boundMax). */
function slashBounds(n: i32): void {
  const k = kindOf(n);
  if (k == N_CAT) {
    let lo = 0, hi = 0;
    for (let c = argA(n); c >= 0; c = nextOf(c)) {
      slashBounds(c);
      lo = addBound(lo, boundMin);
      hi = addBound(hi, boundMax);
    }
    boundMin = lo; boundMax = hi;
    return;
  }
  if (k == N_ALT) {
    let lo = SLASHES_UNBOUNDED, hi = 0;
    for (let c = argA(n); c >= 0; c = nextOf(c)) {
      slashBounds(c);
      lo = min(lo, boundMin);
      hi = max(hi, boundMax);
    }
    boundMin = lo; boundMax = hi;
    return;
  }
  if (k == N_STAR || k == N_PLUS || k == N_OPT) {
    slashBounds(argA(n));
    if (k != N_PLUS) boundMin = 0;
    if (k != N_OPT && boundMax > 0) boundMax = SLASHES_UNBOUNDED;
    return;
  }
  boundMin = k == N_CHAR && argA(n) == Ch.SLASH ? 1 : 0;
  boundMax = canBeSlash(n) ? 1 : 0;
}

/** The fewest `/` units a match contains, and (through slashMax()) the most. */
export function slashMin(): i32 {
  if (root < 0) { boundMin = 0; boundMax = SLASHES_UNBOUNDED; return 0; }
  slashBounds(root);
  return boundMin;
}
export function slashMax(): i32 {
  return boundMax;
}

// First-unit sets: u32[4] of ASCII bits, then an i32 "non-ASCII possible", then an i32 "the
// sequence may end here" (only for the set after the prefix).
function addSetUnit(set: usize, c: u32): void {
  if (c < 128) store<u32>(set + ((c >> 5) << 2), load<u32>(set + ((c >> 5) << 2)) | (1 << (c & 31)));
  else store<i32>(set + 16, 1);
}

const allBut: usize = memory.data(16, 16);

/** Adds every ASCII unit but `a` and `b`, and the non-ASCII ones, to the set. */
function addAllBut(set: usize, a: u32, b: u32): void {
  v128.store(allBut, i32x4.splat(-1));
  store<u32>(allBut + ((a >> 5) << 2), load<u32>(allBut + ((a >> 5) << 2)) & ~(1 << (a & 31)));
  store<u32>(allBut + ((b >> 5) << 2), load<u32>(allBut + ((b >> 5) << 2)) & ~(1 << (b & 31)));
  v128.store(set, v128.or(v128.load(set), v128.load(allBut)));
  store<i32>(set + 16, 1);
}

/** Adds the units node `n` can start with; returns whether it can match the empty string. */
function firstUnits(n: i32, set: usize): bool {
  const k = kindOf(n);
  if (k == N_CHAR) { addSetUnit(set, argA(n)); return false; }
  if (k == N_CLASS) {
    const rec = classes + <usize>argA(n);
    for (let w: usize = 0; w < 4; w++) store<u32>(set + (w << 2), load<u32>(set + (w << 2)) | load<u32>(rec + 8 + (w << 2)));
    if (load<i32>(rec) != 0 || load<i32>(rec, 4) > 0) store<i32>(set + 16, 1);
    return false;
  }
  if (k == N_ANY) { addAllBut(set, 10, 13); return false; }
  if (k == N_NOT_SLASH) { addAllBut(set, Ch.SLASH, Ch.SLASH); return false; }
  if (k == N_NOT_DOT_SLASH) { addAllBut(set, Ch.SLASH, Ch.DOT); return false; }
  if (k == N_ASSERT) return true;
  if (k == N_CAT) {
    for (let c = argA(n); c >= 0; c = nextOf(c)) if (!firstUnits(c, set)) return false;
    return true;
  }
  if (k == N_ALT) {
    let nullable = false;
    for (let c = argA(n); c >= 0; c = nextOf(c)) if (firstUnits(c, set)) nullable = true;
    return nullable;
  }
  const inner = firstUnits(argA(n), set);
  return k == N_PLUS ? inner : true;
}

let skipLeft: i32 = 0;
let afterDone = false;

function afterWalk(cat: i32, set: usize): void {
  for (let c = argA(cat); c >= 0 && !afterDone; c = nextOf(c)) {
    const k = kindOf(c);
    if (k == N_ASSERT) continue;
    if (k == N_CAT) { afterWalk(c, set); continue; }
    if (k == N_CHAR && skipLeft > 0) { skipLeft--; continue; }
    if (!firstUnits(c, set)) afterDone = true;
  }
}

/**
 * The units that can follow the literal prefix (`prefixLen` units) in a match, into the 24-byte
 * set at `set`; its last word says whether a match may end right after the prefix.
 */
export function unitsAfterPrefix(prefixLen: i32, set: usize): void {
  memory.fill(set, 0, 24);
  if (root < 0 || kindOf(root) != N_CAT) { memory.fill(set, 0xff, 16); store<i32>(set + 16, 1); store<i32>(set + 20, 1); return; }
  skipLeft = prefixLen;
  afterDone = false;
  afterWalk(root, set);
  if (!afterDone) store<i32>(set + 20, 1);
}

// ---- suffix keys: the last two units a match can end with ---------------------------------------

/** Packs the last unit and the one before it. */
@inline export function suffixKey(last: u32, before: u32): u32 {
  return last | (before << 16);
}

const trail: usize = memory.data(8, 8);

/**
 * The possible (last, second-to-last) unit pairs of a match, ignoring a trailing optional `/`,
 * written as u32 keys to `dst` (at most `cap`); returns how many, or -1 when they cannot be listed
 * (then every path is a candidate). `**\/*.{ts,tsx}` gives `ts` and `sx`.
 */
export function suffixKeys(dst: usize, cap: i32): i32 {
  if (root < 0 || kindOf(root) != N_CAT) return -1;
  // The trailing literal units (at most two), then the node before them.
  let cat = root;
  let tail = 0;
  while (true) {
    let count = 0;
    for (let c = argA(cat); c >= 0; c = nextOf(c)) count++;
    let i = count - 1;
    let descended = false;
    for (; i >= 0; i--) {
      const c = childAt(cat, i);
      const k = kindOf(c);
      if (k == N_ASSERT) continue;
      if (k == N_OPT && tail == 0 && kindOf(argA(c)) == N_CHAR && argA(argA(c)) == Ch.SLASH) continue;
      if (k == N_CHAR) {
        store<u32>(trail + (<usize>tail << 2), argA(c));
        tail++;
        if (tail == 2) { store<u32>(dst, suffixKey(load<u32>(trail), load<u32>(trail + 4))); return 1; }
        continue;
      }
      if (k == N_CAT) { cat = c; descended = true; break; }
      if (k != N_ALT) return -1;
      // Each branch supplies the missing units.
      let keys = 0;
      for (let b = argA(c); b >= 0; b = nextOf(b)) {
        const len = branchSuffix(b, branchA);
        if (len + tail < 2 || keys >= cap) return -1;
        const last = tail == 1 ? load<u32>(trail) : <u32>load<u16>(branchA);
        const before = tail == 1 ? <u32>load<u16>(branchA) : <u32>load<u16>(branchA + 2);
        store<u32>(dst + (<usize>keys << 2), suffixKey(last, before));
        keys++;
      }
      return keys;
    }
    if (!descended) return -1;
  }
}
