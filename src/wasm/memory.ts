// The one owner of WASM memory. Above the module's static data lies a fixed region (hash and read
// context slots, small outputs) and then the I/O area, which every call that moves data in shares.
// Whoever writes the I/O area claims it first (claimIo): the claim checks the engine's memory limit
// before anything grows, grows memory if needed, and takes the area from its previous owner. A
// structure that stays in the I/O area between calls (a compiled glob set) adopts it after placing
// itself (adoptIo), and asks ownsIo() before trusting that it is still there: any other claim in
// between (another set, a digest batch, a string moved in) makes it place itself again. A structure
// that must stay for the life of the process (the tokenizer's state, a few MiB) is reserved once at the
// start of the I/O area (reserveResident), which then begins after it.
//
// Only the adapters in this directory import this file; src/engine sees strings, bytes and numbers.

import { HASH_CTX_SIZE, HOST_ALIGN } from './abi.js';
import { engine } from './instance.js';
import { align, ENGINE_MAX_MEMORY_BYTES, FIXED_BYTES, PAGE_BYTES, READ_HEADROOM, SMALL_OUT_BYTES } from './sizes.js';

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
  /** Small outputs: hex digests (up to two SHA-256 digests) and u32 results. */
  out: base + FIXED_BYTES - SMALL_OUT_BYTES - READ_HEADROOM,
  /** Where the I/O area starts until something is reserved (READ_HEADROOM writable bytes lie just before it). */
  io: base + FIXED_BYTES,
});

/** Start of the I/O area: after the fixed region and whatever reserveResident() has reserved. */
let ioBase = layout.io;

/** The most bytes one claim may ask for now (less once something is resident). */
export function maxIoBytes(): number {
  return ENGINE_MAX_MEMORY_BYTES - ioBase;
}

/** A claim beyond the engine's memory limit: nothing was grown or written. */
export class MemoryLimitError extends RangeError {
  constructor(readonly requested: number) {
    super(`dsh-context-engine: the call needs ${ioBase + requested} bytes of WASM memory; the engine's limit is ${ENGINE_MAX_MEMORY_BYTES} (ENGINE_MAX_MEMORY_BYTES)`);
    this.name = 'RangeError';
  }
}

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

/** Who left data in the I/O area that is worth keeping (null: nobody). */
let ioOwner: object | null = null;

/**
 * Claims the first `bytes` bytes of the I/O area for the caller and returns their address. The
 * limit is checked before memory grows (MemoryLimitError, nothing changed); views are re-derived
 * after a growth (it detaches the old ArrayBuffer). Whatever a resident structure left there is
 * given up: it must place itself again.
 */
export function claimIo(bytes: number): number {
  if (!(bytes <= maxIoBytes())) throw new MemoryLimitError(bytes);
  const end = ioBase + bytes;
  const size = engine.memory.buffer.byteLength;
  if (end > size) {
    try {
      engine.memory.grow(Math.ceil((end - size) / PAGE_BYTES));
    } catch (error) {
      throw new RangeError(`dsh-context-engine: WASM memory cannot grow to ${end} bytes (it has ${size})`, { cause: error });
    }
  }
  if (u8.buffer !== engine.memory.buffer) refreshViews();
  ioOwner = null;
  return ioBase;
}

/**
 * Keeps the first `bytes` bytes of the I/O area (which the caller has claimed and filled) for the
 * rest of the process: the I/O area starts after them from now on. Returns their address. Whatever
 * else was resident there must place itself again.
 */
export function reserveResident(bytes: number): number {
  const at = ioBase;
  ioBase = at + align(bytes, HOST_ALIGN);
  ioOwner = null;
  return at;
}

/** Bytes reserved for the life of the process (reserveResident). */
export function residentBytes(): number {
  return ioBase - layout.io;
}

/** Records that `owner` has placed data worth keeping at the start of the I/O area. */
export function adoptIo(owner: object): void {
  ioOwner = owner;
}

/** Whether `owner`'s data is still where it put it (no claim since its adoptIo). */
export function ownsIo(owner: object): boolean {
  return ioOwner === owner;
}

/** Bytes of WASM memory now (it never shrinks). */
export function memoryBytes(): number {
  return engine.memory.buffer.byteLength;
}

// ---- moving data in and out (addresses must lie in the fixed region or a claim) ------------------

// Below this many code units a JavaScript loop beats the native call's fixed cost.
const SMALL_STRING_UNITS = 24;

/** Writes code units [start, end) of `text` as UTF-16LE at `ptr` (2-byte aligned). */
export function writeUtf16(text: string, start: number, end: number, ptr: number): void {
  const units = end - start;
  if (buf !== undefined && units > SMALL_STRING_UNITS) {
    buf.ucs2Write(start === 0 && end === text.length ? text : text.substring(start, end), ptr);
    return;
  }
  const at = ptr >>> 1;
  const view = u16;
  for (let i = 0; i < units; i++) view[at + i] = text.charCodeAt(start + i);
}

