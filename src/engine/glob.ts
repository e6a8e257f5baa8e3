// Glob matching with picomatch 4's answers (X-07): patterns compile to WASM programs that match in
// time linear in path length × pattern size; a GlobSet matches many paths against many patterns in
// one WASM call. Paths are normalized first: `\` becomes `/` and leading `./` is removed.

import { engine } from '../wasm/instance.js';
import {
  layout, reserveIo, writeUtf16, writeBytes, writeU32, writeU32s, readU32, readU32s, writeUtf16Strings, saveRegion, readUtf16,
  ioResident, setIoResident,
} from '../wasm/memory.js';
import { describe, expectString } from './args.js';

/** Options: only picomatch's `dot` (let `*`, `?` and `**` match names that start with a dot). */
export interface GlobOptions {
  readonly dot?: boolean;
}

/** Longest pattern, in UTF-8 bytes. */
export const GLOB_MAX_PATTERN_BYTES = 65536;
/** Largest compiled set (all programs together), in bytes. */
export const GLOB_MAX_SET_BYTES = 64 * 1024 * 1024;

const STATUS_EMPTY = -1;
const STATUS_TOO_LONG = -2;
const STATUS_UNSUPPORTED = -3;
const STATUS_NO_SPACE = -4;
const FLAG_DOT = 1;

function readOptions(fn: string, options: unknown): boolean {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null) throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) {
    if (key !== 'dot') throw new TypeError(`${fn}: option ${JSON.stringify(key)} is not supported; the only option is dot`);
  }
  const dot = (options as { dot?: unknown }).dot;
  if (dot !== undefined && typeof dot !== 'boolean') throw new TypeError(`${fn}: options.dot must be a boolean, got ${describe(dot)}`);
  return dot === true;
}

/** Why a unit of a pattern is rejected, for the error message. */
function unsupportedReason(pattern: string, index: number): string {
  const c = pattern[index] ?? '';
  if (pattern[index + 1] === '(' && '?*+@!'.includes(c)) return 'extglobs are not supported';
  if (c === '(' || c === ')' || c === '|') return 'extglobs and regex groups are not supported';
  if (c === '"') return 'quoted text is not supported';
  if (c === '\\') return 'a backslash may only escape a glob character such as * ? [ ] { } ,; use / to separate directories';
  if (c === '[' || c === ':') return 'POSIX character classes such as [[:alpha:]] are not supported';
  if (c === '+') return pattern[index + 1] === '+' ? 'repeated + is a regex quantifier in picomatch; escape it as \\+' : 'a + right after ] or { or } is a regex quantifier in picomatch; escape it as \\+';
  if (c === '$' || c === '^') return `repeated ${c} is not supported`;
  if (c === '{' || c === '}') return 'a brace range takes letters or digits, such as {a..c} or {1..9}';
  if (c === '\0') return 'NUL is not allowed';
  return 'unsupported syntax';
}

/** Where each string starts in their concatenation, in code units, and (last) the total. */
function unitOffsets(strings: readonly string[]): Uint32Array {
  const offsets = new Uint32Array(strings.length + 1);
  let units = 0;
  for (let i = 0; i < strings.length; i++) {
    offsets[i] = units;
    units += strings[i]!.length;
  }
  offsets[strings.length] = units;
  return offsets;
}

/**
 * Compiles patterns into a set blob in one WASM call: a table of program offsets, then the
 * programs (assembly/README.md). Grows the I/O area and retries when the module asks for room.
 */
function compileSet(fn: string, patterns: readonly string[], dot: boolean): Uint8Array {
  const joined = patterns.length === 1 ? patterns[0]! : patterns.join('');
  let longest = 0;
  for (const p of patterns) if (p.length > longest) longest = p.length;
  const offsets = unitOffsets(patterns);
  const units = offsets[patterns.length]!;
  const textBytes = (units * 2 + 7) & ~7;
  const offsetBytes = ((patterns.length + 1) * 4 + 7) & ~7;
  let work = engine.globCompileWorkspace(longest);
  let cap = 1024 + patterns.length * 1024 + units * 96;
  for (let attempt = 0; ; attempt++) {
    setIoResident(undefined);
    reserveIo(textBytes + offsetBytes + work + cap);
    const at = layout.io;
    writeUtf16(joined, 0, units, at);
    writeU32s(offsets, at + textBytes);
    const out = at + textBytes + offsetBytes + work;
    const status = engine.globCompileSet(at, at + textBytes, patterns.length, dot ? FLAG_DOT : 0, at + textBytes + offsetBytes, work, out, cap);
    if (status >= 0) return saveRegion(out, status);
    if (status === STATUS_NO_SPACE && attempt < 8) {
      work = Math.max(work, engine.globNeedWork());
      cap = Math.max(cap * 2, engine.globNeedOut());
      continue;
    }
    const index = engine.globFailedIndex();
    const error = compileError(fn, patterns[index] ?? '', status, engine.globDetail());
    if (patterns.length > 1 && index >= 0) error.message = error.message.replace(`${fn}: glob pattern`, `${fn}: patterns[${index}]: glob pattern`);
    throw error;
  }
}

