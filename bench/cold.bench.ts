// Cold starts, each in a fresh process: the glob cold start (import + compile the 50 rule patterns +
// match 1,000 paths, cold-start.ts) and the first token count (import + first count of 64 KiB,
// tokens-cold.ts), each side by side with its baseline. The glob cold start runs under this process's
// Node, and again under the Node 22 that the real-DSH tests install into .test-tools when it is there
// (DSH itself needs Node ≥ 22.19, so that is where the plugins start).
//
// run.ts times these first, before it loads any suite. A parent that has loaded the suites (the
// reference tokenizer alone is a 6.5 MB module) and built their inputs makes its children slower on
// a two-core machine, and not only while it works: measured 2026-12-02 (medians of 15 processes, three
// runs each), the same glob cold start from a parent that had built 100,000 paths and a compiled set
// took 9.74–11.13 ms, from an idle parent 7.34–8.54 ms, and from the busy parent run with
// `--single-threaded` 8.84 ms (one run).
// Both sides of a comparison get the same parent. The note also gives a host check: a fixed
// JavaScript loop, timed before and after, which says how busy the machine was.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { median, type Row } from './harness.js';
import { RULE_PATTERNS } from './glob-inputs.js';

/** Runs `script` (a file next to this one) in a fresh process of `node` and parses its JSON output. */
function fresh<T>(script: string, args: readonly string[], node = process.execPath): T {
  const file = fileURLToPath(new URL(script, import.meta.url));
  return JSON.parse(execFileSync(node, [file, ...args], { encoding: 'utf8' })) as T;
}

/** The Node 22 the real-DSH tests install into .test-tools (DSH needs Node ≥ 22.19), if it is there. */
function dshNode(): { path: string; version: string } | undefined {
  const path = fileURLToPath(new URL(`../../.test-tools/real-dsh/node_modules/node-${process.platform}-${process.arch}/bin/node`, import.meta.url));
  if (!existsSync(path)) return undefined;
  return { path, version: execFileSync(path, ['-p', 'process.version'], { encoding: 'utf8' }).trim() };
}

/** Where hostCheck() leaves its loop's result, so that the loop is not optimized away. */
let hostCheckSink = 0;

/** A fixed JavaScript loop (2e7 additions), median of 7 timings in ms: how fast the host runs now. */
function hostCheck(): number {
  const times: number[] = [];
  for (let round = 0; round < 7; round++) {
    const start = performance.now();
    let x = 0;
    for (let i = 0; i < 2e7; i++) x = (x + i * 7) | 0;
    times.push(performance.now() - start);
    hostCheckSink ^= x;
  }
  return median(times);
}

/** What a cold-start child prints: its total time and its phases, in ms. */
interface ColdRun {
  readonly ms: number;
  readonly phases: Readonly<Record<string, number>>;
}

/**
 * `runs` rounds of one fresh process per side (ours first in even rounds, the baseline first in odd
 * ones) running `script` with `args(side)`; `check` throws when a round's two answers differ.
 */
function alternate<R extends ColdRun>(
  runs: number, script: string, args: (side: 'ours' | 'baseline') => string[], check: (ours: R, baseline: R) => void, node?: string,
): { ours: R[]; baseline: R[] } {
  const results = { ours: [] as R[], baseline: [] as R[] };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? (['ours', 'baseline'] as const) : (['baseline', 'ours'] as const);
    for (const side of order) results[side].push(fresh<R>(script, args(side), node));
    check(results.ours.at(-1)!, results.baseline.at(-1)!);
  }
  return results;
}

/** The median of phase `key` over `runs`, for a note. */
const phase = (runs: readonly ColdRun[], key: string): string => median(runs.map((r) => r.phases[key]!)).toFixed(2);

/** A table row from the two sides' runs: medians of the totals, and the median of per-round ratios. */
function coldRow(group: string, ours: string, baseline: string, results: { ours: readonly ColdRun[]; baseline: readonly ColdRun[] }): Row {
  const oursMs = results.ours.map((r) => r.ms);
  const theirsMs = results.baseline.map((r) => r.ms);
  return {
    group,
    ours,
    oursNs: median(oursMs) * 1e6,
    baseline,
    baselineNs: median(theirsMs) * 1e6,
    ratio: median(oursMs.map((o, i) => theirsMs[i]! / o)),
  };
}

interface GlobColdRun extends ColdRun {
  readonly phases: { readonly load: number; readonly compile: number; readonly match: number };
  readonly digest: string;
}

