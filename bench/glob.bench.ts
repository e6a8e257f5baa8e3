// Globs: our WASM matcher against picomatch 4 on a generated monorepo of 100,000 paths and 50 rule
// patterns: batch matching (matchAll), per-path `which`, one pattern per call, compiling the set; and
// on a real-shaped Rust workspace of 100,000 paths whose 50 rules match far more often.
// (The cold start in a fresh process is cold.bench.ts.)
//
// tinybench runs every task at least 64 times per round (80 with its warm-up), and picomatch needs
// about 150 ns per (path, pattern) pair, 0.75 s for all 100,000 × 50, so the tinybench groups use
// fixed subsets (every 50th path: the same mix of kinds) that keep one call near 15 ms. The whole
// list is still matched by both sides, three single calls each, and must give equal results.

import picomatch from 'picomatch';
import { compileGlobs, globMatch, type GlobSet } from 'dsh-context-engine/engine';
import { median, type Comparison, type Row } from './harness.js';
import { everyNth, matchingIndices, monorepoPaths, RULE_PATTERNS } from './glob-inputs.js';
import { RUST_RULE_PATTERNS, rustWorkspacePaths } from './real-repo.js';

type Matcher = (path: string) => boolean;

const SUBSET_STEP = 50;
const DOT_SUBSET_STEP = 100;
const ONE_PATTERN_CALLS = 500;
/** A rule pattern that matches about a third of the paths, so both outcomes are common. */
const ONE_PATTERN = 'packages/*/src/**/*.{ts,tsx}';
const COMPILE_CHECK_STEP = 500;

const count = (n: number): string => n.toLocaleString('en-US');

const FULL_LIST_SIZE = 100_000;
let generated: string[] | undefined;
/** The 100,000 paths, generated once per run (about 0.3 s). */
const allPaths = (): string[] => (generated ??= monorepoPaths(FULL_LIST_SIZE));

/** Picomatch compiled once per pattern, outside the timed function. */
function picomatchSet(dot: boolean): Matcher[] {
  return RULE_PATTERNS.map((p) => picomatch(p, { dot }));
}

const picomatchAll = (matchers: readonly Matcher[], paths: readonly string[]): number[][] =>
  paths.map((path) => matchingIndices(matchers, path));

let freshCount = 0;
/** The first path a rule set meets after a change (it matches several of the 50 patterns). */
const FIRST_PATH = 'packages/ui/src/components/Button.test.tsx';
/** Runs `compileAndMatch` on the rule patterns under a directory no earlier call used. */
function fresh<T>(compileAndMatch: (patterns: string[], path: string) => T): T {
  const dir = `r${(freshCount++).toString(36)}/`;
  return compileAndMatch(RULE_PATTERNS.map((p) => dir + p), dir + FIRST_PATH);
}

/** (path, pattern) pairs per call, by group: the run prints time per pair from these. */
const pairsPerCall = new Map<string, number>();

/** The timed comparisons, on subsets of the generated list. */
export function globComparisons(): Comparison[] {
  const paths = allPaths();
  const subset = everyNth(paths, SUBSET_STEP);
  const dotSubset = everyNth(paths, DOT_SUBSET_STEP);
  const perCall = subset.slice(0, ONE_PATTERN_CALLS);
  const set = compileGlobs([...RULE_PATTERNS]);
  const dotSet = compileGlobs([...RULE_PATTERNS], { dot: true });
  const matchers = picomatchSet(false);
  const dotMatchers = picomatchSet(true);
  const oneMatcher = picomatch(ONE_PATTERN);
  const compileCheck = everyNth(paths, COMPILE_CHECK_STEP);
  const n = RULE_PATTERNS.length;

  const matchAllGroup = `glob matchAll, ${count(subset.length)} paths (every ${SUBSET_STEP}th of ${count(paths.length)}) × ${n} patterns`;
  const dotGroup = `glob matchAll { dot: true }, ${count(dotSubset.length)} paths (every ${DOT_SUBSET_STEP}th of ${count(paths.length)}) × ${n} patterns`;
  const whichGroup = `glob which, ${count(subset.length)} calls (one path each) × ${n} patterns`;
  pairsPerCall.set(matchAllGroup, subset.length * n);
  pairsPerCall.set(dotGroup, dotSubset.length * n);
  pairsPerCall.set(whichGroup, subset.length * n);

  return [
    {
      group: matchAllGroup,
      ours: { name: 'GlobSet.matchAll', fn: () => set.matchAll(subset) },
      baselines: [{ name: `picomatch, ${n} precompiled matchers`, fn: () => picomatchAll(matchers, subset) }],
      targets: { [`picomatch, ${n} precompiled matchers`]: 6 },
    },
    {
      group: dotGroup,
      ours: { name: 'GlobSet.matchAll', fn: () => dotSet.matchAll(dotSubset) },
      baselines: [{ name: `picomatch, ${n} precompiled matchers`, fn: () => picomatchAll(dotMatchers, dotSubset) }],
    },
    {
      group: whichGroup,
      ours: { name: 'GlobSet.which', fn: () => subset.map((path) => set.which(path)) },
      baselines: [{ name: `picomatch, ${n} precompiled matchers`, fn: () => picomatchAll(matchers, subset) }],
    },
    {
      group: `glob one pattern, ${count(perCall.length)} calls (\`${ONE_PATTERN}\`)`,
      ours: { name: 'globMatch (keeps compiled patterns in a cache)', fn: () => perCall.map((path) => globMatch(ONE_PATTERN, path)) },
      baselines: [
        { name: 'picomatch.isMatch (compiles every call)', fn: () => perCall.map((path) => picomatch.isMatch(path, ONE_PATTERN)) },
        { name: 'picomatch matcher, compiled once', fn: () => perCall.map((path) => oneMatcher(path)) },
      ],
    },
    {
      // What a rule change costs: compile the 50 patterns, then match the first path. picomatch
      // builds 50 RegExps, and V8 compiles each one's code at its first exec; V8 also reuses that
      // code for a RegExp of identical source, so every call here compiles a set of its own (the
      // same 50 patterns under a directory no earlier call used), as a process does the first time.
      group: `glob compile ${n} patterns + first match (fresh patterns each call)`,
      ours: { name: 'compileGlobs + which', fn: () => fresh((ps, path) => compileGlobs(ps).which(path)) },
      baselines: [{
        name: `picomatch × ${n} + first match`,
        fn: () => fresh((ps, path) => matchingIndices(ps.map((p) => picomatch(p)), path)),
      }],
      targets: { [`picomatch × ${n} + first match`]: 5 },
    },
    {
      // The compiled sets themselves must answer alike (checked on a sample of the paths).
      group: `glob compile ${n} patterns (same patterns each call)`,
      ours: { name: 'compileGlobs', fn: () => compileGlobs([...RULE_PATTERNS]) },
      baselines: [{ name: `picomatch × ${n}`, fn: () => RULE_PATTERNS.map((p) => picomatch(p)) }],
      same: (v) => (Array.isArray(v) ? picomatchAll(v as Matcher[], compileCheck) : (v as GlobSet).matchAll(compileCheck)),
    },
  ];
}

