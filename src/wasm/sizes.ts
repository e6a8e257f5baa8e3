// Every size the adapters lay out in WASM memory, and every limit that bounds one, in one place.
// Each formula is what assembly/README.md says the export needs; each limit is chosen so that the
// largest call of every kind fits under ENGINE_MAX_MEMORY_BYTES (test/engine/limits.test.ts checks
// the sums and drives the worst cases). Nothing here touches memory.

import {
  GLOB_MAX_PATTERN_BYTES, HASH_CTX_SIZE, READ_CTX_SIZE, SHA256_HEX_SIZE, TOKEN_WORK_BYTES_PER_BYTE, TOKEN_WORK_EXTRA_BYTES,
} from './abi.js';

export const PAGE_BYTES = 65536;

/**
 * The most WASM memory the engine will ever have, in bytes (128 MiB). Every claim is checked against
 * it before memory grows; a call that would need more fails with a RangeError naming both numbers.
 * The module itself declares the same maximum (asconfig.json `maximumMemory`, in pages).
 */
export const ENGINE_MAX_MEMORY_BYTES = 128 * 1024 * 1024;

/** Rounds `n` up to a multiple of `to` (a power of two). */
export function align(n: number, to: number): number {
  return (n + to - 1) & -to;
}

// ---- the fixed region above heapBase() ----------------------------------------------------------

/** Bytes of the fixed region: three hash contexts, a read context, small outputs, read headroom. */
export const SMALL_OUT_BYTES = 2 * SHA256_HEX_SIZE; // the largest small output: two hex digests
/** readUpdateBytes moves up to 3 held-back bytes in front of its input: room before the I/O area. */
export const READ_HEADROOM = 64;
export const FIXED_BYTES = 3 * HASH_CTX_SIZE + READ_CTX_SIZE + SMALL_OUT_BYTES + READ_HEADROOM;

// ---- strings and bytes --------------------------------------------------------------------------

/** Largest piece of a string moved in at once (code units); longer strings go in pieces. */
export const MAX_PIECE_UNITS = 1 << 20;
/** Largest piece of a byte array moved in at once. */
export const MAX_PIECE_BYTES = 1 << 22;
/**
 * Piece of a string that is only counted (UTF-8 length, code points): 128 Ki units (256 KiB) stay in
 * the CPU's L2 cache between the copy in and the count, about 10% faster on 1 MiB than one piece.
 */
export const COUNT_PIECE_UNITS = 1 << 17;

/**
 * End of the next piece of `text` starting at `start`, at most `maxUnits` long and never between
 * the halves of a surrogate pair (so every piece can be processed on its own).
 */
export function pieceEnd(text: string, start: number, maxUnits: number): number {
  let end = Math.min(text.length, start + maxUnits);
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  return end;
}

/** Bytes `units` UTF-16 code units take. */
export const utf16Bytes = (units: number): number => units * 2;
/** Scratch utf16ToUtf8 (and readUpdateUtf16) needs for `units` code units. */
export const transcodeScratchBytes = (units: number): number => 3 * units + 16;
/** Scratch readUpdateBytes needs in replace mode for `len` bytes (3 held-back bytes included). */
export const replaceScratchBytes = (len: number): number => 3 * (len + 3) + 16;

/** I/O bytes of one bounded-read text piece: the units, then the transcoding scratch. */
export function readTextBytes(units: number): { total: number; scratch: number } {
  const scratch = align(utf16Bytes(units), 16);
  return { total: scratch + transcodeScratchBytes(units), scratch };
}

/** I/O bytes of one bounded-read byte piece: the bytes, then (replace mode only) the decoding scratch. */
export function readBytesBytes(len: number, replace: boolean): { total: number; scratch: number } {
  const scratch = align(len, 16);
  return { total: scratch + (replace ? replaceScratchBytes(len) : 0), scratch };
}

// ---- batch digests ------------------------------------------------------------------------------

/**
 * Most I/O bytes one batch call uses: data, the offsets table and the hex output together. Small on
 * purpose: a batch that fits the core's cache is hashed while its copy is still there. 10,000 messages
 * of about 2 KB (20.5 MB) hashed 1.16x faster in batches of 256 KiB to 1 MiB than in one 32 MiB
 * call (bench/README.md), and memory stays small.
 */
export const MAX_BATCH_BYTES = 512 * 1024;
/**
 * Whether `count` inputs with `dataBytes` bytes of data fit one batch call (an upper bound of
 * batchLayout's total: each of the two alignments adds less than 16).
 */
export const batchFits = (count: number, hexLength: number, dataBytes: number): boolean =>
  (count + 1) * 4 + count * hexLength + 32 + dataBytes <= MAX_BATCH_BYTES;

/** Layout of a batch of `count` inputs with `dataBytes` bytes of data (strings at 3 bytes a unit). */
export function batchLayout(count: number, hexLength: number, dataBytes: number): { offsets: number; out: number; data: number; total: number } {
  const offsets = 0;
  const out = align((count + 1) * 4, 16);
  const data = out + align(count * hexLength, 16);
  return { offsets, out, data, total: data + dataBytes };
}

// ---- globs --------------------------------------------------------------------------------------

export { GLOB_MAX_PATTERN_BYTES };

