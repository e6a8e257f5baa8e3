// Token records and the string arenas of the glob translator (translate.ts): picomatch's token
// objects (type, value, output, prev) as fixed-size records in the workspace, values and outputs as
// spans in two append-only arenas (a string is grown in place when it is its arena's last), and
// picomatch's `state.output` as one more buffer. Nothing here is allocated by the runtime.

import { Buf, Ch, unitAt, lastIndexOfUnit } from "./text";

/** Bytes per token record. */
export const TOKEN_SIZE: usize = 40;

/** Token types, as picomatch names them. */
export const enum T { BOS = 1, TEXT, SLASH, DOT, DOTS, STAR, GLOBSTAR, QMARK, BRACKET, BRACE, COMMA, PLUS, MAYBE_SLASH }

/** Token flags. */
export const F_STAR: i32 = 1, F_POSIX: i32 = 2, F_COMMA: i32 = 4, F_DOTS: i32 = 8;

// Record fields (i32): type, value ptr, value len, output ptr, output len (-1: none), prev token,
// flags, output index (braces), tokens index (braces), spare.
export const TY = 0, VP = 4, VL = 8, OP = 12, OL = 16, PREV = 20, FL = 24, OI = 28, TI = 32;

let pool: usize = 0; // token records
let poolCount: i32 = 0;

/** Token values, token outputs, and picomatch's `state.output`. */
export const values = changetype<Buf>(memory.data(16, 8));
export const outputs = changetype<Buf>(memory.data(16, 8));
export const out = changetype<Buf>(memory.data(16, 8));

let failed = false; // out of workspace

/** Notes that an arena or the output ran out of room (the translation then fails with NO_SPACE). */
export function markFailed(): void {
  failed = true;
}
export function hasFailed(): bool {
  return failed;
}

/** Starts a translation: token records at `records`, arenas and output already reset by the caller. */
export function resetTokens(records: usize): void {
  pool = records;
  poolCount = 0;
  failed = false;
}

// @ts-ignore: decorator
@inline export function rec(t: i32): usize {
  return pool + <usize>t * TOKEN_SIZE;
}

// @ts-ignore: decorator
@inline export function get(t: i32, f: usize): i32 {
  return load<i32>(rec(t) + f);
}

// @ts-ignore: decorator
@inline export function put(t: i32, f: usize, v: i32): void {
  store<i32>(rec(t) + f, v);
}

// @ts-ignore: decorator
@inline export function typeOf(t: i32): i32 {
  return get(t, TY);
}

// @ts-ignore: decorator
@inline export function hasOutput(t: i32): bool {
  return get(t, OL) >= 0;
}

/** Copies a span into an arena; returns its new pointer. */
export function stash(arena: Buf, src: usize, n: i32): usize {
  const at = arena.end();
  if (!arena.push(src, n)) failed = true;
  return at;
}

export function newToken(type: i32, vp: usize, vl: i32, op: usize, ol: i32): i32 {
  const t = poolCount++;
  put(t, TY, type);
  put(t, VP, <i32>stash(values, vp, vl));
  put(t, VL, vl);
  if (ol >= 0) {
    put(t, OP, <i32>stash(outputs, op, ol));
    put(t, OL, ol);
  } else {
    put(t, OP, 0);
    put(t, OL, -1);
  }
  put(t, PREV, 0);
  put(t, FL, 0);
  put(t, OI, 0);
  put(t, TI, 0);
  return t;
}

export function tokStr(type: i32, value: string, output: string | null): i32 {
  if (output === null) return newToken(type, changetype<usize>(value), value.length, 0, -1);
  return newToken(type, changetype<usize>(value), value.length, changetype<usize>(output), output.length);
}

/**
 * Appends `n` units at `src` to the span whose pointer and length are the token's fields `pf`/`lf`
 * in `arena`: in place when the span is the arena's last string, else as a new copy.
 */