function compileError(fn: string, pattern: string, status: number, detail: number): Error {
  const shown = pattern.length > 80 ? `${JSON.stringify(pattern.slice(0, 60))}… (${pattern.length} code units)` : JSON.stringify(pattern);
  if (status === STATUS_EMPTY) return new TypeError(`${fn}: glob pattern must be a non-empty string`);
  if (status === STATUS_TOO_LONG) return new RangeError(`${fn}: glob pattern is ${detail} bytes; the limit is ${GLOB_MAX_PATTERN_BYTES}`);
  if (status === STATUS_UNSUPPORTED) {
    return new SyntaxError(`${fn}: glob pattern ${shown} has ${JSON.stringify(pattern[detail] ?? '')} at index ${detail}: ${unsupportedReason(pattern, detail)}`);
  }
  return new Error(`${fn}: glob pattern ${shown} could not be compiled (engine status ${status}, detail ${detail})`);
}

/**
 * A compiled set of glob patterns. `test` and `which` match one path; `matchAll` matches many paths
 * in one WASM call. Results follow picomatch 4 (`picomatch(pattern, { dot })(path)`) on the
 * normalized path.
 */
export class GlobSet {
  /** The patterns, in the order their indices refer to. */
  readonly patterns: readonly string[];
  /** Whether the set was compiled with `dot: true`. */
  readonly dot: boolean;
  readonly #blob: Uint8Array;
  #setBytes = 0;
  #cacheBytes = 0;
  #workBase = 0;

  /** @internal Use compileGlobs(). */
  constructor(patterns: readonly string[], dot: boolean, blob: Uint8Array) {
    this.patterns = Object.freeze([...patterns]);
    this.dot = dot;
    if (blob.length > GLOB_MAX_SET_BYTES) throw new RangeError(`compileGlobs: compiled glob set is ${blob.length} bytes; the limit is ${GLOB_MAX_SET_BYTES}`);
    this.#blob = blob;
  }

  /** Whether any pattern matches `path`. */
  test(path: string): boolean {
    expectString('GlobSet.test', 'path', path);
    const bits = this.#run([path]);
    for (const word of bits) if (word !== 0) return true;
    return false;
  }

  /** Indices of the patterns that match `path`, ascending. */
  which(path: string): number[] {
    expectString('GlobSet.which', 'path', path);
    return this.#indices(this.#run([path]), 0);
  }

  /** One `which` per path, computed in one WASM call. */
  matchAll(paths: readonly string[]): number[][] {
    if (!Array.isArray(paths)) throw new TypeError(`GlobSet.matchAll: paths must be an array of strings, got ${describe(paths)}`);
    for (let i = 0; i < paths.length; i++) if (typeof paths[i] !== 'string') expectString('GlobSet.matchAll', `paths[${i}]`, paths[i]);
    const bits = this.#run(paths);
    const words = (this.patterns.length + 31) >>> 5;
    const result: number[][] = new Array(paths.length);
    for (let i = 0; i < paths.length; i++) result[i] = this.#indices(bits, i * words);
    return result;
  }

