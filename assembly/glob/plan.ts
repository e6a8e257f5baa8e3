// Segment plans: exact matchers for the regex shapes picomatch builds for the globs rule files list
// most (`**/*.rs`, `src/**`, `docs/**/*.md`, `**/README.md`, `crates/*/src/**`, `*.json`, …), so
// that the paths they match never run the DFA. A DFA steps every unit of a path through a table
// (3–4 ns a unit once its states are cached); a plan compares the literal segments, finds segment
// ends, and scans once for what picomatch's globstar refuses (a segment starting with `.`, or `.`/`..`
// with `dot`, and line terminators, which `.` does not match), so a path that a rule matches costs
// about as much as one it does not.
//
// A plan is read off the regex source, token by exact token (the fragments of text.ts), and exists
// only when the whole source is: an optional globstar head (`(?:^|\/|GS\/)` or `(?:NODOT GS\/)?`),
// a body of literals, `\/`, at most one `*` segment per path segment (`(?!\.)(?=.)[^/]*?` or a bare
// `[^/]*?` after a literal) and at most one group of literal alternatives `(a|b)`, then optionally a
// globstar tail `(?:\/NODOT GS|$)`, or a globstar middle `(?:\/NODOT GS\/|\/|$)` and a second body,
// and optionally a final `\/?`. Anything else keeps its DFA. Matching tries each segment start the
// head allows and each alternative: at most (segments + 1) × alternatives body checks, each bounded by
// the pattern's length and the segments it spans, so time stays linear in path length × pattern size.

import { unitAt, isAlnumUnit, isLineTerminator, Ch, STAR, MAYBE_SLASH, SLASH_LITERAL } from "./text";

// Plan words (u16): flags, body one's length in words and its items, body two's length and items.
const F_HEAD_A: u32 = 1, F_HEAD_B: u32 = 2, F_TAIL: u32 = 4, F_MID: u32 = 8, F_OPT_SLASH: u32 = 16, F_DOT: u32 = 32, F_ALT: u32 = 64;
// Items: OP_LIT len units…; OP_SLASH; OP_SEG / OP_SEG0 (a `*` segment's start checks, then its
// units up to the segment's end); OP_STAR (no checks); OP_ALT count (len units…)×count.
const OP_LIT: u32 = 1, OP_SLASH: u32 = 2, OP_SEG: u32 = 3, OP_SEG0: u32 = 4, OP_STAR: u32 = 5, OP_ALT: u32 = 6;
/** Most words a plan may take: every length in it is a u16. */
const MAX_PLAN_WORDS: i32 = 0xffff;
/** Most alternatives a plan's one group may have (more keep the DFA). */
const MAX_ALTS: i32 = 32;

// ---- reading the source ---------------------------------------------------------------------------

let src: usize = 0;
let srcEnd: i32 = 0;
let dotMode: bool = false;
let out: usize = 0;
let outLen: i32 = 0;
let outCap: i32 = 0;
let failed: bool = false;
let alts = 0;

function emit(w: u32): void {
  if (outLen >= outCap) { failed = true; return; }
  store<u16>(out + (<usize>(outLen++) << 1), <u16>w);
}

/** Whether the source holds `s` at `i`. */
function at(i: i32, s: string): bool {
  const n = s.length;
  if (i + n > srcEnd) return false;
  return memory.compare(src + (<usize>i << 1), changetype<usize>(s), <usize>n << 1) == 0;
}

// The fragments, whole, in both modes: text.ts's pieces as picomatch joins them (written out: the
// module has no allocator, so nothing may be concatenated at run time).
const HEAD_A = "(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.).)*?)\\/)";
const HEAD_A_DOT = "(?:^|\\/|(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)";
const HEAD_B = "(?:(?!\\.)(?:(?:(?!(?:^|\\/)\\.).)*?)\\/)?";
const HEAD_B_DOT = "(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/)?";
const TAIL = "(?:\\/(?!\\.)(?:(?:(?!(?:^|\\/)\\.).)*?)|$)";
const TAIL_DOT = "(?:\\/(?!\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)|$)";
const MIDDLE = "(?:\\/(?!\\.)(?:(?:(?!(?:^|\\/)\\.).)*?)\\/|\\/|$)";
const MIDDLE_DOT = "(?:\\/(?!\\.{1,2}(?:\\/|$))(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)\\/|\\/|$)";
const SEG = "(?!\\.)(?=.)[^/]*?";
const SEG_DOT = "(?!\\.{1,2}(?:\\/|$))(?=.)[^/]*?";
const SEG0_DOT = "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))(?=.)[^/]*?";

