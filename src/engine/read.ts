// Bounded streaming reads (spec ): consume a source chunk by chunk with a running UTF-8
// byte count, stop as soon as the count passes the limit, and compute the text's SHA-1 and the SHA-1
// of its trimmed form. In WASM both digests come out of one pass while the chunks stream (the trimmed
// one is a copy of the state where the last non-space ends). A text read whose first chunk V8 holds
// one byte per unit (ASCII or Latin-1 from disk) goes to node:crypto and Buffer instead, where the
// runtime has them: they need no transcoding then, and hardware SHA beats the WASM pass (paths.ts).

import { ReadState } from '../wasm/read.js';
import { MAX_PIECE_UNITS, pieceEnd } from '../wasm/sizes.js';
import { describe, expectLimit, isBytes, plainBytes } from './args.js';
import { nativeByteLength, nativeCrypto, nativeHashHex, type CryptoLike, type HashLike } from './native.js';
import { oneByteText } from './paths.js';
import { isHighSurrogate, isLowSurrogate } from './small.js';

export type ReadChunk = string | Uint8Array;
export type ReadSource = AsyncIterable<ReadChunk> | Iterable<ReadChunk>;

export interface ReadBoundedOptions {
  /** The most UTF-8 bytes the text may have (for byte sources: the most bytes read). */
  readonly maxBytes: number;
  /** Aborting ends the read as `cancelled`; a source that blocks is abandoned. */
  readonly signal?: AbortSignal;
  /** A size the provider reported; above `maxBytes` the read is `oversize` without reading. */
  readonly reportedSize?: number;
  /**
   * How byte chunks decode (string chunks are text already): `fatal` (default) makes ill-formed
   * UTF-8 an `invalid-utf8` result, `replace` decodes it as U+FFFD like TextDecoder. A leading BOM is
   * dropped either way, as TextDecoder and DSH's fs provider do.
   */
  readonly decode?: 'replace' | 'fatal';
}

export type ReadResult =
  | {
      readonly status: 'ok';
      readonly text: string;
      /** UTF-8 length of `text`. */
      readonly bytes: number;
      /** SHA-1 of `text` (UTF-8), 40 hex characters. */
      readonly sha1: string;
      /** SHA-1 of `text.trim()` (UTF-8), 40 hex characters. */
      readonly trimmedSha1: string;
    }
  | {
      readonly status: 'oversize';
      /** Bytes counted when the read stopped, or the reported size when it never started. */
      readonly bytes: number;
      readonly maxBytes: number;
    }
  | { readonly status: 'invalid-utf8' }
  | { readonly status: 'unavailable'; readonly error: unknown }
  | { readonly status: 'cancelled' };

/** Resolves when `signal` aborts. */
function whenAborted(signal: AbortSignal): { promise: Promise<'aborted'>; dispose(): void } {
  let onAbort!: () => void;
  const promise = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}

function iteratorOf(source: ReadSource): AsyncIterator<ReadChunk> | Iterator<ReadChunk> {
  const asyncIterable = (source as AsyncIterable<ReadChunk>)[Symbol.asyncIterator];
  if (typeof asyncIterable === 'function') return asyncIterable.call(source);
  return (source as Iterable<ReadChunk>)[Symbol.iterator]();
}

interface CheckedOptions {
  readonly maxBytes: number;
  readonly signal: AbortSignal | undefined;
  readonly reportedSize: number | undefined;
  readonly replace: boolean;
}

function checkOptions(options: unknown): CheckedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`readBounded: options must be an object with maxBytes, got ${describe(options)}`);
  }
  const { maxBytes, signal, reportedSize, decode } = options as ReadBoundedOptions;
  expectLimit('readBounded', 'maxBytes', maxBytes, false);
  if (reportedSize !== undefined) expectLimit('readBounded', 'reportedSize', reportedSize, false);
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new TypeError(`readBounded: signal must be an AbortSignal, got ${describe(signal)}`);
  }
  if (decode !== undefined && decode !== 'fatal' && decode !== 'replace') {
    throw new TypeError(`readBounded: decode must be 'fatal' or 'replace', got ${describe(decode)}`);
  }
  return { maxBytes, signal, reportedSize, replace: decode === 'replace' };
}

/**
 * Reads `source` (string chunks, or byte chunks decoded as UTF-8) up to `maxBytes`. Never throws
 * for what the source does: a source error is `unavailable`, an abort is `cancelled`, too many bytes
 * is `oversize` (at most the limit plus one chunk is ever held). Throws only for bad arguments.
 * @param source an async or sync iterable of chunks (strings, or Uint8Arrays of UTF-8)
 * @param options the byte limit, and optionally a signal, a reported size and the decoding mode
 * @returns the text with its byte count, SHA-1 and trimmed SHA-1, or why there is none
 */
