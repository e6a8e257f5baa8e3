// The engine's memory ceiling (spec X-07 limits, X-14): every request is checked before WASM memory
// grows, a request beyond a limit is a RangeError naming the value and the limit, and memory never
// passes ENGINE_MAX_MEMORY_BYTES whatever the input. WASM memory never shrinks, so the tests measure
// growth from where the previous call left it.

import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import {
  compileGlobs, countTokens, digestMany, ENGINE_MAX_MEMORY_BYTES, GLOB_MAX_PATH_UNITS, GLOB_MAX_SET_BYTES, globMatch, tokenizerInfo,
  utf8Length,
} from '../../src/engine/index.js';
import { claimIo, maxIoBytes, MemoryLimitError, memoryBytes, residentBytes } from '../../src/wasm/memory.js';
import {
  batchLayout, GLOB_DFA_CACHE_BYTES, GLOB_MATCH_CHUNK_BYTES, MAX_BATCH_BYTES, MAX_PIECE_BYTES, MAX_PIECE_UNITS, PAGE_BYTES,
  readBytesBytes, readTextBytes, TOKEN_MAX_CHUNK_UNITS, TOKEN_MAX_DECODE_BYTES, TOKEN_MAX_DECODE_IDS, tokenDecodeLayout,
  tokenEncodeLayout, utf16Bytes,
} from '../../src/wasm/sizes.js';
import { expectError } from '../support/errors.js';
import { nodeHash } from '../support/reference.js';
import { wasmOnlyInThisFile } from '../support/engine-paths.js';

// WASM memory and its slots are what this file tests: every call goes through them.
wasmOnlyInThisFile();

const MiB = 1 << 20;

