// The two paths `dsh-context bench` times for each phase: the WASM engine as the plugins use it, and
// the plain-JavaScript path DSH's own loader takes (node:crypto, Buffer, picomatch). Both take the same
// inputs and must give the same answers; neither reads the clock.

import { createHash } from 'node:crypto';
import picomatch from 'picomatch';
import { compileGlobs, sha1Hex } from '../engine/index.js';
import type { FileSystem } from '../host/index.js';
import { readCandidate, type Probe, type Read } from '../plugins/workspace-context/files.js';
import { engineBudget, INTRO, renderBlock, type ByteBudget, type RenderItem } from '../plugins/workspace-context/render.js';

/** Which implementation runs. */
export type BenchPath = 'wasm' | 'js';

/**
 * Buffer's byte count and an encode–slice–decode cut (the compose baseline): a block fits when
 * `Buffer.byteLength` of it is within the budget, counted every time, as DSH counts it. The cut moves
 * back from `maxBytes` to the start of the character it lands in (X-05: a code point is never split),
 * where DSH's loader decodes the split bytes, which leaves a U+FFFD when it lands three bytes into a
 * four-byte character. Text read from a file is well-formed, so the decoded prefix is the string's own.
 */
export const bufferBudget: ByteBudget = {
  utf8Length: (text) => Buffer.byteLength(text, 'utf8'),
  fitsUtf8: (text, maxBytes) => Buffer.byteLength(text, 'utf8') <= maxBytes,
  truncateUtf8(text, maxBytes) {
    const encoded = Buffer.from(text, 'utf8');
    let end = Math.min(maxBytes, encoded.length);
    while (end > 0 && end < encoded.length && (encoded[end]! & 0xc0) === 0x80) end--;
    return { text: encoded.subarray(0, end).toString('utf8'), bytes: end };
  },
};

/**
 * DSH's bounded read (the read+digest baseline): a running `Buffer.byteLength` over the streamed
 * chunks, then `createHash('sha1')` of the text and of its trim. A provider failure (an unreadable file,
 * bytes that are not UTF-8) is `unavailable`, as in the engine's `readCandidate`.
 * @param fs the fs provider
 * @param probe a present candidate
 * @param maxBytes the source byte limit
 * @returns the same outcome `readCandidate` gives
 */
export async function readWithNodeCrypto(fs: FileSystem, probe: Extract<Probe, { kind: 'present' }>, maxBytes: number): Promise<Read> {
  if (probe.size !== undefined && probe.size > maxBytes) return { kind: 'oversize' };
  const parts: string[] = [];
  let bytes = 0;
  try {
    for await (const chunk of await fs.streamText(probe.target)) {
      bytes += Buffer.byteLength(chunk, 'utf8');
      if (bytes > maxBytes) return { kind: 'oversize' };
      parts.push(chunk);
    }
  } catch (error) {
    return { kind: 'unavailable', error };
  }
  const text = parts.join('');
  return { kind: 'loaded', text, digest: createHash('sha1').update(text).digest('hex'), trimmedDigest: createHash('sha1').update(text.trim()).digest('hex') };
}

/** One instruction file to read: its display path and its probe. */
export interface ReadInput {
  readonly path: string;
  readonly directory: string;
  readonly probe: Extract<Probe, { kind: 'present' }>;
}

/** A read's outcome with the file it belongs to. */
export interface ReadOutcome {
  readonly input: ReadInput;
  readonly read: Read;
}

/**
 * Reads every file through one path, in order.
 * @param path which implementation
 * @param fs the fs provider
 * @param inputs the files
 * @param maxSourceBytes the per-file byte limit
 * @returns each file's outcome
 */
export async function readAll(path: BenchPath, fs: FileSystem, inputs: readonly ReadInput[], maxSourceBytes: number): Promise<ReadOutcome[]> {
  const out: ReadOutcome[] = [];
  for (const input of inputs) {
    out.push({ input, read: path === 'wasm' ? await readCandidate(fs, input.probe, maxSourceBytes, undefined) : await readWithNodeCrypto(fs, input.probe, maxSourceBytes) });
  }
  return out;
}

/**
 * What the two reads must agree on: each file's outcome and digests.
 * @param outcomes one path's outcomes
 * @returns a digest of them
 */
