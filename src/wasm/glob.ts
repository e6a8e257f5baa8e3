// Typed adapters for the glob exports: compiling a set of patterns (globCompileSet, retried with the
// room the module asks for, within the engine's limits), translating one pattern to picomatch's
// regex source (globTranslate), and a compiled set resident in the I/O area that matches packed
// paths (globSetCacheBytes, globSetCacheReset, globSetWorkspace, globMatchSet). The set is the one
// structure that stays in WASM memory between calls: it re-places itself whenever another call has
// claimed the I/O area since it last did.

import { GLOB_FLAG_DOT, GLOB_NO_SPACE, GLOB_RESULT_NEGATED, PROGRAM_NEGATED as GLOB_PROGRAM_NEGATED, PROGRAM_NEVER as GLOB_PROGRAM_NEVER } from './abi.js';
import { engine } from './instance.js';
import { adoptIo, claimIo, copyOut, maxIoBytes, ownsIo, readU32, readU32s, readUtf16, writeBytes, writeU32, writeUtf16, writeUtf16Strings } from './memory.js';
import {
  GLOB_DFA_CACHE_BYTES, GLOB_MATCH_CHUNK_BYTES, GLOB_MAX_SET_BYTES, globCompileLayout, globMatchLayout, globPathBytes,
  globResidentLayout, globSetLowerBound, globTranslateCapacity, globTranslateLayout,
} from './sizes.js';

/** Why a set did not compile. */
export type GlobCompileFailure =
  /** A status of assembly/abi.ts for pattern `index`, with globDetail()'s number. */
  | { readonly kind: 'status'; readonly status: number; readonly index: number; readonly detail: number }
  /** The compiled set would take at least `bytes` bytes, over GLOB_MAX_SET_BYTES. */
  | { readonly kind: 'set-too-large'; readonly bytes: number }
  /** Compiling pattern `index` needs `bytes` bytes of WASM memory, over what the engine may use. */
  | { readonly kind: 'memory'; readonly index: number; readonly bytes: number };

export type GlobCompileResult = { readonly ok: true; readonly blob: Uint8Array } | ({ readonly ok: false } & GlobCompileFailure);

/**
 * Program header fields the host reads (byte offsets, assembly/glob/program.ts's P_* constants;
 * test/engine/abi-mirror.test.ts checks that they agree).
 */
export const PROGRAM_FIELDS = Object.freeze({ P_FLAGS: 4, P_PREFIX: 24, P_PREFIX_LEN: 28 });

/**
 * For each program of a compiled set (`count` u32 program offsets at the blob's start), the literal
 * prefix every path it matches starts with once normalized, or undefined when its prefix filters
 * nothing (an empty prefix, a negated program). Read from the programs' headers (assembly/README.md).
 */
export function literalPrefixes(blob: Uint8Array, count: number): (string | undefined)[] {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const out: (string | undefined)[] = [];
  for (let i = 0; i < count; i++) {
    const program = view.getUint32(i * 4, true);
    const flags = view.getInt32(program + PROGRAM_FIELDS.P_FLAGS, true);
    const at = program + view.getInt32(program + PROGRAM_FIELDS.P_PREFIX, true);
    const units = view.getInt32(program + PROGRAM_FIELDS.P_PREFIX_LEN, true);
    if ((flags & (GLOB_PROGRAM_NEGATED | GLOB_PROGRAM_NEVER)) !== 0 || units === 0) {
      out.push(undefined);
      continue;
    }
    let prefix = '';
    for (let k = 0; k < units; k++) prefix += String.fromCharCode(view.getUint16(at + k * 2, true));
    out.push(prefix);
  }
  return out;
}

/** A first guess at the output room for `count` patterns of `units` code units in all. */
const outGuess = (count: number, units: number): number => 1024 + count * 1024 + units * 96;

/** Attempts before giving up on NO_SPACE (each retry grows the room to what the module asked for). */
const MAX_ATTEMPTS = 16;

/**
 * Compiles `patterns` into a set blob in one WASM call: a table of program offsets, then the
 * programs (assembly/README.md). Nothing grows past the engine's limits: a set that cannot fit is
 * refused before any memory is claimed for it.
 */
export function compileGlobSet(patterns: readonly string[], dot: boolean): GlobCompileResult {
  const count = patterns.length;
  let units = 0;
  let longest = 0;
  for (let i = 0; i < count; i++) {
    const n = patterns[i]!.length;
    units += n;
    if (n > longest) longest = n;
  }
  const lowerBound = globSetLowerBound(count, units);
  if (lowerBound > GLOB_MAX_SET_BYTES) return { ok: false, kind: 'set-too-large', bytes: lowerBound };
  let work = engine.globCompileWorkspace(longest);
  let outCap = Math.min(GLOB_MAX_SET_BYTES, outGuess(count, units));
  let failed = -1; // the pattern that asked for more room last
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const plan = globCompileLayout(count, units, work, outCap);
    if (plan.total > maxIoBytes()) return { ok: false, kind: 'memory', index: Math.max(failed, 0), bytes: plan.total };
    const at = claimIo(plan.total);
    writeUtf16Strings(patterns, 0, count, at, at + plan.offsets);
    const out = at + plan.out;
    const status = engine.globCompileSet(at, at + plan.offsets, count, dot ? GLOB_FLAG_DOT : 0, at + plan.work, work, out, outCap);
    if (status >= 0) return { ok: true, blob: copyOut(out, status) };
    failed = engine.globFailedIndex();
    if (status !== GLOB_NO_SPACE) return { ok: false, kind: 'status', status, index: failed, detail: engine.globDetail() };
    const needOut = engine.globNeedOut();
    if (needOut > GLOB_MAX_SET_BYTES) return { ok: false, kind: 'set-too-large', bytes: needOut };
    work = Math.max(work, engine.globNeedWork());
    if (needOut > 0) outCap = Math.min(GLOB_MAX_SET_BYTES, Math.max(outCap * 2, needOut));
  }
  return { ok: false, kind: 'status', status: GLOB_NO_SPACE, index: failed, detail: 0 };
}

