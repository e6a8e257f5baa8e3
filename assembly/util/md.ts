// Merkle–Damgård plumbing shared by SHA-1 and SHA-256 (FIPS 180-4 §5.1.1, §6): 64-byte blocks,
// big-endian 64-bit bit length, 0x80 then zero padding. Both hashes keep their context in one
// wrapper-owned region with the layout below, so JS can save, restore and fork a context by copying
// CTX_SIZE bytes.

import { utf16ToUtf8 } from "../utf8";
import { HASH_CTX_SIZE } from "../abi";

/** UTF-16 units transcoded per step of a UTF-16 update (a 3 KiB scratch buffer). */
const TRANSCODE_UNITS: usize = 1024;

/** Offsets inside a hash context (CTX_SIZE bytes, 16-byte aligned); the state words (up to 8, native
 * u32) start at offset 0. */
export const CTX_LENGTH: usize = 32; // u64: bytes hashed so far
export const CTX_BUFFERED: usize = 40; // u32: bytes waiting in CTX_BLOCK (0..63)
export const CTX_PENDING: usize = 44; // u32: high surrogate held back from the previous UTF-16 update, or 0
export const CTX_BLOCK: usize = 64; // 64 bytes: the partial block
export const CTX_SIZE: usize = <usize>HASH_CTX_SIZE;

export const BLOCK_SIZE: usize = 64;

/** What a hash supplies to the generic code here and in batch.ts. */
export interface MdHash {
  /** Consumes one 64-byte block at `block` into the state words at `state`. */
  compress(state: usize, block: usize): void;
  /** Consumes one block from each of four messages into a lane-interleaved state (lanes.ts). */
  compress4(state: usize, p0: usize, p1: usize, p2: usize, p3: usize): void;
  /** Address of the initial state words. */
  iv(): usize;
  /** Number of state words. */
  words(): usize;
}

/**
 * A hash plugs in as a `@final` class (an MdHash) whose `compress(state, block)` consumes one 64-byte block.
 * AssemblyScript has no static members on type parameters and function values compile to indirect
 * calls, so the generic code below calls the method on a null instance of the class: the call is
 * resolved at compile time and the method never reads `this`.
 */
// @ts-ignore: decorator
@inline
function compress<H extends MdHash>(state: usize, block: usize): void {
  changetype<H>(0).compress(state, block);
}

// Transcoding scratch for UTF-16 updates: TRANSCODE_UNITS units expand to at most 3 bytes each.
const TRANSCODE_BUFFER: usize = memory.data(<i32>TRANSCODE_UNITS * 3 + 16, 16);

/** Resets the bookkeeping part of a context; the caller writes its initial state words. */
// @ts-ignore: decorator
@inline
export function mdReset(ctx: usize): void {
  store<u64>(ctx, 0, CTX_LENGTH);
  store<u32>(ctx, 0, CTX_BUFFERED);
  store<u32>(ctx, 0, CTX_PENDING);
}

/** Feeds `len` bytes at `ptr`: full blocks are compressed in place, the tail is buffered. */
// @ts-ignore: decorator
@inline
export function mdUpdateBytes<H extends MdHash>(ctx: usize, ptr: usize, len: usize): void {
  if (len == 0) return;
  store<u64>(ctx, load<u64>(ctx, CTX_LENGTH) + <u64>len, CTX_LENGTH);
  let buffered = <usize>load<u32>(ctx, CTX_BUFFERED);
  const block = ctx + CTX_BLOCK;
  if (buffered != 0) {
    const take = min(BLOCK_SIZE - buffered, len);
    memory.copy(block + buffered, ptr, take);
    buffered += take;
    ptr += take;
    len -= take;
    if (buffered < BLOCK_SIZE) {
      store<u32>(ctx, <u32>buffered, CTX_BUFFERED);
      return;
    }
    compress<H>(ctx, block);
  }
  while (len >= BLOCK_SIZE) {
    compress<H>(ctx, ptr);
    ptr += BLOCK_SIZE;
    len -= BLOCK_SIZE;
  }
  if (len != 0) memory.copy(block, ptr, len);
  store<u32>(ctx, <u32>len, CTX_BUFFERED);
}

