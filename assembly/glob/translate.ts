// Glob → regular-expression source, with picomatch 4's answers. picomatch compiles a glob to a
// JavaScript RegExp through three routes (a table of whole-pattern fast paths, a character-escaping
// fast path for patterns without `/ ( ) [ ] { } "`, and a tokenizer); which route runs, and every
// quirk of each, decides what a pattern matches. This file reproduces the text those routes
// produce for the syntax we support, so the result can be checked against picomatch's own output
// byte for byte; regex.ts then compiles that text to a program that matches without backtracking.
// The two fast routes are in fastpaths.ts, the token records in tokens.ts; this file has the
// tokenizer and the entry point.
//
// Syntax we do not support is rejected with the index of the offending unit instead of being
// guessed at: extglobs and regex groups (`(`, `)`, `|`, `+(`…), quotes, POSIX classes, backslash
// escapes of letters, digits or backslashes (they are regex escapes such as `\d` in picomatch),
// `+` right after `]`/`{`/`}` (a regex quantifier there), runs of `+ $ ^ |` in the escaping fast
// path, NUL, and brace ranges whose ends are not letters or digits.

import {
  Ch, unitAt, spanEqualsStr, lastIndexOfUnit, indexOfUnit, isWordUnit, isAlnumUnit, DOT_LITERAL, SLASH_LITERAL,
  PLUS_LITERAL, ONE_CHAR, QMARK, QMARK_NO_DOT, STAR, NO_DOT, NO_DOT_SLASH, NO_DOTS_SLASH, GLOBSTAR_NO_DOT,
  GLOBSTAR_DOT, MAYBE_SLASH,
} from "./text";
import { validClass } from "./classes";
import {
  T, F_STAR, F_POSIX, F_COMMA, F_DOTS, TY, VP, VL, OP, OL, PREV, FL, OI, TI, TOKEN_SIZE, values, outputs, out,
  markFailed, hasFailed, resetTokens, get, put, typeOf, hasOutput, stash, newToken, tokStr, appendValue,
  appendOutput, appendOutputStr, setOutputStr, setValueStr, emitted, emit, outStr, outTruncate, isRegexSpecial,
  escapeInto, escapeLast,
} from "./tokens";
import { fastCreate, replaced, simpleRoute, fastOverflowed } from "./fastpaths";
import {
  GLOB_EMPTY, GLOB_UNSUPPORTED, GLOB_NO_SPACE, GLOB_FLAG_DOT, GLOB_RESULT_NEGATED, GLOB_RESULT_INVALID,
} from "../abi";
// Statuses and flags are in ../abi.ts; `errorIndex` tells where an unsupported construct starts.
// GLOB_RESULT_INVALID: the source is certainly not a valid RegExp (an unclosed brace leaves an open
// group).

// Workspace per pattern unit (n = units + 16): two string arenas of ARENA_UNITS units each, up to
// 3n token records, a token list of 4n entries (the tail is expandRange's scratch) and two stacks.
const ARENA_UNITS: usize = 64;
const WORK_PER_UNIT: usize = 2 * ARENA_UNITS * 2 + 3 * TOKEN_SIZE + 4 * 4 + 2 * 4;

/** Workspace the translator needs for a pattern of `units` code units, in bytes. */
export function translateWorkspaceSize(units: i32): usize {
  return (<usize>units + 16) * WORK_PER_UNIT;
}

/** Capacity the regex source needs for a pattern of `units` code units, in code units. */
export function translateSourceCapacity(units: i32): i32 {
  return (units + 16) * <i32>ARENA_UNITS;
}

let errorIndex: i32 = 0;
export function lastErrorIndex(): i32 {
  return errorIndex;
}

// ---- the tokenizer's state (picomatch's `state`, `tokens`, `braces` and `stack`) -------------------

let list: usize = 0; // the `tokens` array: record indices
let listLen: i32 = 0;
let braceStack: usize = 0; // open brace record indices
let braceLen: i32 = 0;
let kindStack: usize = 0; // picomatch's `stack`: 1 = brackets, 2 = braces
let kindLen: i32 = 0;

