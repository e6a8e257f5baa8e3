// Glob matching with picomatch 4's answers (X-07): patterns compile to WASM programs that match in
// time linear in path length × pattern size; a GlobSet matches many paths against many patterns in
// one WASM call. Paths are normalized first: `\` becomes `/` and leading `./` is removed. The
// arguments and the error messages are here; src/wasm/glob.ts owns the compiled set's place in WASM
// memory.

import { GLOB_EMPTY, GLOB_TOO_LONG, GLOB_UNSUPPORTED } from '../wasm/abi.js';
import { compileGlobSet, literalPrefixes, ResidentGlobSet, translateGlob, type GlobCompileResult } from '../wasm/glob.js';
import { ENGINE_MAX_MEMORY_BYTES, GLOB_MAX_PATH_UNITS, GLOB_MAX_PATTERN_BYTES, GLOB_MAX_SET_BYTES } from '../wasm/sizes.js';
import { utf8LengthOf } from '../wasm/text.js';
import { describe, expectString } from './args.js';

export { GLOB_MAX_PATH_UNITS, GLOB_MAX_PATTERN_BYTES, GLOB_MAX_SET_BYTES };

/** Options: only picomatch's `dot` (let `*`, `?` and `**` match names that start with a dot). */
export interface GlobOptions {
  readonly dot?: boolean;
}

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

/** A shown form of a pattern for messages: quoted, shortened when long. */
function shown(pattern: string): string {
  return pattern.length > 80 ? `${JSON.stringify(pattern.slice(0, 60))}… (${pattern.length} code units)` : JSON.stringify(pattern);
}

/** Where a message names the pattern: `fn: ` for one pattern, `fn: patterns[i]: ` in a set. */
function prefix(fn: string, index: number, single: boolean): string {
  return single || index < 0 ? `${fn}: ` : `${fn}: patterns[${index}]: `;
}

function compileError(fn: string, pattern: string, status: number, detail: number, where: string): Error {
  if (status === GLOB_EMPTY) return new TypeError(`${where}glob pattern must be a non-empty string`);
  if (status === GLOB_TOO_LONG) return new RangeError(`${where}glob pattern is ${detail} bytes; the limit is ${GLOB_MAX_PATTERN_BYTES}`);
  if (status === GLOB_UNSUPPORTED) {
    return new SyntaxError(`${where}glob pattern ${shown(pattern)} has ${JSON.stringify(pattern[detail] ?? '')} at index ${detail}: ${unsupportedReason(pattern, detail)}`);
  }
  return new Error(`${where}glob pattern ${shown(pattern)} could not be compiled (engine status ${status}, detail ${detail})`);
}

// A pattern of at most this many code units cannot exceed GLOB_MAX_PATTERN_BYTES (3 bytes a unit).
const SURELY_SHORT_UNITS = Math.floor(GLOB_MAX_PATTERN_BYTES / 3);

/**
 * Checks what can be checked before any WASM memory is claimed for compiling: every pattern a
 * non-empty string within GLOB_MAX_PATTERN_BYTES.
 */
function checkPatterns(fn: string, patterns: readonly string[], single: boolean): void {
  for (let i = 0; i < patterns.length; i++) {
    const pattern = patterns[i]!;
    if (pattern.length === 0) throw compileError(fn, pattern, GLOB_EMPTY, 0, prefix(fn, i, single));
    if (pattern.length > SURELY_SHORT_UNITS) {
      const bytes = utf8LengthOf(pattern);
      if (bytes > GLOB_MAX_PATTERN_BYTES) throw compileError(fn, pattern, GLOB_TOO_LONG, bytes, prefix(fn, i, single));
    }
  }
}

