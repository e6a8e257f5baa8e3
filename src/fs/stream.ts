// Lazy text streaming with DSH's local-backend semantics (contract §9): the promise resolves at once,
// and every failure (absent, not a regular file, not text, abort, I/O) surfaces while iterating, so a
// caller's bounded reader sees it as a read error, not a resolve error.

import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { FsError, throwIfFsAborted } from '../host/fs.js';
import { toFsError } from './errors.js';

/** Bytes read per chunk. Chunk boundaries carry no meaning; decoding handles split sequences. */
export const STREAM_CHUNK_BYTES = 64 * 1024;
/** How far a NUL byte marks a file as binary (as DSH's local backend checks). */
export const BINARY_SNIFF_BYTES = 8192;

/**
 * Flags for opening a file to read: non-blocking, so opening a FIFO with no writer returns at once
 * (and is then refused as not a regular file) instead of blocking a thread until a writer appears,
 * beyond the reach of any abort signal. No effect on regular files; Windows has no such flag.
 */
export const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/**
 * Yields the file at `path` as decoded text chunks: fatal UTF-8 with a leading BOM stripped, a NUL
 * in the first 8192 bytes or invalid UTF-8 as `FS_NOT_TEXT`, a non-regular file as
 * `FS_NOT_REGULAR_FILE`, absence as `FS_NOT_FOUND`, an abort as `FS_ABORTED` (checked before every
 * read). The file handle is closed however iteration ends, including an early `return()`.
 */
export async function* streamFileText(path: string, signal: AbortSignal | undefined, chunkBytes = STREAM_CHUNK_BYTES): AsyncGenerator<string> {
  throwIfFsAborted(signal, `streamText ${path}`);
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch (error) {
    throw toFsError(error, 'streamText', path);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FsError('FS_NOT_REGULAR_FILE', `streamText ${path}: not a regular file`);
    const decoder = new TextDecoder('utf-8', { fatal: true });
    // A file smaller than a chunk gets a buffer one byte larger than its size: a read that comes back
    // short has reached the end (regular files read short only there), which saves the read that
    // would return 0. A file that grew since the stat fills the buffer, and reading goes on.
    const size = Number(stats.size);
    const length = size < chunkBytes ? size + 1 : chunkBytes;
    const buffer = new Uint8Array(length);
    let offset = 0;
    for (;;) {
      throwIfFsAborted(signal, `streamText ${path}`);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, length, offset));
      } catch (error) {
        throw toFsError(error, 'streamText', path);
      }
      throwIfFsAborted(signal, `streamText ${path}`);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (offset < BINARY_SNIFF_BYTES && chunk.subarray(0, BINARY_SNIFF_BYTES - offset).includes(0)) {
        throw new FsError('FS_NOT_TEXT', `streamText ${path}: binary content (NUL byte)`);
      }
      offset += bytesRead;
      const text = decode(decoder, chunk, true, path);
      if (text !== '') yield text;
      if (bytesRead < length && length < chunkBytes) break;
    }
    const rest = decode(decoder, undefined, false, path);
    if (rest !== '') yield rest;
  } finally {
    await handle.close();
  }
}

function decode(decoder: TextDecoder, chunk: Uint8Array | undefined, stream: boolean, path: string): string {
  try {
    return decoder.decode(chunk, { stream });
  } catch (error) {
    throw new FsError('FS_NOT_TEXT', `streamText ${path}: invalid UTF-8`, { cause: error });
  }
}
