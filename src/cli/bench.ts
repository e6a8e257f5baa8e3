// `dsh-context bench`: what DSH reads in a real repository, phase by phase, through the WASM engine
// and through the plain-JavaScript path DSH itself takes (node:crypto, Buffer, picomatch), in the same
// process, on the same inputs, with the answers compared before anything is timed.
//
// The workload (bench-workload.ts) is found with the plugins' own code. Phases: read+digest reads every
// instruction file with a bounded read and its two SHA-1s; compose builds the instruction baseline of
// a session started in each directory that holds files, under the byte budget; glob matches every
// file path against every rule glob. The whole run does all of it, listing and discovery included,
// end to end through one path, and is timed as such (and step by step, to show where its time goes).
// A sample repeats a phase until it lasts --sample-ms (a phase of a small repository takes well under
// a millisecond, inside the timer's and the scheduler's noise); each round times both paths back to
// back, each sample after a collection off the clock (a scavenge, or a full collection once garbage
// piles up). The rounds run in --processes fresh processes (bench-child.ts), because a process's JIT,
// heap and memory layout move a ratio by a few percent for its whole life; a process's ratio is the
// median of its rounds', and the phase's ratio the median of the processes' with a 95% interval over
// them (bench-stats.ts, pooledFigures).

import { fork } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { HomeEnvironment } from '../host/index.js';
import { displayDirectory } from '../plugins/workspace-context/files.js';
import type { RenderItem } from '../plugins/workspace-context/render.js';
import { composeAgrees, composeAll, matchAll, matchDigest, readAll, readAnswer, type BenchPath, type ReadOutcome } from './bench-paths.js';
import { compareReports, readPrevious, renderBench, type Comparison } from './bench-report.js';
import { median, phaseFigures, pooledFigures, runsFor, type PhaseFigures } from './bench-stats.js';
import { baselineChains, discover, unreadFiles, type Skipped, type Workload, type WorkloadOptions } from './bench-workload.js';
import { CliError } from './env.js';
import { progress, type Progress } from './progress.js';

export { bufferBudget, readWithNodeCrypto } from './bench-paths.js';

/** The version of the `--json` report's shape; `--compare` reads only reports of this version. */
export const BENCH_SCHEMA_VERSION = 4;
/** The most runs one sample may take (a phase of a few microseconds). */
const MAX_RUNS_PER_SAMPLE = 20_000;
/** The fewest and the most untimed stretches of --sample-ms a path warms up for, in a phase of short runs. */
const MIN_WARM_UPS = 2;
const MAX_WARM_UPS = 6;
/** A path is warm when a stretch's mean run is no less than this share of its fastest before (it fell by under 5%). */
const WARM_ENOUGH = 0.95;

export interface BenchCommandOptions {
  readonly maxBytes: number;
  /** Timed rounds in each process. */
  readonly rounds: number;
  /**
   * Fresh processes the rounds run in, one after another (1: all in this one). Each process has its
   * own JIT, heap and memory layout, which stay put for its life and move a phase's ratio by a few
   * percent from one process to the next; the interval is taken over the processes, so that it
   * holds what a rerun shows. Default 1 here, DEFAULT_BENCH_PROCESSES on the command line.
   */
  readonly processes?: number;
  /** The shortest sample (ms); 0 times one run per sample. */
  readonly sampleMs: number;
  readonly json?: boolean;
  /** A rule directory to bring (as a user rule directory is read). */
  readonly rulesFrom?: string;
  /** Extra globs for the glob phase. */
  readonly glob?: readonly string[];
  /** Globs of listed files to leave out. */
  readonly exclude?: readonly string[];
  /** A previous `--json` report to compare with. */
  readonly compare?: string;
}

/** The machine a report was measured on. */
export interface Machine {
  readonly platform: string;
  readonly arch: string;
  readonly cpu: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly freeMemoryBytes: number;
  /** 1, 5 and 15 minute load averages when the run started (other work on the machine shows here). */
  readonly loadAverage: readonly number[];
}