/** The compiled set, or the error that says why there is none. */
function compiled(fn: string, patterns: readonly string[], dot: boolean): Uint8Array {
  const single = patterns.length === 1;
  checkPatterns(fn, patterns, single);
  const result: GlobCompileResult = compileGlobSet(patterns, dot);
  if (result.ok) return result.blob;
  if (result.kind === 'set-too-large') setTooLarge(fn, result.bytes);
  const where = prefix(fn, result.index, single);
  const pattern = patterns[result.index] ?? '';
  if (result.kind === 'memory') {
    throw new RangeError(`${where}glob pattern ${shown(pattern)} needs ${result.bytes} bytes of WASM memory to compile; the engine's limit is ${ENGINE_MAX_MEMORY_BYTES} (ENGINE_MAX_MEMORY_BYTES)`);
  }
  throw compileError(fn, pattern, result.status, result.detail, where);
}

function setTooLarge(fn: string, bytes: number): never {
  throw new RangeError(`${fn}: compiled glob set needs at least ${bytes} bytes; the limit is ${GLOB_MAX_SET_BYTES}`);
}

/** Checks one path: a string within GLOB_MAX_PATH_UNITS. */
function checkPath(fn: string, name: string, path: unknown): asserts path is string {
  expectString(fn, name, path);
  if (path.length > GLOB_MAX_PATH_UNITS) {
    throw new RangeError(`${fn}: ${name} is ${path.length} code units long; the limit is ${GLOB_MAX_PATH_UNITS} (GLOB_MAX_PATH_UNITS)`);
  }
}

/**
 * A compiled set of glob patterns. `test` and `which` match one path; `matchAll` matches many paths
 * in one WASM call. Results follow picomatch 4 (`picomatch(pattern, { dot })(path)`) on the
 * normalized path. Any number of sets may be used in any order: each re-places itself in WASM
 * memory when another call has used it since.
 */
export class GlobSet {
  /** The patterns, in the order their indices refer to. */
  readonly patterns: readonly string[];
  /** Whether the set was compiled with `dot: true`. */
  readonly dot: boolean;
  readonly #resident: ResidentGlobSet;
  /** Each pattern's literal prefix, when every pattern has one and the set is small (see rejects()). */
  readonly #prefixes: readonly string[] | undefined;
  /** The longest of them: only a `\` among a path's first this many units can change what it starts with. */
  readonly #prefixUnits: number = 0;
  /**
   * Whether some pattern's text does not start with its prefix: a path equal to that text (which
   * always matches) need not start with a prefix, so every path is compared with the texts too.
   */
  readonly #textsApart: boolean = false;

  /**
   * @internal Use compileGlobs().
   * @param patterns the patterns the blob was compiled from
   * @param dot whether they were compiled with `dot: true`
   * @param blob the compiled set
   */
  constructor(patterns: readonly string[], dot: boolean, blob: Uint8Array) {
    this.patterns = Object.freeze([...patterns]);
    this.dot = dot;
    if (blob.length > GLOB_MAX_SET_BYTES) setTooLarge('compileGlobs', blob.length);
    this.#resident = new ResidentGlobSet(blob, this.patterns.length);
    const prefixes = this.patterns.length <= PREFILTER_MAX_PATTERNS ? literalPrefixes(blob, this.patterns.length) : [undefined];
    this.#prefixes = prefixes.every((p) => p !== undefined) ? (prefixes as string[]) : undefined;
    if (this.#prefixes !== undefined) {
      this.#prefixUnits = Math.max(...this.#prefixes.map((p) => p.length));
      this.#textsApart = this.#prefixes.some((p, i) => !this.patterns[i]!.startsWith(p));
    }
  }