// A pending high surrogate that never met its low half is a lone surrogate: U+FFFD (EF BF BD).
// @ts-ignore: decorator
@inline
function flushPending<H extends MdHash>(ctx: usize): void {
  if (load<u32>(ctx, CTX_PENDING) != 0) {
    store<u32>(ctx, 0, CTX_PENDING);
    store<u32>(TRANSCODE_BUFFER, 0xbdbfef);
    mdUpdateBytes<H>(ctx, TRANSCODE_BUFFER, 3);
  }
}

/** Feeds raw bytes after resolving any surrogate held back by a UTF-16 update. */
// @ts-ignore: decorator
@inline
export function mdUpdate<H extends MdHash>(ctx: usize, ptr: usize, len: usize): void {
  flushPending<H>(ctx);
  mdUpdateBytes<H>(ctx, ptr, len);
}

/**
 * Feeds `units` UTF-16 code units at `ptr` as their UTF-8 encoding (WHATWG: a lone surrogate is
 * U+FFFD). A trailing high surrogate is held in the context so that a pair split across two updates
 * encodes as one 4-byte sequence.
 */
// @ts-ignore: decorator
@inline
export function mdUpdateUtf16<H extends MdHash>(ctx: usize, ptr: usize, units: usize): void {
  while (units != 0) {
    const take = min(units, TRANSCODE_UNITS);
    const written = utf16ToUtf8(ptr, take, TRANSCODE_BUFFER, ctx + CTX_PENDING);
    mdUpdateBytes<H>(ctx, TRANSCODE_BUFFER, written);
    ptr += take << 1;
    units -= take;
  }
}

/** Pads and writes the big-endian bit length; the caller then reads its state words out. */
// @ts-ignore: decorator
@inline
export function mdFinish<H extends MdHash>(ctx: usize): void {
  flushPending<H>(ctx);
  const block = ctx + CTX_BLOCK;
  const buffered = <usize>load<u32>(ctx, CTX_BUFFERED);
  const bits = load<u64>(ctx, CTX_LENGTH) << 3;
  store<u8>(block + buffered, 0x80);
  if (buffered + 1 > BLOCK_SIZE - 8) {
    memory.fill(block + buffered + 1, 0, BLOCK_SIZE - buffered - 1);
    compress<H>(ctx, block);
    memory.fill(block, 0, BLOCK_SIZE - 8);
  } else {
    memory.fill(block + buffered + 1, 0, BLOCK_SIZE - 8 - buffered - 1);
  }
  store<u64>(block, bswap<u64>(bits), BLOCK_SIZE - 8);
  compress<H>(ctx, block);
}

/** Writes `words` state words as lowercase hex (big-endian byte order) at `out`. */
// @ts-ignore: decorator
@inline
export function stateToHex(ctx: usize, words: usize, out: usize): void {
  for (let i: usize = 0; i < words; i++) {
    wordToHex(load<u32>(ctx + (i << 2)), out + (i << 3));
  }
}

/** Writes one u32 as 8 lowercase hex digits, most significant first. */
// @ts-ignore: decorator
@inline
export function wordToHex(w: u32, out: usize): void {
  // Spread the 8 nibbles into 8 bytes, then map 0..9 to '0'..'9' and 10..15 to 'a'..'f' with
  // branch-free arithmetic on all eight lanes of a u64 at once.
  let x = <u64>w;
  x = ((x & 0xffff0000) << 16) | (x & 0x0000ffff);
  x = ((x & 0x0000ff000000ff00) << 8) | (x & 0x000000ff000000ff);
  x = ((x & 0x00f000f000f000f0) << 4) | (x & 0x000f000f000f000f);
  // now byte k (little-endian) holds nibble (7 - k)... reverse so the high nibble comes first
  x = bswap<u64>(x);
  const letters = ((x + 0x0606060606060606) >> 4) & 0x0101010101010101; // 1 where nibble >= 10
  x += 0x3030303030303030 + letters * 0x27; // '0' + n, plus ('a' - '0' - 10) for letters
  store<u64>(out, x);
}

/** Writes a raw big-endian digest of `words` state words at `out`. */
// @ts-ignore: decorator
@inline
export function stateToBytes(ctx: usize, words: usize, out: usize): void {
  for (let i: usize = 0; i < words; i++) {
    store<u32>(out + (i << 2), bswap<u32>(load<u32>(ctx + (i << 2))));
  }
}
