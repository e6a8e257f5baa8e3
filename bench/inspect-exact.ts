// `npm run bench:inspect`: the wall time of `dsh-context inspect` in exact mode (issue 31's target:
// at most 3 s on a 10,000-file repository), beside its floor, in the same run, interleaved: each
// round runs, in a rotated order,
//   boot    — the pinned DSH 0.1.0-rc.8 alone, `dsh --profile headless "<prompt>"` in the same home
//             and directory with DEEPSEEK_BASE_URL at a capture endpoint, until its first model
//             request arrives (no home copy, no probe): what any capture of DSH's own request costs;
//   inspect — `dsh-context inspect --dsh <the pinned dsh> --json-report` as a user runs it;
//   version — `dsh-context --version`: this CLI's own start.
// The repository is the generated monorepo (bench/generate-monorepo.ts, --files, committed to git),
// the session cwd one of its nested packages, the DSH home a fresh one with our packed tarball added
// to the headless profile, as a user installs it. The report gives medians and ranges, and from
// inspect's own timings where its time goes (DSH's boot phases from DSH's own start).
//
//   node build/bench/inspect-exact.js [--files 10000] [--rounds 5] [--json out.json]

import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDshHost, ensureRealDsh, packPackage } from 'dsh-context-engine/testing';
import { generateBenchMonorepo } from './generate-monorepo.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'lib', 'cli', 'index.js');
const PROMPT = 'Fix the failing test.';
const CWD = 'packages/shared/src/types';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, rounds: { type: 'string', default: '5' }, json: { type: 'string' } } });
const files = Number(values.files);
const rounds = Number(values.rounds);

const dsh = ensureRealDsh(join(ROOT, '.test-tools', 'real-dsh'));
const tarball = packPackage(ROOT, join(ROOT, '.test-tools', 'pack'));
const host = createDshHost({ dsh, packages: [tarball], pnpmStore: join(ROOT, '.test-tools', 'pnpm-store'), git: false });
generateBenchMonorepo(host.workspace, files, 42, { git: true });
const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=bench@example.com', '-c', 'user.name=bench', ...args], { cwd: host.workspace, encoding: 'utf8' });
git('add', '-A');
git('commit', '-qm', 'bench');
host.patch({ id: 'session-title-llm', disabled: true });
await host.install();
const dshBin = join(dsh.dir, 'node_modules', '.bin', 'dsh');
const env: NodeJS.ProcessEnv = { ...process.env, PATH: [...dsh.path, process.env.PATH ?? ''].join(':'), HOME: host.home };
delete env.DSH_HOME;
const cwd = join(host.workspace, CWD);

/** DSH alone until its first model request (the floor). */
async function boot(): Promise<number> {
  const started = performance.now();
  let child: ReturnType<typeof spawn> | undefined;
  const arrived = new Promise<void>((resolve) => {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (c: Buffer) => chunks.push(c));
      request.on('end', () => {
        if (!Array.isArray((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { tools?: unknown }).tools)) return void response.writeHead(503).end();
        process.kill(-child!.pid!, 'SIGKILL');
        server.closeAllConnections();
        server.close();
        resolve();
      });
    });
    server.listen(0, '127.0.0.1', () => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      child = spawn(dshBin, ['--profile', 'headless', PROMPT], { cwd, env: { ...env, DEEPSEEK_BASE_URL: url, DEEPSEEK_API_KEY: 'bench', DSH_TELEMETRY_DISABLED: '1', GIT_OPTIONAL_LOCKS: '0' }, detached: true, stdio: 'ignore' });
    });
  });
  await arrived;
  return performance.now() - started;
}

interface InspectRun {
  readonly wall: number;
  readonly timings: Readonly<Record<string, number>>;
  readonly total: number;
}

function inspect(): InspectRun {
  const started = performance.now();
  const run = spawnSync(process.execPath, [BIN, 'inspect', host.workspace, '--cwd', CWD, '--dsh', dshBin, '--prompt', PROMPT, '--json-report'], { env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const wall = performance.now() - started;
  if (run.status !== 0) throw new Error(`inspect failed: ${run.stderr}`);
  const report = JSON.parse(run.stdout) as { request: { timings: Record<string, number>; breakdown: { total: number } } };
  return { wall, timings: report.request.timings, total: report.request.breakdown.total };
}

function version(): number {
  const started = performance.now();
  spawnSync(process.execPath, [BIN, '--version'], { env });
  return performance.now() - started;
}

const samples: { boot: number[]; inspect: InspectRun[]; version: number[] } = { boot: [], inspect: [], version: [] };
const order = ['boot', 'inspect', 'version'] as const;
const load = [loadavg()[0]!];
for (let round = 0; round < rounds; round++) {
  for (let i = 0; i < order.length; i++) {
    const which = order[(i + round) % order.length]!;
    if (which === 'boot') samples.boot.push(await boot());
    else if (which === 'inspect') samples.inspect.push(inspect());
    else samples.version.push(version());
  }
  load.push(loadavg()[0]!);
}
await host.close();

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const range = (xs: readonly number[]): string => `${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)}`;
const row = (name: string, xs: readonly number[]): string => `${name.padEnd(44)} ${median(xs).toFixed(0).padStart(6)} ms  (${range(xs)})`;
const phase = (key: string): number[] => samples.inspect.map((r) => r.timings[key]!);
const lines = [
  `inspect in exact mode on a ${files.toLocaleString('en-US')}-file repository (cwd ${CWD}), ${rounds} rounds interleaved; ${cpus().length} CPUs, 1-min load ${load.map((l) => l.toFixed(1)).join(' → ')}`,
  row('dsh-context inspect (wall)', samples.inspect.map((r) => r.wall)),
  row('  DSH alone to its first request (the floor)', samples.boot),
  row('  dsh-context --version (the CLI\'s start)', samples.version),
  'where inspect\'s time goes (medians of its own timings):',
  row('  inspect started (this process)', phase('start')),
  row('  home copy', phase('copy')),
  row('  DSH: plugins loaded (from DSH\'s start)', phase('plugins')),
  row('  DSH: agent created', phase('agent')),
  row('  DSH: first assembly', phase('assemble')),
  row('  DSH: request built', phase('request')),
  row('  DSH run, spawn to request held, DSH ended', phase('dsh')),
  row('  the plugins\' account (beside DSH)', phase('pluginsPart')),
  row('  breakdown', phase('breakdown')),
  row('  in all (this process\'s start to the report)', phase('total')),
  `request total: ${samples.inspect[0]!.total.toLocaleString('en-US')} DeepSeek V3 tokens`,
];
console.log(lines.join('\n'));
if (values.json !== undefined) writeFileSync(values.json, JSON.stringify({ files, rounds, cpus: cpus().length, load, samples }, null, 2));
