// Malicious globs: patterns that make backtracking matchers take exponential or high
// polynomial time. The engine's time is bounded by path length × program size; these tests check
// the answers and use a generous wall-clock guard only to detect a hang, not to measure speed.

import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlobs, globMatch, GLOB_MAX_SET_BYTES } from '../../src/engine/index.js';
import { expectError } from '../support/errors.js';

const HANG_GUARD_MS = 10_000;

function bounded<T>(run: () => T): T {
  const start = performance.now();
  const result = run();
  expect(performance.now() - start, 'hang detector').toBeLessThan(HANG_GUARD_MS);
  return result;
}

describe('malicious patterns finish', () => {
  const as = 'a'.repeat(100_000);

  it('X-07 *a*a*a*a*a*a*a*a*b against 100,000 a (no b: false) and *a…*a (true)', () => {
    expect(bounded(() => globMatch('*a*a*a*a*a*a*a*a*b', as))).toBe(false);
    expect(bounded(() => globMatch('*a*a*a*a*a*a*a*a*a', as))).toBe(true);
    expect(bounded(() => globMatch('*a*a*a*a*a*a*a*a*b', `${as}b`))).toBe(true);
    // picomatch agrees where it can answer quickly.
    expect(globMatch('*a*a*a*b', 'aaaaaaaaab')).toBe(picomatch('*a*a*a*b')('aaaaaaaaab'));
  });

  it('X-07 thousands of nested braces, with and without commas', () => {
    const literal = `${'{'.repeat(3000)}a${'}'.repeat(3000)}`;
    expect(bounded(() => globMatch(literal, 'a'))).toBe(false);
    expect(bounded(() => globMatch(literal, literal))).toBe(true);
    expect(bounded(() => globMatch(`${'{a,'.repeat(3000)}b${'}'.repeat(3000)}`, 'b'))).toBe(true);
    const small = `${'{a,'.repeat(30)}b${'}'.repeat(30)}`;
    for (const path of ['a', 'b', 'ab', '']) expect(globMatch(small, path), path).toBe(picomatch(small)(path));
  });

  it('X-07 alternations that would expand exponentially ({a,b} twenty-four times)', () => {
    const pattern = '{a,b}'.repeat(24);
    expect(bounded(() => globMatch(pattern, 'ab'.repeat(12)))).toBe(true);
    expect(bounded(() => globMatch(pattern, `${'ab'.repeat(12)}c`))).toBe(false);
    expect(bounded(() => globMatch(`${'{a,aa}'.repeat(24)}b`, 'a'.repeat(48)))).toBe(false);
  });

  it('X-07 65,536-byte patterns compile and match; one byte more is rejected naming both numbers', () => {
    expect(bounded(() => globMatch('a'.repeat(65536), 'a'.repeat(65536)))).toBe(true);
    expect(bounded(() => globMatch('*/'.repeat(32768), 'a/'.repeat(32768)))).toBe(true);
    expect(bounded(() => globMatch(`a/${'**/'.repeat(21844)}b`, 'a/x/y/b'))).toBe(true);
    expect(bounded(() => globMatch('*'.repeat(65536), 'abc'))).toBe(true);
    expect(bounded(() => globMatch('?'.repeat(65536), 'abc'))).toBe(false);
    expectError(() => globMatch('*'.repeat(65537), 'a'), RangeError, 'globMatch: glob pattern is 65537 bytes; the limit is 65536');
  });

  it('X-07 a set whose compiled programs exceed GLOB_MAX_SET_BYTES is rejected naming the size and the limit', () => {
    let caught: unknown;
    try {
      bounded(() => compileGlobs(Array.from({ length: 30 }, () => '*/'.repeat(32768))));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RangeError);
    const match = /^compileGlobs: compiled glob set needs at least (\d+) bytes; the limit is (\d+)$/.exec((caught as Error).message);
    expect(match?.[2]).toBe(String(GLOB_MAX_SET_BYTES));
    expect(Number(match?.[1])).toBeGreaterThan(GLOB_MAX_SET_BYTES);
    expect(globMatch('*/*', 'a/b')).toBe(true);
  });

  it('X-07 globstars against a path of 20,000 segments', () => {
    const deep = `${'x/'.repeat(20_000)}a/b/c`;
    expect(bounded(() => globMatch('**/a/**/b/**/c', deep))).toBe(true);
    expect(bounded(() => globMatch('**/*/*/*/*/*/*/*/z', deep))).toBe(false);
    expect(bounded(() => compileGlobs(['**/a/**/b/**/c', '**/*.ts', 'x/**']).which(deep))).toEqual([0, 2]);
  });

  it('issue 33 X-07 segment plans stay linear on 20,000 segments that each start a candidate match', () => {
    // Every segment is a place where `**/x/**` and `**/x/**/*.md` could begin: the plan tries each once.
    const xs = `${'x/'.repeat(20_000)}a.md`;
    const set = compileGlobs(['**/x/**', '**/x/**/*.md', '**/x', 'x/**/x/*.md', '**/*.md', 'x/*/x/**'], { dot: true });
    expect(bounded(() => set.which(xs))).toEqual([0, 1, 3, 4, 5]);
    const dotted = `${'x/'.repeat(20_000)}./a.md`;
    expect(bounded(() => set.which(dotted))).toEqual([]);
    expect(bounded(() => compileGlobs(['**/x/**', '**/*.md']).which(`${'x/'.repeat(20_000)}.a/b.md`))).toEqual([]);
  });

  it('malformed patterns never break the module: later calls still answer', () => {
    for (const bad of ['[', ']', '{', '}', '[z-a]', '{a,', 'a/{b', '[!', '\\', '**/{', '[]', '[^]', '{}', '{,}', '{..}', '***/**']) {
      let answer: boolean | undefined;
      try {
        answer = globMatch(bad, 'a');
      } catch (error) {
        expect((error as Error).message, bad).toMatch(/^globMatch: glob pattern /);
        continue;
      }
      expect(answer, bad).toBe(picomatch(bad)('a'));
    }
    expect(globMatch('src/**/*.ts', 'src/a/b.ts')).toBe(true);
  });
});