export async function readBounded(source: ReadSource, options: ReadBoundedOptions): Promise<ReadResult> {
  if (source === null || typeof source !== 'object' ||
      (typeof (source as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] !== 'function' &&
       typeof (source as Partial<Iterable<unknown>>)[Symbol.iterator] !== 'function')) {
    throw new TypeError(`readBounded: source must be an async or sync iterable of chunks, got ${describe(source)}`);
  }
  const { maxBytes, signal, reportedSize, replace } = checkOptions(options);
  if (signal?.aborted) return { status: 'cancelled' };
  if (reportedSize !== undefined && reportedSize > maxBytes) return { status: 'oversize', bytes: reportedSize, maxBytes };

  const read = new BoundedRead(maxBytes, replace);
  // Without a signal there is nothing to race the source against.
  const abort = signal === undefined ? undefined : whenAborted(signal);
  let iterator: AsyncIterator<ReadChunk> | Iterator<ReadChunk> | undefined;
  let finished = false;
  try {
    iterator = iteratorOf(source);
    while (true) {
      const next = iterator.next();
      const step = abort === undefined ? await next : await Promise.race([next, abort.promise]);
      if (step === 'aborted' || signal?.aborted) return { status: 'cancelled' };
      if (step.done) {
        finished = true;
        return read.finish();
      }
      const outcome = read.push(step.value);
      if (outcome !== undefined) return outcome;
    }
  } catch (error) {
    if (signal?.aborted) return { status: 'cancelled' };
    return { status: 'unavailable', error };
  } finally {
    abort?.dispose();
    read.discard();
    // Stop the source (close its file) unless it ended by itself; a source that blocks or throws on
    // return() is not waited for.
    if (!finished && iterator?.return !== undefined) {
      try {
        Promise.resolve(iterator.return()).catch(() => {});
      } catch {
        // the source's own cleanup failed; there is nothing left of ours to clean
      }
    }
  }
}

/**
 * A text read through the runtime: Buffer's byte count as the chunks come, node:crypto's SHA-1s of
 * the joined text. Exported for bench/paths.ts, which times it against the WASM read.
 */
export class NativeTextRead {
  readonly #byteLength: (text: string) => number;
  readonly #crypto: CryptoLike;
  #bytes = 0;
  #held = false;

  /**
   * @param byteLength Buffer.byteLength for UTF-8
   * @param crypto node:crypto
   */
  constructor(byteLength: (text: string) => number, crypto: CryptoLike) {
    this.#byteLength = byteLength;
    this.#crypto = crypto;
  }

