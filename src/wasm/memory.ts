// The wrapper's view of WASM memory: a fixed layout above the module's static data, a growable I/O
// area, and the fastest available way to move strings and bytes in and hex digests out. This file
// and instance.ts are the only code that touches WASM memory.

import { HASH_CTX_SIZE, READ_CTX_SIZE } from './abi.js';
import { engine } from './instance.js';

const PAGE_SIZE = 65536;
const IO_HEADROOM = 64; // readUpdateBytes moves up to 3 held-back bytes in front of its input

const base = engine.heapBase();

/** Fixed regions, in bytes from the start of memory. */
export const layout = Object.freeze({
  /** Scratch hash context for one-shot digests. */
  scratchCtx: base,
  /** The hash context slot that streaming SHA-1 digests take turns in. */
  sha1Slot: base + HASH_CTX_SIZE,
  /** The hash context slot that streaming SHA-256 digests take turns in. */
  sha256Slot: base + 2 * HASH_CTX_SIZE,
  /** The read context slot that bounded reads take turns in. */
  readSlot: base + 3 * HASH_CTX_SIZE,
  /** Small outputs: hex digests (up to 128 characters) and u32 results. */
  out: base + 3 * HASH_CTX_SIZE + READ_CTX_SIZE,
  /** Start of the growable input/output area. */
  io: base + 3 * HASH_CTX_SIZE + READ_CTX_SIZE + 128 + IO_HEADROOM,
});

/** Largest piece of a string moved in at once (code units); longer strings go in pieces. */
export const MAX_PIECE_UNITS = 1 << 21;
/** Largest piece of a byte array moved in at once. */
export const MAX_PIECE_BYTES = 1 << 23;

// Node and Bun have Buffer, whose native UTF-16 and latin1 copies beat anything in JavaScript.
interface NodeBufferLike extends Uint8Array {
  ucs2Write(text: string, offset: number): number;
  utf8Write(text: string, offset: number, length: number): number;
  latin1Slice(start: number, end: number): string;
}
interface BufferConstructorLike {
  from(buffer: ArrayBufferLike): NodeBufferLike;
}
const NodeBuffer = (globalThis as unknown as { Buffer?: BufferConstructorLike }).Buffer;
const hasNodeBuffer = NodeBuffer !== undefined && typeof (NodeBuffer.from(new ArrayBuffer(1)) as Partial<NodeBufferLike>).ucs2Write === 'function';

let u8 = new Uint8Array(0);
let u16 = new Uint16Array(0);
let u32 = new Uint32Array(0);
let buf: NodeBufferLike | undefined;

function refreshViews(): void {
  const buffer = engine.memory.buffer;
  u8 = new Uint8Array(buffer);
  u16 = new Uint16Array(buffer);
  u32 = new Uint32Array(buffer);
  buf = hasNodeBuffer ? NodeBuffer!.from(buffer) : undefined;
}
refreshViews();

/**
 * Makes sure `bytes` bytes of the I/O area exist, growing memory if needed. Views are re-derived
 * after a growth (it detaches the old ArrayBuffer).
 */
export function reserveIo(bytes: number): void {
  const end = layout.io + bytes;
  const size = engine.memory.buffer.byteLength;
  if (end > size) {
    const pages = Math.ceil((end - size) / PAGE_SIZE);
    try {
      engine.memory.grow(pages);
    } catch (error) {
      throw new RangeError(`dsh-context-engine: WASM memory cannot grow to ${end} bytes (it has ${size})`, { cause: error });
    }
  }
  if (u8.buffer !== engine.memory.buffer) refreshViews();
}

// Below this many code units a JavaScript loop beats the native call's fixed cost.
const SMALL_STRING_UNITS = 24;

/** Writes code units [start, end) of `text` as UTF-16LE at `ptr` (2-byte aligned, reserved). */
export function writeUtf16(text: string, start: number, end: number, ptr: number): void {
  const units = end - start;
  if (buf !== undefined && units > SMALL_STRING_UNITS) {
    buf.ucs2Write(start === 0 && end === text.length ? text : text.substring(start, end), ptr);
    return;
  }
  const at = ptr >>> 1;
  for (let i = 0; i < units; i++) u16[at + i] = text.charCodeAt(start + i);
}

/**
 * Writes `strings` back to back as UTF-16 at `ptr` (reserved: 2 bytes per code unit) and returns the
 * code-unit offset where each starts, plus the total at the end. One copy per string: joining them
 * first would build the whole text twice.
 */
export function writeUtf16Strings(strings: readonly string[], ptr: number): Uint32Array {
  const offsets = new Uint32Array(strings.length + 1);
  let units = 0;
  for (let i = 0; i < strings.length; i++) {
    offsets[i] = units;
    const text = strings[i]!;
    if (buf !== undefined) buf.ucs2Write(text, ptr + units * 2);
    else writeUtf16(text, 0, text.length, ptr + units * 2);
    units += text.length;
  }
  offsets[strings.length] = units;
  return offsets;
}

/** Copies `bytes` to `ptr` (reserved). */
export function writeBytes(bytes: Uint8Array, ptr: number): void {
  u8.set(bytes, ptr);
}

/**
 * Moves code units [start, end) of `text` to the start of the I/O area, with `extra` bytes reserved
 * after them (scratch for the call that follows), and returns the I/O area's address.
 */
