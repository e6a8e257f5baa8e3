// Sums a V8 CPU profile (`node --cpu-prof`, e.g. from `dsh-steps.js --cpu-prof DIR`) by where the
// time was spent: self time per package (an `@deepseek-ai/*` package, our package by plugin,
// another npm package, Node's internals, the garbage collector, idle), and the functions with the
// most self time. With two profiles, also the difference (second minus first), package by package.
//
//   node build/bench/cpu-profile.js <a.cpuprofile> [<b.cpuprofile>] [--top 25]

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
}
interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Where a frame's code lives. */
export function packageOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const ours = /dsh-context-engine\/lib\/(?:plugins\/)?([^/]+)/.exec(url);
  if (ours !== null) return `ours: ${ours[1]!.replace(/\.js$/, '')}`;
  const scoped = /node_modules\/(@[^/]+\/[^/]+)/.exec(url);
  if (scoped !== null) return scoped[1]!;
  const plain = /node_modules\/([^/@][^/]*)/.exec(url);
  if (plain !== null) return plain[1]!;
  return url.replace(/^file:\/\//, '');
}

/** Self milliseconds per package and per function of one profile. */
function summarize(path: string): { total: number; byPackage: Map<string, number>; byFunction: Map<string, number> } {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const frame = nodes.get(id)!.callFrame;
    const pkg = packageOf(frame.url, frame.functionName);
    total += ms;
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    const name = `${frame.functionName || '(anonymous)'} ${pkg}${frame.url === '' ? '' : `:${frame.lineNumber + 1}`}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + ms);
  });
  return { total, byPackage, byFunction };
}

const sorted = (map: ReadonlyMap<string, number>) => [...map].sort((a, b) => b[1] - a[1]);

function main(): void {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string' } } });
  const top = Number(values.top ?? 25);
  if (positionals.length < 1 || positionals.length > 2) {
    process.stderr.write('usage: node build/bench/cpu-profile.js <a.cpuprofile> [<b.cpuprofile>] [--top N]\n');
    process.exit(2);
  }
  const [a, b] = positionals.map(summarize);
  for (const [i, s] of [a!, b].entries()) {
    if (s === undefined) continue;
    process.stdout.write(`${positionals[i]}: ${s.total.toFixed(0)} ms sampled\n`);
    for (const [pkg, ms] of sorted(s.byPackage).slice(0, top)) process.stdout.write(`  ${ms.toFixed(1).padStart(9)} ms  ${pkg}\n`);
    process.stdout.write('  functions by self time:\n');
    for (const [fn, ms] of sorted(s.byFunction).slice(0, top)) process.stdout.write(`  ${ms.toFixed(1).padStart(9)} ms  ${fn}\n`);
  }
  if (b !== undefined) {
    const keys = new Set([...a!.byPackage.keys(), ...b.byPackage.keys()]);
    const diff = new Map([...keys].map((k) => [k, (b.byPackage.get(k) ?? 0) - (a!.byPackage.get(k) ?? 0)]));
    process.stdout.write(`second − first: ${(b.total - a!.total).toFixed(0)} ms\n`);
    for (const [pkg, ms] of [...diff].sort((x, y) => Math.abs(y[1]) - Math.abs(x[1])).slice(0, top)) process.stdout.write(`  ${ms.toFixed(1).padStart(9)} ms  ${pkg}\n`);
  }
}

if (process.argv[1]?.endsWith('cpu-profile.js')) main();
