// Glob matching: the spec's examples, picomatch's consequences users notice, the
// GlobSet API, path normalization, options and errors.

import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlobs, globMatch, globSource, GlobSet, GLOB_MAX_PATTERN_BYTES } from '../../src/engine/index.js';
import { expectError } from '../support/errors.js';
import { oracle, oracleSource } from '../support/glob.js';

describe('globMatch', () => {
  it('X-07 the spec examples', () => {
    expect(globMatch('src/api/**/*.ts', 'src/api/x.ts')).toBe(true);
    expect(globMatch('src/api/**/*.ts', 'src/api/a/b.ts')).toBe(true);
    expect(globMatch('src/api/**/*.ts', 'src/apix/x.ts')).toBe(false);
    expect(globMatch('src/**/*.{ts,tsx}', 'src/a.tsx')).toBe(true);
    expect(globMatch('?.md', 'a.md')).toBe(true);
    expect(globMatch('?.md', 'ab.md')).toBe(false);
    expect(globMatch('[abc].md', 'b.md')).toBe(true);
    expect(globMatch('*.md', '.c.md')).toBe(false);
  });

  it('X-07 * never crosses /; leading * and ? skip dotfiles unless dot: true; ** skips dot segments by default', () => {
    expect(globMatch('*.ts', 'a/b.ts')).toBe(false);
    expect(globMatch('a/*', 'a/b/c')).toBe(false);
    expect(globMatch('*', '.env')).toBe(false);
    expect(globMatch('*', '.env', { dot: true })).toBe(true);
    expect(globMatch('?env', '.env')).toBe(false);
    expect(globMatch('?env', '.env', { dot: true })).toBe(true);
    expect(globMatch('**/*.yml', '.github/workflows/ci.yml')).toBe(false);
    expect(globMatch('**/*.yml', '.github/workflows/ci.yml', { dot: true })).toBe(true);
    expect(globMatch('**', 'a/b/c')).toBe(true);
    expect(globMatch('a/**', 'a')).toBe(true);
    expect(globMatch('**', '.')).toBe(false);
    expect(globMatch('**', '..', { dot: true })).toBe(false);
  });

  it("X-07 picomatch's answer is the answer: [!a] is a class of ! and a, and a bracket also matches itself literally", () => {
    expect(globMatch('[!a]', 'b')).toBe(false);
    expect(globMatch('[!a]', '!')).toBe(true);
    expect(globMatch('[^a]', 'b')).toBe(true);
    expect(globMatch('[^a]', '/')).toBe(false);
    expect(globMatch('x[ab].md', 'x[ab].md')).toBe(true);
    expect(globMatch('{1..10}', '5')).toBe(false); // picomatch reads it as the class [1-10]
    expect(globMatch('{a..c}', 'b')).toBe(true);
    for (const [p, s] of [['[!a]', 'b'], ['x[ab].md', 'x[ab].md'], ['{1..10}', '5'], ['{a..c}', 'b']] as const) {
      expect(globMatch(p, s), `${p} ${s}`).toBe(oracle(p, s, false));
    }
  });

  it('X-07 paths: \\ becomes /, leading ./ is removed, the whole path must match, case matters', () => {
    expect(globMatch('src/*.ts', 'src\\a.ts')).toBe(true);
    expect(globMatch('src/*.ts', './src/a.ts')).toBe(true);
    expect(globMatch('src/*.ts', '././src/a.ts')).toBe(true);
    expect(globMatch('src/*.ts', 'x/src/a.ts')).toBe(false);
    expect(globMatch('src/*.ts', 'SRC/a.ts')).toBe(false);
    expect(globMatch('*', '')).toBe(false);
    expect(globMatch('*', './')).toBe(false);
  });

  it('X-07 a pattern equal to the path matches even when its regex would not (picomatch compares first)', () => {
    expect(globMatch('a/{b', 'a/{b')).toBe(true);
    expect(globMatch('a/{b', 'a/b')).toBe(false);
    expect(globMatch('[!a]', '[!a]')).toBe(true);
  });

  it('X-07 a leading ! negates; a path with a line terminator never matches a negated pattern', () => {
    expect(globMatch('!*.md', 'a.ts')).toBe(true);
    expect(globMatch('!*.md', 'a.md')).toBe(false);
    expect(globMatch('!!*.md', 'a.md')).toBe(true);
    expect(globMatch('!*.md', 'a\nb')).toBe(false);
    expect(globMatch('!*.md', 'a\nb')).toBe(oracle('!*.md', 'a\nb', false));
  });

  it('X-07 unclosed groups and out-of-order ranges match nothing, as picomatch substitutes /$^/', () => {
    expect(globMatch('a/{b,c', 'a/b')).toBe(false);
    expect(globMatch('[z-a]', 'z')).toBe(false);
    expect(globMatch('[z-a]', 'z')).toBe(oracle('[z-a]', 'z', false));
  });
});

