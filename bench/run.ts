// npm run bench: every suite, side by side with its baselines in the same process, printed as a
// Markdown table of ratios (the table in bench/README.md comes from here), then `dsh-context bench`
// on the real-shaped repositories (repos.ts, each in a process of its own; `npm run bench:repos`
// runs it alone, with the generated monorepo too).
// Options: --quick (fewer, shorter rounds), --only <substring> (groups whose name contains it).

import { cpus, totalmem } from 'node:os';
import { coldStarts } from './cold.bench.js';
import { compare, markdownTable, type Comparison, type Row } from './harness.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const options = quick ? { rounds: 3, time: 100 } : { rounds: 7, time: 150 };

const include = (group: string): boolean => only === undefined || group.includes(only);

// The cold starts come first, while this process has loaded nothing else (cold.bench.ts says why);
// the suites are imported after them.
const cold = coldStarts({ quick, include });

const { autoMemoryComparisons } = await import('./auto-memory.bench.js');
const { digestComparisons } = await import('./digest.bench.js');
const { globComparisons, globExtras } = await import('./glob.bench.js');
const { readComparisons } = await import('./read.bench.js');
const { sliceTapeComparisons } = await import('./slice-tape.bench.js');
const { textComparisons } = await import('./text.bench.js');
const { tokenComparisons } = await import('./tokens.bench.js');
const { workspaceContextComparisons } = await import('./workspace-context.bench.js');

const workspace = include('workspace-context') ? await workspaceContextComparisons(quick) : { comparisons: [], rows: [], notes: [] };
const comparisons: Comparison[] = [
  ...(await digestComparisons()), ...readComparisons(), ...textComparisons(), ...globComparisons(), ...autoMemoryComparisons(), ...workspace.comparisons,
  ...(include('slice-tape') ? await sliceTapeComparisons() : []),
  ...(include('tokens: countTokens') ? tokenComparisons() : []),
]
  .filter((c) => include(c.group));

const rows: Row[] = [];
for (const c of comparisons) {
  const result = await compare(c, options);
  for (const row of result) {
    console.error(`${row.group}: ${row.ours} vs ${row.baseline} ${row.ratio.toFixed(2)}×`);
  }
  rows.push(...result);
}
// Glob rows timed outside tinybench (the whole path list) and notes, then the cold starts.
const glob = globExtras(rows, { quick, include });
rows.push(...glob.rows, ...workspace.rows, ...cold.rows);

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} (V8 ${process.versions.v8})`);
console.log(`${options.rounds} rounds × ${options.time} ms per case; ratio = median over rounds of baseline median ÷ ours median\n`);
console.log(markdownTable(rows));
const notes = [...glob.notes, ...workspace.notes, ...cold.notes];
if (notes.length > 0) console.log(`\n${notes.join('\n')}`);

const REPOS_GROUP = 'dsh-context bench on real-shaped repositories';
if (include(REPOS_GROUP)) {
  const { repoBenches } = await import('./repos.js');
  const { lines } = repoBenches({ dir: '/tmp/dsh-bench-repos', runs: quick ? 1 : 2, monorepo: false, extra: quick ? ['--rounds', '7'] : [] });
  console.log(`\n${REPOS_GROUP} (repos.ts; two runs back to back, each run's ratio against the other's 95% interval):\n\n${lines.join('\n')}`);
}
