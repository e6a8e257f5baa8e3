// `dsh-context bench` and `dsh-context inspect` on a generated 1,000,000-file git work tree (issue
// 33): wall time, peak memory, and where the time goes (git's listing, discovery, each phase). The
// tree is the generated monorepo of `npm run bench:monorepo` at ten times the size (generate-monorepo.ts,
// files left untracked in a `git init` work tree, its 55 rule files outside it), written under --dir
// (about 4 GB of small files) and removed at the end unless --keep.
//
//   npm run bench:million [-- --dir /tmp/dsh-million] [--files 1000000] [--rounds 3] [--keep]
//
// Each command runs in a child process with peak-rss.js loaded, which reports the child's peak RSS.
// The bench's target: its wall time at most twice `git ls-files` plus the time its phases were timed
// for (what it measures, plus at most two listings' worth of everything else), and 1 GiB of memory.

import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { generateBenchMonorepo } from './generate-monorepo.js';

const CLI = fileURLToPath(new URL('../../lib/cli/index.js', import.meta.url));
const PEAK_RSS = fileURLToPath(new URL('./peak-rss.js', import.meta.url));
const GIB = 1024 ** 3;

interface Measured {
  readonly wallMs: number;
  readonly maxRssBytes: number;
  readonly stdout: string;
}