describe('globSource', () => {
  it("X-14 is picomatch's own regex source, byte for byte", () => {
    for (const pattern of ['src/**/*.ts', '*.md', '**', 'a/**', '{a..c}', 'docs/[a-c]*/**', '!*.js', './x/*', 'a/{b,c}/**/d']) {
      for (const dot of [false, true]) expect(globSource(pattern, { dot }), `${pattern} dot=${dot}`).toEqual(oracleSource(pattern, dot));
    }
  });
});

describe('compileGlobs', () => {
  const set = compileGlobs(['**/*.md', 'src/**', 'src/*.ts', '*.json']);

  it('X-07 which lists matching pattern indices ascending; test says whether any matches', () => {
    expect(set).toBeInstanceOf(GlobSet);
    expect(set.patterns).toEqual(['**/*.md', 'src/**', 'src/*.ts', '*.json']);
    expect(set.which('src/a.ts')).toEqual([1, 2]);
    expect(set.which('src/docs/a.md')).toEqual([0, 1]);
    expect(set.which('package.json')).toEqual([3]);
    expect(set.which('lib/a.ts')).toEqual([]);
    expect(set.test('lib/a.ts')).toBe(false);
    expect(set.test('README.md')).toBe(true);
  });

  it('X-07 matchAll gives one which per path, in order', () => {
    const paths = ['src/a.ts', 'README.md', 'lib/x.js', '', 'src\\b.ts', './package.json'];
    expect(set.matchAll(paths)).toEqual(paths.map((p) => set.which(p)));
    expect(set.matchAll(paths)).toEqual([[1, 2], [0], [], [], [1, 2], [3]]);
    expect(set.matchAll([])).toEqual([]);
  });

  it('X-07 matchAll over more paths than one WASM call takes (4 MiB) splits them and keeps every answer in order', () => {
    // 2,600 paths of ~1,000 units: 5.2 MB of UTF-16, two calls; the one that does not fit the first
    // call starts the second.
    const paths = Array.from({ length: 2600 }, (_, i) => `${i % 3 === 0 ? 'src' : 'lib'}/${'d'.repeat(990)}/f${i}.${i % 2 === 0 ? 'ts' : 'md'}`);
    const got = set.matchAll(paths);
    expect(got).toHaveLength(paths.length);
    expect(got).toEqual(paths.map((p) => set.which(p)));
    expect(got.slice(0, 4)).toEqual([[1], [0], [], [0, 1]]);
    expect(got[2599]).toEqual([0]);
  });

  it('X-07 sets of more than 32 patterns and the dot option', () => {
    const patterns = Array.from({ length: 70 }, (_, i) => `d${i}/*`);
    const big = compileGlobs(patterns, { dot: true });
    expect(big.which('d69/.x')).toEqual([69]);
    expect(big.which('d33/a')).toEqual([33]);
    expect(big.dot).toBe(true);
    expect(compileGlobs(patterns).which('d69/.x')).toEqual([]);
  });

  it('X-07 a set agrees with picomatch pattern by pattern', () => {
    const patterns = ['**/*.md', 'src/**', '*.{js,ts}', '.github/**', '[a-c]*/**', '!**/*.ts', 'a/{b,c}/*'];
    const paths = ['a.js', 'src/x.ts', '.github/ci.yml', 'b/c/d', 'a/b/e', 'docs/x.md', 'x.ts', 'src'];
    for (const dot of [false, true]) {
      const got = compileGlobs(patterns, { dot }).matchAll(paths);
      const want = paths.map((p) => patterns.flatMap((g, i) => (picomatch(g, { dot })(p) ? [i] : [])));
      expect(got, `dot=${dot}`).toEqual(want);
    }
  });

  it("X-07 a set's filters by number of / and by literal unit pairs never drop a match", () => {
    // The set skips a pattern when the path's count of `/` is outside the pattern's range (32 and
    // more share one slot) or when a pair of adjacent units of its literal prefix, suffix or infix
    // is missing from the path; a path equal to the pattern text matches whatever those say.
    const deep = (n: number, leaf: string): string => `${'d/'.repeat(n)}${leaf}`;
    const patterns = [
      '**/__tests__/**', 'src/**/*.test.ts', 'a/*/b', deep(40, '*.md'), deep(31, 'x'), '**/deep/**/*.md',
      '[!a]/x', 'x[ab]', '{a,b}/c.md', 'docs/**/*.{md,mdx}', '!**/*.ts', 'a\\*b', '**/.*rc', 'q',
    ];
    const paths = [
      'src/__tests__/a.ts', 'src/x/__tests_/a.ts', 'src/a/b.test.ts', 'src/a.test.tsx', 'a/q/b', 'a/b',
      deep(40, 'r.md'), deep(41, 'r.md'), deep(39, 'r.md'), deep(31, 'x'), deep(32, 'x'), deep(33, 'deep/z.md'),
      '[!a]/x', '!/x', 'x[ab]', 'xa', '{a,b}/c.md', 'a/c.md', 'docs/a/b.mdx', 'docs.md', 'x.ts', 'a*b',
      'a\\*b', 'p/.eslintrc', '.eslintrc', 'q', '',
    ];
    for (const dot of [false, true]) {
      const got = compileGlobs(patterns, { dot }).matchAll(paths);
      const want = paths.map((p) => patterns.flatMap((g, i) => (p !== '' && oracle(g, p, dot) ? [i] : [])));
      expect(got, `dot=${dot}`).toEqual(want);
    }
  });

  it("X-07 a set reads every \\ as / and drops every leading ./ or .\\, wherever they fall in the path", () => {
    // globMatchSet normalizes a path (slashPath) and signs its pairs (signPath) eight units at a
    // time, the last units as one more window of eight, paths too short for a window unit by unit:
    // a \\ at every position, before and after those boundaries.
    const patterns = ['a/b/c/d/e/f/g/h/i.md', '**/x/y.md', '*p/x/y.md', 'src/**/*.ts', '**/abcdefgh/**', '*/*', 'a/b', '**'];
    const base = 'a/b/c/d/e/f/g/h/i.md';
    const paths = [base, `./${base}`, `.\\${base}`, `./.\\./${base}`, 'src/abcdefgh/x/y.md', 'q/abcdefgh/r.ts', 'x/y.md', 'a\\b'];
    for (let i = 0; i < base.length; i++) if (base[i] === '/') paths.push(`${base.slice(0, i)}\\${base.slice(i + 1)}`);
    for (let i = 0; i <= 18; i++) paths.push(`${'p'.repeat(i)}\\x\\y.md`, `src${'\\'.repeat(1 + (i % 3))}${'z'.repeat(i)}.ts`);
    // A \\ near the end of paths of 8 to 25 units: the last window of eight overlaps the ones before.
    patterns.push('q*/z', '*q/**', 'q*q');
    for (let len = 8; len <= 25; len++) paths.push(`${'q'.repeat(len - 2)}\\z`, `${'q'.repeat(len - 1)}\\`, `${'q'.repeat(len - 3)}\\\\z`);
    // A \\ that is the unit after an eight-unit window, in a path long enough for another window.
    for (const k of [7, 8, 9, 16]) {
      patterns.push(`${'p'.repeat(k)}/x/**`);
      paths.push(`${'p'.repeat(k)}\\x\\${'y'.repeat(10)}`, `${'p'.repeat(k)}/x\\${'y'.repeat(10)}`);
    }
    for (const dot of [false, true]) {
      const got = compileGlobs(patterns, { dot }).matchAll(paths);
      const want = paths.map((p) => patterns.flatMap((g, i) => (oracle(g, p, dot) ? [i] : [])));
      expect(got, `dot=${dot}`).toEqual(want);
    }
  });

  it('X-07 answers do not depend on which paths taught the DFA first (overlapping brackets)', () => {
    // Regression: [abc] then [ab] once left b and c in one DFA unit class, so after 'ab' the cached
    // transition also accepted 'ac'.
    expect(compileGlobs(['[abc][ab]']).matchAll(['ab', 'ac', 'cb', 'cc'])).toEqual([[0], [], [0], []]);
    expect(compileGlobs(['[] [!a][] [^b]**']).matchAll(['[]', ' a b'])).toEqual([[0], []]);
  });

  it('X-07 matchAll gives each path exactly its indices across words (none, one at a word edge, several)', () => {
    // 70 patterns: p0 … p69 match only their own name, `p3*` also p30 … p39, `**` everything.
    const patterns = Array.from({ length: 68 }, (_, i) => `p${i}`);
    patterns[31] = 'p3*';
    patterns.push('x/**', '**');
    const paths = ['p0', 'p31', 'p32', 'p63', 'p64', 'p67', 'p35', 'q', 'x/y', 'p68'];
    const got = compileGlobs(patterns).matchAll(paths);
    const want = paths.map((p) => patterns.flatMap((g, i) => (oracle(g, p, false) ? [i] : [])));
    expect(got).toEqual(want);
    expect(got[7]).toEqual([69]);
    expect(got[1]).toEqual([31, 69]);
    expect(compileGlobs(patterns.slice(0, 64)).matchAll(['p31', 'p32', 'p63', 'q'])).toEqual([[31], [31, 32], [63], []]);
  });

  it('an empty set compiles and matches nothing', () => {
    const empty = compileGlobs([]);
    expect(empty.matchAll(['a', ''])).toEqual([[], []]);
    expect(empty.which('a')).toEqual([]);
    expect(empty.test('a')).toBe(false);
  });

  it('an error in one pattern names it and its index in the array', () => {
    expectError(() => compileGlobs(['*.md', 7 as unknown as string]), TypeError, 'compileGlobs: patterns[1] must be a string, got 7');
    expectError(() => compileGlobs('*.md' as unknown as string[]), TypeError, 'compileGlobs: patterns must be an array of strings, got "*.md"');
    expectError(() => compileGlobs(['*.md', 'a/(b)']), SyntaxError, 'compileGlobs: patterns[1]: glob pattern "a/(b)" has "(" at index 2: extglobs and regex groups are not supported');
  });
});

