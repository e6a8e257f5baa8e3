// Growable-in-place UTF-16 buffers over a host-provided workspace, and the regex fragments the
// glob translator emits. Strings are (pointer, length in code units) pairs; nothing is allocated by
// the AssemblyScript runtime, so compiling a glob never touches memory the host did not hand over.

/**
 * A region of code units with a write cursor; every write checks the capacity. Instances live in
 * static memory (newBuf), never on a heap: the module has no allocator the host would have to avoid.
 */
@final @unmanaged
export class Buf {
  start: usize;
  cap: i32;
  len: i32;

  reset(start: usize, cap: i32): void {
    this.start = start;
    this.cap = cap;
    this.len = 0;
  }

  @inline end(): usize {
    return this.start + (<usize>this.len << 1);
  }

  /** Appends `len` units from `src`; false when the region is full. */
  push(src: usize, len: i32): bool {
    if (this.len + len > this.cap) return false;
    memory.copy(this.end(), src, <usize>len << 1);
    this.len += len;
    return true;
  }

  pushUnit(c: u32): bool {
    if (this.len >= this.cap) return false;
    store<u16>(this.end(), <u16>c);
    this.len += 1;
    return true;
  }

  pushStr(s: string): bool {
    return this.push(changetype<usize>(s), s.length);
  }
}

// @ts-ignore: decorator
@inline export function unitAt(ptr: usize, i: i32): u32 {
  return <u32>load<u16>(ptr + (<usize>i << 1));
}

/** Whether two spans hold the same units. */
export function spanEquals(a: usize, alen: i32, b: usize, blen: i32): bool {
  if (alen != blen) return false;
  return memory.compare(a, b, <usize>alen << 1) == 0;
}

export function spanEqualsStr(a: usize, alen: i32, s: string): bool {
  return spanEquals(a, alen, changetype<usize>(s), s.length);
}

/** Index of the last `c` in the span before `before` (exclusive), or -1. */
export function lastIndexOfUnit(ptr: usize, before: i32, c: u32): i32 {
  for (let i = before - 1; i >= 0; i--) if (unitAt(ptr, i) == c) return i;
  return -1;
}

export function indexOfUnit(ptr: usize, from: i32, len: i32, c: u32): i32 {
  for (let i = from; i < len; i++) if (unitAt(ptr, i) == c) return i;
  return -1;
}

/** JavaScript's `\w`: ASCII letters, digits and underscore. */
// @ts-ignore: decorator
@inline export function isWordUnit(c: u32): bool {
  return (c - 48 < 10) || ((c | 32) - 97 < 26) || c == 95;
}

// @ts-ignore: decorator
@inline export function isAlnumUnit(c: u32): bool {
  return (c - 48 < 10) || ((c | 32) - 97 < 26);
}

/** JavaScript's line terminators, which `.` in a regular expression does not match. */
// @ts-ignore: decorator
@inline export function isLineTerminator(c: u32): bool {
  return c == 10 || c == 13 || c == 0x2028 || c == 0x2029;
}

// Named code units.
export const enum Ch {
  NUL = 0, BANG = 33, QUOTE = 34, DOLLAR = 36, LPAREN = 40, RPAREN = 41, STAR = 42, PLUS = 43,
  COMMA = 44, DASH = 45, DOT = 46, SLASH = 47, COLON = 58, SEMI = 59, QMARK = 63, AT = 64,
  LBRACKET = 91, BACKSLASH = 92, RBRACKET = 93, CARET = 94, LBRACE = 123, PIPE = 124, RBRACE = 125,
}

// The regular-expression fragments picomatch 4 builds its sources from (POSIX flavour). The
// translator emits the same text, so its output can be compared with picomatch's byte for byte,
// and the regex compiler recognises the lookaheads among them by exact text.
export const DOT_LITERAL = "\\.";
export const SLASH_LITERAL = "\\/";
export const PLUS_LITERAL = "\\+";
export const ONE_CHAR = "(?=.)";
export const QMARK = "[^/]";
export const QMARK_NO_DOT = "[^.\\/]";
export const STAR = "[^/]*?";
export const NO_DOT = "(?!\\.)";
export const NO_DOTS = "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))";
export const NO_DOT_SLASH = "(?!\\.{0,1}(?:\\/|$))";
export const NO_DOTS_SLASH = "(?!\\.{1,2}(?:\\/|$))";
export const GLOBSTAR_NO_DOT = "(?:(?:(?!(?:^|\\/)\\.).)*?)";
export const GLOBSTAR_DOT = "(?:(?:(?!(?:^|\\/)\\.{1,2}(?:\\/|$)).)*?)";
export const GLOBSTAR_NO_DOT_LOOKAHEAD = "(?!(?:^|\\/)\\.)";
export const MAYBE_SLASH = "\\/?";
