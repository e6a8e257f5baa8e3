// Typed adapter for the bounded-read exports (readInit, readUpdateUtf16, readUpdateBytes,
// readFinish): one read's context, which takes turns in the read slot with every other read in
// flight, and the pieces of each chunk moved through the I/O area with their scratch.

import { READ_CTX_SIZE, SHA1_HEX_SIZE, UTF8_INVALID } from './abi.js';
import { engine } from './instance.js';
import { claimIo, layout, readAscii, writeBytes, writeUtf16 } from './memory.js';
import { ContextSlot } from './slot.js';
import { MAX_PIECE_BYTES, MAX_PIECE_UNITS, pieceEnd, readBytesBytes, readTextBytes } from './sizes.js';

const slot = new ContextSlot(layout.readSlot, READ_CTX_SIZE);

/** What a finished read computed. */
export interface ReadDigests {
  /** UTF-8 bytes of the text. */
  readonly bytes: number;
  /** SHA-1 of the text, 40 hex characters. */
  readonly sha1: string;
  /** SHA-1 of the text trimmed as String.prototype.trim does, 40 hex characters. */
  readonly trimmedSha1: string;
}

/** The WASM side of one bounded read: byte count, SHA-1 and trimmed SHA-1 of the text so far. */
export class ReadState {
  readonly #replace: boolean;

  /** `replace`: byte chunks decode ill-formed UTF-8 as U+FFFD instead of failing. */
  constructor(replace: boolean) {
    this.#replace = replace;
  }

  #ctx(): number {
    return slot.enter(this, engine.readInit);
  }

  /**
   * Feeds a string chunk; returns the UTF-8 bytes of the text so far. Stops after the first piece
   * that takes the count past `limit` (the read is over then).
   */
  updateText(chunk: string, limit: number): number {
    let bytes = 0;
    for (let start = 0; start < chunk.length;) {
      const end = pieceEnd(chunk, start, MAX_PIECE_UNITS);
      const units = end - start;
      const plan = readTextBytes(units);
      const at = claimIo(plan.total);
      writeUtf16(chunk, start, end, at);
      bytes = engine.readUpdateUtf16(this.#ctx(), at, units, at + plan.scratch);
      if (bytes > limit) return bytes;
      start = end;
    }
    return bytes;
  }

  /** Feeds a byte chunk decoded as UTF-8; false when it is ill-formed (fatal decoding). */
  updateBytes(chunk: Uint8Array): boolean {
    const replace = this.#replace;
    for (let start = 0; start < chunk.length; start += MAX_PIECE_BYTES) {
      const piece = chunk.subarray(start, start + MAX_PIECE_BYTES);
      const plan = readBytesBytes(piece.length, replace);
      // The bytes go at the start of the I/O area: the 3 held-back bytes of the previous chunk are
      // moved just in front of them, into the headroom before the area.
      const at = claimIo(plan.total);
      writeBytes(piece, at);
      if (engine.readUpdateBytes(this.#ctx(), at, piece.length, at + plan.scratch, replace ? 1 : 0) === UTF8_INVALID) return false;
    }
    return true;
  }

  /** Ends the read; undefined when the bytes ended inside a sequence (fatal decoding). */
  finish(): ReadDigests | undefined {
    const bytes = engine.readFinish(this.#ctx(), layout.out, this.#replace ? 1 : 0);
    if (bytes === UTF8_INVALID) return undefined;
    const both = readAscii(layout.out, 2 * SHA1_HEX_SIZE);
    return { bytes, sha1: both.slice(0, SHA1_HEX_SIZE), trimmedSha1: both.slice(SHA1_HEX_SIZE) };
  }

  /** Drops the context: a finished or abandoned read leaves nothing behind. */
  release(): void {
    slot.release(this);
  }
}
