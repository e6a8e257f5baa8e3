// Issue 33: segment plans (assembly/glob/plan.ts) answer the regex shapes picomatch builds for the
// common rule globs without the DFA. They must answer exactly as picomatch does: checked on the rule
// patterns of the benches, on patterns built from every plan shape with random literals, and on
// paths built to hit each refusal (segments starting with `.`, `.` and `..` segments with `dot`, line
// terminators, `./` prefixes, `\`, empty segments, trailing `/`), with and without `dot`. The raw
// module is asked too, so that these tests fail if the shapes stop getting plans.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlobs } from '../../src/engine/index.js';
import { RELEASE_WASM_URL } from '../../src/wasm/instance.js';
import { RULE_PATTERNS } from '../../bench/glob-inputs.js';
import { RUST_RULE_PATTERNS } from '../../bench/real-repo.js';
import picomatch from 'picomatch';
import { normalizePath, pathsNear } from '../support/glob.js';

/** Offset of a program's plan in its header (assembly/glob/program.ts P_PLAN; 0: none). */
const P_PLAN = 116;

/** Whether the raw module compiles `pattern` with a segment plan. */
function planned(pattern: string, dot: boolean): boolean {
  const module = new WebAssembly.Module(readFileSync(RELEASE_WASM_URL));
  const fn = new WebAssembly.Instance(module, {}).exports as unknown as Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };
  const base = (fn.heapBase!() + 15) & ~15;
  const work = 1 << 20;
  const need = base + pattern.length * 2 + 2 * work + 16;
  if (fn.memory.buffer.byteLength < need) fn.memory.grow(Math.ceil((need - fn.memory.buffer.byteLength) / 65536));
  const units = new Uint16Array(fn.memory.buffer, base, pattern.length);
  for (let i = 0; i < pattern.length; i++) units[i] = pattern.charCodeAt(i);
  const out = base + ((pattern.length * 2 + 15) & ~15);
  const size = fn.globCompile!(base, pattern.length, dot ? 1 : 0, out + work, work, out, work);
  expect(size).toBeGreaterThan(0);
  return new Int32Array(fn.memory.buffer, out + P_PLAN, 1)[0] !== 0;
}

/** Paths around a pattern and the characters plans must refuse or accept. */
const PATH_PIECES = ['a', 'b', 'src', 'x.md', 'mod.rs', '.', '..', '.a', 'a.', '/', '//', '\n', '\r', '\u2028', './', '\\', 'é', 'README.md', '.ts', 'x.ts', 'tsx'];
/** pathsNear, and each of them with a `/` before or after, or a segment in front. */
const around = (pattern: string): string[] => pathsNear(pattern).flatMap((p) => [p, `${p}/`, `/${p}`, `a/${p}`, `.a/${p}`, `${p}//`]);
const nearPaths = (pattern: string): fc.Arbitrary<string> => fc.oneof(
  fc.constantFrom(...around(pattern)),
  fc.array(fc.constantFrom(...PATH_PIECES), { minLength: 1, maxLength: 9 }).map((p) => p.join('')),
  fc.tuple(fc.constantFrom(...around(pattern)), fc.nat(), fc.constantFrom(...PATH_PIECES)).map(([p, at, piece]) => {
    const k = at % (p.length + 1);
    return p.slice(0, k) + piece + p.slice(k);
  }),
);

function agrees(patterns: readonly string[], dot: boolean, paths: readonly string[]): void {
  const set = compileGlobs(patterns, { dot });
  const got = set.matchAll(paths);
  const matchers = patterns.map((pattern) => picomatch(pattern, dot ? { dot: true } : {}));
  paths.forEach((path, p) => {
    const normalized = normalizePath(path);
    const want = patterns.flatMap((_, i) => (matchers[i]!(normalized) ? [i] : []));
    expect(got[p], `${JSON.stringify(path)} dot: ${dot}`).toEqual(want);
  });
}