  #indices(bits: Uint32Array, from: number): number[] {
    const hits: number[] = [];
    const words = (this.patterns.length + 31) >>> 5;
    for (let w = 0; w < words; w++) {
      let word = bits[from + w]!;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        hits.push(w * 32 + bit);
        word &= word - 1;
      }
    }
    return hits;
  }

  /** Places the set and its caches at the start of the I/O area unless they are still there. */
  #place(): void {
    if (ioResident === this) return;
    const count = this.patterns.length;
    setIoResident(undefined);
    this.#setBytes = (this.#blob.length + 7) & ~7;
    reserveIo(this.#setBytes);
    writeBytes(this.#blob, layout.io);
    this.#cacheBytes = (engine.globSetCacheBytes(layout.io, count) + 7) & ~7;
    this.#workBase = engine.globSetWorkspace(layout.io, count, 0);
    reserveIo(this.#setBytes + this.#cacheBytes);
    engine.globSetCacheReset(layout.io, count, layout.io + this.#setBytes);
    setIoResident(this);
  }

  #run(paths: readonly string[]): Uint32Array {
    this.#place();
    const count = this.patterns.length;
    const words = (count + 31) >>> 5;
    const single = paths.length === 1;
    let units = 0;
    for (let i = 0; i < paths.length; i++) units += paths[i]!.length;
    // I/O area: set | caches | paths | offsets | result bits | scratch. The set and its caches stay
    // in place between calls until another call takes the I/O area.
    const pathsAt = layout.io + this.#setBytes + this.#cacheBytes;
    const pathBytes = (units * 2 + 7) & ~7;
    const offsetBytes = ((paths.length + 1) * 4 + 7) & ~7;
    const outBytes = paths.length * words * 4;
    reserveIo(this.#setBytes + this.#cacheBytes + pathBytes + offsetBytes + outBytes + this.#workBase);
    const offsetsAt = pathsAt + pathBytes;
    const outAt = offsetsAt + offsetBytes;
    if (single) {
      writeUtf16(paths[0]!, 0, units, pathsAt);
      writeU32(offsetsAt, 0);
      writeU32(offsetsAt + 4, units);
    } else {
      writeU32s(writeUtf16Strings(paths, pathsAt), offsetsAt);
    }
    engine.globMatchSet(layout.io, count, pathsAt, offsetsAt, paths.length, outAt, outAt + outBytes, layout.io + this.#setBytes);
    return single && words === 1 ? singleWord(readU32(outAt)) : readU32s(outAt, paths.length * words);
  }
}

const oneWord = new Uint32Array(1);
function singleWord(word: number): Uint32Array {
  oneWord[0] = word;
  return oneWord;
}

/**
 * Compiles `patterns` into a GlobSet. Throws (naming the pattern, the index and the reason) on an
 * empty pattern, one over GLOB_MAX_PATTERN_BYTES UTF-8 bytes, unsupported syntax, or a set over
 * GLOB_MAX_SET_BYTES.
 */
export function compileGlobs(patterns: readonly string[], options?: GlobOptions): GlobSet {
  if (!Array.isArray(patterns)) throw new TypeError(`compileGlobs: patterns must be an array of strings, got ${describe(patterns)}`);
  const dot = readOptions('compileGlobs', options);
  patterns.forEach((p, i) => expectString('compileGlobs', `patterns[${i}]`, p));
  return new GlobSet(patterns, dot, compileSet('compileGlobs', patterns, dot));
}

// globMatch compiles through a small cache, so calling it in a loop with a few patterns stays cheap.
const CACHE_LIMIT = 128;
const caches = [new Map<string, GlobSet>(), new Map<string, GlobSet>()]; // without and with dot

/** Whether `path` matches `pattern` (picomatch 4 semantics, `dot` as its only option). */
export function globMatch(pattern: string, path: string, options?: GlobOptions): boolean {
  expectString('globMatch', 'pattern', pattern);
  expectString('globMatch', 'path', path);
  const dot = options === undefined ? false : readOptions('globMatch', options);
  const cache = caches[dot ? 1 : 0]!;
  let set = cache.get(pattern);
  if (set === undefined) {
    set = new GlobSet([pattern], dot, compileSet('globMatch', [pattern], dot));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, set);
  }
  return set.test(path);
}

/**
 * The JavaScript regular-expression source picomatch 4 would build for `pattern` (what the
 * compiled program matches), and whether the pattern is negated. A diagnostic for tests and tools.
 */
export function globSource(pattern: string, options?: GlobOptions): { source: string; negated: boolean } {
  expectString('globSource', 'pattern', pattern);
  const dot = readOptions('globSource', options);
  const units = pattern.length;
  const patternBytes = (units * 2 + 7) & ~7;
  const work = engine.globCompileWorkspace(units);
  const cap = (units + 16) * 64;
  setIoResident(undefined);
  reserveIo(patternBytes + work + cap * 2);
  const at = layout.io;
  writeUtf16(pattern, 0, units, at);
  const status = engine.globTranslate(at, units, dot ? FLAG_DOT : 0, at + patternBytes, work, at + patternBytes + work, cap);
  if (status < 0) throw compileError('globSource', pattern, status, engine.globDetail());
  return { source: readUtf16(at + patternBytes + work, status), negated: (engine.globDetail() & 2) !== 0 };
}
