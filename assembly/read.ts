// The digest side of a bounded streaming read (spec ): as text arrives in chunks, one pass
// computes its UTF-8 byte count, the SHA-1 of the whole text, and the SHA-1 of the text with ECMAScript
// String.prototype.trim semantics. The trimmed digest is not a second pass: it is a copy of a hash
// state taken where the last non-whitespace character ends (a second state runs only when the text
// starts with whitespace).

import { Sha1, sha1Init, sha1FinalHex } from "./sha1";
import { CTX_SIZE, CTX_LENGTH, mdUpdateBytes } from "./util/md";
import { REPLACEMENT_UTF8, REPLACEMENT_BYTES } from "./util/chars";
import { utf16ToUtf8, utf8Decode } from "./utf8";
import { UTF8_INVALID, READ_CTX_SIZE as READ_CTX_BYTES, SHA1_HEX_SIZE } from "./abi";

// Layout of a read context (READ_CTX_SIZE bytes, 16-byte aligned, owned by the caller).
const FULL: usize = 0; // SHA-1 context of the whole text
const TRIMMED: usize = CTX_SIZE; // SHA-1 context from the first non-whitespace character (when not 0)
const SNAPSHOT: usize = 2 * CTX_SIZE; // TRIMMED or FULL as it was after the last non-whitespace
const FLAGS: usize = 3 * CTX_SIZE; // u32, READ_* bits below
const CARRY_LENGTH: usize = FLAGS + 4; // u32: bytes of an incomplete UTF-8 sequence held back
const CARRY: usize = FLAGS + 8; // up to 3 bytes
const PENDING: usize = FLAGS + 12; // u32: high surrogate held back by the UTF-16 path
const CONSUMED: usize = FLAGS + 16; // u32 scratch for utf8Decode
const READ_CTX_SIZE: usize = <usize>READ_CTX_BYTES; // the fields above use 3 * CTX_SIZE + 20 of it

const READ_SEEN_CONTENT: u32 = 1; // a non-whitespace character has been fed
const READ_LEADING_SPACE: u32 = 2; // the text starts with whitespace: TRIMMED runs on its own
const READ_BOM_CHECKED: u32 = 4; // byte sources: the first sequence has been looked at

const SHA1_HEX: usize = <usize>SHA1_HEX_SIZE;

/**
 * Byte length of the ECMAScript whitespace or line terminator encoded at `p` (before `end`), or 0.
 * The set is WhiteSpace ∪ LineTerminator: U+0009–U+000D, U+0020, U+00A0, U+1680, U+2000–U+200A,
 * U+2028, U+2029, U+202F, U+205F, U+3000, U+FEFF.
 */
function spaceAt(p: usize, end: usize): usize {
  const b0 = <u32>load<u8>(p);
  if (b0 == 0x20 || (b0 >= 0x09 && b0 <= 0x0d)) return 1;
  if (b0 < 0xc2 || b0 > 0xef) return 0;
  if (p + 1 >= end) return 0;
  const b1 = <u32>load<u8>(p, 1);
  if (b0 == 0xc2) return b1 == 0xa0 ? 2 : 0; // U+00A0
  if (p + 2 >= end) return 0;
  const b2 = <u32>load<u8>(p, 2);
  let hit = false;
  if (b0 == 0xe2) {
    hit = b1 == 0x80 ? b2 <= 0x8a || b2 == 0xa8 || b2 == 0xa9 || b2 == 0xaf // U+2000–200A, 2028, 2029, 202F
      : b1 == 0x81 && b2 == 0x9f; // U+205F
  } else if (b0 == 0xe1) hit = b1 == 0x9a && b2 == 0x80; // U+1680
  else if (b0 == 0xe3) hit = b1 == 0x80 && b2 == 0x80; // U+3000
  else if (b0 == 0xef) hit = b1 == 0xbb && b2 == 0xbf; // U+FEFF
  return hit ? 3 : 0;
}

/** Byte length of the whitespace character that ends at `end` (not before `start`), or 0. */
// @ts-ignore: decorator
@inline function spaceBefore(start: usize, end: usize): usize {
  const last = <u32>load<u8>(end - 1);
  if (last < 0x80) return last == 0x20 || (last >= 0x09 && last <= 0x0d) ? 1 : 0;
  if (end - start >= 2 && spaceAt(end - 2, end) == 2) return 2;
  if (end - start >= 3 && spaceAt(end - 3, end) == 3) return 3;
  return 0;
}