function headA(): string { return dotMode ? HEAD_A_DOT : HEAD_A; }
function headB(): string { return dotMode ? HEAD_B_DOT : HEAD_B; }
function tail(): string { return dotMode ? TAIL_DOT : TAIL; }
function middle(): string { return dotMode ? MIDDLE_DOT : MIDDLE; }
function seg(): string { return dotMode ? SEG_DOT : SEG; }

/** A literal unit at `i` (`\X` with X not alphanumeric, or a unit with no meaning in a regex): its width, 0 if none. */
function literalAt(i: i32): i32 {
  const c = unitAt(src, i);
  // An escaped `/` is refused too: bodies count their `/` as OP_SLASH items (a group's alternatives hold none).
  if (c == Ch.BACKSLASH) return i + 1 < srcEnd && !isAlnumUnit(unitAt(src, i + 1)) && unitAt(src, i + 1) != Ch.SLASH ? 2 : 0;
  if (c == Ch.SLASH || c == 46 || c == Ch.STAR || c == Ch.PLUS || c == Ch.QMARK || c == Ch.LPAREN || c == Ch.RPAREN ||
    c == Ch.LBRACKET || c == Ch.RBRACKET || c == Ch.LBRACE || c == Ch.RBRACE || c == Ch.PIPE || c == Ch.CARET || c == Ch.DOLLAR) return 0;
  return 1;
}

/** Parses `(a|b|…)` of literal alternatives at `i` into an OP_ALT item; returns the end, or -1. */
function altAt(i: i32): i32 {
  if (unitAt(src, i) != Ch.LPAREN || i + 1 >= srcEnd || unitAt(src, i + 1) == Ch.QMARK) return -1;
  emit(OP_ALT);
  const countAt = outLen;
  emit(0);
  let count = 0;
  i++;
  for (;;) {
    const lenAt = outLen;
    emit(0);
    let len = 0;
    while (i < srcEnd) {
      const w = literalAt(i);
      if (w == 0) break;
      emit(unitAt(src, i + w - 1));
      len++;
      i += w;
    }
    if (len == 0 || i >= srcEnd || failed) return -1;
    store<u16>(out + (<usize>lenAt << 1), <u16>len);
    count++;
    const c = unitAt(src, i++);
    if (c == Ch.RPAREN) break;
    if (c != Ch.PIPE || count >= MAX_ALTS) return -1;
  }
  store<u16>(out + (<usize>countAt << 1), <u16>count);
  return i;
}

/**
 * Parses a body at `i` up to what no body item is (a globstar tail or middle, the final `\/?`, the
 * end); returns where it stopped, or -1 when a part is outside the plan grammar.
 */
