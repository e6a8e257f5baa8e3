// picomatch's two fast routes to a regex source: `makeRe`'s table of whole-pattern shapes (`*`,
// `**/*.ext`, …, tried when a pattern starts with `.` or `*`) and `parse`'s character-escaping path
// for patterns without `/ ( ) [ ] { } "`. Each quirk of them decides what a pattern matches, so the
// text is reproduced exactly (translate.ts has the tokenizer, the third route).

import {
  Buf, Ch, unitAt, spanEqualsStr, lastIndexOfUnit, isWordUnit, isLineTerminator, DOT_LITERAL, SLASH_LITERAL,
  ONE_CHAR, QMARK, QMARK_NO_DOT, STAR, NO_DOT, NO_DOTS, NO_DOTS_SLASH, GLOBSTAR_NO_DOT, GLOBSTAR_DOT,
} from "./text";

let overflowed = false;

/** Whether the last route ran out of output room; clears the flag. */
export function fastOverflowed(): bool {
  const was = overflowed;
  overflowed = false;
  return was;
}

function emitStr(out: Buf, s: string): void {
  if (!out.pushStr(s)) overflowed = true;
}

/**
 * parse.fastpaths' `create`: emits into `out`, false when the text is not one of its shapes.
 * `dot` is picomatch's option.
 */
export function fastCreate(out: Buf, p: usize, n: i32, dot: bool): bool {
  const nodot = dot ? NO_DOTS : NO_DOT;
  const slashDot = dot ? NO_DOTS_SLASH : NO_DOT;
  const globstar = dot ? GLOBSTAR_DOT : GLOBSTAR_NO_DOT;
  if (spanEqualsStr(p, n, "*")) { emitStr(out, nodot); emitStr(out, ONE_CHAR); emitStr(out, STAR); return true; }
  if (spanEqualsStr(p, n, ".*")) { emitStr(out, DOT_LITERAL); emitStr(out, ONE_CHAR); emitStr(out, STAR); return true; }
  if (spanEqualsStr(p, n, "*.*")) {
    emitStr(out, nodot); emitStr(out, STAR); emitStr(out, DOT_LITERAL); emitStr(out, ONE_CHAR); emitStr(out, STAR); return true;
  }
  if (spanEqualsStr(p, n, "*/*")) {
    emitStr(out, nodot); emitStr(out, STAR); emitStr(out, SLASH_LITERAL); emitStr(out, ONE_CHAR); emitStr(out, slashDot); emitStr(out, STAR);
    return true;
  }
  if (spanEqualsStr(p, n, "**")) { emitStr(out, nodot); emitStr(out, globstar); return true; }
  const globPrefix = spanEqualsStr(p, n, "**/*") || spanEqualsStr(p, n, "**/*.*") || spanEqualsStr(p, n, "**/.*");
  if (globPrefix) {
    emitStr(out, "(?:"); emitStr(out, nodot); emitStr(out, globstar); emitStr(out, SLASH_LITERAL); emitStr(out, ")?");
    if (n == 4) { emitStr(out, slashDot); emitStr(out, ONE_CHAR); emitStr(out, STAR); }
    else if (unitAt(p, 3) == Ch.STAR) { emitStr(out, slashDot); emitStr(out, STAR); emitStr(out, DOT_LITERAL); emitStr(out, ONE_CHAR); emitStr(out, STAR); }
    else { emitStr(out, DOT_LITERAL); emitStr(out, ONE_CHAR); emitStr(out, STAR); }
    return true;
  }
  // `/^(.*?)\.(\w+)$/`: the last dot, a word-character suffix, no line terminator before it.
  const k = lastIndexOfUnit(p, n, Ch.DOT);
  if (k < 0 || k == n - 1) return false;
  for (let i = k + 1; i < n; i++) if (!isWordUnit(unitAt(p, i))) return false;
  for (let i = 0; i < k; i++) if (isLineTerminator(unitAt(p, i))) return false;
  if (!fastCreate(out, p, k, dot)) return false;
  emitStr(out, DOT_LITERAL);
  if (!out.push(p + (<usize>(k + 1) << 1), n - k - 1)) overflowed = true;
  return true;
}

// The pattern after REPLACEMENTS (`***` becomes `*`; `**/**` and `**/**/**` become `**`).
export function replaced(p: usize, n: i32): i32 {
  if (spanEqualsStr(p, n, "***") || spanEqualsStr(p, n, "**/**") || spanEqualsStr(p, n, "**/**/**")) return -1;
  return n;
}

/**
 * parse's escaping fast path for patterns without `/ ( ) [ ] { } "` that do not start with `*` or
 * `!`: the regex source into `out`. Returns 0, or -1 - index of a unit we refuse.
 */
export function simpleRoute(out: Buf, p: usize, n: i32, dot: bool): i32 {
  emitStr(out, "^(?:");
  let i = 0;
  while (i < n) {
    const c = unitAt(p, i);
    if (isWordUnit(c)) { if (!out.pushUnit(c)) overflowed = true; i++; continue; }
    // `(\\?)((\W)(\3*))`: an optional backslash, a non-word unit and its repeats.
    const at = i;
    let esc = false;
    if (c == Ch.BACKSLASH) {
      if (i + 1 >= n || isWordUnit(unitAt(p, i + 1)) || unitAt(p, i + 1) == Ch.BACKSLASH) return -1 - i;
      esc = true;
      i++;
    }
    const first = unitAt(p, i);
    let run = 1;
    while (i + run < n && unitAt(p, i + run) == first) run++;
    i += run;
    if (first == Ch.QMARK) {
      if (esc) { emitStr(out, "\\?"); for (let r = 1; r < run; r++) emitStr(out, QMARK); }
      else { emitStr(out, at == 0 && !dot ? QMARK_NO_DOT : QMARK); for (let r = 1; r < run; r++) emitStr(out, QMARK); }
    } else if (first == Ch.DOT) {
      for (let r = 0; r < run; r++) emitStr(out, DOT_LITERAL);
    } else if (first == Ch.STAR) {
      if (esc) { emitStr(out, "\\*"); if (run > 1) emitStr(out, STAR); } else emitStr(out, STAR);
    } else {
      if (run > 1 && (first == Ch.PLUS || first == Ch.DOLLAR || first == Ch.CARET || first == Ch.PIPE)) return -1 - at;
      if (first == Ch.PIPE && !esc) return -1 - at;
      if (!out.pushUnit(Ch.BACKSLASH)) overflowed = true;
      for (let r = 0; r < run; r++) if (!out.pushUnit(first)) overflowed = true;
    }
  }
  emitStr(out, ")$");
  return 0;
}