/** Feeds `n` bytes of well-formed UTF-8 (whole sequences only) at `p`. */
function feed(rctx: usize, p: usize, n: usize): void {
  if (n == 0) return;
  let flags = load<u32>(rctx, FLAGS);
  const end = p + n;
  let content = p; // where trimmed text may start in this chunk
  if ((flags & READ_SEEN_CONTENT) == 0) {
    while (content < end) {
      const w = spaceAt(content, end);
      if (w == 0) break;
      content += w;
    }
    if (content == end) {
      mdUpdateBytes<Sha1>(rctx + FULL, p, n); // whitespace only, so far
      return;
    }
    flags |= READ_SEEN_CONTENT;
    if (content != p || load<u64>(rctx + FULL, CTX_LENGTH) != 0) {
      flags |= READ_LEADING_SPACE;
      sha1Init(rctx + TRIMMED);
    }
    store<u32>(rctx, flags, FLAGS);
  }
  let last = end; // end of the last non-whitespace character in [content, end)
  while (last > content) {
    const w = spaceBefore(content, last);
    if (w == 0) break;
    last -= w;
  }
  const trimmed = (flags & READ_LEADING_SPACE) != 0 ? rctx + TRIMMED : rctx + FULL;
  if (trimmed != rctx + FULL) mdUpdateBytes<Sha1>(rctx + FULL, p, n);
  if (last > content) {
    mdUpdateBytes<Sha1>(trimmed, content, last - content);
    memory.copy(rctx + SNAPSHOT, trimmed, CTX_SIZE);
    mdUpdateBytes<Sha1>(trimmed, last, end - last);
  } else {
    mdUpdateBytes<Sha1>(trimmed, content, end - content);
  }
}

/** Starts a read at `rctx` (READ_CTX_SIZE bytes). */
export function readInit(rctx: usize): void {
  assert((rctx & 15) == 0, "a read context must be 16-byte aligned"); // debug builds only (noAssert)
  memory.fill(rctx, 0, READ_CTX_SIZE);
  sha1Init(rctx + FULL);
}

/**
 * Feeds a chunk of `units` UTF-16 code units at `src` (a JS string). `scratch` must hold
 * 3 * units + 16 bytes. Returns the UTF-8 bytes of the text so far (a trailing high surrogate is
 * held back until the next chunk or readFinish).
 */
export function readUpdateUtf16(rctx: usize, src: usize, units: usize, scratch: usize): f64 {
  const written = utf16ToUtf8(src, units, scratch, rctx + PENDING);
  feed(rctx, scratch, written);
  return <f64>load<u64>(rctx + FULL, CTX_LENGTH);
}

/**
 * Feeds a chunk of `len` raw bytes at `src`, decoded as UTF-8 like WHATWG's decoder: a leading BOM is
 * dropped, an incomplete sequence at the end waits for the next chunk. The 3 bytes before `src` must
 * be writable (a held-back sequence is moved there). With `replace`, ill-formed input is hashed as
 * U+FFFD per maximal subpart and `scratch` must hold 3 * (len + 3) + 16 bytes; without it, the read
 * fails. Returns the UTF-8 bytes of the decoded text so far, or UTF8_INVALID for ill-formed input.
 */
export function readUpdateBytes(rctx: usize, src: usize, len: usize, scratch: usize, replace: bool): f64 {
  const carry = <usize>load<u32>(rctx, CARRY_LENGTH);
  if (carry != 0) {
    src -= carry;
    len += carry;
    memory.copy(src, rctx + CARRY, carry);
  }
  let text = src;
  const validated = utf8Decode(src, len, 0, false, rctx + CONSUMED);
  let consumed = <usize>validated;
  let produced: usize;
  if (validated == UTF8_INVALID) {
    if (!replace) return UTF8_INVALID;
    produced = <usize>utf8Decode(src, len, scratch, false, rctx + CONSUMED);
    consumed = <usize>load<u32>(rctx, CONSUMED);
    text = scratch;
  } else {
    produced = consumed;
  }
  const flags = load<u32>(rctx, FLAGS);
  if ((flags & READ_BOM_CHECKED) == 0 && produced != 0) {
    store<u32>(rctx, flags | READ_BOM_CHECKED, FLAGS);
    if (produced >= 3 && (load<u32>(text) & 0xffffff) == 0xbfbbef) {
      text += 3;
      produced -= 3;
    }
  }
  feed(rctx, text, produced);
  const left = len - consumed;
  memory.copy(rctx + CARRY, src + consumed, left);
  store<u32>(rctx, <u32>left, CARRY_LENGTH);
  return <f64>load<u64>(rctx + FULL, CTX_LENGTH);
}

/**
 * Ends the read: writes the SHA-1 of the text and then the SHA-1 of its trimmed form, 40 hex
 * characters each, at `out`, and returns the text's UTF-8 byte count. A held-back surrogate becomes
 * U+FFFD; a held-back incomplete UTF-8 sequence becomes U+FFFD with `replace`, otherwise the read
 * fails with UTF8_INVALID.
 */
export function readFinish(rctx: usize, out: usize, replace: bool): f64 {
  const dangling = load<u32>(rctx, PENDING) != 0 || load<u32>(rctx, CARRY_LENGTH) != 0;
  if (dangling) {
    if (load<u32>(rctx, CARRY_LENGTH) != 0 && !replace) return UTF8_INVALID;
    store<u32>(rctx, 0, PENDING);
    store<u32>(rctx, 0, CARRY_LENGTH);
    store<u32>(rctx + CARRY, REPLACEMENT_UTF8);
    feed(rctx, rctx + CARRY, REPLACEMENT_BYTES);
  }
  const bytes = <f64>load<u64>(rctx + FULL, CTX_LENGTH);
  sha1FinalHex(rctx + FULL, out);
  if ((load<u32>(rctx, FLAGS) & READ_SEEN_CONTENT) == 0) sha1Init(rctx + SNAPSHOT);
  sha1FinalHex(rctx + SNAPSHOT, out + SHA1_HEX);
  return bytes;
}
