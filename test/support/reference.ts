// References for the engine's tests (spec X-14): node:crypto for digests, Buffer / TextEncoder /
// TextDecoder for UTF-8, Array.from and the string iterator for code points. Nothing here calls the
// engine, so an expectation never comes from the code under test.

import { createHash } from 'node:crypto';

export type Algorithm = 'sha1' | 'sha256';
export const ALGORITHMS: readonly Algorithm[] = ['sha1', 'sha256'];

const encoder = new TextEncoder();

/** The WHATWG UTF-8 encoding of `text` (a lone surrogate is U+FFFD). */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** UTF-8 length of `text` per Buffer. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** node:crypto hex digest of a string (as UTF-8 via Buffer) or of bytes. */
export function nodeHash(algorithm: Algorithm, input: string | Uint8Array): string {
  return createHash(algorithm).update(typeof input === 'string' ? Buffer.from(input, 'utf8') : input).digest('hex');
}

export const nodeSha1 = (input: string | Uint8Array): string => nodeHash('sha1', input);

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/**
 * The bytes a streaming digest must hash for `chunks`: empty chunks contribute nothing, consecutive
 * string chunks are one text (a pair split between them is the pair), and a byte chunk ends the
 * text before it (a high surrogate left dangling there is U+FFFD).
 */
export function streamBytes(chunks: readonly (string | Uint8Array)[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let text = '';
  for (const chunk of chunks) {
    if (chunk.length === 0) continue;
    if (typeof chunk === 'string') {
      text += chunk;
    } else {
      parts.push(utf8(text), chunk);
      text = '';
    }
  }
  parts.push(utf8(text));
  return concatBytes(parts);
}

/** Splits a string or bytes at `cuts` (any non-negative numbers, taken modulo length + 1). */
export function splitAt<T extends string | Uint8Array>(value: T, cuts: readonly number[]): T[] {
  const points = cuts.map((c) => c % (value.length + 1)).sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const p of points) {
    pieces.push(value.slice(from, p) as T);
    from = p;
  }
  pieces.push(value.slice(from) as T);
  return pieces;
}

/** Every way to cut `value` once: [prefix, suffix] for each split point 0..length. */
export function everySplit<T extends string | Uint8Array>(value: T): T[][] {
  const out: T[][] = [];
  for (let i = 0; i <= value.length; i++) out.push([value.slice(0, i) as T, value.slice(i) as T]);
  return out;
}

/** Every way to cut `value` twice (i <= j). */
export function everyTwoSplits<T extends string | Uint8Array>(value: T): T[][] {
  const out: T[][] = [];
  for (let i = 0; i <= value.length; i++) {
    for (let j = i; j <= value.length; j++) out.push(splitAt(value, [i, j]));
  }
  return out;
}

/** Deterministic pseudo-random bytes (a 32-bit LCG), so large fixtures need no randomness. */
export function patternBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    bytes[i] = x >>> 24;
  }
  return bytes;
}

/** Longest prefix of `text` of whole code points (string iterator) whose UTF-8 length is <= max. */
export function referenceTruncate(text: string, max: number): { text: string; bytes: number; truncated: boolean } {
  let units = 0;
  let bytes = 0;
  for (const cp of text) {
    const width = byteLength(cp);
    if (bytes + width > max) return { text: text.slice(0, units), bytes, truncated: true };
    units += cp.length;
    bytes += width;
  }
  return { text, bytes, truncated: false };
}

/** The first `max` code points as Array.from counts them (a lone surrogate is one). */
export function referenceCap(text: string, max: number): string {
  return Array.from(text).slice(0, max).join('');
}

/** ECMAScript WhiteSpace ∪ LineTerminator: what String.prototype.trim removes. */
export const WHITESPACE: readonly string[] = [
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
].map((c) => String.fromCharCode(c));

/** Characters that look like whitespace (or share its UTF-8 prefixes) but are not trimmed. */
export const NOT_WHITESPACE: readonly string[] = [
  0x85, 0x180e, 0x200b, 0x200c, 0x2010, 0x2027, 0x202a, 0x2030, 0x205e, 0x2060, 0x1681, 0x3001, 0xfefe, 0xfffe,
  0xa1, 0x08, 0x0e, 0x1f, 0x21,
].map((c) => String.fromCharCode(c));

/** The status 'ok' result readBounded must give for `text`, computed with node:crypto and Buffer. */
export function okResult(text: string): {
  status: 'ok'; text: string; bytes: number; sha1: string; trimmedSha1: string;
} {
  return { status: 'ok', text, bytes: byteLength(text), sha1: nodeSha1(text), trimmedSha1: nodeSha1(text.trim()) };
}

const fatalDecoder = new TextDecoder('utf-8', { fatal: true });
const replaceDecoder = new TextDecoder('utf-8');

/** TextDecoder's fatal decoding of `bytes` (BOM dropped), or undefined when it throws. */
export function decodeFatal(bytes: Uint8Array): string | undefined {
  try {
    return fatalDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/** TextDecoder's replacing decoding of `bytes` (BOM dropped). */
export function decodeReplace(bytes: Uint8Array): string {
  return replaceDecoder.decode(bytes);
}