const globGroup = (runs: number, node?: string): string =>
  `glob cold start${node === undefined ? '' : ` under Node ${node} (DSH's runtime)`}: fresh process, import + compile ${RULE_PATTERNS.length} patterns + match 1,000 paths (median of ${runs} processes)`;

const GLOB_TARGET_MS = 10;

/**
 * Glob cold start: `runs` fresh processes per side (under `node`, else this process's Node), each
 * timing import + compile 50 patterns + match 1,000 paths (cold-start.ts). Both sides must answer
 * alike.
 */
function globColdStart(runs: number, node?: { path: string; version: string }): { row: Row; note: string } {
  const results = alternate<GlobColdRun>(runs, './cold-start.js', (side) => [side === 'ours' ? 'ours' : 'picomatch'], (ours, picomatch) => {
    if (ours.digest !== picomatch.digest) throw new Error(`glob cold start: picomatch disagrees with ours (digest ${picomatch.digest} vs ${ours.digest})`);
  }, node?.path);
  const phaseText = (side: readonly ColdRun[]): string => `load ${phase(side, 'load')}, compile ${phase(side, 'compile')}, match ${phase(side, 'match')} ms`;
  const row = coldRow(globGroup(runs, node?.version), 'dsh-context-engine/engine', 'picomatch', results);
  const oursMs = row.oursNs / 1e6;
  const verdict = oursMs <= GLOB_TARGET_MS ? 'met' : '**not met**';
  const note = `- glob cold start${node === undefined ? '' : ` under Node ${node.version}`}: ours ${oursMs.toFixed(2)} ms (target ≤ ${GLOB_TARGET_MS} ms ${verdict}), picomatch ${(row.baselineNs / 1e6).toFixed(2)} ms; ` +
    `medians by phase: ours ${phaseText(results.ours)}; picomatch ${phaseText(results.baseline)}; ` +
    `ours per process: ${results.ours.map((r) => r.ms.toFixed(1)).join(', ')} ms`;
  return { row, note };
}

interface TokensColdRun extends ColdRun {
  readonly phases: { readonly load: number; readonly first: number; readonly second: number };
  readonly count: number;
}

const TOKENS_COLD_BYTES = 1 << 16;
const tokensGroup = (runs: number): string => `tokens cold start: fresh process, import + first count of 64 KiB (median of ${runs} processes)`;

/**
 * The first count in a fresh process, `runs` processes per side: import the library, build the
 * tokenizer (ours: read the 0.85 MB table and build its state; the reference: its 6.5 MB module and
 * its vocabulary), count 64 KiB, then count it again.
 */
function tokensColdStart(runs: number): { row: Row; note: string } {
  const results = alternate<TokensColdRun>(runs, './tokens-cold.js', (side) => [side === 'ours' ? 'ours' : 'reference', String(TOKENS_COLD_BYTES)], (ours, reference) => {
    if (ours.count !== reference.count) throw new Error('tokens cold start: the reference disagrees with ours');
  });
  const row = coldRow(tokensGroup(runs), 'countTokens', 'reference encode().length', results);
  const { ours, baseline: reference } = results;
  const note = `- tokens cold start (${ours[0]!.count} tokens): ours ${(row.oursNs / 1e6).toFixed(1)} ms = import ${phase(ours, 'load')} + first count ${phase(ours, 'first')} ms ` +
    `(the table read and the state built inside it; a second count takes ${phase(ours, 'second')} ms); ` +
    `reference ${(row.baselineNs / 1e6).toFixed(1)} ms = import and build ${phase(reference, 'load')} + first count ${phase(reference, 'first')} ms (second ${phase(reference, 'second')} ms)`;
  return { row, note };
}

/**
 * The cold-start rows `include` selects, and their notes, with the host check around them.
 * @param options `quick` runs fewer processes; `include` selects groups by name
 * @returns the rows and the notes to print under the table
 */
export function coldStarts(options: { quick: boolean; include: (group: string) => boolean }): { rows: Row[]; notes: string[] } {
  const globRuns = options.quick ? 7 : 31;
  const tokensRuns = options.quick ? 5 : 11;
  const rows: Row[] = [];
  const notes: string[] = [];
  const node22 = dshNode();
  const wanted = [
    options.include(globGroup(globRuns)),
    node22 !== undefined && options.include(globGroup(globRuns, node22.version)),
    options.include(tokensGroup(tokensRuns)),
  ];
  if (!wanted.includes(true)) return { rows, notes };
  const before = hostCheck();
  const groups = [() => globColdStart(globRuns), () => globColdStart(globRuns, node22), () => tokensColdStart(tokensRuns)];
  for (const [i, measure] of groups.entries()) {
    if (!wanted[i]) continue;
    const { row, note } = measure();
    rows.push(row);
    notes.push(note);
  }
  notes.push(`- cold starts, host check: a fixed loop of 2e7 additions took ${before.toFixed(2)} ms before them and ${hostCheck().toFixed(2)} ms after (the lower, the quieter the host)`);
  return { rows, notes };
}