/** Runs `dsh-context <args>` in a child process: its wall time, peak RSS and output. */
function cli(args: readonly string[]): Measured {
  const rssFile = join(process.env.TMPDIR ?? '/tmp', `dsh-million-rss-${process.pid}.json`);
  const start = performance.now();
  const run = spawnSync(process.execPath, ['--import', PEAK_RSS, CLI, ...args], {
    encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, env: { ...process.env, DSH_BENCH_PEAK_RSS_FILE: rssFile },
  });
  const wallMs = performance.now() - start;
  if (run.status !== 0) throw new Error(`dsh-context ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  const { maxRssKiB } = JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKiB: number };
  rmSync(rssFile, { force: true });
  return { wallMs, maxRssBytes: maxRssKiB * 1024, stdout: run.stdout };
}

/** `git ls-files -co --exclude-standard` as the bench runs it: wall time (median of `runs`) and files. */
function gitListing(dir: string, runs: number): { ms: number; files: number; bytes: number } {
  const times: number[] = [];
  let out = Buffer.alloc(0);
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    out = execFileSync('git', ['-C', dir, 'ls-files', '-z', '--cached', '--others', '--exclude-standard'], { maxBuffer: 512 * 1024 * 1024 });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  let files = 0;
  for (const byte of out) if (byte === 0) files++;
  return { ms: times[times.length >> 1]!, files, bytes: out.length };
}

interface Phase {
  phase: string;
  items: number;
  runsPerSample?: number;
  js?: { median: number; samples: number[] };
  wasm?: { median: number; samples: number[] };
  ratio: number | null;
  interval: { low: number; high: number } | null;
  verdict: string | null;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const mib = (bytes: number): string => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;

if (process.argv[1]?.endsWith('million.js')) {
  const { values } = parseArgs({ options: { dir: { type: 'string' }, files: { type: 'string' }, rounds: { type: 'string' }, keep: { type: 'boolean' } } });
  const dir = values.dir ?? '/tmp/dsh-million';
  const files = Number(values.files ?? 1_000_000);
  const rounds = values.rounds ?? '3';
  const repo = join(dir, 'repo');
  const rules = join(dir, 'rules');
  const stamp = join(dir, 'generated.json');
  const load = loadavg();
  const started = new Date();
  let generatedMs = 0;
  if (!existsSync(stamp) || JSON.parse(readFileSync(stamp, 'utf8')).files !== files) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    process.stderr.write(`writing ${files.toLocaleString('en-US')} files to ${repo} …\n`);
    const start = performance.now();
    const generated = generateBenchMonorepo(repo, files, 42, { git: true, rulesDir: rules });
    generatedMs = performance.now() - start;
    writeFileSync(stamp, JSON.stringify({ files, generated }));
  }
  const listing = gitListing(repo, 3);
  process.stderr.write(`git ls-files: ${listing.files.toLocaleString('en-US')} files in ${seconds(listing.ms)}; dsh-context bench --rounds ${rounds} …\n`);
  // One measuring process: its peak RSS and wall time are what the targets are about (with the default
  // six, each process would list the million files again).
  const bench = cli(['bench', repo, '--rules-from', rules, '--rounds', rounds, '--processes', '1', '--json']);
  const report = JSON.parse(bench.stdout) as { phases: Phase[]; whole: Phase & { steps: { js: Record<string, number>; wasm: Record<string, number> } }; files: { listed: number }; instructionFiles: unknown[]; globs: number; baselines: number };
  const timed = [...report.phases, report.whole].reduce((sum, p) => {
    const runs = p.runsPerSample ?? 0;
    return sum + runs * [...(p.js?.samples ?? []), ...(p.wasm?.samples ?? [])].reduce((a, b) => a + b, 0);
  }, 0);
  process.stderr.write('dsh-context inspect …\n');
  const inspect = cli(['inspect', repo, '--json']);
  const inspectReport = JSON.parse(inspect.stdout) as { timings: Record<string, number> };

  console.log(`${started.toISOString()}, Node ${process.version}, load average ${load.map((l) => l.toFixed(2)).join(' ')} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (generatedMs > 0) console.log(`writing the tree took ${seconds(generatedMs)}`);
  console.log(`\n${report.files.listed.toLocaleString('en-US')} files listed (git ls-files: ${listing.files.toLocaleString('en-US')}, ${mib(listing.bytes)} of output, ${seconds(listing.ms)}, median of 3), ${report.instructionFiles.length.toLocaleString('en-US')} instruction files, ${report.globs} globs, ${report.baselines.toLocaleString('en-US')} baselines\n`);
  console.log('| command | wall time | peak RSS | target |');
  console.log('|---|---:|---:|---|');
  const bound = 2 * listing.ms + timed;
  console.log(`| dsh-context bench --rounds ${rounds} | ${seconds(bench.wallMs)} | ${mib(bench.maxRssBytes)} | wall ≤ 2 × git ls-files + the timed phases = ${seconds(bound)}: ${bench.wallMs <= bound ? 'met' : 'not met'}; ≤ 1 GiB: ${bench.maxRssBytes <= GIB ? 'met' : 'not met'} |`);
  console.log(`| dsh-context inspect | ${seconds(inspect.wallMs)} | ${mib(inspect.maxRssBytes)} | |`);
  console.log(`\nWhere the bench's time goes: timed samples ${seconds(timed)} (both paths, every round), the rest ${seconds(bench.wallMs - timed)} (start, discovery, the answer checks and pilot runs, the report).\n`);
  console.log('| phase | work | JavaScript per run | WASM per run | JS ÷ WASM (95% interval) |');
  console.log('|---|---:|---:|---:|---|');
  for (const p of [...report.phases, report.whole]) {
    if (p.ratio === null) continue;
    const range = p.interval === null ? '' : ` (${p.interval.low.toFixed(2)}–${p.interval.high.toFixed(2)})`;
    console.log(`| ${p.phase} | ${p.items.toLocaleString('en-US')} | ${seconds(p.js!.median)} | ${seconds(p.wasm!.median)} | ${p.verdict === 'within the spread' ? 'within the spread' : `${p.ratio.toFixed(2)}×`}${range} |`);
  }
  const steps = report.whole.steps;
  console.log(`\nA whole run, step by step (median per run): ${Object.keys(steps.wasm).map((k) => `${k} ${seconds(steps.wasm[k]!)} WASM / ${seconds(steps.js[k]!)} JS`).join(', ')}`);
  console.log(`inspect's phases: ${Object.entries(inspectReport.timings).map(([k, v]) => `${k} ${v.toFixed(1)} ms`).join(', ')}`);
  if (values.keep !== true) rmSync(dir, { recursive: true, force: true });
}
