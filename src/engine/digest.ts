// SHA-1 and SHA-256 (spec ): one-shot, streaming and batch, always lowercase hex. Strings
// are hashed as their UTF-8 encoding with lone surrogates as U+FFFD (the WHATWG encoder). The
// arguments are checked here; where the runtime has node:crypto, it hashes (native.ts: OpenSSL on the
// CPU's SHA instructions is faster than our WASM at every size, batches included), and elsewhere
// src/wasm/hash.ts moves the input through WASM memory.

import { HashStream, hashHex, hashManyHex } from '../wasm/hash.js';
import { describe, textArg } from './args.js';
import { NativeHashStream, nativeCrypto, nativeHashHex } from './native.js';

export type DigestAlgorithm = 'sha1' | 'sha256';
export type DigestInput = string | Uint8Array;

/** An incremental digest; `update` in any chunking gives the one-shot digest of the concatenation. */
export interface Digest {
  /**
   * Feeds a chunk.
   * @param chunk a string (hashed as UTF-8) or bytes
   * @returns this digest
   */
  update(chunk: DigestInput): this;
  /**
   * Finishes the digest. The object cannot be updated or finished again.
   * @returns the digest as lowercase hex
   */
  digestHex(): string;
}

function algorithm(fn: string, value: unknown): DigestAlgorithm {
  if (value === 'sha1' || value === 'sha256') return value;
  throw new TypeError(`${fn}: algorithm must be 'sha1' or 'sha256', got ${describe(value)}`);
}

/**
 * SHA-1 of `input` as 40 lowercase hex characters.
 * @param input a string (hashed as its UTF-8 encoding, a lone surrogate as U+FFFD) or bytes
 * @returns the digest in hex
 */
export function sha1Hex(input: DigestInput): string {
  return oneShot('sha1', textArg('sha1Hex', 'input', input));
}

/**
 * SHA-256 of `input` as 64 lowercase hex characters.
 * @param input a string (hashed as its UTF-8 encoding, a lone surrogate as U+FFFD) or bytes
 * @returns the digest in hex
 */
export function sha256Hex(input: DigestInput): string {
  return oneShot('sha256', textArg('sha256Hex', 'input', input));
}

function oneShot(name: DigestAlgorithm, input: string | Uint8Array): string {
  const crypto = nativeCrypto();
  return crypto === undefined ? hashHex(name, input) : nativeHashHex(crypto, name, input);
}

class StreamingDigest implements Digest {
  readonly #name: DigestAlgorithm;
  readonly #stream: HashStream | NativeHashStream;
  #done = false;

  constructor(name: DigestAlgorithm) {
    this.#name = name;
    const crypto = nativeCrypto();
    this.#stream = crypto === undefined ? new HashStream(name) : new NativeHashStream(crypto, name);
  }

  update(chunk: DigestInput): this {
    const input = textArg(`${this.#name} digest update`, 'chunk', chunk);
    if (this.#done) throw new Error(`${this.#name} digest: update() after digestHex()`);
    this.#stream.update(input);
    return this;
  }

  digestHex(): string {
    if (this.#done) throw new Error(`${this.#name} digest: digestHex() called twice`);
    this.#done = true;
    return this.#stream.finalHex();
  }
}

/**
 * A streaming digest. A string chunk that ends with the first half of a surrogate pair and a chunk
 * that starts with the second half hash as the pair, exactly as the joined string would. Any number
 * of digests may be in progress at once.
 * @param algorithmName 'sha1' or 'sha256'
 * @returns a digest to update and finish
 */
export function createDigest(algorithmName: DigestAlgorithm): Digest {
  return new StreamingDigest(algorithm('createDigest', algorithmName));
}

/**
 * Digests of many inputs, in order: through node:crypto where the runtime has it, else in WASM calls
 * of at most 512 KiB (data, offsets and digests together; small enough to stay in the CPU's cache),
 * four messages at a time in SIMD lanes, an input larger than a batch on its own.
 * @param algorithmName 'sha1' or 'sha256'
 * @param inputs strings (hashed as UTF-8) and byte arrays
 * @returns one lowercase hex digest per input
 */
export function digestMany(algorithmName: DigestAlgorithm, inputs: readonly DigestInput[]): string[] {
  const name = algorithm('digestMany', algorithmName);
  if (!Array.isArray(inputs)) throw new TypeError(`digestMany: inputs must be an array, got ${describe(inputs)}`);
  // A copy of the inputs, read once: nothing the caller's array does (getters, a proxy) runs while
  // WASM memory is being written.
  const count = inputs.length;
  const items = new Array<DigestInput>(count);
  for (let i = 0; i < count; i++) items[i] = textArg('digestMany', `inputs[${i}]`, inputs[i]);
  // Reading a later element may have detached an earlier one's buffer: check again.
  for (let i = 0; i < count; i++) {
    const item = items[i]!;
    if (typeof item !== 'string' && item.length === 0) textArg('digestMany', `inputs[${i}]`, item);
  }
  const crypto = nativeCrypto();
  if (crypto === undefined) return hashManyHex(name, items);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = nativeHashHex(crypto, name, items[i]!);
  return out;
}
