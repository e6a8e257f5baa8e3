// Memory file content in and out (spec AM-11, AM-12, X-04): decoding what is on disk with fatal
// UTF-8 through the engine's bounded read, refusing binary content and oversize files with errors
// that name the numbers, and encoding what the tool writes (keeping a file's byte-order mark).

import { readBounded, utf8Length } from '../../engine/index.js';
import type { MemoryDisk } from './disk.js';

/**
 * The tool's error codes (AM-11 [P]), plus `IO_ERROR`: the file system refused (a full disk, no
 * permission, another process holding the memory directory too long), named with the virtual path.
 */
export type MemoryErrorCode =
  | 'INVALID_PATH' | 'NOT_MARKDOWN' | 'NOT_FOUND' | 'ALREADY_EXISTS' | 'NO_MATCH' | 'MULTIPLE_MATCHES' | 'INVALID_LINE'
  | 'FILE_TOO_LARGE' | 'TOO_MANY_FILES' | 'BINARY_CONTENT' | 'FORBIDDEN' | 'IO_ERROR';

/** A structured tool error (AM-11). */
export interface MemoryError {
  readonly ok: false;
  readonly code: MemoryErrorCode;
  readonly message: string;
}

/** Builds a `MemoryError`. */
export function memoryError(code: MemoryErrorCode, message: string): MemoryError {
  return { ok: false, code, message };
}

/** Whether a value is a `MemoryError`. */
export function isMemoryError(value: unknown): value is MemoryError {
  return typeof value === 'object' && value !== null && (value as { ok?: unknown }).ok === false;
}

/** A decoded text file. `bom` records a leading byte-order mark, which is not part of `text`. */
export interface TextFile {
  readonly text: string;
  readonly bom: boolean;
}

const BOM = [0xef, 0xbb, 0xbf];
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Decodes bytes read from disk (X-04 step 5): fatal UTF-8 through the engine's `readBounded`, any
 * decoding failure or a NUL is `BINARY_CONTENT` [R]. `shown` names the file in the message.
 */
export async function decodeText(bytes: Uint8Array, shown: string): Promise<TextFile | MemoryError> {
  const read = await readBounded([bytes], { maxBytes: bytes.length, decode: 'fatal' });
  if (read.status !== 'ok') return memoryError('BINARY_CONTENT', `${shown} is not valid UTF-8 text`);
  if (read.text.includes('\0')) return memoryError('BINARY_CONTENT', `${shown} contains a NUL character, so it is binary, not text`);
  return { text: read.text, bom: BOM.every((b, i) => bytes[i] === b) };
}

/**
 * Reads a whole memory file: `FILE_TOO_LARGE` when it is bigger than `maxFileBytes` (never read past
 * that plus one byte), `BINARY_CONTENT` when it is not text, `FORBIDDEN` when it has more than one
 * name (a hard link: see `hardLinkProblem`).
 */
export async function readTextFile(disk: MemoryDisk, path: string, shown: string, maxFileBytes: number): Promise<TextFile | MemoryError> {
  const { bytes, size, links } = await disk.readPrefix(path, maxFileBytes + 1);
  const linked = hardLinkProblem(shown, links);
  if (linked !== undefined) return memoryError('FORBIDDEN', linked);
  if (size > maxFileBytes || bytes.length > maxFileBytes) {
    return memoryError('FILE_TOO_LARGE', `${shown} is ${Math.max(size, bytes.length)} bytes; the limit is maxFileBytes = ${maxFileBytes}`);
  }
  return decodeText(bytes, shown);
}

/**
 * Why a memory file with `links` names cannot be read, or `undefined` for a file with one name. The
 * store writes files with one name; a hard link planted in the memory directory would show through
 * `view` (and, as MEMORY.md, through every injection) a file stored elsewhere, such as one a sandboxed
 * shell could link but not read. Symbolic links are refused for the same reason (AM-24). The check
 * is made on the opened file, so it cannot be raced.
 * @param shown the file's virtual path
 * @param links the file's link count
 * @returns the problem, in words
 */
export function hardLinkProblem(shown: string, links: number): string | undefined {
  if (links <= 1) return undefined;
  return `${shown} has ${links} names on disk (a hard link); memory storage reads only files that have one name, so a link cannot show a file stored elsewhere: delete it and create the memory again`;
}

/**
 * Checks text the tool is about to write (AM-12): no NUL, no lone surrogate (it has no UTF-8 form
 * and would be silently replaced), and at most `maxFileBytes` UTF-8 bytes (a kept BOM counts).
 */
export function checkWritable(text: string, bom: boolean, shown: string, maxFileBytes: number): MemoryError | undefined {
  if (text.includes('\0')) return memoryError('BINARY_CONTENT', `the new content of ${shown} contains a NUL character; memory files are text`);
  if (LONE_SURROGATE.test(text)) return memoryError('BINARY_CONTENT', `the new content of ${shown} contains a lone surrogate, which is not valid UTF-8`);
  const bytes = utf8Length(text) + (bom ? BOM.length : 0);
  if (bytes > maxFileBytes) return memoryError('FILE_TOO_LARGE', `${shown} would be ${bytes} bytes; the limit is maxFileBytes = ${maxFileBytes}`);
  return undefined;
}

/** The bytes to write for `file` (its BOM restored). */
export function encodeText(file: TextFile): Uint8Array {
  const body = new TextEncoder().encode(file.text);
  if (!file.bom) return body;
  const out = new Uint8Array(body.length + BOM.length);
  out.set(BOM, 0);
  out.set(body, BOM.length);
  return out;
}

/** Orders strings by Unicode code point, not by UTF-16 code unit as `<` does. */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < x.length && i < y.length; i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * The length of the longest prefix of `bytes` that does not end inside a UTF-8 sequence, for a
 * prefix read cut at an arbitrary byte: a trailing lead byte with fewer continuation bytes than it
 * announces is left for later (invalid bytes are left in place for the decoder to reject).
 */
export function completeUtf8Length(bytes: Uint8Array): number {
  let start = bytes.length - 1;
  // Walk back over at most three continuation bytes to the lead byte of the last sequence.
  while (start >= 0 && bytes.length - start <= 4 && (bytes[start]! & 0xc0) === 0x80) start--;
  if (start < 0) return bytes.length;
  const lead = bytes[start]!;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return bytes.length - start < need ? start : bytes.length;
}