/** Largest compiled glob set (its programs and their offset table), in bytes. */
export const GLOB_MAX_SET_BYTES = 16 * 1024 * 1024;
/** Bytes a compiled program takes at least besides its pattern text (its header). */
export const GLOB_PROGRAM_HEADER_BYTES = 288;
/** DFA cache bytes a resident set may use; programs beyond it match on the Pike VM (same answers). */
export const GLOB_DFA_CACHE_BYTES = 16 * 1024 * 1024;
/** Most I/O bytes one match call uses for paths, their offsets and the result bits. */
export const GLOB_MATCH_CHUNK_BYTES = 4 * 1024 * 1024;
/** Longest path a glob set matches, in UTF-16 code units. */
export const GLOB_MAX_PATH_UNITS = 1 << 20;

/** The least a set of `count` patterns of `units` code units in all compiles to. */
export const globSetLowerBound = (count: number, units: number): number =>
  align(count * 4, 8) + count * GLOB_PROGRAM_HEADER_BYTES + utf16Bytes(units);

/** Layout of a compile call: pattern text, offsets, workspace, then the output. */
export function globCompileLayout(count: number, units: number, work: number, outCap: number): { offsets: number; work: number; out: number; total: number } {
  const offsets = align(utf16Bytes(units), 16);
  const workAt = offsets + align((count + 1) * 4, 16);
  const out = workAt + align(work, 16);
  return { offsets, work: workAt, out, total: out + outCap };
}

/** Layout of a translate call (globSource): pattern text, workspace, then `cap` units of output. */
export function globTranslateLayout(units: number, work: number, cap: number): { work: number; out: number; total: number } {
  const workAt = align(utf16Bytes(units), 16);
  const out = workAt + align(work, 16);
  return { work: workAt, out, total: out + utf16Bytes(cap) };
}

/** Regex source capacity globTranslate needs for `units` pattern units (assembly/README.md). */
export const globTranslateCapacity = (units: number): number => 64 * (units + 16);

/** Where a resident set's parts go: the set, then its cache. */
export function globResidentLayout(setBytes: number, cacheBytes: number): { cache: number; end: number } {
  const cache = align(setBytes, 16);
  return { cache, end: cache + align(cacheBytes, 16) };
}

/** I/O bytes one path adds to a match chunk: its units, its offset, its result words. */
export const globPathBytes = (units: number, words: number): number => utf16Bytes(units) + 4 + 4 * words;

/** Layout of one match chunk after the resident set: paths, offsets, result bits, scratch. */
export function globMatchLayout(start: number, units: number, paths: number, words: number, work: number): { paths: number; offsets: number; out: number; work: number; end: number } {
  const pathsAt = align(start, 16);
  const offsets = pathsAt + align(utf16Bytes(units), 16);
  const out = offsets + align((paths + 1) * 4, 16);
  const workAt = out + align(paths * words * 4, 16);
  return { paths: pathsAt, offsets, out, work: workAt, end: workAt + work };
}

// ---- the tokenizer ------------------------------------------------------------------------------

/** Code units of text one tokEncode call gets at first; a chunk grows only around a longer pre-token. */
export const TOKEN_CHUNK_UNITS = 1 << 15;
/**
 * The longest pre-token the tokenizer takes, in UTF-8 bytes (a run the split rules keep whole: one
 * word of letters, one run of spaces, punctuation or symbols). Its BPE needs
 * TOKEN_WORK_BYTES_PER_BYTE bytes of work per byte: 56 MiB at this limit.
 */
export const TOKEN_MAX_PIECE_BYTES = 1 << 21;
/** The largest chunk tried: a pre-token that is still unfinished in it is over TOKEN_MAX_PIECE_BYTES. */
export const TOKEN_MAX_CHUNK_UNITS = 2 * TOKEN_MAX_PIECE_BYTES;
/** Most ids one call writes (at least TOKEN_MAX_PIECE_BYTES, so any piece fits). */
export const TOKEN_MAX_CALL_IDS = TOKEN_MAX_PIECE_BYTES;
/** Most ids decodeTokens takes at once, and most UTF-8 bytes they may stand for. */
export const TOKEN_MAX_DECODE_IDS = 1 << 22;
export const TOKEN_MAX_DECODE_BYTES = 1 << 24;

/** `work` bytes tokEncode needs for pre-tokens of up to `pieceBytes` UTF-8 bytes (assembly/README.md). */
export const tokenWorkBytes = (pieceBytes: number): number => TOKEN_WORK_BYTES_PER_BYTE * pieceBytes + TOKEN_WORK_EXTRA_BYTES;

/** Layout of a tokEncode call over `units` code units: the text, the work area, then the ids (if wanted). */
export function tokenEncodeLayout(units: number, ids: boolean): { work: number; workBytes: number; ids: number; idsCap: number; total: number } {
  // No pre-token of the chunk has more UTF-8 bytes than 3 per code unit.
  const workBytes = tokenWorkBytes(Math.min(3 * units, TOKEN_MAX_PIECE_BYTES));
  const work = align(utf16Bytes(units), 16);
  const idsAt = work + align(workBytes, 16);
  const idsCap = ids ? Math.min(3 * units, TOKEN_MAX_CALL_IDS) : 0;
  return { work, workBytes, ids: idsAt, idsCap, total: idsAt + 4 * idsCap };
}

/** Layout of a tokDecode call: the ids, the raw bytes (`bytes` + 16), then the output (3 × bytes + 16). */
export function tokenDecodeLayout(count: number, bytes: number): { scratch: number; out: number; total: number } {
  const scratch = align(4 * count, 16);
  const out = scratch + align(bytes + 16, 16);
  return { scratch, out, total: out + 3 * bytes + 16 };
}