function body(i: i32, first: bool): i32 {
  const lenAt = outLen;
  emit(0);
  const start = outLen;
  let starInSegment = false; // a segment holds at most one `*`
  let litAt = -1; // the OP_LIT item being extended
  while (i < srcEnd && !failed) {
    if (at(i, tail()) || at(i, middle()) || (i + 3 == srcEnd && at(i, MAYBE_SLASH))) break;
    if (at(i, SLASH_LITERAL)) {
      emit(OP_SLASH);
      litAt = -1;
      starInSegment = false;
      i += 2;
      continue;
    }
    const op = first && i == 0 && dotMode && at(i, SEG0_DOT) ? OP_SEG0 : at(i, seg()) ? OP_SEG : at(i, STAR) ? OP_STAR : 0;
    if (op != 0) {
      if (starInSegment) return -1;
      starInSegment = true;
      emit(op);
      litAt = -1;
      i += op == OP_SEG0 ? SEG0_DOT.length : op == OP_SEG ? seg().length : STAR.length;
      continue;
    }
    if (unitAt(src, i) == Ch.LPAREN) {
      if (++alts > 1) return -1;
      i = altAt(i);
      if (i < 0) return -1;
      litAt = -1;
      continue;
    }
    const w = literalAt(i);
    if (w == 0) return -1;
    if (litAt < 0) {
      emit(OP_LIT);
      litAt = outLen;
      emit(0);
    }
    emit(unitAt(src, i + w - 1));
    store<u16>(out + (<usize>litAt << 1), load<u16>(out + (<usize>litAt << 1)) + 1);
    i += w;
  }
  if (outLen == start) return -1; // an empty body: not a shape a plan covers
  store<u16>(out + (<usize>lenAt << 1), <u16>(outLen - start));
  return i;
}

/**
 * The plan of the regex source at `source` (`len` units, compiled with `dot`) into `dst` (room for
 * `cap` u16 words): its length in words, or 0 when the source is not a shape plans cover.
 */
export function compilePlan(source: usize, len: i32, dot: bool, dst: usize, cap: i32): i32 {
  src = source;
  srcEnd = len;
  dotMode = dot;
  out = dst;
  outLen = 0;
  // Lengths are u16 words: a plan stays under 65,535 words (a longer pattern keeps its DFA).
  outCap = min(cap, MAX_PLAN_WORDS);
  failed = false;
  alts = 0;
  let i = 0;
  // The simple route's wrapper `^(?:…)$` anchors what the program anchors anyway.
  if (at(0, "^(?:") && len >= 6 && unitAt(source, len - 2) == Ch.RPAREN && unitAt(source, len - 1) == Ch.DOLLAR) {
    src = source + 8;
    srcEnd = len - 6;
  }
  let flags: u32 = dot ? F_DOT : 0;
  emit(0);
  if (at(0, headA())) { flags |= F_HEAD_A; i = headA().length; }
  else if (at(0, headB())) { flags |= F_HEAD_B; i = headB().length; }
  i = body(i, flags == (dot ? F_DOT : 0));
  if (i < 0) return 0;
  if (at(i, tail())) { flags |= F_TAIL; i += tail().length; }
  else if (at(i, middle())) {
    flags |= F_MID;
    i = body(i + middle().length, false);
    if (i < 0) return 0;
  }
  if (i + 3 == srcEnd && at(i, MAYBE_SLASH) && (flags & F_MID) == 0) { flags |= F_OPT_SLASH; i += 3; }
  if (i != srcEnd || failed) return 0;
  if (alts > 0) flags |= F_ALT;
  store<u16>(dst, <u16>flags);
  return outLen;
}

// ---- matching -------------------------------------------------------------------------------------

let path: usize = 0;
let n: i32 = 0;
let dots: bool = false;

// @ts-ignore: decorator
@inline function unit(i: i32): u32 {
  return <u32>load<u16>(path + (<usize>i << 1));
}

/** `\.{1,2}(?:\/|$)` at `q`: a segment that is `.` or `..`. */
function dotSegAt(q: i32): bool {
  if (q >= n || unit(q) != 46) return false;
  if (q + 1 == n || unit(q + 1) == Ch.SLASH) return true;
  return unit(q + 1) == 46 && (q + 2 == n || unit(q + 2) == Ch.SLASH);
}

/** The globstar's per-position refusal at `p` (its lookahead, and `.` refusing line terminators). */
function refusedAt(p: i32): bool {
  const c = unit(p);
  if (isLineTerminator(c)) return true;
  if (dots) return (p == 0 && dotSegAt(0)) || (c == Ch.SLASH && dotSegAt(p + 1));
  return (p == 0 && c == 46) || (c == Ch.SLASH && p + 1 < n && unit(p + 1) == 46);
}