/** The error `run` throws (the test fails if it returns). */
function thrown(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('X-14 the engine never grows WASM memory past ENGINE_MAX_MEMORY_BYTES', () => {
  it('X-14 the limit is 128 MiB, and the largest call of every kind fits under it, the tokenizer\'s resident state included', () => {
    expect(ENGINE_MAX_MEMORY_BYTES).toBe(128 * MiB);
    // The tokenizer's state stays for the life of the process: everything else fits beside it.
    countTokens('load the tokenizer');
    expect(residentBytes()).toBeGreaterThanOrEqual(tokenizerInfo().stateBytes);
    expect(residentBytes()).toBeLessThan(4 * MiB);
    const MAX_IO_BYTES = maxIoBytes();
    expect(MAX_IO_BYTES).toBeLessThan(ENGINE_MAX_MEMORY_BYTES - residentBytes());
    // The largest tokenizer calls: a chunk grown to its largest with ids, and the largest decode.
    expect(tokenEncodeLayout(TOKEN_MAX_CHUNK_UNITS, true).total).toBeLessThanOrEqual(80 * MiB);
    expect(tokenDecodeLayout(TOKEN_MAX_DECODE_IDS, TOKEN_MAX_DECODE_BYTES).total).toBeLessThanOrEqual(90 * MiB);
    // Strings and bytes move in pieces; batches are bounded as a whole; glob matches by chunk.
    expect(utf16Bytes(MAX_PIECE_UNITS)).toBeLessThanOrEqual(MAX_IO_BYTES);
    expect(readTextBytes(MAX_PIECE_UNITS).total).toBeLessThanOrEqual(8 * MiB);
    expect(readBytesBytes(MAX_PIECE_BYTES, true).total).toBeLessThanOrEqual(20 * MiB);
    expect(batchLayout(1, 64, MAX_BATCH_BYTES - 200).total).toBeLessThanOrEqual(MAX_BATCH_BYTES);
    // A resident set (programs + masks + DFA caches) and one match chunk leave room to spare.
    expect(GLOB_MAX_SET_BYTES + 10 * MiB + GLOB_DFA_CACHE_BYTES + GLOB_MATCH_CHUNK_BYTES + 8 * MiB).toBeLessThan(MAX_IO_BYTES);
  });

  it('X-14 a claim beyond the limit is refused before memory grows, naming both numbers', () => {
    const before = memoryBytes();
    const error = thrown(() => claimIo(maxIoBytes() + 1));
    expect(error).toBeInstanceOf(RangeError);
    expect(error).toBeInstanceOf(MemoryLimitError);
    expect(error.message).toBe(`dsh-context-engine: the call needs ${ENGINE_MAX_MEMORY_BYTES + 1} bytes of WASM memory; the engine's limit is ${ENGINE_MAX_MEMORY_BYTES} (ENGINE_MAX_MEMORY_BYTES)`);
    expect(memoryBytes()).toBe(before);
    expect(utf8Length('still works é')).toBe(14);
  });

  it('X-07 a pattern of a million characters is refused naming its size and the limit, without reserving room to compile it', () => {
    const before = memoryBytes();
    expectError(() => globMatch('*'.repeat(1_000_000), 'a'), RangeError, 'globMatch: glob pattern is 1000000 bytes; the limit is 65536');
    // Only counting its UTF-8 bytes moved it in (one piece of at most MAX_PIECE_UNITS units).
    expect(memoryBytes() - before).toBeLessThanOrEqual(utf16Bytes(MAX_PIECE_UNITS) + PAGE_BYTES);
    expectError(() => compileGlobs(['src/**', 'é'.repeat(40_000)]), RangeError, 'compileGlobs: patterns[1]: glob pattern is 80000 bytes; the limit is 65536');
    expect(memoryBytes() - before).toBeLessThanOrEqual(utf16Bytes(MAX_PIECE_UNITS) + PAGE_BYTES);
  });

  it('X-07 twenty rule files of huge patterns: every set is refused or compiled within the limit (beside the tokenizer\'s state), and memory stays under it', () => {
    countTokens('the tokenizer is resident first');
    // About 932 KB of patterns, each just under 64 KiB, the costliest shape found for the compiler
    // (`*/**/` with dot: about 108 MiB of working memory for one pattern).
    const huge = Array.from({ length: 20 }, (_, i) => `${'*/**/'.repeat(9_300)}${i}`);
    expect(huge.reduce((n, p) => n + p.length, 0)).toBeGreaterThan(930_000);
    const one = compileGlobs([huge[0]!], { dot: true });
    // Each `*/` takes a segment and its slash, so a path without one cannot match (picomatch's regex
    // for this pattern is too large for V8 to build, so the answer is reasoned, not asked).
    expect(one.test('b0')).toBe(false);
    expect(memoryBytes()).toBeLessThanOrEqual(ENGINE_MAX_MEMORY_BYTES);
    const error = thrown(() => compileGlobs(huge, { dot: true }));
    expect(error).toBeInstanceOf(RangeError);
    const m = /^compileGlobs: compiled glob set needs at least (\d+) bytes; the limit is (\d+)$/.exec(error.message);
    expect(Number(m?.[1])).toBeGreaterThan(GLOB_MAX_SET_BYTES);
    expect(Number(m?.[2])).toBe(GLOB_MAX_SET_BYTES);
    expect(memoryBytes()).toBeLessThanOrEqual(ENGINE_MAX_MEMORY_BYTES);
    // A set whose pattern text alone is over the limit is refused before anything is claimed.
    const before = memoryBytes();
    const tooMuchText = thrown(() => compileGlobs(Array.from({ length: 300 }, (_, i) => `${'a'.repeat(30_000)}${i}`)));
    expect(tooMuchText).toBeInstanceOf(RangeError);
    expect(tooMuchText.message).toMatch(/^compileGlobs: compiled glob set needs at least \d+ bytes; the limit is 16777216$/);
    expect(memoryBytes()).toBe(before);
    expect(one.which('x')).toEqual([]);
  });

  it('X-01 a million inputs go through digestMany in batches of at most MAX_BATCH_BYTES', () => {
    const before = memoryBytes();
    const inputs = Array.from({ length: 1_000_000 }, (_, i) => (i % 1000 === 0 ? 'z'.repeat(i % 7) : ''));
    const digests = digestMany('sha256', inputs);
    expect(digests.length).toBe(1_000_000);
    expect(digests[0]).toBe(nodeHash('sha256', ''));
    expect(digests[3000]).toBe(nodeHash('sha256', 'z'.repeat(3000 % 7)));
    expect(memoryBytes()).toBeLessThanOrEqual(Math.max(before, MAX_BATCH_BYTES + 2 * PAGE_BYTES));
  });

  it('X-07 a path over GLOB_MAX_PATH_UNITS is a RangeError naming its length and the limit', () => {
    const set = compileGlobs(['**/*.md']);
    const long = `${'a/'.repeat(GLOB_MAX_PATH_UNITS / 2)}x.md`;
    expectError(() => set.test(long), RangeError, `GlobSet.test: path is ${long.length} code units long; the limit is ${GLOB_MAX_PATH_UNITS} (GLOB_MAX_PATH_UNITS)`);
    expectError(() => set.matchAll(['a.md', long]), RangeError, `GlobSet.matchAll: paths[1] is ${long.length} code units long; the limit is ${GLOB_MAX_PATH_UNITS} (GLOB_MAX_PATH_UNITS)`);
    expectError(() => globMatch('**', long), RangeError, `globMatch: path is ${long.length} code units long; the limit is ${GLOB_MAX_PATH_UNITS} (GLOB_MAX_PATH_UNITS)`);
    const longest = `${'a/'.repeat(GLOB_MAX_PATH_UNITS / 2 - 4)}x.md`;
    expect(longest.length).toBeLessThanOrEqual(GLOB_MAX_PATH_UNITS);
    expect(set.which(longest)).toEqual([0]);
  });

  it('X-07 more paths than one match chunk holds are matched in several calls with the same answers', () => {
    const patterns = ['**/*.ts', 'src/**', '!**/*.md'];
    const set = compileGlobs(patterns);
    // 60,000 paths of about 60 units: about 7.7 MB of UTF-16, two chunks of GLOB_MATCH_CHUNK_BYTES.
    const paths = Array.from({ length: 60_000 }, (_, i) => `${i % 3 ? 'src' : 'lib'}/${'d'.repeat(40)}/${i}.${i % 2 ? 'ts' : 'md'}`);
    expect(paths.reduce((n, p) => n + p.length * 2, 0)).toBeGreaterThan(GLOB_MATCH_CHUNK_BYTES);
    const matchers = patterns.map((p) => picomatch(p));
    expect(set.matchAll(paths)).toEqual(paths.map((p) => matchers.flatMap((m, i) => (m(p) ? [i] : []))));
  });

  it('X-07 a set whose DFA caches exceed GLOB_DFA_CACHE_BYTES answers the same, the rest on the Pike VM', () => {
    // About 41 KB of DFA cache per pattern: 600 patterns want about 24 MiB.
    const patterns = Array.from({ length: 600 }, (_, i) => `p${i % 40}/**/*.{ts,md}`);
    const set = compileGlobs(patterns);
    const paths = ['p1/a.ts', 'p39/x/y/z.md', 'p7/b.js', 'q/a.ts', 'p12/.hidden/a.md', 'p3/a/b/c/d.ts'];
    const matchers = patterns.map((p) => picomatch(p));
    expect(set.matchAll(paths)).toEqual(paths.map((p) => matchers.flatMap((m, i) => (m(p) ? [i] : []))));
    expect(memoryBytes()).toBeLessThanOrEqual(ENGINE_MAX_MEMORY_BYTES);
  });
});
