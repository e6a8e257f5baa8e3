// Globs: our WASM matcher against picomatch 4 on a generated monorepo of 100,000 paths and 50 rule
// patterns: batch matching (matchAll), per-path `which`, one pattern per call, compiling the set,
// and a cold start in a fresh process (import + compile + match, run by cold-start.ts).
//
// tinybench runs every task at least 64 times per round (80 with its warm-up), and picomatch needs
// about 150 ns per (path, pattern) pair, 0.75 s for all 100,000 × 50, so the tinybench groups use
// fixed subsets (every 50th path: the same mix of kinds) that keep one call near 15 ms. The whole
// list is still matched by both sides, three single calls each, and must give equal results.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import picomatch from 'picomatch';
import { compileGlobs, globMatch, type GlobSet } from 'dsh-context-engine/engine';
import type { Comparison, Row } from './harness.js';
import { everyNth, matchingIndices, monorepoPaths, RULE_PATTERNS } from './glob-inputs.js';

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

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const fullListGroup = (runs: number): string =>
  `glob matchAll, all ${count(FULL_LIST_SIZE)} paths × ${RULE_PATTERNS.length} patterns (median of ${runs} single calls)`;

/**
 * Both sides over all 100,000 paths × 50 patterns: one untimed call each whose results must be equal
 * (5,000,000 pairs), then `runs` interleaved single calls timed with performance.now.
 */
function fullList(runs: number): Row {
  const paths = allPaths();
  const set = compileGlobs([...RULE_PATTERNS]);
  const matchers = picomatchSet(false);
  if (JSON.stringify(set.matchAll(paths)) !== JSON.stringify(picomatchAll(matchers, paths))) {
    throw new Error(`${fullListGroup(runs)}: picomatch disagrees with GlobSet.matchAll`);
  }
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let run = 0; run < runs; run++) {
    let t = performance.now();
    set.matchAll(paths);
    ours.push(performance.now() - t);
    t = performance.now();
    picomatchAll(matchers, paths);
    theirs.push(performance.now() - t);
  }
  const group = fullListGroup(runs);
  pairsPerCall.set(group, paths.length * RULE_PATTERNS.length);
  return {
    group,
    ours: 'GlobSet.matchAll',
    oursNs: median(ours) * 1e6,
    baseline: `picomatch, ${RULE_PATTERNS.length} precompiled matchers`,
    baselineNs: median(theirs) * 1e6,
    ratio: median(ours.map((o, i) => theirs[i]! / o)),
  };
}

interface ColdRun {
  readonly ms: number;
  readonly phases: { readonly load: number; readonly compile: number; readonly match: number };
  readonly digest: string;
}

const coldGroup = (runs: number): string =>
  `glob cold start: fresh process, import + compile ${RULE_PATTERNS.length} patterns + match 1,000 paths (median of ${runs} processes)`;

function coldRun(side: 'ours' | 'picomatch'): ColdRun {
  const script = fileURLToPath(new URL('./cold-start.js', import.meta.url));
  return JSON.parse(execFileSync(process.execPath, [script, side], { encoding: 'utf8' })) as ColdRun;
}

const COLD_TARGET_MS = 10;

/**
 * Cold start: `runs` fresh processes per side, alternating which side goes first; each child times
 * import + compile 50 patterns + match 1,000 paths (cold-start.ts). Both sides must answer alike.
 */
function coldStart(runs: number): { row: Row; note: string } {
  const ours: number[] = [];
  const theirs: number[] = [];
  const phases: Record<'ours' | 'picomatch', { load: number[]; compile: number[]; match: number[] }> = {
    ours: { load: [], compile: [], match: [] },
    picomatch: { load: [], compile: [], match: [] },
  };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? (['ours', 'picomatch'] as const) : (['picomatch', 'ours'] as const);
    const result: Partial<Record<'ours' | 'picomatch', ColdRun>> = {};
    for (const side of order) result[side] = coldRun(side);
    if (result.ours!.digest !== result.picomatch!.digest) throw new Error(`glob cold start: picomatch disagrees with ours (digest ${result.picomatch!.digest} vs ${result.ours!.digest})`);
    ours.push(result.ours!.ms);
    theirs.push(result.picomatch!.ms);
    for (const side of ['ours', 'picomatch'] as const) {
      phases[side].load.push(result[side]!.phases.load);
      phases[side].compile.push(result[side]!.phases.compile);
      phases[side].match.push(result[side]!.phases.match);
    }
  }
  const phaseText = (side: 'ours' | 'picomatch'): string =>
    `load ${median(phases[side].load).toFixed(2)}, compile ${median(phases[side].compile).toFixed(2)}, match ${median(phases[side].match).toFixed(2)} ms`;
  const oursMs = median(ours);
  const row: Row = {
    group: coldGroup(runs),
    ours: 'dsh-context-engine/engine',
    oursNs: oursMs * 1e6,
    baseline: 'picomatch',
    baselineNs: median(theirs) * 1e6,
    ratio: median(ours.map((o, i) => theirs[i]! / o)),
  };
  const verdict = oursMs <= COLD_TARGET_MS ? 'met' : '**not met**';
  const note = `- glob cold start: ours ${oursMs.toFixed(2)} ms (target ≤ ${COLD_TARGET_MS} ms ${verdict}), picomatch ${median(theirs).toFixed(2)} ms; ` +
    `medians by phase: ours ${phaseText('ours')}; picomatch ${phaseText('picomatch')}; ` +
    `ours per process: ${ours.map((v) => v.toFixed(1)).join(', ')} ms`;
  return { row, note };
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
  const fullRuns = 3;
  const coldRuns = options.quick ? 7 : 15;
  if (options.include(fullListGroup(fullRuns))) rows.push(fullList(fullRuns));
  if (options.include(coldGroup(coldRuns))) {
    const cold = coldStart(coldRuns);
    rows.push(cold.row);
    notes.push(cold.note);
  }
  for (const r of [...timed, ...rows]) {
    const pairs = pairsPerCall.get(r.group);
    if (pairs !== undefined) notes.push(`- ${r.group}: per (path, pattern) pair ${r.baseline} ${formatPair(r.baselineNs / pairs)}, ours ${formatPair(r.oursNs / pairs)}`);
  }
  return { rows, notes };
}
