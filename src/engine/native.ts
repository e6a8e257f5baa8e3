// What the host runtime does natively and faster than a WASM crossing: node:crypto's digests (OpenSSL,
// on this machine's SHA-NI instructions: 1.2–3.6× our WASM SHA at every size, bench/README.md "Which
// path a call takes") and Buffer's UTF-8 byte count of short strings. Both are looked up once, on first
// use, through `process.getBuiltinModule` (synchronous, no import), so the engine bundle, built with
// `--platform=neutral`, names no `node:` module and loads the same in a browser, where both are absent
// and every call stays on WASM. Answers are the same either way: node:crypto hashes a string as its
// UTF-8 encoding with a lone surrogate as U+FFFD, as the WASM does; the tests check both paths
// against the references.

import { enginePaths } from './paths.js';
import { isHighSurrogate } from './small.js';

/** The part of node:crypto the engine uses. */
export interface CryptoLike {
  /** Node ≥ 20.12: one-shot digest, about 0.2 µs less per call than a Hash object. */
  readonly hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
  readonly createHash: (algorithm: string) => HashLike;
}

/** A node:crypto Hash object. */
export interface HashLike {
  update(data: string | Uint8Array): HashLike;
  copy(): HashLike;
  digest(encoding: 'hex'): string;
}

interface BufferLike {
  byteLength(text: string, encoding: 'utf8'): number;
}

interface ProcessWithBuiltins {
  readonly getBuiltinModule?: (id: string) => unknown;
}

/** The runtime's natives; `undefined` members are absent. */
interface Natives {
  readonly crypto: CryptoLike | undefined;
  readonly byteLength: ((text: string) => number) | undefined;
}

let natives: Natives | undefined;

function lookUp(): Natives {
  const processLike = (globalThis as { process?: ProcessWithBuiltins }).process;
  let crypto: CryptoLike | undefined;
  try {
    const found = processLike?.getBuiltinModule?.('node:crypto') as Partial<CryptoLike> | undefined;
    if (typeof found?.createHash === 'function') crypto = found as CryptoLike;
  } catch {
    crypto = undefined; // a runtime whose crypto cannot load (no OpenSSL) keeps to WASM
  }
  const buffer = (globalThis as { Buffer?: Partial<BufferLike> }).Buffer;
  const byteLength = typeof buffer?.byteLength === 'function' ? (text: string) => (buffer as BufferLike).byteLength(text, 'utf8') : undefined;
  return { crypto, byteLength };
}

function found(): Natives {
  natives ??= lookUp();
  return natives;
}

/**
 * node:crypto when this runtime has it and the engine may use it (not under `wasmOnly`).
 * @returns the module's digest functions, or undefined
 */
export function nativeCrypto(): CryptoLike | undefined {
  return enginePaths.wasmOnly ? undefined : found().crypto;
}

/**
 * Buffer.byteLength (UTF-8) when this runtime has Buffer and the engine may use it.
 * @returns the function, or undefined
 */
export function nativeByteLength(): ((text: string) => number) | undefined {
  return enginePaths.wasmOnly ? undefined : found().byteLength;
}

/**
 * The digest of `input` in hex through node:crypto (one-shot `hash` where the runtime has it).
 * @param crypto node:crypto
 * @param algorithm 'sha1' or 'sha256'
 * @param input a string (hashed as UTF-8) or bytes
 * @returns the lowercase hex digest
 */
export function nativeHashHex(crypto: CryptoLike, algorithm: string, input: string | Uint8Array): string {
  if (crypto.hash !== undefined) return crypto.hash(algorithm, input, 'hex');
  return crypto.createHash(algorithm).update(input).digest('hex');
}

/**
 * A streaming digest through node:crypto that hashes a surrogate pair split across two string
 * chunks as the pair, as the WASM stream does: a chunk's trailing high surrogate waits for the next
 * chunk, and becomes U+FFFD before a byte chunk or at the end.
 */
export class NativeHashStream {
  readonly #hash: HashLike;
  #pending = '';

  /**
   * @param crypto node:crypto
   * @param algorithm 'sha1' or 'sha256'
   */
  constructor(crypto: CryptoLike, algorithm: string) {
    this.#hash = crypto.createHash(algorithm);
  }

  /**
   * Feeds a chunk.
   * @param input a string or bytes
   */
  update(input: string | Uint8Array): void {
    if (typeof input !== 'string') {
      if (input.length === 0) return;
      this.#flush();
      this.#hash.update(input);
      return;
    }
    let text = this.#pending === '' ? input : this.#pending + input;
    this.#pending = '';
    const last = text.length - 1;
    if (last >= 0 && isHighSurrogate(text.charCodeAt(last))) {
      this.#pending = text.slice(last);
      text = text.slice(0, last);
    }
    if (text.length > 0) this.#hash.update(text);
  }

  /**
   * Finishes the digest.
   * @returns the lowercase hex digest
   */
  finalHex(): string {
    this.#flush();
    return this.#hash.digest('hex');
  }

  /** A held high surrogate is lone: it hashes as U+FFFD (node:crypto encodes it so). */
  #flush(): void {
    if (this.#pending === '') return;
    this.#hash.update(this.#pending);
    this.#pending = '';
  }
}
