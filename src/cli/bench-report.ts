// The text form of a bench report, and `--compare`: a previous `--json` report read back and set
// beside this run, phase by phase.

import { readFileSync, statSync } from 'node:fs';
import type { BenchReport, StepTimes } from './bench.js';
import type { PhaseFigures, RatioInterval, Samples } from './bench-stats.js';
import { CliError } from './env.js';
import { count, formatBytes, table, visible, visibleLine } from './report.js';

/** The report version `--compare` reads (BENCH_SCHEMA_VERSION; a literal here, as bench.ts imports this file). */
const BENCH_SCHEMA = 4;

/** Largest previous report `--compare` reads. */
const MAX_PREVIOUS_BYTES = 64 * 1024 * 1024;

/** One phase then and now. */
export interface PhaseComparison {
  readonly phase: string;
  readonly ratio: { readonly before: number | null; readonly now: number | null };
  /** Whether each run's ratio lies inside the other's interval (`null` when either has none): if not, the runs disagree beyond their spread. */
  readonly agree: boolean | null;
  /** Change of each path's median, as a fraction (`-0.1`: 10% faster now); `null` when either run has none. */
  readonly jsChange: number | null;
  readonly wasmChange: number | null;
}

/** This run beside a previous report. */
export interface Comparison {
  readonly file: string;
  readonly date: string;
  readonly node: string;
  /** Differences in the workload that make the figures less comparable, in words. */
  readonly differences: readonly string[];
  readonly phases: readonly PhaseComparison[];
}

/** What `--compare` needs from a previous report. */
type Previous = Pick<BenchReport, 'schemaVersion' | 'date' | 'node' | 'files' | 'instructionFiles' | 'globs' | 'baselines' | 'directory'> & {
  readonly file: string;
  readonly phases: readonly PhaseFigures[];
  readonly whole: PhaseFigures;
};

/**
 * Reads a previous `--json` report for `--compare`, refusing what is not one of this version.
 * @param file the report's path
 * @returns the report
 */