let input: usize = 0;
let len: i32 = 0;
let dot = false;
let index: i32 = -1;
let start: i32 = 0;
let brackets: i32 = 0;
let braces: i32 = 0;
let backtrack = false;
let negated = false;
let invalid = false;
let prev: i32 = 0;

// ---- the tokenizer's helpers ------------------------------------------------------------------

// @ts-ignore: decorator
@inline function peek(n: i32 = 1): i32 {
  const i = index + n;
  return i < len ? <i32>unitAt(input, i) : -1;
}
// @ts-ignore: decorator
@inline function eos(): bool {
  return index == len - 1;
}
// @ts-ignore: decorator
@inline function advance(): i32 {
  index++;
  return index < len ? <i32>unitAt(input, index) : -1;
}

function push(t: i32): void {
  const type = typeOf(t);
  if (typeOf(prev) == T.GLOBSTAR) {
    const isBrace = braces > 0 && (type == T.COMMA || type == T.BRACE);
    if (type != T.SLASH && !isBrace) {
      outTruncate(emitted(prev));
      put(prev, TY, T.STAR);
      setValueStr(prev, "*");
      setOutputStr(prev, STAR);
      emit(prev);
    }
  }
  if (get(t, VL) > 0 || get(t, OL) > 0) emit(t);
  if (typeOf(prev) == T.TEXT && type == T.TEXT) {
    appendOutput(prev, <usize>get(t, VP), get(t, VL));
    appendValue(prev, <usize>get(t, VP), get(t, VL));
    return;
  }
  put(t, PREV, prev);
  store<i32>(list + (<usize>(listLen++) << 2), t);
  prev = t;
}

/** Pushes a text token that starts with `t` and takes the plain text that follows. */
function pushTextFrom(t: i32): void {
  while (index + 1 < len && isPlainText(unitAt(input, index + 1))) {
    appendValue(t, input + (<usize>(index + 1) << 1), 1);
    index++;
  }
  push(t);
}

/** Pushes a text token of the unit at `at` and the plain text that follows. */
function pushText(at: i32): void {
  pushTextFrom(newToken(T.TEXT, input + (<usize>at << 1), 1, 0, -1));
}

function unsupported(at: i32): i32 {
  errorIndex = at;
  return GLOB_UNSUPPORTED;
}

/** Characters the tokenizer batches into one text token (REGEX_NON_SPECIAL_CHARS). */
function isPlainText(c: u32): bool {
  return !(c == Ch.AT || c == Ch.BANG || c == Ch.LBRACKET || c == Ch.RBRACKET || c == Ch.DOT ||
    c == Ch.COMMA || c == Ch.DOLLAR || c == Ch.STAR || c == Ch.PLUS || c == Ch.QMARK ||
    c == Ch.CARET || c == Ch.LBRACE || c == Ch.RBRACE || c == Ch.LPAREN || c == Ch.RPAREN ||
    c == Ch.PIPE || c == Ch.BACKSLASH || c == Ch.SLASH);
}

// ---- route 1: picomatch.makeRe's whole-pattern fast paths --------------------------------------

// ---- route 2: parse's escaping fast path -------------------------------------------------------

// ---- route 3: the tokenizer --------------------------------------------------------------------

function closeBracket(): void {
  // `]` that closes a class: picomatch adds `/` to negated classes and, when the class has no
  // regex-special characters, also accepts the bracket expression as literal text.
  brackets--;
  kindLen--;
  const vp = <usize>get(prev, VP), vl = get(prev, VL);
  const inner = vp + 2, innerLen = vl - 1;
  const negatedClass = innerLen > 0 && unitAt(inner, 0) == Ch.CARET;
  if ((get(prev, FL) & F_POSIX) == 0 && negatedClass && indexOfUnit(inner, 0, innerLen, Ch.SLASH) < 0) {
    appendValue(prev, changetype<usize>("/]"), 2);
    outStr("/]");
  } else {
    appendValue(prev, changetype<usize>("]"), 1);
    outStr("]");
  }
  for (let i = 0; i < innerLen; i++) if (isRegexSpecial(unitAt(inner, i))) return;
  const full = <usize>get(prev, VP), fullLen = get(prev, VL);
  outTruncate(fullLen);
  const at = values.end();
  values.pushStr("(?:");
  escapeInto(values, full, fullLen);
  values.pushStr("|");
  if (!values.push(full, fullLen)) markFailed();
  values.pushStr(")");
  put(prev, VP, <i32>at);
  put(prev, VL, <i32>((values.end() - at) >> 1));
  emit(prev); // bracket tokens have no output: their value is what goes out
}

