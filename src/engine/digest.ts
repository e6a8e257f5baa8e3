// SHA-1 and SHA-256 (spec ): one-shot, streaming and batch, always lowercase hex. Strings
// are hashed as their UTF-8 encoding with lone surrogates as U+FFFD (the WHATWG encoder).

import { HASH_CTX_SIZE } from '../wasm/abi.js';
import { engine } from '../wasm/instance.js';
import {
  layout, MAX_PIECE_BYTES, MAX_PIECE_UNITS, pieceEnd, putBytes, putUtf16, readAscii, reserveIo, writeBytes, writeU32,
  writeUtf8,
} from '../wasm/memory.js';
import { ContextSlot } from '../wasm/slot.js';
import { describe, expectText, isBytes, plainBytes } from './args.js';

export type DigestAlgorithm = 'sha1' | 'sha256';
export type DigestInput = string | Uint8Array;

/** An incremental digest; `update` in any chunking gives the one-shot digest of the concatenation. */
export interface Digest {
  update(chunk: DigestInput): this;
  /** Finishes the digest. The object cannot be updated or finished again. */
  digestHex(): string;
}

interface Algorithm {
  readonly name: DigestAlgorithm;
  readonly hexLength: number;
  readonly slot: ContextSlot;
  readonly init: (ctx: number) => void;
  readonly update: (ctx: number, ptr: number, len: number) => void;
  readonly updateUtf16: (ctx: number, ptr: number, units: number) => void;
  readonly finalHex: (ctx: number, out: number) => void;
  readonly hex: (ctx: number, ptr: number, len: number, out: number) => void;
  readonly hexUtf16: (ctx: number, ptr: number, units: number, out: number) => void;
  readonly batchHex: (data: number, offsets: number, count: number, out: number) => void;
}

const SHA1: Algorithm = {
  name: 'sha1',
  hexLength: 40,
  slot: new ContextSlot(layout.sha1Slot, HASH_CTX_SIZE),
  init: engine.sha1Init,
  update: engine.sha1Update,
  updateUtf16: engine.sha1UpdateUtf16,
  finalHex: engine.sha1FinalHex,
  hex: engine.sha1Hex,
  hexUtf16: engine.sha1HexUtf16,
  batchHex: engine.sha1BatchHex,
};

const SHA256: Algorithm = {
  name: 'sha256',
  hexLength: 64,
  slot: new ContextSlot(layout.sha256Slot, HASH_CTX_SIZE),
  init: engine.sha256Init,
  update: engine.sha256Update,
  updateUtf16: engine.sha256UpdateUtf16,
  finalHex: engine.sha256FinalHex,
  hex: engine.sha256Hex,
  hexUtf16: engine.sha256HexUtf16,
  batchHex: engine.sha256BatchHex,
};

function algorithm(fn: string, value: unknown): Algorithm {
  if (value === 'sha1') return SHA1;
  if (value === 'sha256') return SHA256;
  throw new TypeError(`${fn}: algorithm must be 'sha1' or 'sha256', got ${describe(value)}`);
}

/** Feeds `input` into the context at `ctx`, in pieces that fit the I/O area. */
function feed(alg: Algorithm, ctx: number, input: DigestInput): void {
  if (typeof input === 'string') {
    for (let start = 0; start < input.length;) {
      const end = pieceEnd(input, start, MAX_PIECE_UNITS);
      alg.updateUtf16(ctx, putUtf16(input, start, end), end - start);
      start = end;
    }
  } else {
    for (let start = 0; start < input.length; start += MAX_PIECE_BYTES) {
      const piece = input.subarray(start, start + MAX_PIECE_BYTES);
      alg.update(ctx, putBytes(piece), piece.length);
    }
  }
}

function oneShot(alg: Algorithm, fn: string, value: unknown): string {
  expectText(fn, 'input', value);
  const input = typeof value === 'string' ? value : plainBytes(value);
  const { out, scratchCtx } = layout;
  if (typeof input === 'string' && input.length <= MAX_PIECE_UNITS) {
    alg.hexUtf16(scratchCtx, putUtf16(input, 0, input.length), input.length, out);
  } else if (typeof input !== 'string' && input.length <= MAX_PIECE_BYTES) {
    alg.hex(scratchCtx, putBytes(input), input.length, out);
  } else {
    alg.init(scratchCtx);
    feed(alg, scratchCtx, input);
    alg.finalHex(scratchCtx, out);
  }
  return readAscii(out, alg.hexLength);
}