export type GlobTranslateResult =
  | { readonly ok: true; readonly source: string; readonly negated: boolean }
  | { readonly ok: false; readonly status: number; readonly detail: number };

/** picomatch's regex source for `pattern` (globTranslate), and whether the pattern is negated. */
export function translateGlob(pattern: string, dot: boolean): GlobTranslateResult {
  const units = pattern.length;
  const work = engine.globCompileWorkspace(units);
  const cap = globTranslateCapacity(units);
  const plan = globTranslateLayout(units, work, cap);
  const at = claimIo(plan.total);
  writeUtf16(pattern, 0, units, at);
  const status = engine.globTranslate(at, units, dot ? GLOB_FLAG_DOT : 0, at + plan.work, work, at + plan.out, cap);
  if (status < 0) return { ok: false, status, detail: engine.globDetail() };
  return { ok: true, source: readUtf16(at + plan.out, status), negated: (engine.globDetail() & GLOB_RESULT_NEGATED) !== 0 };
}

/**
 * A compiled set and the I/O area it is placed in while it matches: the set, its cache (candidate
 * masks, DFA caches within GLOB_DFA_CACHE_BYTES), then each call's paths, offsets, result bits and
 * scratch. The set stays in place between calls for as long as no other call claims the area.
 */
export class ResidentGlobSet {
  readonly #blob: Uint8Array;
  readonly #count: number;
  /** u32 result words per path. */
  readonly words: number;
  #cacheBytes = -1;
  #workBytes = -1;
  readonly #one: Uint32Array;

  constructor(blob: Uint8Array, count: number) {
    this.#blob = blob;
    this.#count = count;
    this.words = (count + 31) >>> 5;
    this.#one = new Uint32Array(this.words);
  }

  /**
   * The result bits of every path (`words` u32 per path, bit i of path p set when program i
   * matches), in calls of at most GLOB_MATCH_CHUNK_BYTES of paths each. `total` is the paths' code
   * units in all (the caller has just read every path).
   */
  match(paths: readonly string[], total: number): Uint32Array {
    const words = this.words;
    if (paths.length === 0) return new Uint32Array(0);
    // Usually every path fits one call: its bits are the answer, and per-path sizes are not added up
    // (a fresh process runs this in V8's interpreter, where a call per path is most of the cost).
    if (globPathBytes(total, words) + (paths.length - 1) * globPathBytes(0, words) <= GLOB_MATCH_CHUNK_BYTES) {
      return readU32s(this.#run(paths, 0, paths.length, total), paths.length * words);
    }
    const bits = new Uint32Array(paths.length * words);
    let first = 0;
    while (first < paths.length) {
      let last = first;
      let units = 0;
      let bytes = 0;
      do {
        const n = paths[last]!.length;
        units += n;
        bytes += globPathBytes(n, words);
        last += 1;
      } while (last < paths.length && bytes + globPathBytes(paths[last]!.length, words) <= GLOB_MATCH_CHUNK_BYTES);
      const out = this.#run(paths, first, last, units);
      bits.set(readU32s(out, (last - first) * words), first * words);
      first = last;
    }
    return bits;
  }

  /** The result bits of one path; the array is reused by the next call. */
  matchOne(path: string): Uint32Array {
    const out = this.#run([path], 0, 1, path.length);
    if (this.words === 1) this.#one[0] = readU32(out);
    else this.#one.set(readU32s(out, this.words));
    return this.#one;
  }

  /** Places the set unless it is still in place, moves paths [first, last) in, matches them. */
  #run(paths: readonly string[], first: number, last: number, units: number): number {
    const count = this.#count;
    const resident = ownsIo(this);
    if (!resident && this.#cacheBytes < 0) {
      // First placement: the sizes of the cache and scratch are read off the programs.
      const set = claimIo(this.#blob.length);
      writeBytes(this.#blob, set);
      this.#cacheBytes = engine.globSetCacheBytes(set, count, GLOB_DFA_CACHE_BYTES);
      this.#workBytes = engine.globSetWorkspace(set, count, 0);
    }
    const placed = globResidentLayout(this.#blob.length, this.#cacheBytes);
    const plan = globMatchLayout(placed.end, units, last - first, this.words, this.#workBytes);
    const set = claimIo(plan.end);
    if (!resident) {
      writeBytes(this.#blob, set);
      engine.globSetCacheReset(set, count, set + placed.cache, GLOB_DFA_CACHE_BYTES);
    }
    adoptIo(this);
    if (last - first === 1) {
      const path = paths[first]!;
      writeUtf16(path, 0, path.length, set + plan.paths);
      writeU32(set + plan.offsets, 0);
      writeU32(set + plan.offsets + 4, path.length);
    } else {
      writeUtf16Strings(paths, first, last, set + plan.paths, set + plan.offsets);
    }
    engine.globMatchSet(set, count, set + plan.paths, set + plan.offsets, last - first, set + plan.out, set + plan.work, set + placed.cache);
    return set + plan.out;
  }
}