function closeBrace(at: i32): i32 {
  const brace = braceLen > 0 ? load<i32>(braceStack + (<usize>(braceLen - 1) << 2)) : -1;
  if (brace < 0) { push(tokStr(T.TEXT, "}", "}")); return 0; }
  let closeValue = "}";
  let closeOut: usize = changetype<usize>(")"), closeOutLen = 1;
  if ((get(brace, FL) & F_DOTS) != 0) {
    // A range: the tokens after the brace become expandRange's arguments.
    const first = get(brace, TI);
    let args = 0;
    for (let i = first + 1; i < listLen; i++) {
      const t = load<i32>(list + (<usize>i << 2));
      const ty = typeOf(t);
      if (ty == T.DOTS) continue;
      if (ty != T.TEXT || get(t, VL) == 0) return unsupported(at);
      const vp = <usize>get(t, VP), vl = get(t, VL);
      for (let k = 0; k < vl; k++) if (!isAlnumUnit(unitAt(vp, k))) return unsupported(at);
      args++;
    }
    const rangeStart = outputs.end();
    expandRange(first + 1, args);
    closeOut = rangeStart;
    closeOutLen = <i32>((outputs.end() - rangeStart) >> 1);
    listLen = first; // pops the brace token and everything after it
    backtrack = true;
  }
  if ((get(brace, FL) & (F_COMMA | F_DOTS)) == 0) {
    // No comma and no range: literal braces, and the output is rebuilt with `output || value`.
    out.len = get(brace, OI);
    setValueStr(brace, "\\{");
    setOutputStr(brace, "\\{");
    for (let i = get(brace, TI); i < listLen; i++) {
      const t = load<i32>(list + (<usize>i << 2));
      if (get(t, OL) > 0) { if (!out.push(<usize>get(t, OP), get(t, OL))) markFailed(); }
      else if (!out.push(<usize>get(t, VP), get(t, VL))) markFailed();
    }
    closeValue = "\\}";
    closeOut = changetype<usize>("\\}");
    closeOutLen = 2;
  }
  const t = newToken(T.BRACE, changetype<usize>(closeValue), closeValue.length, closeOut, closeOutLen);
  push(t);
  braces--;
  kindLen--;
  braceLen--;
  return 0;
}

/** expandRange: the sorted arguments joined by `-` as a class, or escaped and joined by `..`. */
function expandRange(firstIndex: i32, count: i32): void {
  // Gather argument token ids, sort them by value (code-unit order, as Array#sort does).
  const ids = list + (<usize>listLen << 2); // scratch after the live list
  let k = 0;
  for (let i = firstIndex; i < listLen; i++) {
    const t = load<i32>(list + (<usize>i << 2));
    if (typeOf(t) == T.TEXT) store<i32>(ids + (<usize>(k++) << 2), t);
  }
  for (let i = 1; i < count; i++) {
    const t = load<i32>(ids + (<usize>i << 2));
    let j = i - 1;
    while (j >= 0 && compareValues(load<i32>(ids + (<usize>j << 2)), t) > 0) {
      store<i32>(ids + (<usize>(j + 1) << 2), load<i32>(ids + (<usize>j << 2)));
      j--;
    }
    store<i32>(ids + (<usize>(j + 1) << 2), t);
  }
  const at = outputs.end();
  outputs.pushUnit(Ch.LBRACKET);
  for (let i = 0; i < count; i++) {
    const t = load<i32>(ids + (<usize>i << 2));
    if (i > 0) outputs.pushUnit(Ch.DASH);
    outputs.push(<usize>get(t, VP), get(t, VL));
  }
  outputs.pushUnit(Ch.RBRACKET);
  const classLen = <i32>((outputs.end() - at) >> 1);
  if (validClass(at, classLen)) return;
  outputs.len -= classLen;
  for (let i = 0; i < count; i++) {
    const t = load<i32>(ids + (<usize>i << 2));
    if (i > 0) { outputs.pushUnit(Ch.DOT); outputs.pushUnit(Ch.DOT); }
    escapeInto(outputs, <usize>get(t, VP), get(t, VL));
  }
}