  /**
   * Counts a string chunk; returns the UTF-8 bytes so far (a trailing high surrogate held back).
   * Counted exactly as the WASM counts (src/wasm/read.ts): in pieces of MAX_PIECE_UNITS, stopping
   * after the piece that passes the limit, a trailing high surrogate counted once the next unit is
   * known, so an oversize read reports the same byte count on either path.
   */
  update(chunk: string, limit: number): number {
    for (let start = 0; start < chunk.length;) {
      const end = pieceEnd(chunk, start, MAX_PIECE_UNITS);
      const piece = start === 0 && end === chunk.length ? chunk : chunk.slice(start, end);
      let bytes = this.#byteLength(piece);
      // A held high surrogate and a leading low one are a pair (4 bytes), not two U+FFFD (3 + 3).
      if (this.#held) bytes += isLowSurrogate(piece.charCodeAt(0)) ? 1 : 3;
      this.#held = isHighSurrogate(piece.charCodeAt(piece.length - 1));
      if (this.#held) bytes -= 3;
      this.#bytes += bytes;
      if (this.#bytes > limit) return this.#bytes;
      start = end;
    }
    return this.#bytes;
  }

  /** The UTF-8 bytes of the whole text (a held surrogate is U+FFFD now). */
  total(): number {
    return this.#bytes + (this.#held ? 3 : 0);
  }

  /** SHA-1 of `text` (every chunk, joined) and of its trim. */
  digests(text: string): { sha1: string; trimmedSha1: string } {
    const crypto = this.#crypto;
    const trimmed = text.trim();
    if (trimmed.length === text.length) {
      const sha1 = nativeHashHex(crypto, 'sha1', text);
      return { sha1, trimmedSha1: sha1 };
    }
    // Nothing trimmed at the start: the trimmed text is a prefix, and one pass gives both digests (a
    // copy of the state where it ends). Below COPY_STATE_UNITS two one-shot digests are cheaper.
    if (text.length > COPY_STATE_UNITS && trimmed.length > 0 && trimmed.charCodeAt(0) === text.charCodeAt(0)) {
      const hash: HashLike = crypto.createHash('sha1').update(trimmed);
      const trimmedSha1 = hash.copy().digest('hex');
      return { sha1: hash.update(text.slice(trimmed.length)).digest('hex'), trimmedSha1 };
    }
    return { sha1: nativeHashHex(crypto, 'sha1', text), trimmedSha1: nativeHashHex(crypto, 'sha1', trimmed) };
  }
}

/** Text longer than this hashes once with a copied state rather than twice (measured: 1,500–2,000 units). */
const COPY_STATE_UNITS = 1536;

/** The state of one read: its text or byte path, and the text so far. */
class BoundedRead {
  readonly #maxBytes: number;
  readonly #replace: boolean;
  #state: ReadState | undefined;
  #native: NativeTextRead | undefined;
  #kind: 'string' | 'bytes' | undefined;
  readonly #parts: string[] = [];
  #rawBytes = 0;
  #decoder: TextDecoder | undefined;

  constructor(maxBytes: number, replace: boolean) {
    this.#maxBytes = maxBytes;
    this.#replace = replace;
  }

  /** Takes one chunk; returns a final result when the read must stop. */
  push(chunk: unknown): ReadResult | undefined {
    const kind = typeof chunk === 'string' ? 'string' : isBytes(chunk) ? 'bytes' : undefined;
    if (kind === undefined) {
      return { status: 'unavailable', error: new TypeError(`readBounded: the source yielded ${describe(chunk)}; chunks must be strings or Uint8Arrays`) };
    }
    if (this.#kind !== undefined && this.#kind !== kind) {
      return { status: 'unavailable', error: new TypeError('readBounded: the source mixed string and byte chunks') };
    }
    if (this.#kind === undefined) this.#choose(kind, chunk as string | Uint8Array);
    this.#kind = kind;
    if (kind === 'string') return this.#pushText(chunk as string);
    let bytes: Uint8Array;
    try {
      bytes = plainBytes('readBounded', 'a chunk of the source', chunk as Uint8Array);
    } catch (error) {
      return { status: 'unavailable', error };
    }
    return this.#pushBytes(bytes);
  }

  /** The path of the whole read, from its first chunk. */
  #choose(kind: 'string' | 'bytes', first: string | Uint8Array): void {
    if (kind === 'string' && oneByteText(first as string)) {
      const crypto = nativeCrypto();
      const byteLength = nativeByteLength();
      if (crypto !== undefined && byteLength !== undefined) {
        this.#native = new NativeTextRead(byteLength, crypto);
        return;
      }
    }
    this.#state = new ReadState(this.#replace);
  }

  #pushText(chunk: string): ReadResult | undefined {
    const bytes = this.#native !== undefined ? this.#native.update(chunk, this.#maxBytes) : this.#state!.updateText(chunk, this.#maxBytes);
    if (bytes > this.#maxBytes) return { status: 'oversize', bytes, maxBytes: this.#maxBytes };
    this.#parts.push(chunk);
    return undefined;
  }

  #pushBytes(chunk: Uint8Array): ReadResult | undefined {
    this.#rawBytes += chunk.length;
    if (this.#rawBytes > this.#maxBytes) return { status: 'oversize', bytes: this.#rawBytes, maxBytes: this.#maxBytes };
    if (!this.#state!.updateBytes(chunk)) return { status: 'invalid-utf8' };
    this.#decoder ??= new TextDecoder('utf-8');
    this.#parts.push(this.#decoder.decode(chunk, { stream: true }));
    return undefined;
  }

  finish(): ReadResult {
    const native = this.#native;
    if (native !== undefined) {
      const bytes = native.total();
      if (bytes > this.#maxBytes) return { status: 'oversize', bytes, maxBytes: this.#maxBytes };
      const text = this.#text();
      return { status: 'ok', text, bytes, ...native.digests(text) };
    }
    // A source of no chunks at all is an empty text, digested on the WASM path.
    const digests = (this.#state ??= new ReadState(this.#replace)).finish();
    if (digests === undefined) return { status: 'invalid-utf8' };
    const { bytes, sha1, trimmedSha1 } = digests;
    // A surrogate held back from the last string chunk counts only now. (Byte sources were limited by
    // the bytes read, checked chunk by chunk.)
    if (this.#kind === 'string' && bytes > this.#maxBytes) return { status: 'oversize', bytes, maxBytes: this.#maxBytes };
    if (this.#decoder !== undefined) this.#parts.push(this.#decoder.decode());
    return { status: 'ok', text: this.#text(), bytes, sha1, trimmedSha1 };
  }

  #text(): string {
    return this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join('');
  }

  /** Drops the WASM context: a finished or abandoned read leaves nothing behind. */
  discard(): void {
    this.#state?.release();
  }
}