/** The whole-list rows: the generated monorepo with its rules, and a Rust workspace whose rules match a third of all pairs. */
const FULL_LISTS = [
  { name: 'paths', patterns: RULE_PATTERNS, paths: allPaths, target: 6 },
  { name: 'paths of a real-shaped Rust workspace (bench/real-repo.ts)', patterns: RUST_RULE_PATTERNS, paths: () => rustWorkspacePaths(FULL_LIST_SIZE), target: undefined },
] as const;

const fullListGroup = (list: (typeof FULL_LISTS)[number], runs: number): string =>
  `glob matchAll, all ${count(FULL_LIST_SIZE)} ${list.name} × ${list.patterns.length} patterns (median of ${runs} single calls)`;

/**
 * Both sides over a whole list of 100,000 paths × 50 patterns: one untimed call each whose results
 * must be equal (5,000,000 pairs), then `runs` interleaved single calls timed with performance.now.
 */
function fullList(list: (typeof FULL_LISTS)[number], runs: number): Row {
  const paths = list.paths();
  const set = compileGlobs([...list.patterns]);
  const matchers = list.patterns.map((p) => picomatch(p));
  const group = fullListGroup(list, runs);
  if (JSON.stringify(set.matchAll(paths)) !== JSON.stringify(picomatchAll(matchers, paths))) {
    throw new Error(`${group}: picomatch disagrees with GlobSet.matchAll`);
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < runs; run++) {
    // Alternate which side goes first.
    if (run % 2 === 0) ours.push(timeOnce(() => set.matchAll(paths)));
    theirs.push(timeOnce(() => picomatchAll(matchers, paths)));
    if (run % 2 === 1) ours.push(timeOnce(() => set.matchAll(paths)));
  }
  pairsPerCall.set(group, paths.length * list.patterns.length);
  return {
    group,
    ours: 'GlobSet.matchAll',
    oursNs: median(ours) * 1e6,
    baseline: `picomatch, ${list.patterns.length} precompiled matchers`,
    baselineNs: median(theirs) * 1e6,
    ratio: median(ours.map((o, i) => theirs[i]! / o)),
    ...(list.target !== undefined ? { target: list.target } : {}),
  };
}

function timeOnce(work: () => unknown): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

const formatPair = (ns: number): string => `${ns.toFixed(ns < 10 ? 2 : 1)} ns`;

/**
 * The glob rows timed outside tinybench (the whole list, the cold start), for the groups `include`
 * selects, and notes to print under the table: time per (path, pattern) pair, and the cold-start
 * target, which is an absolute time rather than a ratio.
 */
export function globExtras(timed: readonly Row[], options: { quick: boolean; include: (group: string) => boolean }): { rows: Row[]; notes: string[] } {
  const rows: Row[] = [];
  const notes: string[] = [];
  const fullRuns = 5;
  for (const list of FULL_LISTS) if (options.include(fullListGroup(list, fullRuns))) rows.push(fullList(list, fullRuns));
  for (const r of [...timed, ...rows]) {
    const pairs = pairsPerCall.get(r.group);
    if (pairs !== undefined) notes.push(`- ${r.group}: per (path, pattern) pair ${r.baseline} ${formatPair(r.baselineNs / pairs)}, ours ${formatPair(r.oursNs / pairs)}`);
  }
  return { rows, notes };
}