export interface BenchReport {
  readonly schemaVersion: typeof BENCH_SCHEMA_VERSION;
  /** When the run started (ISO 8601). */
  readonly date: string;
  readonly machine: Machine;
  readonly node: string;
  readonly v8: string;
  readonly options: {
    /** Rounds in each process. */
    readonly rounds: number;
    /** Processes the rounds ran in; the interval is over their ratios when there are several. */
    readonly processes: number;
    readonly sampleMs: number;
    readonly maxBytes: number;
    readonly rulesFrom: string | null;
    readonly globs: readonly string[];
    readonly exclude: readonly string[];
  };
  readonly directory: string;
  /** The session cwd and the project root, relative to the directory. */
  readonly cwd: string;
  readonly projectRoot: string;
  /** The marker found at the root, or `null` when the cwd became the root. */
  readonly projectRootMarker: string | null;
  readonly files: { readonly source: 'git' | 'walk'; readonly listed: number; readonly excluded: number };
  /** Instruction candidates probed: every name on the baseline chain, the listed ones below the cwd. */
  readonly candidatesProbed: number;
  readonly instructionFiles: readonly { readonly path: string; readonly reach: 'baseline' | 'touch' }[];
  readonly ruleFiles: number;
  readonly globs: number;
  /** Baselines composed (sessions whose chain holds at least one file). */
  readonly baselines: number;
  readonly skipped: readonly Skipped[];
  /** read+digest, compose, glob. */
  readonly phases: readonly PhaseFigures[];
  readonly whole: PhaseFigures & { readonly steps: WholeRunSteps };
  readonly warnings: readonly string[];
  readonly comparison?: Comparison;
}

/**
 * The machine this process runs on.
 * @returns platform, CPU, cores, memory and load
 */
export function machine(): Machine {
  const cpu = cpus();
  return {
    platform: process.platform, arch: process.arch, cpu: cpu[0]?.model.trim() ?? 'unknown', cores: cpu.length,
    memoryBytes: totalmem(), freeMemoryBytes: freemem(), loadAverage: loadavg().map((n) => Math.round(n * 100) / 100),
  };
}

/** A phase the bench times: its work through either path, and what to check on its first round's two results. */
interface Phase {
  readonly phase: string;
  /** Work items in one run (a phase with none is not timed). */
  readonly items: () => number;
  readonly unit: string;
  readonly run: (path: BenchPath) => unknown;
  /** What of a result the first round keeps for the check (the result itself when absent). */
  readonly digest?: (result: unknown) => unknown;
  /** Throws when the two paths' results (or digests) differ; may keep what later phases need. */
  readonly first?: (wasm: unknown, js: unknown) => void | Promise<void>;
}

/**
 * A collection off the clock before every sample, so that neither path pays for the other's garbage:
 * a scavenge (the young generation, where short runs leave their garbage), or a full collection
 * once the heap holds GARBAGE_BYTES more than after the last full one, so that on a large tree the
 * heap does not grow with earlier runs' garbage (V8 lets it pile up: on 200,000 files the heap
 * reached 385 MB, under 80 MB of it alive, and the process 494 MiB). Not a full collection every
 * time: the sample after one ran 20–40% slower (read+digest on a real-shaped repository, every
 * other sample; 15–20% on the 100,000-file monorepo's), and not evenly for both paths
 * (bench/README.md, "The quiet host, and collections and the order of paths"). `undefined` where V8
 * refuses the flag. Set when the command runs, not on import (the benches import this module's
 * baselines).
 */
let collect: (() => void) | undefined;
/** Garbage beyond the live heap that makes the next collection a full one. */
const GARBAGE_BYTES = 128 * 1024 * 1024;