/** Most code units joined into one string before a native copy (see writeUtf16Strings). */
const JOIN_UNITS = 1 << 15;

/**
 * Writes `strings[first..last)` back to back as UTF-16 at `ptr` and their code-unit offsets (count
 * + 1 u32, the total last) at `offsets`. With Buffer the strings are joined and copied in one native
 * call: for 50 patterns or 2,000 paths that is 3–4 times faster than a call per string, and no slower
 * for 100,000 paths.
 */
export function writeUtf16Strings(strings: readonly string[], first: number, last: number, ptr: number, offsets: number): void {
  let units = 0;
  const table = offsets >>> 2;
  for (let i = first; i < last; i++) {
    u32[table + i - first] = units;
    units += strings[i]!.length;
  }
  u32[table + last - first] = units;
  if (buf !== undefined) {
    if (units <= JOIN_UNITS) {
      buf.ucs2Write(first === 0 && last === strings.length ? strings.join('') : strings.slice(first, last).join(''), ptr);
      return;
    }
    // Joined in runs of about JOIN_UNITS: a joined string of 100,000 paths (4.7 M units) took 34 ms
    // to build where runs of ~32 Ki units took 2 ms in all (V8 puts a string that large in its
    // large-object space, fresh pages every time).
    let at = ptr;
    for (let run = first; run < last;) {
      let end = run;
      let size = 0;
      while (end < last && size < JOIN_UNITS) size += strings[end++]!.length;
      buf.ucs2Write(strings.slice(run, end).join(''), at);
      at += size * 2;
      run = end;
    }
    return;
  }
  let at = ptr;
  for (let i = first; i < last; i++) {
    const text = strings[i]!;
    writeUtf16(text, 0, text.length, at);
    at += text.length * 2;
  }
}

/** Copies `bytes` to `ptr`. */
export function writeBytes(bytes: Uint8Array, ptr: number): void {
  u8.set(bytes, ptr);
}

/** Claims the I/O area for code units [start, end) of `text`, moves them in, returns their address. */
export function putUtf16(text: string, start: number, end: number): number {
  const at = claimIo((end - start) * 2);
  writeUtf16(text, start, end, at);
  return at;
}

/** Claims the I/O area for `bytes`, moves them in, returns their address. */
export function putBytes(bytes: Uint8Array): number {
  const at = claimIo(bytes.length);
  u8.set(bytes, at);
  return at;
}

const encoder = new TextEncoder();

/**
 * Writes `text` as UTF-8 at `ptr` (at most `capacity` bytes; 3 × its length always suffices) and
 * returns the bytes written. Lone surrogates become U+FFFD, as in TextEncoder.
 */
export function writeUtf8(text: string, ptr: number, capacity: number): number {
  if (buf !== undefined) return buf.utf8Write(text, ptr, capacity);
  return encoder.encodeInto(text, u8.subarray(ptr, ptr + capacity)).written;
}

/** A copy of `length` bytes at `ptr`. */
export function copyOut(ptr: number, length: number): Uint8Array {
  return u8.slice(ptr, ptr + length);
}

/** Writes `values` as u32 words from `ptr` (4-byte aligned); each becomes its value modulo 2^32. */
export function writeU32s(ptr: number, values: ArrayLike<number>): void {
  u32.set(values, ptr >>> 2);
}

const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The `length` bytes at `ptr` decoded as UTF-8 (a leading BOM is kept; ill-formed bytes become U+FFFD). */
export function readUtf8(ptr: number, length: number): string {
  return utf8Decoder.decode(u8.subarray(ptr, ptr + length));
}

/** Writes the u32 `value` at `ptr` (4-byte aligned). */
export function writeU32(ptr: number, value: number): void {
  u32[ptr >>> 2] = value;
}

/** The u32 at `ptr` (4-byte aligned). */
export function readU32(ptr: number): number {
  return u32[ptr >>> 2]!;
}

/** A copy of `count` u32 words at `ptr`. */
export function readU32s(ptr: number, count: number): Uint32Array {
  return u32.slice(ptr >>> 2, (ptr >>> 2) + count);
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
  // Buffer's latin1 slice is the fastest from 64 bytes on (37 ns for a SHA-256 digest, against 66 ns
  // for two fromCharCode calls); below, a single fromCharCode call with explicit arguments builds a
  // flat string without copies (the 40 characters of a SHA-1 digest in 40 ns).
  if (buf !== undefined && length >= 64) return buf.latin1Slice(p, p + length);
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
  let text = '';
  for (let i = 0; i < length; i += 4096) {
    text += String.fromCharCode.apply(null, m.subarray(p + i, p + Math.min(length, i + 4096)) as unknown as number[]);
  }
  return text;
}