  /**
   * Whether no pattern can match `path`, told in JavaScript without a WASM call: a path that starts
   * with none of the patterns' literal prefixes (and equals no pattern text, which always matches)
   * matches none of them. Only for small sets whose every pattern has a prefix (`src/**`, `docs/*.md`),
   * and only for paths whose start the engine's normalization leaves as it is: no leading `.` (a `./`
   * is dropped) and no `\` among the first units a prefix spans (a `\` becomes `/`; one further on
   * changes neither what the path starts with nor, when every pattern text starts with its prefix,
   * whether it equals a text). picomatch's own RegExp rejects most paths at its first units; a WASM
   * call would cost more.
   */
  #rejects(path: string): boolean {
    const prefixes = this.#prefixes!;
    if (path.charCodeAt(0) === DOT) return false;
    for (let i = 0; i < prefixes.length; i++) if (path.startsWith(prefixes[i]!)) return false;
    const head = Math.min(path.length, this.#prefixUnits);
    for (let k = 0; k < head; k++) if (path.charCodeAt(k) === BACKSLASH) return false;
    if (this.#textsApart && (path.indexOf('\\') >= 0 || this.patterns.includes(path))) return false;
    return true;
  }

  /**
   * Whether any pattern matches `path`.
   * @param path a path (`\` is read as `/`, a leading `./` is dropped)
   * @returns true when at least one pattern matches
   */
  test(path: string): boolean {
    checkPath('GlobSet.test', 'path', path);
    if (this.#prefixes !== undefined && this.#rejects(path)) return false;
    const bits = this.#resident.matchOne(path);
    for (let w = 0; w < bits.length; w++) if (bits[w] !== 0) return true;
    return false;
  }

  /**
   * Indices of the patterns that match `path`, ascending.
   * @param path a path (`\` is read as `/`, a leading `./` is dropped)
   * @returns the matching pattern indices
   */
  which(path: string): number[] {
    checkPath('GlobSet.which', 'path', path);
    if (this.#prefixes !== undefined && this.#rejects(path)) return [];
    return indices(this.#resident.matchOne(path), 0, this.#resident.words);
  }

  /**
   * One `which` per path, computed in one WASM call (several for very many paths).
   * @param paths the paths
   * @returns for each path, the indices of the patterns that match it, ascending
   */
  matchAll(paths: readonly string[]): number[][] {
    if (!Array.isArray(paths)) throw new TypeError(`GlobSet.matchAll: paths must be an array of strings, got ${describe(paths)}`);
    // A copy, read once: nothing the caller's array does runs while the set is in WASM memory. The
    // check is written out (the name is only built for the error): a fresh process runs this loop
    // in V8's interpreter, where a call and a template string per path are most of its cost.
    if (this.#prefixes !== undefined) return this.#matchSome(paths);
    const list = new Array<string>(paths.length);
    let units = 0;
    for (let i = 0; i < paths.length; i++) {
      const path: unknown = paths[i];
      if (typeof path !== 'string' || path.length > GLOB_MAX_PATH_UNITS) checkPath('GlobSet.matchAll', `paths[${i}]`, path);
      list[i] = path as string;
      units += (path as string).length;
    }
    const bits = this.#resident.match(list, units);
    const words = this.#resident.words;
    const result: number[][] = new Array(list.length);
    for (let i = 0; i < list.length; i++) result[i] = indices(bits, i * words, words);
    return result;
  }

  /**
   * matchAll for a prefiltered set, in the same one read of each path: the paths rejects() leaves
   * (copied) go to WASM, the others match nothing.
   */
  #matchSome(paths: readonly unknown[]): number[][] {
    const result: number[][] = new Array(paths.length);
    const pending: string[] = [];
    const at: number[] = [];
    let units = 0;
    for (let i = 0; i < paths.length; i++) {
      const path = paths[i];
      if (typeof path !== 'string' || path.length > GLOB_MAX_PATH_UNITS) checkPath('GlobSet.matchAll', `paths[${i}]`, path);
      if (this.#rejects(path as string)) {
        result[i] = [];
      } else {
        pending.push(path as string);
        at.push(i);
        units += (path as string).length;
      }
    }
    if (pending.length === 0) return result;
    const bits = this.#resident.match(pending, units);
    const words = this.#resident.words;
    for (let k = 0; k < pending.length; k++) result[at[k]!] = indices(bits, k * words, words);
    return result;
  }
}

/** Sets of at most this many patterns are prefiltered in JavaScript when every pattern has a literal prefix. */
const PREFILTER_MAX_PATTERNS = 4;
const DOT = 0x2e;
const BACKSLASH = 0x5c;

// The build minifies the bundled engine (it loads ~1.5 ms faster); the one public class keeps its name
// for stack traces and console output.
Object.defineProperty(GlobSet, 'name', { value: 'GlobSet' });

/**
 * The set bits of `words` u32 words from `from`, as ascending indices, in an array of exactly that
 * length (grown by push, each would hold 16 slots: about 100 KB more garbage per 1,000 paths).
 */
function indices(bits: Uint32Array, from: number, words: number): number[] {
  // Most paths match no pattern or one: those skip the count and the fill (a fresh process runs
  // this in V8's interpreter, once per path).
  let first = 0;
  while (first < words && bits[from + first] === 0) first++;
  if (first === words) return [];
  const word = bits[from + first]!;
  if ((word & (word - 1)) === 0) {
    let rest = first + 1;
    while (rest < words && bits[from + rest] === 0) rest++;
    if (rest === words) return [first * 32 + 31 - Math.clz32(word)];
  }
  let count = 0;
  for (let w = first; w < words; w++) for (let word = bits[from + w]!; word !== 0; word &= word - 1) count++;
  const hits = new Array<number>(count);
  let k = 0;
  for (let w = first; w < words; w++) {
    for (let word = bits[from + w]!; word !== 0; word &= word - 1) hits[k++] = w * 32 + 31 - Math.clz32(word & -word);
  }
  return hits;
}

/**
 * Compiles `patterns` into a GlobSet. Throws (naming the pattern, the index and the reason) on an
 * empty pattern, one over GLOB_MAX_PATTERN_BYTES UTF-8 bytes, unsupported syntax, or a set over
 * GLOB_MAX_SET_BYTES; every limit is checked before WASM memory grows for it.
 * @param patterns picomatch 4 globs
 * @param options `{ dot: true }` lets wildcards match names that start with a dot
 * @returns the compiled set
 */
export function compileGlobs(patterns: readonly string[], options?: GlobOptions): GlobSet {
  if (!Array.isArray(patterns)) throw new TypeError(`compileGlobs: patterns must be an array of strings, got ${describe(patterns)}`);
  const dot = readOptions('compileGlobs', options);
  const list = new Array<string>(patterns.length);
  for (let i = 0; i < patterns.length; i++) {
    const pattern: unknown = patterns[i];
    expectString('compileGlobs', `patterns[${i}]`, pattern);
    list[i] = pattern;
  }
  return new GlobSet(list, dot, compiled('compileGlobs', list, dot));
}

// globMatch compiles through a small cache, so calling it in a loop with a few patterns stays cheap.
const CACHE_LIMIT = 128;
const caches = [new Map<string, GlobSet>(), new Map<string, GlobSet>()]; // without and with dot

/**
 * Whether `path` matches `pattern`, as `picomatch(pattern, { dot })(path)` answers.
 * @param pattern a picomatch 4 glob
 * @param path a path (`\` is read as `/`, a leading `./` is dropped)
 * @param options `{ dot: true }` lets wildcards match names that start with a dot
 * @returns whether it matches
 */
export function globMatch(pattern: string, path: string, options?: GlobOptions): boolean {
  expectString('globMatch', 'pattern', pattern);
  checkPath('globMatch', 'path', path);
  const dot = options === undefined ? false : readOptions('globMatch', options);
  const cache = caches[dot ? 1 : 0]!;
  let set = cache.get(pattern);
  if (set === undefined) {
    set = new GlobSet([pattern], dot, compiled('globMatch', [pattern], dot));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(pattern, set);
  }
  return set.test(path);
}

/**
 * The JavaScript regular-expression source picomatch 4 would build for `pattern` (what the
 * compiled program matches), and whether the pattern is negated. A diagnostic for tests and tools.
 * @param pattern a picomatch 4 glob
 * @param options `{ dot: true }` as for compileGlobs
 * @returns the regex source (without `^(?:…)$`) and whether the pattern is negated
 */
export function globSource(pattern: string, options?: GlobOptions): { source: string; negated: boolean } {
  expectString('globSource', 'pattern', pattern);
  const dot = readOptions('globSource', options);
  checkPatterns('globSource', [pattern], true);
  const result = translateGlob(pattern, dot);
  if (!result.ok) throw compileError('globSource', pattern, result.status, result.detail, 'globSource: ');
  return { source: result.source, negated: result.negated };
}
