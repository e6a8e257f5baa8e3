// `dsh-context bench`: what DSH reads in a real repository, phase by phase, through the WASM engine
// and through the plain-JavaScript path DSH itself takes (node:crypto, Buffer, picomatch), in the same
// process, on the same inputs, with the answers compared before anything is timed.
//
// The workload (bench-workload.ts) is found with the plugins' own code. Phases: read+digest reads every
// instruction file with a bounded read and its two SHA-1s; compose builds the instruction baseline of
// a session started in each directory that holds files, under the byte budget; glob matches every
// file path against every rule glob. The whole run does all of it, listing and discovery included,
// end to end through one path, and is timed as such. Every figure is a median of per-round samples,
// with its range; the ratio is the ratio of the medians shown.

import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import type { HomeEnvironment } from '../host/index.js';
import { displayDirectory } from '../plugins/workspace-context/files.js';
import { composeAll, composeAnswer, matchAll, readAll, readAnswer, type BenchPath } from './bench-paths.js';
import { compareReports, readPrevious, renderBench, type Comparison } from './bench-report.js';
import { phaseFigures, type PhaseFigures } from './bench-stats.js';
import { baselineChains, discover, unreadFiles, type Skipped, type Workload, type WorkloadOptions } from './bench-workload.js';
import { progress, type Progress } from './progress.js';

export { bufferBudget, readWithNodeCrypto } from './bench-paths.js';

/** The version of the `--json` report's shape; `--compare` reads only reports of this version. */
export const BENCH_SCHEMA_VERSION = 2;

export interface BenchCommandOptions {
  readonly maxBytes: number;
  readonly rounds: number;
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
    readonly rounds: number;
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
  readonly whole: PhaseFigures;
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

async function time(work: () => unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
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
  // Bars appear once there is something to count: a walk reports every 1,000 files (git answers at once).
  const bars: { list?: Progress; probe?: Progress } = {};
  const workloadOptions: WorkloadOptions = {
    dir: workspace.dir, cwd: workspace.cwd, environment, maxBytes: options.maxBytes, globs: options.glob ?? [], exclude: options.exclude ?? [],
    ...(options.rulesFrom !== undefined ? { rulesFrom: { path: resolve(environment.processCwd, options.rulesFrom), shown: options.rulesFrom } } : {}),
  };
  const workload = await discover({
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

  // The answers must agree before anything is timed.
  const maxSourceBytes = workload.layout.config.maxSourceBytes;
  const outcomes = await readAll('wasm', workload.fs, workload.instructions, maxSourceBytes);
  const chains = baselineChains(workload.sessions, outcomes);
  const checks: [string, () => Promise<string> | string][] = [
    ['read+digest', async () => readAnswer(await readAll('js', workload.fs, workload.instructions, maxSourceBytes))],
    ['compose', () => composeAnswer('js', chains, options.maxBytes)],
    ['glob', () => JSON.stringify(matchAll('js', workload.paths, workload.globs))],
  ];
  const ours = [readAnswer(outcomes), composeAnswer('wasm', chains, options.maxBytes), JSON.stringify(matchAll('wasm', workload.paths, workload.globs))];
  for (const [i, [phase, theirs]] of checks.entries()) {
    if (ours[i] !== (await theirs())) throw new Error(`bench: the ${phase} phase gives different answers through the engine and through JavaScript; this is a bug, please report it`);
  }

  const phases = [
    { phase: 'read+digest', items: workload.instructions.length, unit: 'file', run: (p: BenchPath) => readAll(p, workload.fs, workload.instructions, maxSourceBytes) },
    { phase: 'compose', items: chains.length, unit: 'baseline', run: (p: BenchPath) => composeAll(p, chains, options.maxBytes) },
    { phase: 'glob', items: workload.paths.length * workload.globs.length, unit: 'path × glob pair', run: (p: BenchPath) => matchAll(p, workload.paths, workload.globs) },
  ];
  const whole = { phase: 'whole run', items: workload.listing.files.length, unit: 'file', run: (p: BenchPath) => wholeRun(p, workloadOptions) };
  const measured = [...phases.filter((p) => p.items > 0), whole];
  const bar = progress(options.rounds * measured.length, 'timing', show);
  const samples = new Map<string, { js: number[]; wasm: number[] }>();
  let done = 0;
  for (const p of measured) {
    const s = { js: [] as number[], wasm: [] as number[] };
    samples.set(p.phase, s);
    bar.update(done, p.phase);
    for (let round = 0; round < options.rounds; round++) {
      // Alternate the order so that neither path always runs on a warmer machine.
      for (const path of round % 2 === 0 ? (['wasm', 'js'] as const) : (['js', 'wasm'] as const)) s[path].push(await time(() => p.run(path)));
      bar.update(++done);
    }
  }
  bar.stop();
  const figures = (p: { phase: string; items: number; unit: string }) => phaseFigures(p.phase, p.items, p.unit, samples.get(p.phase)?.js ?? [], samples.get(p.phase)?.wasm ?? []);

  const report: BenchReport = {
    schemaVersion: BENCH_SCHEMA_VERSION, date, machine: machine(), node: process.version, v8: process.versions.v8,
    options: { rounds: options.rounds, maxBytes: options.maxBytes, rulesFrom: options.rulesFrom ?? null, globs: options.glob ?? [], exclude: options.exclude ?? [] },
    directory: workspace.dir, cwd: displayDirectory(workspace.dir, workspace.cwd), projectRoot: displayDirectory(workspace.dir, workload.root),
    projectRootMarker: workload.marker ?? null,
    files: { source: workload.listing.source, listed: workload.listing.files.length, excluded: workload.listing.excluded },
    candidatesProbed: workload.probes,
    instructionFiles: workload.instructions.map((i) => ({ path: i.path, reach: i.reach })),
    ruleFiles: workload.ruleFiles, globs: workload.globs.length, baselines: chains.length,
    skipped: [...workload.skipped, ...unreadFiles(outcomes, maxSourceBytes)],
    phases: phases.map(figures), whole: figures(whole), warnings: workload.warnings,
  };
  const final = previous === undefined ? report : { ...report, comparison: compareReports(previous, report) };
  print(options.json ? JSON.stringify(final, null, 2) : renderBench(final));
  return final;
}

/** Everything, end to end, through one path: list, discover, read, compose, match. */
async function wholeRun(path: BenchPath, options: WorkloadOptions): Promise<void> {
  const workload: Workload = await discover(options);
  const outcomes = await readAll(path, workload.fs, workload.instructions, workload.layout.config.maxSourceBytes);
  composeAll(path, baselineChains(workload.sessions, outcomes), options.maxBytes);
  matchAll(path, workload.paths, workload.globs);
}