// Literal pieces for generated shapes: words, dots, dashes, characters the translator escapes.
const word = fc.constantFrom('src', 'lib', 'a', 'docs', 'x', 'test', 'README', 'mod', 'index', 'package', 'a-b', 'a_b', 'v2', 'é', '@scope', 'a+b', 'a$', '~x');
const ext = fc.constantFrom('.md', '.rs', '.ts', '.d.ts', '.test.ts', '.json', 'rc', '.', '.a.b', '-x');
/** Patterns of every plan shape: globstar heads, tails and middles, `*` segments, one group of alternatives. */
const shapedPattern: fc.Arbitrary<string> = fc.oneof(
  ext.map((e) => `**/*${e}`),
  ext.map((e) => `*${e}`),
  fc.tuple(word, word).map(([a, b]) => `${a}/${b}/**`),
  fc.tuple(word, ext).map(([a, e]) => `${a}/**/*${e}`),
  fc.tuple(word, word).map(([a, b]) => `**/${a}/${b}`),
  word.map((a) => `**/${a}/**`),
  fc.tuple(word, ext).map(([a, e]) => `**/${a}/**/*${e}`),
  fc.tuple(word, word).map(([a, b]) => `${a}/*/${b}/**`),
  fc.tuple(word, word, ext).map(([a, b, e]) => `${a}/*/${b}/**/*${e}`),
  fc.tuple(word, word).map(([a, b]) => `${a}/*/${b}`),
  fc.tuple(word, word).map(([a, b]) => `**/${a}*${b}`),
  fc.tuple(word, word, word).map(([a, b, c]) => `${a}/{${b},${c}}/**`),
  fc.tuple(word, word, word).map(([a, b, c]) => `${a}/**/*.{${b},${c}}`),
  fc.tuple(word, word).map(([a, b]) => `**/{${a},${b}}.json`),
  fc.tuple(word, word).map(([a, b]) => `${a}/**/${b}`),
  word.map((a) => `${a}*`),
  word.map((a) => `**/${a}*`),
  word.map((a) => `${a}/*`),
  fc.tuple(word, word).map(([a, b]) => `${a}/**/${b}*`),
);

describe('issue 33 X-07: segment plans answer as picomatch', () => {
  it('the rule patterns of the benches get plans where their shape allows, and keep their DFA where not', () => {
    for (const dot of [false, true]) {
      for (const pattern of ['**/*.rs', 'src/**', 'docs/**/*.md', '**/README.md', 'crates/*/src/**', '*.json', 'packages/*/src/**/*.{ts,tsx}', '**/__tests__/**', '**/*']) {
        expect(planned(pattern, dot), `${pattern} dot: ${dot}`).toBe(true);
      }
      for (const pattern of ['docs/[a-c]*/**', 'scripts/?*.sh', '**/{vite,vitest,jest}.config.{ts,js,mjs}', '!*.json', '**', 'a/**/b/**/c']) {
        expect(planned(pattern, dot), `${pattern} dot: ${dot}`).toBe(false);
      }
    }
  });

  it('X-07 the 50 monorepo rule patterns and the 50 Rust ones, on paths built around each', () => {
    for (const dot of [false, true]) {
      for (const patterns of [RULE_PATTERNS, RUST_RULE_PATTERNS]) {
        const paths = [...new Set(patterns.flatMap((p) => [...around(p), ...pathsNear(p).map((q) => `.${q}`)]))];
        agrees(patterns, dot, paths);
      }
    }
  });

  it('X-07 property: patterns of every plan shape against paths near them, with dot segments, line terminators, ./ and \\', () => {
    fc.assert(fc.property(shapedPattern, fc.boolean(), fc.context(), (pattern, dot, ctx) => {
      const paths = fc.sample(nearPaths(pattern), { numRuns: 40, seed: pattern.length * 31 + (dot ? 1 : 0) });
      ctx.log(pattern);
      agrees([pattern], dot, paths);
    }), { numRuns: 400 });
  });
});

describe('issue 33 X-07: small sets whose patterns have literal prefixes are filtered in JavaScript first', () => {
  const prefixed = fc.oneof(shapedPattern.filter((p) => !p.startsWith('*') && !p.startsWith('{')), fc.constantFrom('src/**', 'docs/*.md', 'a', 'a/b', '\\*x/**', 'src/[ab]*/**', './src/**', 'a\\*b'));
  it('X-07 property: matchAll, which and test of 1–4 prefixed patterns equal picomatch on paths with ./, \\, the pattern text itself and near prefixes', () => {
    fc.assert(fc.property(fc.array(prefixed, { minLength: 1, maxLength: 4 }), fc.boolean(), (patterns, dot) => {
      const paths = [...new Set(patterns.flatMap((p) => [...around(p), p, `./${p}`, p.replace(/\//g, '\\'), p.slice(0, 3), `x${p}`]))];
      agrees(patterns, dot, paths);
      const set = compileGlobs(patterns, { dot });
      const matchers = patterns.map((pattern) => picomatch(pattern, dot ? { dot: true } : {}));
      for (const path of paths) {
        const want = patterns.flatMap((_, i) => (matchers[i]!(normalizePath(path)) ? [i] : []));
        expect(set.which(path), path).toEqual(want);
        expect(set.test(path), path).toBe(want.length > 0);
      }
    }), { numRuns: 300 });
  });
});