function appendSpan(arena: Buf, t: i32, pf: usize, lf: usize, src: usize, n: i32): void {
  const p = <usize>get(t, pf), len = get(t, lf);
  if (p + (<usize>len << 1) == arena.end()) {
    if (!arena.push(src, n)) failed = true;
  } else {
    const at = stash(arena, p, len);
    stash(arena, src, n);
    put(t, pf, <i32>at);
  }
  put(t, lf, len + n);
}

/** Appends to a token's value. */
export function appendValue(t: i32, src: usize, n: i32): void {
  appendSpan(values, t, VP, VL, src, n);
}

/** Appends to a token's output; a missing or empty output counts as its value (JavaScript's `||`). */
export function appendOutput(t: i32, src: usize, n: i32): void {
  if (get(t, OL) <= 0) {
    // `(prev.output || prev.value) + x` for merges; `output += x` never meets a missing output.
    put(t, OP, <i32>stash(outputs, <usize>get(t, VP), get(t, VL)));
    put(t, OL, get(t, VL));
  }
  appendSpan(outputs, t, OP, OL, src, n);
}

/** `output += s` on a token whose output exists (possibly empty). */
export function appendOutputStr(t: i32, s: string): void {
  if (get(t, OL) == 0) {
    setOutputStr(t, s);
    return;
  }
  appendSpan(outputs, t, OP, OL, changetype<usize>(s), s.length);
}

export function setOutputStr(t: i32, s: string): void {
  put(t, OP, <i32>stash(outputs, changetype<usize>(s), s.length));
  put(t, OL, s.length);
}

export function setValueStr(t: i32, s: string): void {
  put(t, VP, <i32>stash(values, changetype<usize>(s), s.length));
  put(t, VL, s.length);
}

/** Length of what a token contributes to the output: output if present, else value. */
export function emitted(t: i32): i32 {
  return hasOutput(t) ? get(t, OL) : get(t, VL);
}

export function emit(t: i32): void {
  if (hasOutput(t)) { if (!out.push(<usize>get(t, OP), get(t, OL))) failed = true; }
  else if (!out.push(<usize>get(t, VP), get(t, VL))) failed = true;
}

export function outStr(s: string): void {
  if (!out.pushStr(s)) failed = true;
}

export function outTruncate(by: i32): void {
  out.len = max(0, out.len - by);
}

/** REGEX_SPECIAL_CHARS: `- * + ? . ^ $ { } ( | ) [ ]`. */
export function isRegexSpecial(c: u32): bool {
  return c == Ch.DASH || c == Ch.STAR || c == Ch.PLUS || c == Ch.QMARK || c == Ch.DOT || c == Ch.CARET ||
    c == Ch.DOLLAR || c == Ch.LBRACE || c == Ch.RBRACE || c == Ch.LPAREN || c == Ch.PIPE ||
    c == Ch.RPAREN || c == Ch.LBRACKET || c == Ch.RBRACKET;
}

/** escapeRegex of a span into the value arena; returns the new length (pointer is the old end). */
export function escapeInto(arena: Buf, src: usize, n: i32): i32 {
  const before = arena.len;
  for (let i = 0; i < n; i++) {
    const c = unitAt(src, i);
    if (isRegexSpecial(c)) { if (!arena.pushUnit(Ch.BACKSLASH)) failed = true; }
    if (!arena.pushUnit(c)) failed = true;
  }
  return arena.len - before;
}

/** utils.escapeLast on state.output. */
export function escapeLast(c: u32): void {
  let before = out.len;
  while (true) {
    const idx = lastIndexOfUnit(out.start, before, c);
    if (idx < 0) return;
    if (idx > 0 && unitAt(out.start, idx - 1) == Ch.BACKSLASH) { before = idx - 1; continue; }
    if (out.len + 1 > out.cap) { failed = true; return; }
    const at = out.start + (<usize>idx << 1);
    memory.copy(at + 2, at, <usize>(out.len - idx) << 1);
    store<u16>(at, Ch.BACKSLASH);
    out.len++;
    return;
  }
}