function compareValues(a: i32, b: i32): i32 {
  const ap = <usize>get(a, VP), al = get(a, VL), bp = <usize>get(b, VP), bl = get(b, VL);
  const n = min(al, bl);
  for (let i = 0; i < n; i++) {
    const d = <i32>unitAt(ap, i) - <i32>unitAt(bp, i);
    if (d != 0) return d;
  }
  return al - bl;
}

function star(): i32 {
  // A `*` right after a globstar or a merged star joins it as a plain star.
  if (typeOf(prev) == T.GLOBSTAR || (get(prev, FL) & F_STAR) != 0) {
    put(prev, TY, T.STAR);
    put(prev, FL, get(prev, FL) | F_STAR);
    appendValue(prev, changetype<usize>("*"), 1);
    setOutputStr(prev, STAR);
    backtrack = true;
    return 0;
  }
  if (peek() == Ch.LPAREN) return unsupported(index + 1);
  if (typeOf(prev) == T.STAR) return secondStar();
  const t = tokStr(T.STAR, "*", STAR);
  const pt = typeOf(prev);
  if (index == start || pt == T.SLASH || pt == T.DOT) {
    const guard = pt == T.DOT ? NO_DOT_SLASH : dot ? NO_DOTS_SLASH : NO_DOT;
    outStr(guard);
    appendOutputStr(prev, guard);
    if (peek() != Ch.STAR) { outStr(ONE_CHAR); appendOutputStr(prev, ONE_CHAR); }
  }
  push(t);
  return 0;
}