function exposeCollector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    if (typeof gc !== 'function') return undefined;
    let live = 0;
    return () => {
      if (process.memoryUsage().heapUsed - live > GARBAGE_BYTES) {
        (gc as () => void)();
        live = process.memoryUsage().heapUsed;
      } else {
        // `{ type: 'minor' }` asks V8 for a scavenge (Node 20's V8 11.3 honours it: bench/README.md).
        (gc as (options: { type: string }) => void)({ type: 'minor' });
      }
    };
  } catch {
    return undefined;
  }
}

/** One run of `work`, timed, with its result (or its digest, taken after the clock stops). */
async function timed(work: () => unknown, digest?: (result: unknown) => unknown): Promise<{ ms: number; result: unknown }> {
  collect?.();
  const start = performance.now();
  const result = await work();
  const ms = performance.now() - start;
  return { ms, result: digest === undefined ? result : digest(result) };
}

/** The mean time of one of `runs` runs of `work`, in ms. */
async function time(work: () => unknown, runs: number): Promise<number> {
  collect?.();
  const start = performance.now();
  for (let i = 0; i < runs; i++) await work();
  return (performance.now() - start) / runs;
}

/** Runs `work` until `ms` have passed (once at least) and returns its mean time per run, in ms. */
async function warmUp(work: () => unknown, ms: number): Promise<number> {
  collect?.();
  const start = performance.now();
  let runs = 0;
  let now = start;
  do {
    await work();
    runs++;
    now = performance.now();
  } while (now - start < ms);
  return (now - start) / runs;
}

/**
 * Warms both paths up, taking turns in `order`: each runs stretches (`stretch` gives a stretch's mean
 * run) until its mean run stops falling: from its MIN_WARM_UPS-th stretch on, one that is no faster
 * than WARM_ENOUGH of its fastest so far ends its warm-up; MAX_WARM_UPS stretches end it anyway.
 * @param order which path takes its turn first
 * @param stretch runs one untimed stretch of a path and gives its mean run, in ms
 * @returns each path's fastest mean run, in ms
 */
export async function warmPaths(order: readonly BenchPath[], stretch: (path: BenchPath) => Promise<number>): Promise<Record<BenchPath, number>> {
  const fastest = { wasm: Infinity, js: Infinity };
  const settled = { wasm: false, js: false };
  for (let turn = 0; turn < MAX_WARM_UPS && !(settled.wasm && settled.js); turn++) {
    for (const path of order) {
      if (settled[path]) continue;
      const mean = await stretch(path);
      settled[path] = turn + 1 >= MIN_WARM_UPS && mean >= fastest[path] * WARM_ENOUGH;
      fastest[path] = Math.min(fastest[path], mean);
    }
  }
  return fastest;
}

/** Where a whole run's time goes, per path: the median over rounds of each step, in ms. */
export interface WholeRunSteps {
  readonly js: StepTimes;
  readonly wasm: StepTimes;
}

/** One whole run's steps, in ms: the listing (git or the walk), the rest of discovery (root, probes, rules), then the phases. */
export interface StepTimes {
  readonly list: number;
  readonly discover: number;
  readonly read: number;
  readonly compose: number;
  readonly glob: number;
}

/**
 * Runs the bench and prints the report (text, or JSON with `json`).
 * @param workspace the directory to list and the session cwd in it (absolute)
 * @param options the command's options
 * @param environment the process facts the plugins resolve homes against
 * @param print where the report goes
 * @returns the report
 */
export async function benchCommand(
  workspace: { readonly dir: string; readonly cwd: string }, options: BenchCommandOptions, environment: HomeEnvironment, print: (text: string) => void,
): Promise<BenchReport> {
  const date = new Date().toISOString();
  const previous = options.compare === undefined ? undefined : readPrevious(resolve(environment.processCwd, options.compare));
  const show = options.json !== true;
  const processes = options.processes ?? 1;
  const report = processes <= 1
    ? await measure(workspace, options, environment, { show, date, firstRound: 0 })
    : await inProcesses(workspace, options, environment, { show, date, processes });
  const final = previous === undefined ? report : { ...report, comparison: compareReports(previous, report) };
  print(options.json ? JSON.stringify(final, null, 2) : renderBench(final));
  return final;
}

