// Typed adapters for the digest exports (sha1*/sha256*, *BatchHex): one-shot, streaming and batch
// digests of strings (hashed as UTF-8) and bytes, as lowercase hex. Inputs arrive checked (a string
// or a plain, attached Uint8Array); long inputs go in pieces, batches in groups that fit the I/O
// area.

import { HASH_CTX_SIZE, SHA1_HEX_SIZE, SHA256_HEX_SIZE } from './abi.js';
import { engine } from './instance.js';
import { claimIo, layout, putBytes, putUtf16, readAscii, writeBytes, writeU32, writeUtf8 } from './memory.js';
import { ContextSlot } from './slot.js';
import { batchFits, batchLayout, MAX_PIECE_BYTES, MAX_PIECE_UNITS, pieceEnd } from './sizes.js';

export type HashAlgorithm = 'sha1' | 'sha256';
/** A string (hashed as its UTF-8 encoding) or bytes. */
export type HashInput = string | Uint8Array;

interface Kernel {
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

const KERNELS: Readonly<Record<HashAlgorithm, Kernel>> = {
  sha1: {
    hexLength: SHA1_HEX_SIZE,
    slot: new ContextSlot(layout.sha1Slot, HASH_CTX_SIZE),
    init: engine.sha1Init,
    update: engine.sha1Update,
    updateUtf16: engine.sha1UpdateUtf16,
    finalHex: engine.sha1FinalHex,
    hex: engine.sha1Hex,
    hexUtf16: engine.sha1HexUtf16,
    batchHex: engine.sha1BatchHex,
  },
  sha256: {
    hexLength: SHA256_HEX_SIZE,
    slot: new ContextSlot(layout.sha256Slot, HASH_CTX_SIZE),
    init: engine.sha256Init,
    update: engine.sha256Update,
    updateUtf16: engine.sha256UpdateUtf16,
    finalHex: engine.sha256FinalHex,
    hex: engine.sha256Hex,
    hexUtf16: engine.sha256HexUtf16,
    batchHex: engine.sha256BatchHex,
  },
};

/** Hex characters of a digest. */
export function hexLength(algorithm: HashAlgorithm): number {
  return KERNELS[algorithm].hexLength;
}

/** Feeds `input` into the context at `ctx`, in pieces that fit the I/O area. */
function feed(k: Kernel, ctx: number, input: HashInput): void {
  if (typeof input === 'string') {
    for (let start = 0; start < input.length;) {
      const end = pieceEnd(input, start, MAX_PIECE_UNITS);
      k.updateUtf16(ctx, putUtf16(input, start, end), end - start);
      start = end;
    }
  } else {
    for (let start = 0; start < input.length; start += MAX_PIECE_BYTES) {
      const piece = input.subarray(start, start + MAX_PIECE_BYTES);
      k.update(ctx, putBytes(piece), piece.length);
    }
  }
}

/** The digest of `input` as lowercase hex. */
export function hashHex(algorithm: HashAlgorithm, input: HashInput): string {
  const k = KERNELS[algorithm];
  const { out, scratchCtx } = layout;
  if (typeof input === 'string' && input.length <= MAX_PIECE_UNITS) {
    k.hexUtf16(scratchCtx, putUtf16(input, 0, input.length), input.length, out);
  } else if (typeof input !== 'string' && input.length <= MAX_PIECE_BYTES) {
    k.hex(scratchCtx, putBytes(input), input.length, out);
  } else {
    k.init(scratchCtx);
    feed(k, scratchCtx, input);
    k.finalHex(scratchCtx, out);
  }
  return readAscii(out, k.hexLength);
}

/**
 * A digest in progress. Its context takes turns in the algorithm's slot with every other stream of
 * the same algorithm; a surrogate pair split across two string updates hashes as the pair.
 */
export class HashStream {
  readonly #k: Kernel;

  constructor(algorithm: HashAlgorithm) {
    this.#k = KERNELS[algorithm];
    this.#k.slot.enter(this, this.#k.init);
  }

  update(input: HashInput): void {
    const k = this.#k;
    feed(k, k.slot.enter(this, k.init), input);
  }

  /** Finishes the digest and frees its context. */
  finalHex(): string {
    const k = this.#k;
    k.finalHex(k.slot.enter(this, k.init), layout.out);
    k.slot.release(this);
    return readAscii(layout.out, k.hexLength);
  }
}

/** Bytes an input may take packed (strings at 3 bytes a code unit). */
function worstCaseBytes(input: HashInput): number {
  return typeof input === 'string' ? input.length * 3 : input.length;
}

/**
 * Digests of many inputs, in order. Inputs are packed into the I/O area and hashed in one call, four
 * messages at a time in SIMD lanes; a batch larger than MAX_BATCH_BYTES (data, offsets and output
 * together) is split into several calls, and an input too large for any batch is hashed on its own.
 */
export function hashManyHex(algorithm: HashAlgorithm, inputs: readonly HashInput[]): string[] {
  const k = KERNELS[algorithm];
  const hex = k.hexLength;
  const count = inputs.length;
  const results = new Array<string>(count);
  let first = 0;
  while (first < count) {
    if (!batchFits(1, hex, worstCaseBytes(inputs[first]!))) {
      results[first] = hashHex(algorithm, inputs[first]!);
      first += 1;
      continue;
    }
    let last = first;
    let size = 0;
    while (last < count) {
      const next = worstCaseBytes(inputs[last]!);
      if (!batchFits(last - first + 1, hex, size + next)) break;
      size += next;
      last += 1;
    }
    hashGroup(k, inputs, first, last, size, results);
    first = last;
  }
  return results;
}

/** Packs inputs [first, last) (offsets table, hex output, data) and hashes them in one call. */
function hashGroup(k: Kernel, inputs: readonly HashInput[], first: number, last: number, size: number, results: string[]): void {
  const n = last - first;
  const plan = batchLayout(n, k.hexLength, size);
  const at = claimIo(plan.total);
  const offsets = at + plan.offsets;
  const out = at + plan.out;
  const data = at + plan.data;
  let used = 0;
  for (let i = 0; i < n; i++) {
    writeU32(offsets + i * 4, used);
    const input = inputs[first + i]!;
    if (typeof input === 'string') {
      used += writeUtf8(input, data + used, input.length * 3);
    } else {
      writeBytes(input, data + used);
      used += input.length;
    }
  }
  writeU32(offsets + n * 4, used);
  k.batchHex(data, offsets, n, out);
  const hex = readAscii(out, n * k.hexLength);
  const width = k.hexLength;
  for (let i = 0; i < n; i++) results[first + i] = hex.slice(i * width, (i + 1) * width);
}
