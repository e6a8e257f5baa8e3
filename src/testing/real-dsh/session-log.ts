// DSH's persisted session log: `~/.dsh/sessions/<project>/<session id>/session.jsonl`, or
// `session.jsonl.zstd` (the default) — a concatenation of Zstandard frames, one per flushed batch.
// Node's one-shot zstd decoder (22.15+) stops after the first frame, so the frames are located here
// from their headers (RFC 8878 §3.1) and each is decoded on its own.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledAsset } from './assets.js';

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** Frame_Content_Size field bytes by its flag (the 0 case depends on Single_Segment_flag). */
const FCS_BYTES = [0, 2, 4, 8] as const;
const DICTIONARY_ID_BYTES = [0, 1, 2, 4] as const;
const BLOCK_RLE = 1;
const BLOCK_RESERVED = 3;

/** A frame's byte range in the file, and whether it holds data (skippable frames do not). */
export interface ZstdFrame {
  readonly start: number;
  readonly end: number;
  readonly skippable: boolean;
}

/**
 * Splits a buffer of concatenated Zstandard frames into frames, reading only headers and block
 * sizes (nothing is decompressed).
 * @param data - the file's bytes.
 * @returns each frame's range, in order.
 * @throws Error naming the byte offset where the data stops being a frame.
 */
export function splitZstdFrames(data: Uint8Array): ZstdFrame[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const frames: ZstdFrame[] = [];
  let at = 0;
  const need = (n: number, what: string): void => {
    if (at + n > data.byteLength) throw new Error(`zstd: truncated ${what} at byte ${at} (file is ${data.byteLength} bytes)`);
  };
  while (at < data.byteLength) {
    const start = at;
    need(4, 'magic number');
    const magic = view.getUint32(at, true);
    at += 4;
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(4, 'skippable frame size');
      const size = view.getUint32(at, true);
      at += 4;
      need(size, 'skippable frame');
      at += size;
      frames.push({ start, end: at, skippable: true });
      continue;
    }
    if (magic !== ZSTD_MAGIC) throw new Error(`zstd: no frame magic at byte ${start} (0x${magic.toString(16)})`);
    need(1, 'frame header');
    const descriptor = data[at++]!;
    const singleSegment = (descriptor >> 5) & 1;
    const checksum = (descriptor >> 2) & 1;
    const fcsFlag = descriptor >> 6;
    at += (singleSegment ? 0 : 1) + DICTIONARY_ID_BYTES[descriptor & 3]! + (fcsFlag === 0 ? singleSegment : FCS_BYTES[fcsFlag]!);
    for (let last = 0; last === 0; ) {
      need(3, 'block header');
      const header = data[at]! | (data[at + 1]! << 8) | (data[at + 2]! << 16);
      at += 3;
      last = header & 1;
      const type = (header >> 1) & 3;
      if (type === BLOCK_RESERVED) throw new Error(`zstd: reserved block type at byte ${at - 3}`);
      const size = type === BLOCK_RLE ? 1 : header >>> 3;
      need(size, 'block');
      at += size;
    }
    if (checksum) {
      need(4, 'checksum');
      at += 4;
    }
    frames.push({ start, end: at, skippable: false });
  }
  return frames;
}

/** Decodes a session log file with the given Node (22.15+, which has zstd) and returns its text. */
function decompress(node: string, path: string): string {
  const module = pathToFileURL(compiledAsset('session-log.js')).href;
  const script = `import { splitZstdFrames } from ${JSON.stringify(module)};
import { readFileSync } from 'node:fs';
import { zstdDecompressSync } from 'node:zlib';
const data = readFileSync(process.argv[1]);
for (const frame of splitZstdFrames(data)) if (!frame.skippable) process.stdout.write(zstdDecompressSync(data.subarray(frame.start, frame.end)));`;
  const result = spawnSync(node, ['--input-type=module', '-e', script, path], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`cannot decompress ${path}: ${result.stderr}`);
  return result.stdout;
}

/**
 * Reads a persisted session log.
 * @param dshHome - DSH's home.
 * @param sessionId - the session's id.
 * @param node - a Node ≥ 22.15 executable to decode `.zstd` logs with.
 * @returns the log's lines (the header first, then one event per line, as DSH wrote them).
 * @throws Error when no log of that session exists.
 */
export function readSessionLog(dshHome: string, sessionId: string, node: string): string[] {
  const sessions = join(dshHome, 'sessions');
  for (const project of existsSync(sessions) ? readdirSync(sessions) : []) {
    const dir = join(sessions, project, sessionId);
    const plain = join(dir, 'session.jsonl');
    const zstd = join(dir, 'session.jsonl.zstd');
    const text = existsSync(plain) ? readFileSync(plain, 'utf8') : existsSync(zstd) ? decompress(node, zstd) : undefined;
    if (text !== undefined) return text.split('\n').filter((line) => line !== '');
  }
  throw new Error(`no persisted log of ${sessionId} under ${sessions}`);
}