/** How one process measures: whether bars show, the report's date, which round it starts at (for the order's alternation), and where a finished round is told. */
export interface MeasureSettings {
  readonly show: boolean;
  readonly date: string;
  /**
   * Which path this process's first round times first: WASM when even; round r then times WASM first
   * when `firstRound + r` is even. Processes of several get their index, so that every other process
   * starts with JavaScript (with an even number of rounds each, they would all start with WASM).
   */
  readonly firstRound: number;
  /**
   * True in a process of several (inProcesses): a long phase's pilot, its first and cold run, is not
   * kept as the first round. A single process keeps it, so that a long whole run (a million files)
   * runs no more often than the rounds ask for.
   */
  readonly fresh?: boolean;
  /** Called after every timed round of every phase with the rounds done so far (a child process tells its parent). */
  readonly onRound?: (done: number) => void;
}

/** Phases (read+digest, compose, glob, and the whole run) a process times, for the bar's total. */
const TIMED_PHASES = 4;

/**
 * Every phase, timed in this process: discovery, the answers' check, `options.rounds` rounds.
 * @param workspace the directory and the session cwd (absolute)
 * @param options the command's options
 * @param environment the process facts
 * @param settings bars, date, the first round's index
 * @returns the report of this process's rounds (no comparison)
 */
