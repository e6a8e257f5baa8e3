// `npm run bench:dsh`: the context work real DSH 0.1.0-rc.8 does before every model step, measured
// in a long scripted session on the generated monorepo, for configurations of one profile,
// interleaved in the same run (each round runs every configuration once, in a rotated order):
//   none     — DSH with its instruction loader switched off (the floor: what DSH does anyway);
//   builtin  — DSH's own agent-instructions loader (stock DSH);
//   wc       — our workspace-context in its place (our tarball, only that row);
//   all      — all four of our plugins as the bundle mounts them;
// and, with --configs, one of our other plugins alone (instruction loader off), to see where `all`
// spends: am (auto-memory), st (slice-tape), cp (context-profiles).
// Each step is timed inside DSH by a probe plugin (bench/dsh-probe.ts): `between` (previous step's
// end → this step's start: claim, prompt assembly, the pre-step waterfall with every loader's work),
// `preStep`, the synchronous `tools/result` listeners, and the fs service's calls. A configuration's
// cost at a step is its `between` minus `none`'s at the same step of the same round. Before anything
// is reported, wc's model requests must equal builtin's, byte for byte, in every round.
//
// The scripted model answers at once unless --model-ms says how long it takes (a real model takes
// seconds per step; the costs measured exclude it, but caches that wait for time to pass see it).
// With --cpu-prof DIR, DSH runs each configuration's first-round session under `--cpu-prof` into
// DIR/<config>/ (`node build/bench/cpu-profile.js` sums such a profile by package).
//
//   node build/bench/dsh-steps.js [--files 100000] [--turns 150] [--rounds 3] [--configs none,builtin,wc,all] [--model-ms 0] [--json out.json] [--cpu-prof DIR]

import { createHash } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDshHost, ensureRealDsh, packPackage, type ChatScript, type RealDsh } from 'dsh-context-engine/testing';
import { generateBenchMonorepo } from './generate-monorepo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PROBE = fileURLToPath(new URL('./dsh-probe.js', import.meta.url));
/** Every configuration, in the order the report lists them; `none` is the floor. */
const ALL_CONFIGS = ['none', 'builtin', 'wc', 'all', 'am', 'st', 'cp'] as const;
type ConfigName = (typeof ALL_CONFIGS)[number];
const DEFAULT_CONFIGS: readonly ConfigName[] = ['none', 'builtin', 'wc', 'all'];
/** The bundle row a single-plugin diagnostic configuration mounts. */
const SINGLE_ROW: Partial<Record<ConfigName, string>> = { wc: 'workspace-context', am: 'auto-memory', st: 'slice-tape', cp: 'context-profiles' };
/** Extra path-scoped rules beside the generator's 50, for 200 in all. */
const EXTRA_RULES = 150;
const DIRECTORIES = 300;
const BIG_FILE_BYTES = 60_000;
/** The issue's windows: steps 1–10 and 50–59 (1-based, over the whole session). */
const EARLY: readonly [number, number] = [1, 10];
const LATE: readonly [number, number] = [50, 59];

