// `npm run bench:dsh`: the context work real DSH 0.1.0-rc.8 does before every model step, measured
// in a long scripted session on the generated monorepo, for four configurations of one profile,
// interleaved in the same run:
//   none     — DSH with its instruction loader switched off (the floor: what DSH does anyway);
//   builtin  — DSH's own agent-instructions loader (stock DSH);
//   wc       — our workspace-context in its place (our tarball, only that row);
//   all      — all four of our plugins as the bundle mounts them.
// Each step is timed inside DSH by a probe plugin (bench/dsh-probe.ts): `between` (previous step's
// end → this step's start: claim, prompt assembly, the pre-step waterfall with every loader's work),
// `preStep`, the synchronous `tools/result` listeners, and the fs service's calls. A configuration's
// cost at a step is its `between` minus `none`'s at the same step of the same round.
//
//   node build/bench/dsh-steps.js [--files 100000] [--turns 150] [--rounds 3] [--json out.json]

import { cpus } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDshHost, ensureRealDsh, packPackage, type ChatScript, type RealDsh } from 'dsh-context-engine/testing';
import { generateBenchMonorepo } from './generate-monorepo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = fileURLToPath(new URL('./dsh-probe.js', import.meta.url));
const CONFIGS = ['none', 'builtin', 'wc', 'all'] as const;
type ConfigName = (typeof CONFIGS)[number];
/** Extra path-scoped rules beside the generator's 50, for 200 in all. */
const EXTRA_RULES = 150;
const DIRECTORIES = 300;
const BIG_FILE_BYTES = 60_000;

/** One step as the probe recorded it. */
interface StepRecord {
  readonly turn: number;
  readonly step: number;
  readonly between: number;
  readonly preStep?: number;
  readonly toolsResult: readonly number[];
  readonly fsCalls: number;
}

interface Workload {
  readonly workspace: string;
  /** Per turn, the files its steps read (two in different instruction directories, sometimes a big one). */
  readonly turns: readonly (readonly string[])[];
  readonly instructionDirs: number;
  readonly rules: number;
}

/** Writes (once) the monorepo, 150 more rules and the big files; picks the files each turn reads. */
function workload(files: number, turns: number): Workload {
  const workspace = join(ROOT, '.test-tools', `dsh-steps-monorepo-${files}`);
  const marker = join(workspace, '.bench-ready');
  if (!existsSync(marker)) {
    rmSync(workspace, { recursive: true, force: true });
    generateBenchMonorepo(workspace, files, 42);
    for (let i = 0; i < EXTRA_RULES; i++) {
      const path = join(workspace, '.claude', 'rules', 'extra', `rule-${String(i).padStart(3, '0')}.md`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, `---\npaths:\n  - "**/*-${i % 60}.ts"\n  - "packages/*/src/**/m${i}.*"\n---\nExtra rule ${i}: keep module ${i} small.\n`);
    }
    for (let i = 0; i < 10; i++) {
      const path = join(workspace, 'data', `large-${i}.txt`);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Array.from({ length: Math.ceil(BIG_FILE_BYTES / 60) }, (_, n) => `${String(n).padStart(6, '0')} ${'x'.repeat(52)}`).join('\n'));
    }
    writeFileSync(marker, '');
  }
  // Directories holding an instruction file below the root, and one ordinary file in each.
  const byDir = new Map<string, string[]>();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === '.git' || entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'data' || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else {
        const rel = relative(workspace, dir);
        byDir.set(rel, [...(byDir.get(rel) ?? []), entry.name]);
      }
    }
  };
  walk(workspace);
  const candidates = [...byDir].filter(([dir, names]) => dir !== '' && names.some((n) => /^(AGENTS|CLAUDE)(\.local)?\.md$/.test(n)) && names.some((n) => !n.endsWith('.md'))).sort(([a], [b]) => (a < b ? -1 : 1));
  const stride = Math.max(1, Math.floor(candidates.length / DIRECTORIES));
  const picked = candidates.filter((_, i) => i % stride === 0).slice(0, DIRECTORIES).map(([dir, names]) => `${dir}/${names.find((n) => !n.endsWith('.md'))!}`);
  const plan: string[][] = [];
  for (let t = 0; t < turns; t++) {
    const reads = [picked[(2 * t) % picked.length]!, picked[(2 * t + 1) % picked.length]!];
    if (t % 5 === 4) reads.push(`data/large-${t % 10}.txt`);
    plan.push(reads);
  }
  return { workspace, turns: plan, instructionDirs: candidates.length, rules: 55 + EXTRA_RULES };
}

/** Runs the whole session once under one configuration; returns the probe's step records. */
async function session(dsh: RealDsh, tarball: string, config: ConfigName, load: Workload, out: string): Promise<StepRecord[]> {
  rmSync(out, { force: true });
  const host = createDshHost({
    dsh, workspace: load.workspace, packages: config === 'wc' || config === 'all' ? [tarball] : [],
    pnpmStore: join(ROOT, '.test-tools', 'pnpm-store'), timeoutMs: 600_000,
  });
  if (config === 'none') host.patch({ id: 'agent-instructions', disabled: true });
  if (config === 'wc') host.use('workspace-context');
  host.use(PROBE, { out });
  try {
    for (const [t, reads] of load.turns.entries()) {
      const script: ChatScript[] = [...reads.map((path, i) => ({ tools: [{ name: 'read', id: `t${t}-${i}`, input: { file_path: path } }] })), { text: `turn ${t + 1} done` }];
      await host.run(`turn ${t + 1}: look at ${reads.join(', ')}`, script);
    }
    if (host.stderr.trim() !== '') process.stderr.write(`[${config}] DSH stderr:\n${host.stderr}\n`);
  } finally {
    await host.close();
  }
  return readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as StepRecord);
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (values: readonly number[]): number => quantile(values, 0.5);
const range = (values: readonly number[]): [number, number] => [Math.min(...values), Math.max(...values)];