export function readPrevious(file: string): Previous {
  const fail = (why: string) => new CliError(`--compare ${file}: ${why}`, 'pass a report written by `dsh-context bench --json` of this version');
  let text: string;
  try {
    const size = statSync(file).size;
    if (size > MAX_PREVIOUS_BYTES) throw fail(`it is ${size} bytes; the limit is ${MAX_PREVIOUS_BYTES}`);
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw fail((error as Error).message);
  }
  let value: Partial<BenchReport>;
  try {
    value = JSON.parse(text) as Partial<BenchReport>;
  } catch (error) {
    throw fail(`not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null) throw fail('not a JSON object');
  if (value.schemaVersion !== BENCH_SCHEMA) throw fail(`schemaVersion is ${JSON.stringify(value.schemaVersion ?? null)}; this bench reads ${BENCH_SCHEMA}`);
  if (!Array.isArray(value.phases) || typeof value.whole !== 'object' || value.whole === null) throw fail('it has no phases');
  return { ...(value as BenchReport), file };
}

/**
 * This run beside a previous one: per phase, the ratio then and now and how each path's median moved.
 * @param previous the previous report
 * @param now this run
 * @returns the comparison
 */
export function compareReports(previous: Previous, now: BenchReport): Comparison {
  const change = (before: Samples | undefined, after: Samples | undefined) => (before === undefined || after === undefined ? null : after.median / before.median - 1);
  const byName = new Map([...previous.phases, previous.whole].map((p) => [p.phase, p]));
  const differences: string[] = [];
  const differ = (what: string, before: number, after: number) => {
    if (before !== after) differences.push(`${what}: ${before.toLocaleString('en-US')} then, ${after.toLocaleString('en-US')} now`);
  };
  if (previous.directory !== now.directory) differences.push(`directory: ${previous.directory} then, ${now.directory} now`);
  differ('files', previous.files?.listed ?? 0, now.files.listed);
  differ('instruction files', previous.instructionFiles?.length ?? 0, now.instructionFiles.length);
  differ('globs', previous.globs ?? 0, now.globs);
  differ('baselines', previous.baselines ?? 0, now.baselines);
  return {
    file: previous.file, date: previous.date, node: previous.node, differences,
    phases: [...now.phases, now.whole].map((p) => {
      const before = byName.get(p.phase);
      const inside = (r: number | null | undefined, i: RatioInterval | null | undefined) => (r == null || i == null ? null : r >= i.low && r <= i.high);
      const a = inside(p.ratio, before?.interval);
      const b = inside(before?.ratio, p.interval);
      return {
        phase: p.phase, ratio: { before: before?.ratio ?? null, now: p.ratio }, agree: a === null || b === null ? null : a && b,
        jsChange: change(before?.js, p.js), wasmChange: change(before?.wasm, p.wasm),
      };
    }),
  };
}

/** The unit a time of `v` ms is shown in, and its scale. */
function unitOf(v: number): [number, string] {
  if (v >= 1000) return [1000, 's'];
  return v >= 1 ? [1, 'ms'] : [0.001, 'µs'];
}

/** `12.3 ms`, `1.20 s`, `850 µs`: three significant digits or so. */
function ms(v: number): string {
  const [scale, unit] = unitOf(v);
  const x = v / scale;
  return `${x.toFixed(x < 10 ? 2 : x < 100 ? 1 : 0)} ${unit}`;
}

/** `12.3 ms (11.9–13.0)`: the median and the range, all in the median's unit. */
function spread(s: Samples | undefined): string {
  if (s === undefined) return '';
  const [scale, unit] = unitOf(s.median);
  const m = s.median / scale;
  const digits = m < 10 ? 2 : m < 100 ? 1 : 0;
  const f = (v: number) => (v / scale).toFixed(digits);
  return `${f(s.median)} ${unit} (${f(s.min)}–${f(s.max)})`;
}
const ratio = (r: number | null): string => (r === null ? '–' : `${r.toFixed(2)}×`);
const percent = (f: number | null): string => (f === null ? '–' : `${f >= 0 ? '+' : '−'}${Math.abs(f * 100).toFixed(1)}%`);

/** The ratio as the reader should take it: a ratio with its interval, or that there is no telling the paths apart. */
function ratioText(p: PhaseFigures): string {
  const i = p.interval!;
  const range = `${i.low.toFixed(2)}–${i.high.toFixed(2)}×`;
  switch (p.verdict) {
    case 'within the spread': return `no difference beyond the spread (${range})`;
    case 'too few rounds': return `${ratio(p.ratio)} (${range}; too few rounds to tell)`;
    case 'JavaScript faster': return `${ratio(p.ratio)} (${range}): JavaScript faster`;
    default: return `${ratio(p.ratio)} (${range})`;
  }
}

/** Why a phase has no figures. */
function nothing(p: PhaseFigures): string {
  if (p.phase === 'glob') return 'no globs: nothing to measure (bring rules with --rules-from, or globs with --glob)';
  if (p.phase === 'read+digest') return 'no instruction files: nothing to measure';
  return 'no baselines: nothing to measure';
}

/**
 * The human form of a bench report (control characters in repository text escaped).
 * @param r the report
 * @returns the text
 */
export function renderBench(r: BenchReport): string {
  const touch = r.instructionFiles.filter((f) => f.reach === 'touch').length;
  const m = r.machine;
  const out = [
    `dsh-context bench: ${visibleLine(r.directory)}`,
    `  session cwd ${r.cwd}, project root ${r.projectRoot}${r.projectRootMarker === null ? ' (no marker found)' : ` (${r.projectRootMarker})`}`,
    `  ${count(r.files.listed, 'file')} listed by ${r.files.source === 'git' ? 'git ls-files' : 'a .gitignore-aware walk'}${r.files.excluded > 0 ? ` (${r.files.excluded.toLocaleString('en-US')} left out by --exclude)` : ''}; ${count(r.instructionFiles.length, 'instruction file')} of ${count(r.candidatesProbed, 'candidate')} probed (${(r.instructionFiles.length - touch).toLocaleString('en-US')} on the baseline chain, ${touch.toLocaleString('en-US')} below the cwd, reached by touches)`,
    `  ${count(r.ruleFiles, 'rule file')} with ${count(r.globs, 'glob')}${r.options.rulesFrom === null ? '' : ` (rules from ${r.options.rulesFrom})`}${r.options.globs.length > 0 ? ` (${count(r.options.globs.length, 'glob')} from --glob)` : ''}; ${count(r.baselines, 'baseline')} composed`,
  ];
  for (const s of r.skipped) out.push(`  skipped ${s.kind} ${s.path}${s.pattern === undefined ? '' : ` glob ${JSON.stringify(s.pattern)}`}: ${s.reason}`);
  for (const w of r.warnings) out.push(`  warning: ${w}`);
  out.push('', ...table([
    ['phase', 'work', 'runs/sample', 'JavaScript', 'WASM engine', 'JavaScript ÷ WASM (95% interval)'],
    ...[...r.phases, r.whole].map((p) => p.ratio === null
      ? [p.phase, count(p.items, p.unit), '–', '–', '–', nothing(p)]
      : [p.phase, p.phase === 'whole run' ? `${count(p.items, p.unit)}, end to end` : count(p.items, p.unit), String(p.runsPerSample), spread(p.js), spread(p.wasm), ratioText(p)]),
  ]), '');
  const confidence = r.whole.interval === null ? '' : ` (${(r.whole.interval.confidence * 100).toFixed(1)}% interval)`;
  const processes = r.options.processes;
  out.push(processes > 1
    ? `time per run: median (min–max) of ${count(r.options.rounds * processes, 'round')} in ${processes} fresh processes, each sample at least ${r.options.sampleMs} ms of runs; ratio: the median of the processes' own (each the median of its rounds' JavaScript ÷ WASM)${confidence.replace(' interval', ' interval over the processes')}, above 1 the engine is faster`
    : `time per run: median (min–max) of ${count(r.options.rounds, 'round')}, each sample at least ${r.options.sampleMs} ms of runs; ratio: the median of the rounds' JavaScript ÷ WASM${confidence}, above 1 the engine is faster`);
  const steps = (s: StepTimes) => `listing ${ms(s.list)}, discovery ${ms(s.discover)}, read ${ms(s.read)}, compose ${ms(s.compose)}, glob ${ms(s.glob)}`;
  if (r.whole.ratio !== null) out.push(`whole run, median per step: WASM ${steps(r.whole.steps.wasm)}; JavaScript ${steps(r.whole.steps.js)}`);
  out.push(`${r.date}, Node ${r.node} on ${m.platform} ${m.arch}, ${m.cpu}, ${count(m.cores, 'core')}, ${formatBytes(m.memoryBytes)}, load average ${m.loadAverage.join(' ')}`);
  if (r.comparison !== undefined) {
    const c = r.comparison;
    out.push('', `Compared with ${c.file} (${c.date}, Node ${c.node}):`);
    for (const d of c.differences) out.push(`  different workload: ${d}`);
    out.push(...table([
      ['phase', 'ratio then → now', 'each inside the other\'s interval', 'JavaScript median', 'WASM median'],
      ...c.phases.map((p) => [p.phase, `${ratio(p.ratio.before)} → ${ratio(p.ratio.now)}`, p.agree === null ? '–' : p.agree ? 'yes' : 'no', percent(p.jsChange), percent(p.wasmChange)]),
    ]));
  }
  return visible(out.join('\n'));
}
