// Issue 33: segment plans (assembly/glob/plan.ts) answer the regex shapes picomatch builds for the
// common rule globs without the DFA. They must answer exactly as picomatch does: checked on the rule
// patterns of the benches, on patterns built from every plan shape with random literals, and on
// paths built to hit each refusal (segments starting with `.`, `.` and `..` segments with `dot`, line
// terminators, `./` prefixes, `\`, empty segments, trailing `/`), with and without `dot`. The raw
// module is asked too, so that these tests fail if the shapes stop getting plans; and a planned
// program is run again with its plan taken away, so that its plan and its own regex (on the Pike VM)
// answer every long path alike, wherever a refusal falls in the plan's eight-unit scans.

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

type RawFn = Record<string, (...a: number[]) => number> & { memory: WebAssembly.Memory };

/**
 * The raw module, driven by hand: compile one pattern into a program, match normalized paths with
 * globMatch (no DFA cache: a program without a plan runs its regex on the Pike VM), and take a
 * program's plan away, so that the same program answers through its plan and through its regex.
 */
class RawGlob {
  private readonly fn: RawFn;
  private readonly base: number;
  private next: number;

  constructor() {
    this.fn = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(RELEASE_WASM_URL)), {}).exports as unknown as RawFn;
    this.base = this.next = (this.fn.heapBase!() + 15) & ~15;
  }

  /** Frees every program compiled so far. */
  reset(): void {
    this.next = this.base;
  }

  private alloc(bytes: number): number {
    const at = this.next;
    this.next = (at + bytes + 15) & ~15;
    const missing = this.next - this.fn.memory.buffer.byteLength;
    if (missing > 0) this.fn.memory.grow(Math.ceil(missing / 65536));
    return at;
  }

  private write(text: string): number {
    const at = this.alloc(text.length * 2 + 16);
    const units = new Uint16Array(this.fn.memory.buffer, at, text.length);
    for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
    return at;
  }

  /** The program of `pattern` (its address). */
  compile(pattern: string, dot: boolean): number {
    const work = 1 << 20;
    const source = this.write(pattern);
    const scratch = this.alloc(work), out = this.alloc(work);
    const size = this.fn.globCompile!(source, pattern.length, dot ? 1 : 0, scratch, work, out, work);
    expect(size, pattern).toBeGreaterThan(0);
    return out;
  }

  /** Whether `program` has a segment plan. */
  planned(program: number): boolean {
    return new Int32Array(this.fn.memory.buffer, program + P_PLAN, 1)[0] !== 0;
  }

  /** The same program answering through its regex from now on. */
  unplan(program: number): void {
    new Int32Array(this.fn.memory.buffer, program + P_PLAN, 1)[0] = 0;
  }

  /** globMatch's answer (the path is copied: globMatch normalizes it in place). */
  match(program: number, path: string): boolean {
    const mark = this.next;
    const at = this.write(path);
    const work = this.alloc(this.fn.globMatchWorkspace!(program));
    const answer = this.fn.globMatch!(program, at, path.length, work) === 1;
    this.next = mark;
    return answer;
  }
}

/** Whether the raw module compiles `pattern` with a segment plan. */
function planned(pattern: string, dot: boolean): boolean {
  const raw = new RawGlob();
  return raw.planned(raw.compile(pattern, dot));
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
  it('X-07 property: matchAll, which and test of 1–4 prefixed patterns equal picomatch on paths with ./, \\ inside and beyond the prefix, the pattern text itself and near prefixes', () => {
    fc.assert(fc.property(fc.array(prefixed, { minLength: 1, maxLength: 4 }), fc.boolean(), (patterns, dot) => {
      const paths = [...new Set(patterns.flatMap((p) => [...around(p), p, `./${p}`, p.replace(/\//g, '\\'), p.slice(0, 3), `x${p}`, `${p.slice(0, 2)}\\${p.slice(2)}`, `${p}\\x`, `lib\\${p}`]))];
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

// The plan grammar's shapes again, with the literals that cross 8-unit blocks (the scans for refusals
// go eight units at a time, forward from a body's end and backward from the path's end).
const longWord = fc.constantFrom('src', 'a', 'packages', 'abcdefg', 'abcdefgh', 'abcdefghi', 'node_modules', 'x.y', 'é😀');
const longPattern: fc.Arbitrary<string> = fc.oneof(
  shapedPattern,
  fc.tuple(longWord, ext).map(([a, e]) => `**/${a}/**/*${e}`),
  fc.tuple(longWord, longWord).map(([a, b]) => `${a}/**/${b}/**`),
  fc.tuple(longWord, longWord).map(([a, b]) => `**/${a}/${b}`),
);

// Segments of many lengths (so that a refusal lands at every offset within a block of eight), the
// segments the globstar refuses (`.x`, `.`, `..`), line terminators inside a segment, empty segments.
const SEGMENTS = ['a', 'ab', 'abc', 'abcdefg', 'abcdefgh', 'abcdefghi', 'src', 'packages', 'node_modules', 'x.ts', 'mod.rs', 'README.md',
  '.a', '.github', '.', '..', '', 'a\nb', 'a\u2028', 'b\u2029c', '\r', 'é', '😀', 'a.', '...'];
const segment = fc.constantFrom(...SEGMENTS);

/**
 * Long paths around a pattern: a path near it with up to 40 segments before it and up to 40 inside
 * or after it, so that a globstar spans many candidate segments and the refusals fall anywhere.
 */
const longPathNear = (pattern: string): fc.Arbitrary<string> => fc.tuple(
  fc.array(segment, { maxLength: 40 }), fc.constantFrom(...pathsNear(pattern)), fc.array(segment, { maxLength: 40 }), fc.nat(), fc.boolean(),
).map(([before, near, after, at, inside]) => {
  const nearSegments = near.split('/');
  if (inside) nearSegments.splice(at % (nearSegments.length + 1), 0, ...after);
  else nearSegments.push(...after);
  return [...before, ...nearSegments].join('/');
});

describe('issue 33 X-07: a segment plan answers as the regex it was read from (plan against Pike VM, one program)', () => {
  it('X-07 property: every planned pattern shape, dot or not, on long paths with refusals at every block offset: plan = the same program without its plan = picomatch', () => {
    const raw = new RawGlob();
    let plannedPatterns = 0, pairs = 0, matched = 0;
    fc.assert(fc.property(longPattern, fc.boolean(), fc.nat(), (pattern, dot, seed) => {
      raw.reset();
      const withPlan = raw.compile(pattern, dot);
      const withoutPlan = raw.compile(pattern, dot);
      if (!raw.planned(withPlan)) return; // a shape the grammar leaves to the DFA: nothing to compare
      plannedPatterns++;
      raw.unplan(withoutPlan);
      const isMatch = picomatch(pattern, dot ? { dot: true } : {});
      const paths = fc.sample(fc.oneof(longPathNear(pattern), nearPaths(pattern)), { numRuns: 30, seed });
      for (const path of paths) {
        const plan = raw.match(withPlan, path);
        const regex = raw.match(withoutPlan, path);
        const want = path !== '' && isMatch(normalizePath(path));
        expect({ plan, regex }, `${pattern} dot: ${dot} on ${JSON.stringify(path)}`).toEqual({ plan: want, regex: want });
        pairs++;
        if (want) matched++;
      }
    }), { numRuns: 300 });
    // The property compared plans, not refusals to plan, and on paths that match as well as paths that do not.
    expect(plannedPatterns).toBeGreaterThan(200);
    expect(matched).toBeGreaterThan(pairs / 20);
    expect(matched).toBeLessThan(pairs);
  });
});