function secondStar(): i32 {
  const prior = get(prev, PREV);
  const pt = typeOf(prior);
  const isStart = pt == T.SLASH || pt == T.BOS;
  const before = pt != T.BOS ? get(prior, PREV) : 0;
  const afterStar = pt != T.BOS && (typeOf(before) == T.STAR || typeOf(before) == T.GLOBSTAR);
  const isBrace = braces > 0 && (pt == T.COMMA || pt == T.BRACE);
  if (!isStart && !isBrace) { push(tokStr(T.STAR, "*", "")); return 0; }
  // strip consecutive `/**`
  while (index + 3 < len && unitAt(input, index + 1) == Ch.SLASH && unitAt(input, index + 2) == Ch.STAR &&
    unitAt(input, index + 3) == Ch.STAR) {
    if (index + 4 < len && unitAt(input, index + 4) != Ch.SLASH) break;
    index += 3;
  }
  const restLen = len - index - 1;
  const restFirst = restLen > 0 ? unitAt(input, index + 1) : 0;
  const globstar = dot ? GLOBSTAR_DOT : GLOBSTAR_NO_DOT;
  const priorPrevIsBos = pt != T.BOS && typeOf(get(prior, PREV)) == T.BOS;
  if (pt == T.BOS && eos()) {
    put(prev, TY, T.GLOBSTAR);
    appendValue(prev, changetype<usize>("*"), 1);
    setOutputStr(prev, globstar);
    out.len = 0;
    emit(prev);
    return 0;
  }
  if (pt == T.SLASH && !priorPrevIsBos && !afterStar && eos()) {
    outTruncate(emitted(prior) + emitted(prev));
    prefixOutput(prior, "(?:");
    put(prev, TY, T.GLOBSTAR);
    const at = outputs.end();
    outputs.pushStr(globstar); outputs.pushStr("|$)");
    put(prev, OP, <i32>at);
    put(prev, OL, <i32>((outputs.end() - at) >> 1));
    appendValue(prev, changetype<usize>("*"), 1);
    emit(prior);
    emit(prev);
    return 0;
  }
  if (pt == T.SLASH && !priorPrevIsBos && restFirst == Ch.SLASH) {
    outTruncate(emitted(prior) + emitted(prev));
    prefixOutput(prior, "(?:");
    put(prev, TY, T.GLOBSTAR);
    const at = outputs.end();
    outputs.pushStr(globstar); outputs.pushStr(SLASH_LITERAL); outputs.pushStr("|"); outputs.pushStr(SLASH_LITERAL);
    if (restLen > 1) outputs.pushStr("|$");
    outputs.pushStr(")");
    put(prev, OP, <i32>at);
    put(prev, OL, <i32>((outputs.end() - at) >> 1));
    appendValue(prev, changetype<usize>("*"), 1);
    emit(prior);
    emit(prev);
    advance();
    push(tokStr(T.SLASH, "/", ""));
    return 0;
  }
  if (pt == T.BOS && restFirst == Ch.SLASH) {
    put(prev, TY, T.GLOBSTAR);
    appendValue(prev, changetype<usize>("*"), 1);
    const at = outputs.end();
    outputs.pushStr("(?:^|"); outputs.pushStr(SLASH_LITERAL); outputs.pushStr("|");
    outputs.pushStr(globstar); outputs.pushStr(SLASH_LITERAL); outputs.pushStr(")");
    put(prev, OP, <i32>at);
    put(prev, OL, <i32>((outputs.end() - at) >> 1));
    out.len = 0;
    emit(prev);
    advance();
    push(tokStr(T.SLASH, "/", ""));
    return 0;
  }
  outTruncate(emitted(prev));
  put(prev, TY, T.GLOBSTAR);
  setOutputStr(prev, globstar);
  appendValue(prev, changetype<usize>("*"), 1);
  emit(prev);
  return 0;
}

function prefixOutput(t: i32, s: string): void {
  const at = outputs.end();
  outputs.pushStr(s);
  if (hasOutput(t)) outputs.push(<usize>get(t, OP), get(t, OL));
  else outputs.push(<usize>get(t, VP), get(t, VL));
  put(t, OP, <i32>at);
  put(t, OL, <i32>((outputs.end() - at) >> 1));
}