export async function measure(
  workspace: { readonly dir: string; readonly cwd: string }, options: BenchCommandOptions, environment: HomeEnvironment, settings: MeasureSettings,
): Promise<BenchReport> {
  collect ??= exposeCollector();
  const { show, date } = settings;
  // Bars appear once there is something to count: a walk reports every 1,000 files (git answers at once).
  const bars: { list?: Progress; probe?: Progress } = {};
  const workloadOptions: WorkloadOptions = {
    dir: workspace.dir, cwd: workspace.cwd, environment, maxBytes: options.maxBytes, globs: options.glob ?? [], exclude: options.exclude ?? [],
    ...(options.rulesFrom !== undefined ? { rulesFrom: { path: resolve(environment.processCwd, options.rulesFrom), shown: options.rulesFrom } } : {}),
  };
  let workload: Workload | undefined = await discover({
    ...workloadOptions,
    progress(step, done, total) {
      if (step === 'list') {
        bars.list ??= progress(undefined, 'listing', show);
        return bars.list.update(done);
      }
      bars.list?.stop();
      bars.probe ??= progress(total, 'probing instruction files', show);
      bars.probe.update(done);
    },
  });
  bars.list?.stop();
  bars.probe?.stop();
  // What the report says about the workload, and each phase's count, taken now: the whole runs
  // discover their own workload, and this one (a million paths, their sessions, the baselines) is let
  // go before them, or on a million files two workloads would be alive at once.
  const about = aboutWorkload(workload);
  const paths = workload.paths.length;

  // The answers must agree: each phase's first round keeps both paths' results and compares them
  // before any figure is kept (a million files would make a separate check cost as much as a round).
  const maxSourceBytes = workload.layout.config.maxSourceBytes;
  let chains: RenderItem[][] = [];
  let baselines = 0;
  let unread: Skipped[] = [];
  const disagree = (phase: string) => new Error(`bench: the ${phase} phase gives different answers through the engine and through JavaScript; this is a bug, please report it`);
  const phases: Phase[] = [
    {
      phase: 'read+digest', items: () => about.instructionFiles.length, unit: 'file',
      run: (p) => readAll(p, workload!.fs, workload!.instructions, maxSourceBytes),
      first(wasm, js) {
        if (readAnswer(wasm as ReadOutcome[]) !== readAnswer(js as ReadOutcome[])) throw disagree('read+digest');
        const outcomes = wasm as ReadOutcome[];
        unread = unreadFiles(outcomes, maxSourceBytes);
        chains = baselineChains(workload!.sessions, outcomes);
        baselines = chains.length;
        // One pass that asks both budgets every question composing asks: equal answers make equal baselines.
        if (!composeAgrees(chains, options.maxBytes)) throw disagree('compose');
      },
    },
    { phase: 'compose', items: () => baselines, unit: 'baseline', run: (p) => composeAll(p, chains, options.maxBytes) },
    {
      phase: 'glob', items: () => paths * about.globs, unit: 'path × glob pair',
      run: (p) => matchAll(p, workload!.paths, workload!.globs),
      digest: (result) => matchDigest(result as number[][]),
      first(wasm, js) {
        if (wasm !== js) throw disagree('glob');
      },
    },
  ];
  // A first read on each path, untimed: node:crypto loads on the first digest.
  await readAll('wasm', workload.fs, workload.instructions.slice(0, 1), maxSourceBytes);
  await readAll('js', workload.fs, workload.instructions.slice(0, 1), maxSourceBytes);
  const steps: Record<BenchPath, StepTimes[]> = { js: [], wasm: [] };
  const whole: Phase = { phase: 'whole run', items: () => about.files.listed, unit: 'file', run: async (p) => steps[p].push(await wholeRun(p, workloadOptions)) };
  // Rounds for the bar: a phase with nothing to measure is skipped (compose's count is known after read).
  const bar = progress(options.rounds * (phases.length + 1), 'timing', show);
  const tick = (n: number) => {
    bar.update(n);
    settings.onRound?.(n);
  };
  const samples = new Map<string, { js: number[]; wasm: number[]; runs: number }>();
  let done = 0;
  for (const p of [...phases, whole]) {
    bar.update(done, p.phase);
    if (p === whole) {
      // The whole runs discover their own workload: this one and the baselines go now.
      workload = undefined;
      chains = [];
    }
    if (p.items() === 0) {
      done += options.rounds;
      tick(done);
      continue;
    }
    const s = { js: [] as number[], wasm: [] as number[], runs: 1 };
    samples.set(p.phase, s);
    // The first round times one run of each path and checks their answers. When the faster one is
    // shorter than --sample-ms it was a pilot only, and sets the runs per sample; a phase that is
    // long enough keeps it as its first round in a single process (a large repository's whole run
    // is never run more often than the rounds ask for), not in one of several (`fresh`). It runs in
    // the order of this process's first round.
    const jsFirst = settings.firstRound % 2 === 1;
    const early = jsFirst ? await timed(() => p.run('js'), p.digest) : undefined;
    const wasm = await timed(() => p.run('wasm'), p.digest);
    const js = early ?? (await timed(() => p.run('js'), p.digest));
    await p.first?.(wasm.result, js.result);
    s.wasm.push(wasm.ms);
    s.js.push(js.ms);
    const pilot = Math.min(wasm.ms, js.ms);
    if (p !== whole && pilot < options.sampleMs) {
      // A pilot in a fresh process is cold: its one run includes the JIT's compiling, so it would
      // make samples too short, and the first timed samples would still be warming up (in each of
      // the first two rounds the path that ran first measured 1.3–3× slower). Each path first runs
      // for --sample-ms at a time, untimed, until its mean run stops falling (warmPaths; WASM's glob
      // code was still being optimized after one such stretch: its first timed sample 1.5× the later
      // ones); the fastest mean run sets the runs per sample.
      const warm = await warmPaths(jsFirst ? ['js', 'wasm'] : ['wasm', 'js'], (path) => warmUp(() => p.run(path), options.sampleMs));
      s.runs = runsFor(Math.min(warm.wasm, warm.js), options.sampleMs, MAX_RUNS_PER_SAMPLE);
      s.js.length = 0;
      s.wasm.length = 0;
    } else if (settings.fresh === true) {
      // One of several processes: its pilot is its first, cold run of each path (on the monorepo the
      // WASM glob pilot took 104–146 ms against 72–95 in the round after), half of a process's data
      // with two rounds; it warmed the phase up and is not kept.
      s.js.length = 0;
      s.wasm.length = 0;
    } else {
      tick(++done);
    }
    for (let round = s.js.length; round < options.rounds; round++) {
      // Alternate the order so that neither path always runs on a warmer machine.
      for (const path of (settings.firstRound + round) % 2 === 0 ? (['wasm', 'js'] as const) : (['js', 'wasm'] as const)) s[path].push(await time(() => p.run(path), s.runs));
      tick(++done);
    }
  }
  bar.stop();
  const figures = (p: Phase) => {
    const s = samples.get(p.phase);
    return phaseFigures(p.phase, p.items(), p.unit, s?.runs ?? 0, s?.js ?? [], s?.wasm ?? []);
  };

  const report: BenchReport = {
    schemaVersion: BENCH_SCHEMA_VERSION, date, machine: machine(), node: process.version, v8: process.versions.v8,
    options: { rounds: options.rounds, processes: 1, sampleMs: options.sampleMs, maxBytes: options.maxBytes, rulesFrom: options.rulesFrom ?? null, globs: options.glob ?? [], exclude: options.exclude ?? [] },
    directory: workspace.dir, cwd: displayDirectory(workspace.dir, workspace.cwd), projectRoot: displayDirectory(workspace.dir, about.root),
    projectRootMarker: about.marker ?? null, files: about.files, candidatesProbed: about.candidatesProbed, instructionFiles: about.instructionFiles,
    ruleFiles: about.ruleFiles, globs: about.globs, baselines, skipped: [...about.skipped, ...unread], warnings: about.warnings,
    phases: phases.map(figures), whole: { ...figures(whole), steps: { js: medianSteps(steps.js), wasm: medianSteps(steps.wasm) } },
  };
  return report;
}

