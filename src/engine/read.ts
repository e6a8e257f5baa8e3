// Bounded streaming reads (spec ): consume a source chunk by chunk with a running UTF-8
// byte count, stop as soon as the count passes the limit, and compute the text's SHA-1 and the SHA-1
// of its trimmed form while the chunks stream, not in a second pass.

import { ReadState } from '../wasm/read.js';
import { describe, expectLimit, isBytes, plainBytes } from './args.js';

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

/** The state of one read: its WASM side (src/wasm/read.ts) and the text so far. */
class BoundedRead {
  readonly #maxBytes: number;
  readonly #state: ReadState;
  #kind: 'string' | 'bytes' | undefined;
  readonly #parts: string[] = [];
  #rawBytes = 0;
  #decoder: TextDecoder | undefined;

  constructor(maxBytes: number, replace: boolean) {
    this.#maxBytes = maxBytes;
    this.#state = new ReadState(replace);
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

  #pushText(chunk: string): ReadResult | undefined {
    const bytes = this.#state.updateText(chunk, this.#maxBytes);
    if (bytes > this.#maxBytes) return { status: 'oversize', bytes, maxBytes: this.#maxBytes };
    this.#parts.push(chunk);
    return undefined;
  }

  #pushBytes(chunk: Uint8Array): ReadResult | undefined {
    this.#rawBytes += chunk.length;
    if (this.#rawBytes > this.#maxBytes) return { status: 'oversize', bytes: this.#rawBytes, maxBytes: this.#maxBytes };
    if (!this.#state.updateBytes(chunk)) return { status: 'invalid-utf8' };
    this.#decoder ??= new TextDecoder('utf-8');
    this.#parts.push(this.#decoder.decode(chunk, { stream: true }));
    return undefined;
  }

  finish(): ReadResult {
    const digests = this.#state.finish();
    if (digests === undefined) return { status: 'invalid-utf8' };
    const { bytes, sha1, trimmedSha1 } = digests;
    // A surrogate held back from the last string chunk counts only now. (Byte sources were limited by
    // the bytes read, checked chunk by chunk.)
    if (this.#kind === 'string' && bytes > this.#maxBytes) return { status: 'oversize', bytes, maxBytes: this.#maxBytes };
    if (this.#decoder !== undefined) this.#parts.push(this.#decoder.decode());
    const text = this.#parts.length === 1 ? this.#parts[0]! : this.#parts.join('');
    return { status: 'ok', text, bytes, sha1, trimmedSha1 };
  }

  /** Drops the WASM context: a finished or abandoned read leaves nothing behind. */
  discard(): void {
    this.#state.release();
  }
}
