// Typed adapters for the tokenizer exports: loading the table into a state that stays resident for the
// life of the process (tokStateBytes, tokLoad, then reserveResident), counting and encoding text in
// chunks (tokEncode, resumed where tokConsumed says), and decoding ids (tokDecodeLength, tokDecode).

import { TOKEN_FLAG_FINAL, TOKEN_FLAG_IDS, TOKEN_PIECE_TOO_LONG, TOKEN_TABLE_HEADER_BYTES } from './abi.js';
import { engine } from './instance.js';
import { align, pieceEnd, TOKEN_CHUNK_UNITS, TOKEN_MAX_CHUNK_UNITS, tokenDecodeLayout, tokenEncodeLayout } from './sizes.js';
import { claimIo, readU32s, readUtf8, reserveResident, writeBytes, writeU32s, writeUtf16 } from './memory.js';

/** Where the state lives once loaded (0: not loaded). */
let stateAt = 0;

/** Whether a tokenizer table is loaded. */
export function tokenizerLoaded(): boolean {
  return stateAt !== 0;
}

export interface TokenizerStateInfo {
  /** Tokens of the BPE vocabulary (added tokens not included). */
  readonly vocabulary: number;
  readonly addedTokens: number;
  /** The Unicode version the table's character classes come from (`17.0.0`). */
  readonly unicode: string;
  /** Bytes of WASM memory the state keeps. */
  readonly stateBytes: number;
}

/** What the loaded state reports about itself. */
export function tokenizerState(): TokenizerStateInfo | undefined {
  if (stateAt === 0) return undefined;
  const unicode = engine.tokInfo(stateAt, 2);
  return {
    vocabulary: engine.tokInfo(stateAt, 0),
    addedTokens: engine.tokInfo(stateAt, 1),
    unicode: `${unicode >>> 16}.${(unicode >>> 8) & 0xff}.${unicode & 0xff}`,
    stateBytes: engine.tokInfo(stateAt, 3),
  };
}

export type TokenizerLoadResult = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly detail: number };

/**
 * Loads a tokenizer table (the bytes of build/deepseek-v3.tokenizer). Its state is built at the start
 * of the I/O area and reserved there for good; the table itself is not kept. A second load is a no-op.
 */
export function loadTokenizerTable(table: Uint8Array): TokenizerLoadResult {
  if (stateAt !== 0) return { ok: true };
  const header = Math.min(table.length, TOKEN_TABLE_HEADER_BYTES);
  let at = claimIo(header);
  writeBytes(table.subarray(0, header), at);
  const size = engine.tokStateBytes(at, table.length);
  if (size < 0) return { ok: false, status: size, detail: engine.tokDetail() };
  const tableAt = align(size, 16);
  at = claimIo(tableAt + table.length);
  writeBytes(table, at + tableAt);
  const status = engine.tokLoad(at + tableAt, table.length, at, size);
  if (status < 0) return { ok: false, status, detail: engine.tokDetail() };
  stateAt = reserveResident(size);
  return { ok: true };
}

export type TokenizeResult =
  | { readonly ok: true; readonly count: number; readonly ids: Uint32Array | undefined }
  /** A pre-token of `bytes` UTF-8 bytes (at least, when `atLeast`) starting at code unit `at`. */
  | { readonly ok: false; readonly bytes: number; readonly at: number; readonly atLeast: boolean };

/**
 * Counts (and with `wantIds` lists) the tokens of `text`. The text moves in by chunks of
 * TOKEN_CHUNK_UNITS code units, never between the halves of a pair; each call stops before a
 * pre-token the chunk's end may still change, and the next chunk starts there. A chunk grows (up to
 * TOKEN_MAX_CHUNK_UNITS) only when one pre-token fills it.
 */
export function tokenize(text: string, wantIds: boolean): TokenizeResult {
  let count = 0;
  const parts: Uint32Array[] = [];
  let chunk = TOKEN_CHUNK_UNITS;
  for (let start = 0; start < text.length;) {
    const end = pieceEnd(text, start, chunk);
    const units = end - start;
    const final = end === text.length;
    const plan = tokenEncodeLayout(units, wantIds);
    const at = claimIo(plan.total);
    writeUtf16(text, start, end, at);
    const flags = (final ? TOKEN_FLAG_FINAL : 0) | (wantIds ? TOKEN_FLAG_IDS : 0);
    const n = engine.tokEncode(stateAt, at, units, flags, at + plan.work, plan.workBytes, at + plan.ids, plan.idsCap);
    if (n === TOKEN_PIECE_TOO_LONG) return { ok: false, bytes: engine.tokDetail(), at: start + engine.tokDetail2(), atLeast: false };
    if (n < 0) throw new Error(`dsh-context-engine: tokEncode failed with status ${n} (detail ${engine.tokDetail()})`);
    const used = engine.tokConsumed();
    count += n;
    if (wantIds && n > 0) parts.push(readU32s(at + plan.ids, n));
    if (used === 0 && !final) {
      // One pre-token fills the chunk: give it a larger one, or refuse it past the limit.
      if (units >= TOKEN_MAX_CHUNK_UNITS) return { ok: false, bytes: units, at: start, atLeast: true };
      chunk = units * 2;
      continue;
    }
    start += used;
    chunk = TOKEN_CHUNK_UNITS;
  }
  if (!wantIds) return { ok: true, count, ids: undefined };
  if (parts.length === 1) return { ok: true, count, ids: parts[0]! };
  const ids = new Uint32Array(count);
  let k = 0;
  for (const part of parts) {
    ids.set(part, k);
    k += part.length;
  }
  return { ok: true, count, ids };
}

export type DecodeResult =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly kind: 'bad-id'; readonly index: number }
  | { readonly ok: false; readonly kind: 'too-long'; readonly bytes: number };

/** The text of `ids` (each a u32), unless `maxBytes` UTF-8 bytes would not hold it. */
export function detokenize(ids: ArrayLike<number>, maxBytes: number): DecodeResult {
  const count = ids.length;
  let at = claimIo(4 * count);
  writeU32s(at, ids);
  const bytes = engine.tokDecodeLength(stateAt, at, count);
  if (bytes < 0) return { ok: false, kind: 'bad-id', index: engine.tokDetail() };
  if (bytes > maxBytes) return { ok: false, kind: 'too-long', bytes };
  const plan = tokenDecodeLayout(count, bytes);
  at = claimIo(plan.total); // the same address: the ids stay where they were written
  const written = engine.tokDecode(stateAt, at, count, at + plan.out, at + plan.scratch);
  if (written < 0) throw new Error(`dsh-context-engine: tokDecode failed with status ${written}`);
  return { ok: true, text: readUtf8(at + plan.out, written) };
}