export function putUtf16(text: string, start: number, end: number, extra = 0): number {
  ioResident = undefined;
  reserveIo((end - start) * 2 + extra);
  writeUtf16(text, start, end, layout.io);
  return layout.io;
}

/** Moves `bytes` to the start of the I/O area, with `extra` bytes reserved after them. */
export function putBytes(bytes: Uint8Array, extra = 0): number {
  ioResident = undefined;
  reserveIo(bytes.length + extra);
  writeBytes(bytes, layout.io);
  return layout.io;
}

const encoder = new TextEncoder();

/**
 * Writes `text` as UTF-8 at `ptr` (at most `capacity` bytes reserved, 3 × its length always suffices)
 * and returns the bytes written. Lone surrogates become U+FFFD, as in TextEncoder.
 */
export function writeUtf8(text: string, ptr: number, capacity: number): number {
  if (buf !== undefined) return buf.utf8Write(text, ptr, capacity);
  return encoder.encodeInto(text, u8.subarray(ptr, ptr + capacity)).written;
}

/** A copy of `length` bytes at `ptr` (a context being swapped out of its slot). */
export function saveRegion(ptr: number, length: number): Uint8Array {
  return u8.slice(ptr, ptr + length);
}

/**
 * Who left data at the start of the I/O area that is worth keeping (a compiled glob set): calls
 * that move input in through putUtf16/putBytes overwrite it and clear this.
 */
export let ioResident: object | undefined;

/** Records that `owner`'s data now sits at the start of the I/O area. */
export function setIoResident(owner: object | undefined): void {
  ioResident = owner;
}

/** Copies `words` to `ptr` (4-byte aligned, reserved). */
export function writeU32s(words: Uint32Array, ptr: number): void {
  u32.set(words, ptr >>> 2);
}

/** A copy of `count` u32 words at `ptr`. */
export function readU32s(ptr: number, count: number): Uint32Array {
  return u32.slice(ptr >>> 2, (ptr >>> 2) + count);
}

export function readU32(ptr: number): number {
  return u32[ptr >>> 2]!;
}

export function writeU32(ptr: number, value: number): void {
  u32[ptr >>> 2] = value;
}

/** The UTF-16 string of `units` code units at `ptr`. */
export function readUtf16(ptr: number, units: number): string {
  let text = '';
  const at = ptr >>> 1;
  for (let i = 0; i < units; i += 4096) {
    text += String.fromCharCode.apply(null, u16.subarray(at + i, at + Math.min(units, i + 4096)) as unknown as number[]);
  }
  return text;
}

/** An ASCII string of `length` bytes at `ptr` (hex digests). */
export function readAscii(ptr: number, length: number): string {
  const m = u8;
  const p = ptr;
  // A single fromCharCode call with explicit arguments builds a flat string without copies; these
  // two lengths are the hex SHA-1 and SHA-256 digests.
  if (length === 40) {
    return String.fromCharCode(
      m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!, m[p + 6]!, m[p + 7]!, m[p + 8]!, m[p + 9]!,
      m[p + 10]!, m[p + 11]!, m[p + 12]!, m[p + 13]!, m[p + 14]!, m[p + 15]!, m[p + 16]!, m[p + 17]!, m[p + 18]!,
      m[p + 19]!, m[p + 20]!, m[p + 21]!, m[p + 22]!, m[p + 23]!, m[p + 24]!, m[p + 25]!, m[p + 26]!, m[p + 27]!,
      m[p + 28]!, m[p + 29]!, m[p + 30]!, m[p + 31]!, m[p + 32]!, m[p + 33]!, m[p + 34]!, m[p + 35]!, m[p + 36]!,
      m[p + 37]!, m[p + 38]!, m[p + 39]!);
  }
  if (length === 64) return readAscii(p, 32) + readAscii(p + 32, 32);
  if (length === 32) {
    return String.fromCharCode(
      m[p]!, m[p + 1]!, m[p + 2]!, m[p + 3]!, m[p + 4]!, m[p + 5]!, m[p + 6]!, m[p + 7]!, m[p + 8]!, m[p + 9]!,
      m[p + 10]!, m[p + 11]!, m[p + 12]!, m[p + 13]!, m[p + 14]!, m[p + 15]!, m[p + 16]!, m[p + 17]!, m[p + 18]!,
      m[p + 19]!, m[p + 20]!, m[p + 21]!, m[p + 22]!, m[p + 23]!, m[p + 24]!, m[p + 25]!, m[p + 26]!, m[p + 27]!,
      m[p + 28]!, m[p + 29]!, m[p + 30]!, m[p + 31]!);
  }
  if (buf !== undefined && length > 128) return buf.latin1Slice(p, p + length);
  let text = '';
  for (let i = 0; i < length; i += 4096) {
    text += String.fromCharCode.apply(null, m.subarray(p + i, p + Math.min(length, i + 4096)) as unknown as number[]);
  }
  return text;
}

/**
 * End of the next piece of `text` starting at `start`, at most `maxUnits` long and never between
 * the halves of a surrogate pair (so every piece can be processed on its own).
 */
export function pieceEnd(text: string, start: number, maxUnits: number): number {
  let end = Math.min(text.length, start + maxUnits);
  if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  return end;
}