describe('errors', () => {
  it(`X-07 a pattern over ${GLOB_MAX_PATTERN_BYTES} UTF-8 bytes is rejected naming both numbers`, () => {
    expectError(() => globMatch('a'.repeat(65537), 'a'), RangeError, 'globMatch: glob pattern is 65537 bytes; the limit is 65536');
    expectError(() => compileGlobs(['é'.repeat(32769)]), RangeError, 'compileGlobs: glob pattern is 65538 bytes; the limit is 65536');
    expect(globMatch('a'.repeat(65536), 'a'.repeat(65536))).toBe(true);
  });

  it('unsupported syntax is rejected with the unit, its index and why', () => {
    expectError(() => globMatch('src/+(a|b)', 'x'), SyntaxError, 'globMatch: glob pattern "src/+(a|b)" has "+" at index 4: extglobs are not supported');
    expectError(() => globMatch('src/(a)', 'x'), SyntaxError, 'globMatch: glob pattern "src/(a)" has "(" at index 4: extglobs and regex groups are not supported');
    expectError(() => globMatch('a|b', 'x'), SyntaxError, 'globMatch: glob pattern "a|b" has "|" at index 1: extglobs and regex groups are not supported');
    expectError(() => globMatch('src\\utils\\*.ts', 'x'), SyntaxError, 'globMatch: glob pattern "src\\\\utils\\\\*.ts" has "\\\\" at index 3: a backslash may only escape a glob character such as * ? [ ] { } ,; use / to separate directories');
    expectError(() => globMatch('[[:alpha:]]', 'x'), SyntaxError, 'globMatch: glob pattern "[[:alpha:]]" has ":" at index 8: POSIX character classes such as [[:alpha:]] are not supported');
    expect(globMatch('[[:foo:]]', ':]')).toBe(picomatch('[[:foo:]]')(':]')); // not a class name: plain brackets
    expectError(() => globMatch('[ab]+', 'x'), SyntaxError, 'globMatch: glob pattern "[ab]+" has "+" at index 4: a + right after ] or { or } is a regex quantifier in picomatch; escape it as \\+');
    expectError(() => globMatch('{a..%}', 'x'), SyntaxError, 'globMatch: glob pattern "{a..%}" has "}" at index 5: a brace range takes letters or digits, such as {a..c} or {1..9}');
    expectError(() => globMatch('"a"', 'x'), SyntaxError, 'globMatch: glob pattern "\\"a\\"" has "\\"" at index 0: quoted text is not supported');
  });

  it('empty patterns, wrong types and unknown options are clear errors', () => {
    expectError(() => globMatch('', 'a'), TypeError, 'globMatch: glob pattern must be a non-empty string');
    expectError(() => globMatch(1 as unknown as string, 'a'), TypeError, 'globMatch: pattern must be a string, got 1');
    expectError(() => globMatch('*', null as unknown as string), TypeError, 'globMatch: path must be a string, got null');
    expectError(() => globMatch('*', 'a', { nocase: true } as never), TypeError, 'globMatch: option "nocase" is not supported; the only option is dot');
    expectError(() => globMatch('*', 'a', { dot: 1 } as never), TypeError, 'globMatch: options.dot must be a boolean, got 1');
    expectError(() => compileGlobs(['*']).which(3 as unknown as string), TypeError, 'GlobSet.which: path must be a string, got 3');
  });
});