function tokenize(): i32 {
  const bos = tokStr(T.BOS, "", "");
  store<i32>(list, bos);
  listLen = 1;
  prev = bos;
  while (!eos()) {
    if (hasFailed()) return GLOB_NO_SPACE;
    let c = advance();
    const at = index;
    // The common tokens first, outside any bracket: a run of plain text, `/` and `*` are handled
    // exactly as the full chain below would handle them. V8 charges a loop iteration the code size
    // up to the point where it loops back, so leaving early keeps this loop on the baseline tier
    // through a cold start (a fresh process compiling its rules) instead of queueing an optimizing
    // compile of the whole tokenizer that competes with the caller for the CPU.
    if (brackets == 0) {
      if (isPlainText(c) && c != Ch.QUOTE && c != Ch.NUL) {
        pushText(at);
        continue;
      }
      if (c == Ch.SLASH && !(typeOf(prev) == T.DOT && index == start + 1)) {
        push(tokStr(T.SLASH, "/", SLASH_LITERAL));
        continue;
      }
      if (c == Ch.STAR) {
        const r = star();
        if (r < 0) return r;
        continue;
      }
    }
    let escaped = false; // `value` is a backslash escape of two units
    if (c == Ch.BACKSLASH) {
      const next = peek();
      if (next == Ch.SLASH || next == Ch.DOT || next == Ch.SEMI) continue;
      if (next < 0 || next == Ch.BACKSLASH || isWordUnit(<u32>next)) return unsupported(at);
      advance();
      escaped = true;
      if (brackets == 0) {
        push(newToken(T.TEXT, input + (<usize>at << 1), 2, 0, -1));
        continue;
      }
    }
    if (brackets > 0) {
      const pv = <usize>get(prev, VP), pl = get(prev, VL);
      const prevIsOpen = spanEqualsStr(pv, pl, "[") || spanEqualsStr(pv, pl, "[^");
      if (escaped || c != Ch.RBRACKET || prevIsOpen) {
        if (escaped) {
          appendValue(prev, input + (<usize>at << 1), 2);
          if (!out.push(input + (<usize>at << 1), 2)) markFailed();
          continue;
        }
        if (c == Ch.COLON && indexOfUnit(pv, 1, pl, Ch.LBRACKET) >= 0) {
          // picomatch's POSIX-class handling: a `[` inside the class marks it (a marked class gets no
          // `/` when negated); `[:name:` with a known name would become a range list: refused.
          put(prev, FL, get(prev, FL) | F_POSIX);
          if (indexOfUnit(pv, 1, pl, Ch.COLON) >= 0) {
            const open = lastIndexOfUnit(pv, pl, Ch.LBRACKET);
            if (isPosixClassName(pv + (<usize>(open + 2) << 1), pl - open - 2)) return unsupported(at);
          }
        }
        if ((c == Ch.LBRACKET && peek() != Ch.COLON) || (c == Ch.DASH && peek() == Ch.RBRACKET) ||
          (c == Ch.RBRACKET && prevIsOpen)) {
          store<u16>(scratch2, Ch.BACKSLASH); // escaped: a backslash followed by the unit
          store<u16>(scratch2 + 2, <u16>c);
          appendValue(prev, scratch2, 2);
          if (!out.push(scratch2, 2)) markFailed();
          continue;
        }
        store<u16>(scratch2, <u16>c);
        appendValue(prev, scratch2, 1);
        if (!out.pushUnit(c)) markFailed();
        continue;
      }
    }
    if (c == Ch.QUOTE || c == Ch.LPAREN || c == Ch.RPAREN || c == Ch.PIPE || c == Ch.NUL) return unsupported(at);
    if (c == Ch.LBRACKET) {
      if (indexOfUnit(input, index + 1, len, Ch.RBRACKET) < 0) {
        push(tokStr(T.BRACKET, "\\[", null));
      } else {
        brackets++;
        store<i32>(kindStack + (<usize>(kindLen++) << 2), 1);
        push(tokStr(T.BRACKET, "[", null));
      }
      continue;
    }
    if (c == Ch.RBRACKET) {
      if ((typeOf(prev) == T.BRACKET && get(prev, VL) == 1) || brackets == 0) {
        push(tokStr(T.TEXT, "]", "\\]"));
        continue;
      }
      closeBracket();
      continue;
    }
    if (c == Ch.LBRACE) {
      braces++;
      store<i32>(kindStack + (<usize>(kindLen++) << 2), 2);
      const t = tokStr(T.BRACE, "{", "(");
      put(t, OI, out.len);
      put(t, TI, listLen);
      store<i32>(braceStack + (<usize>(braceLen++) << 2), t);
      push(t);
      continue;
    }
    if (c == Ch.RBRACE) {
      const r = closeBrace(at);
      if (r < 0) return r;
      continue;
    }
    if (c == Ch.COMMA) {
      const innermostIsBrace = braceLen > 0 && kindLen > 0 && load<i32>(kindStack + (<usize>(kindLen - 1) << 2)) == 2;
      if (innermostIsBrace) {
        const brace = load<i32>(braceStack + (<usize>(braceLen - 1) << 2));
        put(brace, FL, get(brace, FL) | F_COMMA);
        push(tokStr(T.COMMA, ",", "|"));
      } else {
        push(tokStr(T.COMMA, ",", ","));
      }
      continue;
    }
    if (c == Ch.SLASH) {
      if (typeOf(prev) == T.DOT && index == start + 1) {
        start = index + 1;
        out.len = 0;
        listLen--;
        prev = load<i32>(list);
        continue;
      }
      push(tokStr(T.SLASH, "/", SLASH_LITERAL));
      continue;
    }
    if (c == Ch.DOT) {
      if (braces > 0 && typeOf(prev) == T.DOT) {
        if (spanEqualsStr(<usize>get(prev, VP), get(prev, VL), ".")) setOutputStr(prev, DOT_LITERAL);
        put(prev, TY, T.DOTS);
        appendOutputStr(prev, ".");
        appendValue(prev, changetype<usize>("."), 1);
        const brace = load<i32>(braceStack + (<usize>(braceLen - 1) << 2));
        put(brace, FL, get(brace, FL) | F_DOTS);
        continue;
      }
      const pt = typeOf(prev);
      if (braces == 0 && pt != T.BOS && pt != T.SLASH) push(tokStr(T.TEXT, ".", DOT_LITERAL));
      else push(tokStr(T.DOT, ".", DOT_LITERAL));
      continue;
    }
    if (c == Ch.QMARK) {
      if (peek() == Ch.LPAREN) return unsupported(at);
      const pt = typeOf(prev);
      push(tokStr(T.QMARK, "?", !dot && (pt == T.SLASH || pt == T.BOS) ? QMARK_NO_DOT : QMARK));
      continue;
    }
    if (c == Ch.BANG) {
      if (peek() == Ch.LPAREN) return unsupported(at);
      if (index == 0) { negate(); continue; }
    }
    if (c == Ch.PLUS) {
      if (peek() == Ch.LPAREN) return unsupported(at);
      const pt = typeOf(prev);
      if (pt == T.BRACKET || pt == T.BRACE) return unsupported(at);
      push(tokStr(T.PLUS, PLUS_LITERAL, null));
      continue;
    }
    if (c == Ch.AT) {
      // `@` is text of its own: unlike other text, nothing is batched after it.
      if (peek() == Ch.LPAREN) return unsupported(at);
      push(newToken(T.TEXT, input + (<usize>at << 1), 1, 0, -1));
      continue;
    }
    if (c != Ch.STAR) {
      if (c == Ch.DOLLAR) pushTextFrom(tokStr(T.TEXT, "\\$", null));
      else if (c == Ch.CARET) pushTextFrom(tokStr(T.TEXT, "\\^", null));
      else pushText(at);
      continue;
    }
    const r = star();
    if (r < 0) return r;
  }
  while (brackets > 0) { escapeLast(Ch.LBRACKET); brackets--; }
  if (braces > 0) invalid = true;
  while (braces > 0) { escapeLast(Ch.LBRACE); braces--; }
  const pt = typeOf(prev);
  if (pt == T.STAR || pt == T.BRACKET) push(tokStr(T.MAYBE_SLASH, "", MAYBE_SLASH));
  if (backtrack) {
    out.len = 0;
    for (let i = 0; i < listLen; i++) emit(load<i32>(list + (<usize>i << 2)));
  }
  return hasFailed() ? GLOB_NO_SPACE : 0;
}