/**
 * Whether any of the 8 units at `p` may be refused: a `/` before a `.`, or a line terminator (reads
 * unit p + 8 too: p + 9 <= n). A block without one has no refusal.
 */
// @ts-ignore: decorator
@inline function mayRefuse(p: i32): bool {
  const at = path + (<usize>p << 1);
  const v = v128.load(at);
  const marks = v128.or(
    v128.and(i16x8.eq(v, i16x8.splat(<i16>Ch.SLASH)), i16x8.eq(v128.load(at, 2), i16x8.splat(46))),
    v128.or(v128.or(i16x8.eq(v, i16x8.splat(10)), i16x8.eq(v, i16x8.splat(13))), v128.or(i16x8.eq(v, i16x8.splat(<i16>0x2028)), i16x8.eq(v, i16x8.splat(<i16>0x2029)))),
  );
  return v128.any_true(marks);
}

/** Whether the globstar refuses any position in [from, to), eight units at a time where it can. */
function refusedIn(from: i32, to: i32): bool {
  if (from == 0 && to > 0 && refusedAt(0)) return true;
  let p = from;
  for (; p + 8 <= to && p + 9 <= n; p += 8) {
    if (!mayRefuse(p)) continue;
    for (let k = p; k < p + 8; k++) if (refusedAt(k)) return true;
  }
  for (; p < to; p++) if (refusedAt(p)) return true;
  return false;
}

/** The check a `*` segment or a globstar part makes where it starts (`(?!\.)`, or `(?!\.{1,2}(?:\/|$))`). */
function segmentStartOk(q: i32): bool {
  if (dots) return !dotSegAt(q);
  return q >= n || unit(q) != 46;
}

/** Whether `len` units at `w` equal the path's units from `q`. */
function unitsAt(w: usize, len: i32, q: i32): bool {
  if (q < 0 || q + len > n) return false;
  const p = path + (<usize>q << 1);
  let i = 0;
  for (; i + 4 <= len; i += 4) if (load<u64>(w + (<usize>i << 1)) != load<u64>(p + (<usize>i << 1))) return false;
  for (; i < len; i++) if (load<u16>(w + (<usize>i << 1)) != load<u16>(p + (<usize>i << 1))) return false;
  return true;
}

/** Words an item at `w` takes. */
function itemWords(w: usize): i32 {
  const op = <u32>load<u16>(w);
  if (op == OP_LIT) return 2 + <i32>load<u16>(w, 2);
  if (op != OP_ALT) return 1;
  const count = <i32>load<u16>(w, 2);
  let k = 2;
  for (let a = 0; a < count; a++) k += 1 + <i32>load<u16>(w + (<usize>k << 1));
  return k;
}

/** The chosen alternative's units (its length in altLen). */
let altLen: i32 = 0;
function altUnits(w: usize, choice: i32): usize {
  let k = 2;
  for (let a = 0; a < choice; a++) k += 1 + <i32>load<u16>(w + (<usize>k << 1));
  altLen = <i32>load<u16>(w + (<usize>k << 1));
  return w + (<usize>(k + 1) << 1);
}

/** The units an item (OP_LIT, or OP_ALT with `choice`) matches: their address, their count in altLen. */
function literalOf(w: usize, choice: i32): usize {
  if (<u32>load<u16>(w) == OP_LIT) {
    altLen = <i32>load<u16>(w, 2);
    return w + 4;
  }
  return altUnits(w, choice);
}

/**
 * Matches the body of `words` words at `items` from path position `q`, taking alternative `choice`
 * of its group; returns the position after it, or -1.
 */