/** Per configuration and round: its cost over `none` per step, and the fs calls it adds. */
interface RoundStats {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly early: number;
  readonly late: number;
  readonly calls: number;
  readonly preStepP50: number;
  readonly toolsResultP50: number;
}

function stats(steps: readonly StepRecord[], floor: readonly StepRecord[]): RoundStats {
  const cost = steps.map((s, i) => s.between - (floor[i]?.between ?? 0));
  const calls = steps.map((s, i) => s.fsCalls - (floor[i]?.fsCalls ?? 0));
  return {
    p50: median(cost), p95: quantile(cost, 0.95), max: Math.max(...cost),
    early: median(cost.slice(0, 10)), late: median(cost.slice(49, 59)),
    calls: calls.reduce((a, b) => a + b, 0) / calls.length,
    preStepP50: median(steps.flatMap((s) => (s.preStep !== undefined ? [s.preStep] : []))),
    toolsResultP50: median(steps.flatMap((s) => s.toolsResult)),
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { files: { type: 'string' }, turns: { type: 'string' }, rounds: { type: 'string' }, json: { type: 'string' } } });
  const files = Number(values.files ?? 100_000);
  const turns = Number(values.turns ?? 150);
  const rounds = Number(values.rounds ?? 3);
  const dsh = ensureRealDsh(join(ROOT, '.test-tools', 'real-dsh'));
  const tarball = packPackage(ROOT, join(ROOT, '.test-tools', 'pack-bench'));
  process.stderr.write(`workload: ${files} files, ${turns} turns…\n`);
  const load = workload(files, turns);
  const steps = load.turns.reduce((n, reads) => n + reads.length + 1, 0);
  process.stderr.write(`${load.instructionDirs} directories with instruction files, ${load.rules} rules; ${steps} steps per session\n`);
  const results: Record<ConfigName, StepRecord[][]> = { none: [], builtin: [], wc: [], all: [] };
  for (let round = 0; round < rounds; round++) {
    for (const config of CONFIGS) {
      const started = Date.now();
      results[config].push(await session(dsh, tarball, config, load, join(ROOT, '.test-tools', `dsh-steps-${config}.jsonl`)));
      process.stderr.write(`round ${round + 1} ${config}: ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    }
  }
  const per = (config: ConfigName): RoundStats[] => results[config].map((run, r) => stats(run, results.none[r]!));
  const fmt = (values: readonly number[], digits = 1): string => {
    const [lo, hi] = range(values);
    return `${median(values).toFixed(digits)} (${lo.toFixed(digits)}–${hi.toFixed(digits)})`;
  };
  const rows = (['builtin', 'wc', 'all'] as const).map((config) => {
    const s = per(config);
    return `| ${config} | ${fmt(s.map((x) => x.p50))} | ${fmt(s.map((x) => x.p95))} | ${fmt(s.map((x) => x.max))} | ${fmt(s.map((x) => x.early))} → ${fmt(s.map((x) => x.late))} | ${fmt(s.map((x) => x.calls), 0)} | ${fmt(s.map((x) => x.preStepP50))} | ${fmt(s.map((x) => x.toolsResultP50), 2)} |`;
  });
  const none = results.none.map((run) => median(run.map((s) => s.between)));
  const b = per('builtin');
  const w = per('wc');
  const a = per('all');
  const ratio = (x: readonly number[], y: readonly number[]) => median(x.map((v, i) => v / y[i]!));
  const report = [
    `real DSH 0.1.0-rc.8, ${files.toLocaleString('en-US')}-file monorepo (${load.instructionDirs} instruction directories, ${load.rules} rules), ${turns} turns / ${steps} steps per session, ${rounds} rounds interleaved; ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version} (bench) / DSH on Node 22`,
    `floor (none): between steps p50 ${fmt(none)} ms`,
    '',
    '| loader | cost p50 ms | p95 | max | steps 1–10 → 50–59 | fs calls per step | pre-step p50 ms | tools/result p50 ms |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    `targets: wc late cost / builtin late cost = ${ratio(w.map((x) => x.late), b.map((x) => x.late)).toFixed(3)} (≤ 0.2); wc growth late/early = ${ratio(w.map((x) => x.late), w.map((x) => x.early)).toFixed(2)} (≤ 2; builtin ${ratio(b.map((x) => x.late), b.map((x) => x.early)).toFixed(2)}); builtin calls / wc calls = ${ratio(b.map((x) => x.calls), w.map((x) => x.calls)).toFixed(1)} (≥ 5); all cost p50 / builtin cost p50 = ${ratio(a.map((x) => x.p50), b.map((x) => x.p50)).toFixed(2)} (≤ 1)`,
  ].join('\n');
  process.stdout.write(`${report}\n`);
  if (values.json !== undefined) writeFileSync(values.json, JSON.stringify({ files, turns, rounds, steps, date: new Date().toISOString(), cpu: cpus()[0]?.model, results }, null, 1));
}

await main();