const scratch2: usize = memory.data(8, 8);

/** picomatch's POSIX_REGEX_SOURCE keys. */
function isPosixClassName(p: usize, n: i32): bool {
  return spanEqualsStr(p, n, "alnum") || spanEqualsStr(p, n, "alpha") || spanEqualsStr(p, n, "ascii") ||
    spanEqualsStr(p, n, "blank") || spanEqualsStr(p, n, "cntrl") || spanEqualsStr(p, n, "digit") ||
    spanEqualsStr(p, n, "graph") || spanEqualsStr(p, n, "lower") || spanEqualsStr(p, n, "print") ||
    spanEqualsStr(p, n, "punct") || spanEqualsStr(p, n, "space") || spanEqualsStr(p, n, "upper") ||
    spanEqualsStr(p, n, "word") || spanEqualsStr(p, n, "xdigit");
}

function negate(): void {
  let count = 1;
  while (peek() == Ch.BANG && peek(2) != Ch.LPAREN) {
    advance();
    start++;
    count++;
  }
  if ((count & 1) == 0) return;
  negated = true;
  start++;
}

// ---- entry ------------------------------------------------------------------------------------

/**
 * Translates the glob at `pattern` (`units` UTF-16 code units) into picomatch's regex source,
 * written to `outPtr` (capacity `outCap` units). Returns the source length, or a negative status
 * (`lastErrorIndex()` locates GLOB_UNSUPPORTED). `flags` takes GLOB_FLAG_DOT; the result flags (negation)
 * are stored as an i32 at `flagsOut`.
 */