function bodyFrom(items: usize, words: i32, q: i32, choice: i32): i32 {
  const end = items + (<usize>words << 1);
  let w = items;
  while (w < end) {
    const op = <u32>load<u16>(w);
    if (op == OP_SLASH) {
      if (q >= n || unit(q) != Ch.SLASH) return -1;
      q++;
      w += 2;
      continue;
    }
    if (op == OP_LIT || op == OP_ALT) {
      const units = literalOf(w, choice);
      if (!unitsAt(units, altLen, q)) return -1;
      q += altLen;
      w += <usize>itemWords(w) << 1;
      continue;
    }
    // A `*` segment: its checks, then it runs to the segment's end, which the literals after it in
    // the segment (up to the next `\/` or the body's end) must end.
    if (op != OP_STAR) {
      if (q >= n || isLineTerminator(unit(q)) || !segmentStartOk(q)) return -1;
      if (op == OP_SEG0 && unit(q) == Ch.SLASH && dotSegAt(q + 1)) return -1;
    }
    let segEnd = q;
    while (segEnd < n && unit(segEnd) != Ch.SLASH) segEnd++;
    w += 2;
    let suffix = 0;
    for (let s = w; s < end && <u32>load<u16>(s) != OP_SLASH; s += <usize>itemWords(s) << 1) {
      literalOf(s, choice);
      suffix += altLen;
    }
    let p = segEnd - suffix;
    if (p < q) return -1;
    while (w < end && <u32>load<u16>(w) != OP_SLASH) {
      const units = literalOf(w, choice);
      if (!unitsAt(units, altLen, p)) return -1;
      p += altLen;
      w += <usize>itemWords(w) << 1;
    }
    q = segEnd;
  }
  return q;
}

/** The `/` in the body of `words` words at `items`. */
function slashesIn(items: usize, words: i32): i32 {
  let slashes = 0;
  for (let w = items, end = items + (<usize>words << 1); w < end; w += <usize>itemWords(w) << 1) if (<u32>load<u16>(w) == OP_SLASH) slashes++;
  return slashes;
}

/**
 * Where a body with `slashes` `/` that ends at `e` starts: after the (slashes + 1)-th `/` before `e`,
 * or 0 when there are exactly `slashes`; -1 when there are fewer.
 */
function startFor(e: i32, slashes: i32): i32 {
  for (let i = e - 1; i >= 0; i--) {
    if (unit(i) == Ch.SLASH && slashes-- == 0) return i + 1;
  }
  return slashes == 0 ? 0 : -1;
}

/** The last position in [0, before) the globstar refuses, or -1: found once per path and bound. */
let lastBound: i32 = -1;
let lastFound: i32 = -1;
function lastRefusedBefore(before: i32): i32 {
  if (before == lastBound) return lastFound;
  lastBound = before;
  lastFound = -1;
  let p = before;
  // Blocks of eight ending at p, while a block and the unit after it lie in the path.
  for (; p >= 8 && p + 1 <= n; p -= 8) {
    if (!mayRefuse(p - 8)) continue;
    for (let k = p - 1; k >= p - 8; k--) if (refusedAt(k)) return (lastFound = k);
  }
  for (let k = p - 1; k >= 0; k--) if (refusedAt(k)) return (lastFound = k);
  return lastFound;
}

/** How far from 0 the path is known free of globstar refusals (the head's part grows with s). */
let clean: i32 = 0;

/** Whether the head allows the first body to start at `s` (a segment start, s > 0). */
function headAllows(flags: u32, s: i32): bool {
  // `(?:…GS\/)` before s: GS over [0, s - 1) must not refuse; `(?:^|\/|…)` also takes a lone `/`.
  if ((flags & F_HEAD_B) != 0 && !headBStartOk()) return false;
  if (s - 1 > clean) {
    if (refusedIn(clean, s - 1)) return false;
    clean = s - 1;
  }
  return true;
}

/**
 * Whether the plan at `plan` matches the normalized path at `p` (`len` > 0 units): picomatch's answer
 * for the regex the plan was read from.
 */