export function readAnswer(outcomes: readonly ReadOutcome[]): string {
  return sha1Hex(JSON.stringify(outcomes.map(({ input, read }) => [input.path, read.kind, read.kind === 'loaded' ? [read.digest, read.trimmedDigest] : null])));
}

/**
 * Composes every baseline under `maxBytes` and returns the total length of the texts plus the sum of
 * their last code units. Timed runs keep only these: holding tens of thousands of baselines at once
 * would time the garbage collector. Reading a block's last unit makes V8 flatten the joined string
 * (one copy), as whatever uses the block next (DSH serializing it into a request) would: the
 * JavaScript path's byte count has flattened it already, the engine's fit test, which answers most
 * blocks from their length, has not, and leaving the copy to later would move work out of the phase
 * rather than save it. On a flat string the read costs nothing.
 * @param path which implementation
 * @param chains each baseline's files
 * @param maxBytes the message budget
 * @returns the total length and last units
 */
export function composeAll(path: BenchPath, chains: readonly (readonly RenderItem[])[], maxBytes: number): number {
  const budget = path === 'wasm' ? undefined : bufferBudget;
  let total = 0;
  for (const items of chains) {
    const { text } = renderBlock(items, INTRO, maxBytes, budget);
    total += text.length + (text.length === 0 ? 0 : text.charCodeAt(text.length - 1));
  }
  return total;
}

/**
 * Whether composing through the engine and through Buffer gives the same baselines, in one pass:
 * every fit, count and cut renderBlock asks for is answered by both and compared, and renderBlock is the
 * same code for both, so equal answers make equal baselines.
 * @param chains each baseline's files
 * @param maxBytes the message budget
 * @param engine the answers checked against Buffer's: the engine's (a test passes a wrong one)
 * @returns true when every answer agreed
 */
export function composeAgrees(chains: readonly (readonly RenderItem[])[], maxBytes: number, engine: ByteBudget = engineBudget): boolean {
  let agree = true;
  const both: ByteBudget = {
    utf8Length(text) {
      const n = engine.utf8Length(text);
      if (n !== bufferBudget.utf8Length(text)) agree = false;
      return n;
    },
    fitsUtf8(text, max) {
      const fits = engine.fitsUtf8(text, max);
      if (fits !== bufferBudget.fitsUtf8(text, max)) agree = false;
      return fits;
    },
    truncateUtf8(text, bytes) {
      const cut = engine.truncateUtf8(text, bytes);
      const theirs = bufferBudget.truncateUtf8(text, bytes);
      if (cut.text !== theirs.text || cut.bytes !== theirs.bytes) agree = false;
      return cut;
    },
  };
  for (const items of chains) {
    renderBlock(items, INTRO, maxBytes, both);
    if (!agree) return false;
  }
  return true;
}

/**
 * Every path against every glob: one compiled `GlobSet`, or picomatch compiled per glob. Compiling is included.
 * @param path which implementation
 * @param paths the paths
 * @param globs the globs
 * @returns the matching glob indices of each path
 */
export function matchAll(path: BenchPath, paths: readonly string[], globs: readonly string[]): number[][] {
  if (globs.length === 0) return paths.map(() => []);
  if (path === 'wasm') return compileGlobs(globs).matchAll(paths);
  const matchers = globs.map((g) => picomatch(g));
  return paths.map((p) => {
    const hits: number[] = [];
    for (let i = 0; i < matchers.length; i++) if (matchers[i]!(p)) hits.push(i);
    return hits;
  });
}

/**
 * A digest of a match result (every path's glob indices, in order): two FNV-1a hashes of 32 bits
 * over the indices and a separator per path. The bench digests one path's result before the other
 * path runs, so that on a million files two results never need memory at once.
 * @param results each path's indices
 * @returns 16 hex digits
 */
export function matchDigest(results: readonly (readonly number[])[]): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ results.length;
  const mix = (v: number) => {
    a = Math.imul(a ^ v, 0x01000193) >>> 0;
    b = Math.imul(b ^ (v + 0x9e3779b9), 0x01000193) >>> 0;
  };
  for (const hits of results) {
    for (const i of hits) mix(i);
    mix(0xffffffff);
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}
