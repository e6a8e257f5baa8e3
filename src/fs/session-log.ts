// DSH's persisted session log: `<DSH home>/sessions/<project key of the cwd>/<session id>/` holds
// `session.jsonl`, or `session.jsonl.zstd` (the default): a concatenation of Zstandard frames, one
// per flushed batch, whose text is the header line and then one event per line. Node's zlib has
// Zstandard only from 22.15, and its one-shot decoder stops after the first frame, so the frames are
// decoded with fzstd (pure JavaScript, every frame of a stream, on any Node and in browsers). Reads
// are bounded: the file's size and the decoded text's are checked against limits before anything is
// kept, and a log over them is refused with both numbers.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { Decompress } from 'fzstd';
import type { SessionEvent, SessionHeader } from '../host/session.js';

/** The log's file names in a session directory, plain first (DSH writes one of them). */
export const SESSION_LOG_FILES = ['session.jsonl', 'session.jsonl.zstd'] as const;
/** Most bytes of a log file read (compressed or not). */
export const MAX_SESSION_LOG_FILE_BYTES = 256 * 1024 * 1024;
/** Most bytes of decoded log text. */
export const MAX_SESSION_LOG_TEXT_BYTES = 512 * 1024 * 1024;
/** Bytes read per call. */
const CHUNK_BYTES = 1024 * 1024;

/** A parsed log. */
export interface SessionLog {
  readonly header: SessionHeader;
  readonly events: readonly SessionEvent[];
}

/**
 * The text of a log file: decoded when its name ends in `.zstd`, as UTF-8 otherwise.
 * @param path - the file.
 * @returns its text, one JSON value per line.
 * @throws Error naming the file and the limit when it is larger than MAX_SESSION_LOG_FILE_BYTES or
 * decodes to more than MAX_SESSION_LOG_TEXT_BYTES; Error with the decoder's reason when it is not Zstandard.
 */
export function readSessionLogText(path: string): string {
  const zstd = path.endsWith('.zstd');
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > MAX_SESSION_LOG_FILE_BYTES) throw new Error(`session log ${path} is ${size} bytes; the limit is ${MAX_SESSION_LOG_FILE_BYTES}`);
    const parts: Uint8Array[] = [];
    let decoded = 0;
    const keep = (chunk: Uint8Array): void => {
      decoded += chunk.length;
      if (decoded > MAX_SESSION_LOG_TEXT_BYTES) throw new Error(`session log ${path} decodes to more than ${MAX_SESSION_LOG_TEXT_BYTES} bytes, the limit`);
      parts.push(chunk);
    };
    const decoder = zstd ? new Decompress((chunk) => keep(chunk)) : undefined;
    const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(size, 1)));
    let read = 0;
    for (;;) {
      const n = readSync(fd, buffer, 0, buffer.length, null);
      read += n;
      if (read > MAX_SESSION_LOG_FILE_BYTES) throw new Error(`session log ${path} grew past ${MAX_SESSION_LOG_FILE_BYTES} bytes while it was read, the limit`);
      const chunk = Uint8Array.prototype.slice.call(buffer, 0, n);
      try {
        if (decoder !== undefined) decoder.push(chunk, n === 0);
        else if (n > 0) keep(chunk);
      } catch (error) {
        if ((error as Error).message.startsWith('session log')) throw error;
        throw new Error(`session log ${path} is not valid Zstandard data: ${(error as Error).message}`);
      }
      if (n === 0) break;
    }
    return Buffer.concat(parts).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses a log's text: the header line, then one event per line; a line cut short at the end (a log
 * being written) is left out.
 * @param text - the log's text.
 * @param path - named in errors.
 * @returns the header and the events.
 * @throws Error naming the line that is not JSON, or a first line that is no session header.
 */
export function parseSessionLog(text: string, path: string): SessionLog {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const values: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    try {
      values.push(JSON.parse(lines[i]!));
    } catch (error) {
      if (i === lines.length - 1 && i > 0) break;
      throw new Error(`session log ${path}: line ${i + 1} is not JSON (${(error as Error).message})`);
    }
  }
  const header = values[0] as (SessionHeader & { type?: unknown }) | undefined;
  if (header === undefined || header === null || typeof header !== 'object' || header.type !== 'session' || typeof header.id !== 'string') {
    throw new Error(`session log ${path}: the first line is not a session header ({"type":"session","id":…})`);
  }
  return { header, events: values.slice(1) as SessionEvent[] };
}

/**
 * The log file of a session directory.
 * @param dir - `<DSH home>/sessions/<project>/<session id>`.
 * @param exists - whether a path exists.
 * @returns the path, or undefined when the directory holds neither file.
 */
export function sessionLogFile(dir: string, exists: (path: string) => boolean): string | undefined {
  for (const name of SESSION_LOG_FILES) if (exists(join(dir, name))) return join(dir, name);
  return undefined;
}