export function planMatch(plan: usize, p: usize, len: i32): bool {
  path = p;
  n = len;
  const flags = <u32>load<u16>(plan);
  dots = (flags & F_DOT) != 0;
  const body1 = plan + 4, words1 = <i32>load<u16>(plan, 2);
  const after1 = body1 + (<usize>words1 << 1);
  const body2 = after1 + 2, words2 = (flags & F_MID) != 0 ? <i32>load<u16>(after1) : 0;
  const choices = (flags & F_ALT) != 0 ? altCount(body1, words1, body2, words2) : 1;
  const head = (flags & (F_HEAD_A | F_HEAD_B)) != 0;
  clean = 0;
  lastBound = -1;
  if (head && (flags & (F_TAIL | F_MID)) == 0) {
    // The body ends the path (or comes before its optional final `/`) and spans a fixed number of
    // segments: where it starts follows from where it ends.
    const slashes = slashesIn(body1, words1);
    for (let e = n; e >= n - 1; e--) {
      if (e < n && ((flags & F_OPT_SLASH) == 0 || unit(n - 1) != Ch.SLASH)) break;
      const s = startFor(e, slashes);
      if (s < 0 || (s > 0 && !headAllows(flags, s))) continue;
      for (let choice = 0; choice < choices; choice++) if (bodyFrom(body1, words1, s, choice) == e) return true;
    }
    return false;
  }
  const body2Start = (flags & F_MID) != 0 ? startFor(n, slashesIn(body2, words2)) : -1;
  for (let choice = 0; choice < choices; choice++) {
    // s: where the first body starts; a head allows any segment start it does not refuse.
    for (let s = 0; s <= n;) {
      if (s > 0 && !headAllows(flags, s)) break;
      const e = bodyFrom(body1, words1, s, choice);
      if (e >= 0 && restMatches(flags, e, body2, words2, body2Start, choice)) return true;
      if (!head) break;
      s++;
      while (s <= n && unit(s - 1) != Ch.SLASH) s++;
    }
  }
  return false;
}

/** `(?:(?!\.)…` or `(?:(?!(?:^|\/)\.{1,2}(?:\/|$))…` of the optional head, checked at position 0. */
function headBStartOk(): bool {
  if (dots) return !dotSegAt(0) && !(unit(0) == Ch.SLASH && dotSegAt(1));
  return unit(0) != 46;
}

/** The alternatives of the plan's one group. */
function altCount(body1: usize, words1: i32, body2: usize, words2: i32): i32 {
  for (let w = body1, end = body1 + (<usize>words1 << 1); w < end; w += <usize>itemWords(w) << 1) if (<u32>load<u16>(w) == OP_ALT) return <i32>load<u16>(w, 2);
  for (let w = body2, end = body2 + (<usize>words2 << 1); w < end; w += <usize>itemWords(w) << 1) if (<u32>load<u16>(w) == OP_ALT) return <i32>load<u16>(w, 2);
  return 1;
}

/** What follows the first body, ending at `e`: nothing, `\/?`, the tail, or the middle and the second body. */
function restMatches(flags: u32, e: i32, body2: usize, words2: i32, body2Start: i32, choice: i32): bool {
  if ((flags & F_TAIL) != 0) {
    if (e == n) return true;
    if (unit(e) != Ch.SLASH || !segmentStartOk(e + 1)) return false;
    // Without a head there is one candidate: scan its tail; with one, many share one backward scan.
    return (flags & (F_HEAD_A | F_HEAD_B)) == 0 ? !refusedIn(e + 1, n) : lastRefusedBefore(n) < e + 1;
  }
  if ((flags & F_MID) != 0) {
    // `$`: the second body at the end (it can match nothing only when it is one bare `*`).
    if (e == n) return bodyFrom(body2, words2, n, choice) == n;
    if (unit(e) != Ch.SLASH || body2Start <= e) return false;
    if (body2Start > e + 1) {
      if (!segmentStartOk(e + 1)) return false;
      if ((flags & (F_HEAD_A | F_HEAD_B)) == 0 ? refusedIn(e + 1, body2Start - 1) : lastRefusedBefore(body2Start - 1) >= e + 1) return false;
    }
    return bodyFrom(body2, words2, body2Start, choice) == n;
  }
  if (e == n) return true;
  return (flags & F_OPT_SLASH) != 0 && e == n - 1 && unit(n - 1) == Ch.SLASH;
}