/** What a child process of `inProcesses` is sent: what `measure` takes. */
export interface ChildRequest {
  readonly workspace: { readonly dir: string; readonly cwd: string };
  readonly options: BenchCommandOptions;
  readonly environment: HomeEnvironment;
  readonly date: string;
  readonly firstRound: number;
}

/** What a child process sends back: rounds done, then its report or its error. */
export type ChildMessage =
  | { readonly kind: 'round'; readonly done: number }
  | { readonly kind: 'report'; readonly report: BenchReport }
  | { readonly kind: 'error'; readonly message: string; readonly hint?: string; readonly cli: boolean };

/** The module a child process runs (lib/cli/bench-child.js beside this one). */
const CHILD = fileURLToPath(new URL('./bench-child.js', import.meta.url));

/** Runs `measure` in a fresh Node process and resolves to its report; its failure is this one's. */
function measureInChild(request: ChildRequest, onRound: (done: number) => void): Promise<BenchReport> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(CHILD, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'advanced' });
    let stderr = '';
    let outcome: BenchReport | Error | undefined;
    child.stderr!.setEncoding('utf8').on('data', (text: string) => void (stderr = (stderr + text).slice(-4096)));
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'round') onRound(message.done);
      else if (message.kind === 'report') outcome = message.report;
      else outcome = message.cli ? new CliError(message.message, message.hint) : new Error(message.message);
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (outcome instanceof Error) reject(outcome);
      else if (outcome !== undefined && code === 0) resolvePromise(outcome);
      else reject(new Error(`bench: a measuring process ended with ${signal ?? `code ${code}`} before its report${stderr === '' ? '' : `: ${stderr.trim()}`}`));
    });
    child.send(request);
  });
}