/** One step as the probe recorded it. */
interface StepRecord {
  readonly turn: number;
  readonly step: number;
  readonly between: number;
  readonly preStep?: number;
  readonly toolsResult: readonly number[];
  readonly fsCalls: number;
  readonly fsByMethod: Readonly<Record<string, number>>;
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

/** What one session under one configuration gave: the probe's records and a digest per model request. */
interface SessionResult {
  readonly steps: StepRecord[];
  readonly requests: string[];
}

/** Runs the whole session once under one configuration. */
async function session(dsh: RealDsh, tarball: string, config: ConfigName, load: Workload, out: string, modelMs: number, profileDir?: string): Promise<SessionResult> {
  rmSync(out, { force: true });
  const host = createDshHost({
    dsh, workspace: load.workspace, packages: config === 'none' || config === 'builtin' ? [] : [tarball],
    pnpmStore: join(ROOT, '.test-tools', 'pnpm-store'), timeoutMs: 600_000, modelLatencyMs: modelMs,
    ...(profileDir !== undefined ? { env: { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${profileDir}` } } : {}),
  });
  // DSH titles a session with a side request to the model whenever it likes; no configuration needs it.
  host.patch({ id: 'session-title-llm', disabled: true });
  if (config === 'none') host.patch({ id: 'agent-instructions', disabled: true });
  const row = SINGLE_ROW[config];
  if (row !== undefined) host.use(row);
  host.use(PROBE, { out });
  const requests: string[] = [];
  try {
    for (const [t, reads] of load.turns.entries()) {
      const script: ChatScript[] = [...reads.map((path, i) => ({ tools: [{ name: 'read', id: `t${t}-${i}`, input: { file_path: path } }] })), { text: `turn ${t + 1} done` }];
      const turn = await host.run(`turn ${t + 1}: look at ${reads.join(', ')}`, script);
      // The home is a fresh temporary directory per host; everything else must be equal.
      for (const request of turn.requests) requests.push(createHash('sha1').update(JSON.stringify(request).replaceAll(host.root, '<root>')).digest('hex'));
    }
    if (host.stderr.trim() !== '') process.stderr.write(`[${config}] DSH stderr:\n${host.stderr}\n`);
  } finally {
    await host.close();
  }
  const steps = readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as StepRecord);
  return { steps, requests };
}

const quantile = (values: readonly number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
};
const median = (values: readonly number[]): number => quantile(values, 0.5);
const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
const window = <T>(values: readonly T[], [from, to]: readonly [number, number]): T[] => values.slice(from - 1, to);

/** Per configuration and round: its cost over `none` per step, and the fs calls it adds. */
interface RoundStats {
  readonly p50: number;
  readonly p95: number;
  readonly max: number;
  readonly early: number;
  readonly late: number;
  /** The last ten steps of the session. */
  readonly last: number;
  readonly calls: number;
  readonly earlyCalls: number;
  readonly lateCalls: number;
  readonly lastCalls: number;
  /** Calls per step by method, over the floor's. */
  readonly byMethod: Record<string, number>;
  readonly preStepP50: number;
  readonly preStepMax: number;
  readonly toolsResultP50: number;
  readonly toolsResultMax: number;
}

function stats(steps: readonly StepRecord[], floor: readonly StepRecord[]): RoundStats {
  steps.forEach((s, i) => {
    const f = floor[i];
    if (f === undefined || f.turn !== s.turn || f.step !== s.step) throw new Error(`step ${i + 1} is turn ${s.turn} step ${s.step}, but the floor's is ${f === undefined ? 'missing' : `turn ${f.turn} step ${f.step}`}: the sessions did not run the same script`);
  });
  if (steps.length !== floor.length) throw new Error(`${steps.length} steps against the floor's ${floor.length}`);
  const cost = steps.map((s, i) => s.between - floor[i]!.between);
  const calls = steps.map((s, i) => s.fsCalls - floor[i]!.fsCalls);
  const methods = new Set(steps.flatMap((s) => Object.keys(s.fsByMethod)));
  const byMethod: Record<string, number> = {};
  for (const m of methods) byMethod[m] = mean(steps.map((s, i) => (s.fsByMethod[m] ?? 0) - (floor[i]!.fsByMethod[m] ?? 0)));
  const lastWindow: [number, number] = [steps.length - 9, steps.length];
  const pre = steps.map((s) => s.preStep ?? NaN).filter((x) => !Number.isNaN(x));
  const results = steps.flatMap((s) => s.toolsResult);
  return {
    p50: median(cost), p95: quantile(cost, 0.95), max: Math.max(...cost),
    early: median(window(cost, EARLY)), late: median(window(cost, LATE)), last: median(window(cost, lastWindow)),
    calls: mean(calls), earlyCalls: mean(window(calls, EARLY)), lateCalls: mean(window(calls, LATE)), lastCalls: mean(window(calls, lastWindow)),
    byMethod,
    preStepP50: median(pre), preStepMax: Math.max(...pre),
    toolsResultP50: median(results), toolsResultMax: Math.max(...results),
  };
}

/** `median (min–max)` over rounds. */
function spread(values: readonly number[], digits = 1): string {
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  return values.length === 1 ? median(values).toFixed(digits) : `${median(values).toFixed(digits)} (${lo.toFixed(digits)}–${hi.toFixed(digits)})`;
}

function parseConfigs(text: string | undefined): ConfigName[] {
  const names = (text ?? DEFAULT_CONFIGS.join(',')).split(',').map((s) => s.trim()).filter((s) => s !== '');
  for (const name of names) if (!(ALL_CONFIGS as readonly string[]).includes(name)) throw new Error(`--configs: unknown configuration ${JSON.stringify(name)}; known: ${ALL_CONFIGS.join(', ')}`);
  const set = new Set(['none', ...names]) as Set<ConfigName>;
  return ALL_CONFIGS.filter((c) => set.has(c));
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { files: { type: 'string' }, turns: { type: 'string' }, rounds: { type: 'string' }, configs: { type: 'string' }, json: { type: 'string' }, 'cpu-prof': { type: 'string' }, 'model-ms': { type: 'string' } } });
  const files = Number(values.files ?? 100_000);
  const turns = Number(values.turns ?? 150);
  const rounds = Number(values.rounds ?? 3);
  const modelMs = Number(values['model-ms'] ?? 0);
  const configs = parseConfigs(values.configs);
  for (const [name, value, least] of [['--files', files, 1000], ['--turns', turns, 20], ['--rounds', rounds, 1], ['--model-ms', modelMs, 0]] as const) {
    if (!Number.isInteger(value) || value < least) throw new Error(`${name} is ${value}; it must be an integer of at least ${least} (steps ${LATE[0]}–${LATE[1]} need ${LATE[1]} steps, 20 turns give 64)`);
  }
  const dsh = ensureRealDsh(join(ROOT, '.test-tools', 'real-dsh'));
  const tarball = packPackage(ROOT, join(ROOT, '.test-tools', 'pack-bench'));
  process.stderr.write(`workload: ${files} files, ${turns} turns…\n`);
  const load = workload(files, turns);
  const steps = load.turns.reduce((n, reads) => n + reads.length + 1, 0);
  process.stderr.write(`${load.instructionDirs} directories with instruction files, ${load.rules} rules; ${steps} steps per session\n`);
  const started = new Date();
  const loads: number[] = [loadavg()[0]!];
  const results = Object.fromEntries(configs.map((c) => [c, [] as SessionResult[]])) as Record<ConfigName, SessionResult[]>;
  for (let round = 0; round < rounds; round++) {
    // Rotated each round, so no configuration always runs right after the same one.
    const order = configs.map((_, i) => configs[(i + round) % configs.length]!);
    for (const config of order) {
      const t0 = Date.now();
      const profileDir = values['cpu-prof'] !== undefined && round === 0 ? join(values['cpu-prof'], config) : undefined;
      results[config].push(await session(dsh, tarball, config, load, join(ROOT, '.test-tools', `dsh-steps-${config}.jsonl`), modelMs, profileDir));
      loads.push(loadavg()[0]!);
      process.stderr.write(`round ${round + 1} ${config}: ${((Date.now() - t0) / 1000).toFixed(1)} s (load ${loadavg()[0]!.toFixed(2)})\n`);
    }
    if (results.builtin?.[round] !== undefined && results.wc?.[round] !== undefined) {
      const [b, w] = [results.builtin[round]!.requests, results.wc[round]!.requests];
      const differs = b.findIndex((digest, i) => digest !== w[i]);
      if (differs >= 0 || b.length !== w.length) throw new Error(`round ${round + 1}: wc's model request ${differs + 1} differs from builtin's (${w.length} requests against ${b.length}): the measurement is void`);
    }
  }
  const per = (config: ConfigName): RoundStats[] => results[config].map((run, r) => stats(run.steps, results.none[r]!.steps));
  const measured = configs.filter((c) => c !== 'none');
  const table = Object.fromEntries(measured.map((c) => [c, per(c)])) as Record<ConfigName, RoundStats[]>;
  const col = (s: readonly RoundStats[], key: keyof RoundStats, digits = 1) => spread(s.map((x) => x[key] as number), digits);
  const rows = measured.map((config) => {
    const s = table[config];
    return `| ${config} | ${col(s, 'p50')} | ${col(s, 'p95')} | ${col(s, 'max')} | ${col(s, 'early')} → ${col(s, 'late')} | ${col(s, 'last')} | ${col(s, 'calls', 0)} | ${col(s, 'earlyCalls', 0)} → ${col(s, 'lateCalls', 0)} → ${col(s, 'lastCalls', 0)} | ${col(s, 'preStepP50')} / ${col(s, 'preStepMax')} | ${col(s, 'toolsResultP50', 2)} / ${col(s, 'toolsResultMax', 2)} |`;
  });
  const methodRows = measured.map((config) => {
    const s = table[config];
    const methods = [...new Set(s.flatMap((x) => Object.keys(x.byMethod)))].sort();
    return `${config}: ${methods.map((m) => `${m} ${spread(s.map((x) => x.byMethod[m] ?? 0), 1)}`).join(', ')}`;
  });
  const none = results.none.map((run) => median(run.steps.map((s) => s.between)));
  const report = [
    `real DSH 0.1.0-rc.8, ${files.toLocaleString('en-US')}-file monorepo (${load.instructionDirs} instruction directories, ${load.rules} rules), ${turns} turns / ${steps} steps per session, ${rounds} round${rounds === 1 ? '' : 's'} interleaved (order rotated per round); the scripted model answers ${modelMs === 0 ? 'at once' : `after ${modelMs} ms`}`,
    `${started.toISOString()} → ${new Date().toISOString()}; ${cpus()[0]?.model ?? 'cpu'} × ${cpus().length}, Node ${process.version} (bench) / DSH on Node 22; load average (1 min) during the run ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
    `floor (none): between steps p50 ${spread(none)} ms; every figure is median over rounds (min–max); cost = between steps − none's at the same step of the same round`,
    '',
    `| config | cost p50 ms | p95 | max | steps ${EARLY[0]}–${EARLY[1]} → ${LATE[0]}–${LATE[1]} | last 10 steps | fs calls per step | calls ${EARLY[0]}–${EARLY[1]} → ${LATE[0]}–${LATE[1]} → last 10 | pre-step p50 / max ms | tools/result p50 / max ms |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'fs calls per step over the floor, by method:',
    ...methodRows,
  ];
  if (table.builtin !== undefined && table.wc !== undefined) {
    const b = table.builtin;
    const w = table.wc;
    const ratio = (x: readonly RoundStats[], y: readonly RoundStats[], kx: keyof RoundStats, ky: keyof RoundStats = kx) => x.map((v, i) => (v[kx] as number) / (y[i]![ky] as number));
    const verdict = (values: readonly number[], ok: (v: number) => boolean) => (values.every(ok) ? 'met' : values.some(ok) ? 'met in some rounds' : 'not met');
    const late = ratio(w, b, 'late');
    const growth = ratio(w, w, 'late', 'early');
    const builtinGrowth = ratio(b, b, 'late', 'early');
    const calls = ratio(b, w, 'lateCalls');
    const allCalls = ratio(b, w, 'calls');
    report.push('', 'targets (per round, then median (min–max)):');
    report.push(`- wc cost at steps ${LATE[0]}–${LATE[1]} ÷ builtin's: ${spread(late, 3)}; target ≤ 0.2: ${verdict(late, (v) => v <= 0.2)}`);
    report.push(`- wc growth, steps ${LATE[0]}–${LATE[1]} ÷ steps ${EARLY[0]}–${EARLY[1]}: ${spread(growth, 2)} (builtin ${spread(builtinGrowth, 2)}); target ≤ 2: ${verdict(growth, (v) => v <= 2)}`);
    report.push(`- builtin fs calls ÷ wc's per step, whole session: ${spread(allCalls, 1)}; steps ${LATE[0]}–${LATE[1]}: ${spread(calls, 1)}; target ≥ 5: ${verdict([...allCalls, ...calls], (v) => v >= 5)}`);
    if (table.all !== undefined) {
      const all = ratio(table.all, b, 'p50');
      report.push(`- all cost p50 ÷ builtin's: ${spread(all, 2)} (steps ${LATE[0]}–${LATE[1]}: ${spread(ratio(table.all, b, 'late'), 2)}); target ≤ 1: ${verdict(all, (v) => v <= 1)}`);
    }
    report.push(`- wc's model requests equal builtin's in every round: yes (${results.wc[0]!.requests.length} requests each)`);
  }
  process.stdout.write(`${report.join('\n')}\n`);
  if (values.json !== undefined) {
    writeFileSync(values.json, JSON.stringify({ files, turns, rounds, steps, configs, modelMs, started: started.toISOString(), loads, cpu: cpus()[0]?.model, results: Object.fromEntries(configs.map((c) => [c, results[c].map((r) => r.steps)])) }, null, 1));
  }
}

await main();