export function translate(pattern: usize, units: i32, flags: i32, work: usize, outPtr: usize, outCap: i32, flagsOut: usize): i32 {
  errorIndex = 0;
  if (units == 0) return GLOB_EMPTY;
  for (let i = 0; i < units; i++) if (unitAt(pattern, i) == Ch.NUL) return unsupported(i);
  dot = (flags & GLOB_FLAG_DOT) != 0;
  negated = false;
  invalid = false;
  const n = <usize>units + 16;
  out.reset(outPtr, outCap);
  values.reset(work, <i32>(n * ARENA_UNITS));
  outputs.reset(work + n * ARENA_UNITS * 2, <i32>(n * ARENA_UNITS));
  const records = work + n * ARENA_UNITS * 4;
  resetTokens(records);
  list = records + n * 3 * TOKEN_SIZE;
  braceStack = list + n * 4 * 4;
  kindStack = braceStack + n * 4;
  listLen = 0; braceLen = 0; kindLen = 0;
  store<i32>(flagsOut, 0);

  // Route 1: makeRe tries the fast paths when the pattern starts with `.` or `*`.
  const first = unitAt(pattern, 0);
  let p = pattern, plen = replaced(pattern, units);
  let isReplacement = plen < 0;
  if (isReplacement) { plen = units == 3 ? 1 : 2; p = changetype<usize>("**"); if (units == 3) p = changetype<usize>("*"); }
  if (first == Ch.DOT || first == Ch.STAR) {
    let fp = p, fl = plen;
    if (fl >= 2 && unitAt(fp, 0) == Ch.DOT && unitAt(fp, 1) == Ch.SLASH) { fp += 4; fl -= 2; }
    if (fastCreate(out, fp, fl, dot)) {
      outStr(MAYBE_SLASH);
      return fastOverflowed() || hasFailed() ? GLOB_NO_SPACE : out.len;
    }
    out.len = 0;
    fastOverflowed();
  }
  // parse(): REPLACEMENTS, one leading `./` removed.
  if (plen >= 2 && unitAt(p, 0) == Ch.DOT && unitAt(p, 1) == Ch.SLASH) { p += 4; plen -= 2; }
  input = p;
  len = plen;
  // Route 2: no `/ ( ) [ ] { } "` and not starting with `*` or `!`.
  let simple = !(plen > 0 && (unitAt(p, 0) == Ch.STAR || unitAt(p, 0) == Ch.BANG));
  for (let i = 0; simple && i < plen; i++) {
    const c = unitAt(p, i);
    if (c == Ch.SLASH || c == Ch.LPAREN || c == Ch.RPAREN || c == Ch.LBRACKET || c == Ch.RBRACKET ||
      c == Ch.LBRACE || c == Ch.RBRACE || c == Ch.QUOTE) simple = false;
  }
  let r: i32;
  if (simple) {
    r = simpleRoute(out, p, plen, dot);
    if (fastOverflowed()) markFailed();
    if (r < 0) r = unsupported(-1 - r);
  } else {
    index = -1;
    start = 0;
    brackets = 0;
    braces = 0;
    backtrack = false;
    r = tokenize();
  }
  if (r < 0) {
    // Indexes into the stripped pattern are reported against the caller's pattern.
    if (r == GLOB_UNSUPPORTED && p >= pattern && p < pattern + (<usize>units << 1)) errorIndex += <i32>((p - pattern) >> 1);
    return r;
  }
  if (hasFailed()) return GLOB_NO_SPACE;
  store<i32>(flagsOut, (negated ? GLOB_RESULT_NEGATED : 0) | (invalid ? GLOB_RESULT_INVALID : 0));
  return out.len;
}
