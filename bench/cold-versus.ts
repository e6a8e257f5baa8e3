// The glob cold start of this build against another build of the package (issue 33: "cold start not
// worse than today's"): cold-start.ts's `ours` side (import + compile the 50 rule patterns + match
// 1,000 paths, in a fresh process) from this checkout and from --base, a checkout of the commit to
// compare with, built (`npm ci`, or `npm run build && tsc -p bench/tsconfig.json`). Paired and
// interleaved: each round starts one process of each build, in an order that alternates; the ratio is
// the median of the rounds' base ÷ this, with the 95% interval of that median (as `dsh-context
// bench` reports it). Above 1: this build starts faster. Both builds must give the same answers.
//
//   npm run bench:cold-versus -- --base /path/to/checkout [--rounds 61] [--node /path/to/node]

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { median, medianInterval } from '#lib/cli/bench-stats.js';

interface ColdRun {
  readonly ms: number;
  readonly phases: { readonly load: number; readonly compile: number; readonly match: number };
  readonly digest: string;
}

const { values } = parseArgs({ options: { base: { type: 'string' }, rounds: { type: 'string' }, node: { type: 'string' } } });
if (values.base === undefined) throw new Error('usage: cold-versus.js --base <built checkout> [--rounds N] [--node PATH]');
const here = fileURLToPath(new URL('./cold-start.js', import.meta.url));
const there = join(resolve(values.base), 'build/bench/cold-start.js');
if (!existsSync(there)) throw new Error(`${there} does not exist: build the base checkout first (npm run build && npx tsc -p bench/tsconfig.json)`);
const rounds = Number(values.rounds ?? 61);
if (!Number.isInteger(rounds) || rounds < 6) throw new Error(`--rounds must be an integer of at least 6 (got ${values.rounds})`);
const node = values.node ?? process.execPath;
const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();

const run = (script: string): ColdRun => JSON.parse(execFileSync(node, [script, 'ours'], { encoding: 'utf8' })) as ColdRun;
const load = loadavg();
const ours: ColdRun[] = [];
const base: ColdRun[] = [];
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) ours.push(run(here));
  base.push(run(there));
  if (round % 2 === 1) ours.push(run(here));
  if (ours.at(-1)!.digest !== base.at(-1)!.digest) throw new Error(`round ${round}: the two builds answered differently`);
}
const ratios = ours.map((o, i) => base[i]!.ms / o.ms);
const interval = medianInterval(ratios);
const ms = (runs: readonly ColdRun[], key?: keyof ColdRun['phases']): string => median(runs.map((r) => (key === undefined ? r.ms : r.phases[key]))).toFixed(2);
console.log(`${new Date().toISOString()}, Node ${version}, ${rounds} rounds, load average ${load.map((l) => l.toFixed(2)).join(' ')} → ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
console.log(`this build: ${ms(ours)} ms (load ${ms(ours, 'load')}, compile ${ms(ours, 'compile')}, match ${ms(ours, 'match')})`);
console.log(`base build: ${ms(base)} ms (load ${ms(base, 'load')}, compile ${ms(base, 'compile')}, match ${ms(base, 'match')})`);
const verdict = interval.low > 1 ? 'this build starts faster' : interval.high < 1 ? 'the base starts faster' : 'within the spread';
console.log(`base ÷ this: ${median(ratios).toFixed(3)} (${Math.round(interval.confidence * 1000) / 10}% interval ${interval.low.toFixed(3)}–${interval.high.toFixed(3)}): ${verdict}`);