/**
 * `measure` in `processes` fresh processes, one after another, each with `options.rounds` rounds
 * (the order of the paths alternating across all of them), and one report of them all: a phase's
 * ratio is the median of the processes' own ratios, its interval taken over them (pooledFigures).
 * The workloads must be the same in every process (the tree did not change meanwhile).
 */
async function inProcesses(
  workspace: { readonly dir: string; readonly cwd: string }, options: BenchCommandOptions, environment: HomeEnvironment,
  settings: { readonly show: boolean; readonly date: string; readonly processes: number },
): Promise<BenchReport> {
  const started = machine();
  const perProcess = options.rounds * TIMED_PHASES;
  const bar = progress(settings.processes * perProcess, `timing in ${settings.processes} processes`, settings.show);
  const childOptions: BenchCommandOptions = {
    maxBytes: options.maxBytes, rounds: options.rounds, sampleMs: options.sampleMs, processes: 1, glob: options.glob ?? [], exclude: options.exclude ?? [],
    ...(options.rulesFrom !== undefined ? { rulesFrom: options.rulesFrom } : {}),
  };
  const reports: BenchReport[] = [];
  try {
    for (let i = 0; i < settings.processes; i++) {
      const request: ChildRequest = { workspace, options: childOptions, environment: { ...environment, env: { ...environment.env } }, date: settings.date, firstRound: i };
      reports.push(await measureInChild(request, (done) => bar.update(i * perProcess + done)));
    }
  } finally {
    bar.stop();
  }
  const first = reports[0]!;
  const facts = (r: BenchReport) => JSON.stringify([r.files, r.instructionFiles, r.ruleFiles, r.globs, r.baselines, r.candidatesProbed]);
  if (reports.some((r) => facts(r) !== facts(first))) {
    throw new CliError('bench: the workload changed between the measuring processes (files, instruction files, rules or baselines differ)', 'rerun on a tree nothing writes to meanwhile');
  }
  const steps = (path: BenchPath): StepTimes => medianSteps(reports.map((r) => r.whole.steps[path]));
  return {
    ...first, machine: started,
    options: { ...first.options, processes: settings.processes },
    phases: first.phases.map((_, j) => pooledFigures(reports.map((r) => r.phases[j]!))),
    whole: { ...pooledFigures(reports.map((r) => r.whole)), steps: { js: steps('js'), wasm: steps('wasm') } },
  };
}

/** Everything, end to end, through one path: list, discover, read, compose, match; each step timed. */
async function wholeRun(path: BenchPath, options: WorkloadOptions): Promise<StepTimes> {
  const start = performance.now();
  let listed = start;
  const workload: Workload = await discover({ ...options, listed: () => (listed = performance.now()) });
  const discovered = performance.now();
  const outcomes = await readAll(path, workload.fs, workload.instructions, workload.layout.config.maxSourceBytes);
  const read = performance.now();
  composeAll(path, baselineChains(workload.sessions, outcomes), options.maxBytes);
  const composed = performance.now();
  matchAll(path, workload.paths, workload.globs);
  const end = performance.now();
  return { list: listed - start, discover: discovered - listed, read: read - discovered, compose: composed - read, glob: end - composed };
}

/** What the report says about a workload: counts and names, none of its paths. */
function aboutWorkload(workload: Workload) {
  return {
    root: workload.root, marker: workload.marker,
    files: { source: workload.listing.source, listed: workload.listing.files.length, excluded: workload.listing.excluded },
    candidatesProbed: workload.probes, instructionFiles: workload.instructions.map((i) => ({ path: i.path, reach: i.reach })),
    ruleFiles: workload.ruleFiles, globs: workload.globs.length, skipped: workload.skipped, warnings: workload.warnings,
  } as const;
}

function medianSteps(runs: readonly StepTimes[]): StepTimes {
  const of = (key: keyof StepTimes) => median(runs.map((r) => r[key]));
  return { list: of('list'), discover: of('discover'), read: of('read'), compose: of('compose'), glob: of('glob') };
}