/** SHA-1 of `input` (a string is hashed as UTF-8) as 40 lowercase hex characters. */
export function sha1Hex(input: DigestInput): string {
  return oneShot(SHA1, 'sha1Hex', input);
}

/** SHA-256 of `input` (a string is hashed as UTF-8) as 64 lowercase hex characters. */
export function sha256Hex(input: DigestInput): string {
  return oneShot(SHA256, 'sha256Hex', input);
}

class WasmDigest implements Digest {
  readonly #alg: Algorithm;
  #done = false;

  constructor(alg: Algorithm) {
    this.#alg = alg;
    alg.slot.enter(this, alg.init);
  }

  update(chunk: DigestInput): this {
    expectText(`${this.#alg.name} digest update`, 'chunk', chunk);
    if (this.#done) throw new Error(`${this.#alg.name} digest: update() after digestHex()`);
    feed(this.#alg, this.#alg.slot.enter(this, this.#alg.init), typeof chunk === 'string' ? chunk : plainBytes(chunk));
    return this;
  }

  digestHex(): string {
    if (this.#done) throw new Error(`${this.#alg.name} digest: digestHex() called twice`);
    const alg = this.#alg;
    alg.finalHex(alg.slot.enter(this, alg.init), layout.out);
    alg.slot.release(this);
    this.#done = true;
    return readAscii(layout.out, alg.hexLength);
  }
}

/**
 * A streaming digest. A string chunk that ends with the first half of a surrogate pair and a chunk
 * that starts with the second half hash as the pair, exactly as the joined string would.
 */
export function createDigest(algorithmName: DigestAlgorithm): Digest {
  return new WasmDigest(algorithm('createDigest', algorithmName));
}

/** Inputs packed per batch call at most (bytes, strings counted at 3 bytes per code unit). */
const MAX_BATCH_BYTES = 64 << 20;

const ALIGN = 16;
const align = (n: number): number => (n + ALIGN - 1) & ~(ALIGN - 1);

function worstCaseBytes(input: DigestInput): number {
  return typeof input === 'string' ? input.length * 3 : input.length;
}

/**
 * Digests of many inputs, in order. Inputs are packed into WASM memory and hashed in one call, four
 * messages at a time in SIMD lanes (a batch larger than 64 MiB is split into several calls; an input
 * larger than that is hashed on its own).
 */
export function digestMany(algorithmName: DigestAlgorithm, inputs: readonly DigestInput[]): string[] {
  const alg = algorithm('digestMany', algorithmName);
  if (!Array.isArray(inputs)) throw new TypeError(`digestMany: inputs must be an array, got ${describe(inputs)}`);
  const count = inputs.length;
  const items = new Array<DigestInput>(count);
  for (let i = 0; i < count; i++) {
    const input: unknown = inputs[i];
    if (typeof input === 'string') items[i] = input;
    else if (isBytes(input)) items[i] = plainBytes(input);
    else throw new TypeError(`digestMany: inputs[${i}] must be a string or a Uint8Array, got ${describe(input)}`);
  }
  const results = new Array<string>(count);
  let first = 0;
  while (first < count) {
    if (worstCaseBytes(items[first]!) > MAX_BATCH_BYTES) {
      results[first] = oneShot(alg, 'digestMany', items[first]);
      first += 1;
      continue;
    }
    let last = first;
    let size = 0;
    while (last < count) {
      const next = worstCaseBytes(items[last]!);
      if (size + next > MAX_BATCH_BYTES) break;
      size += next;
      last += 1;
    }
    hashGroup(alg, items, first, last, size, results);
    first = last;
  }
  return results;
}

/** Packs inputs [first, last) — offsets table, hex output, data — and hashes them in one call. */
function hashGroup(alg: Algorithm, inputs: readonly DigestInput[], first: number, last: number, size: number, results: string[]): void {
  const n = last - first;
  const offsets = layout.io;
  const out = offsets + align((n + 1) * 4);
  const data = out + align(n * alg.hexLength);
  reserveIo(data - layout.io + size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    writeU32(offsets + i * 4, at);
    const input = inputs[first + i]!;
    if (typeof input === 'string') {
      at += writeUtf8(input, data + at, input.length * 3);
    } else {
      writeBytes(input, data + at);
      at += input.length;
    }
  }
  writeU32(offsets + n * 4, at);
  alg.batchHex(data, offsets, n, out);
  const hex = readAscii(out, n * alg.hexLength);
  for (let i = 0; i < n; i++) results[first + i] = hex.slice(i * alg.hexLength, (i + 1) * alg.hexLength);
}
