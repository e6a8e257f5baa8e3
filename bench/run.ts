// npm run bench: every suite, side by side with its baselines in the same process, printed as a
// Markdown table of ratios (the table in bench/README.md comes from here).
// Options: --quick (fewer, shorter rounds), --only <substring> (groups whose name contains it).

import { cpus, totalmem } from 'node:os';
import { autoMemoryComparisons } from './auto-memory.bench.js';
import { compare, markdownTable, type Comparison, type Row } from './harness.js';
import { digestComparisons } from './digest.bench.js';
import { globComparisons, globExtras } from './glob.bench.js';
import { readComparisons } from './read.bench.js';
import { sliceTapeComparisons } from './slice-tape.bench.js';
import { textComparisons } from './text.bench.js';
import { tokenComparisons, tokenExtras } from './tokens.bench.js';
import { workspaceContextComparisons } from './workspace-context.bench.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const options = quick ? { rounds: 3, time: 100 } : { rounds: 7, time: 150 };

const include = (group: string): boolean => only === undefined || group.includes(only);
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
// Glob rows timed outside tinybench (the whole path list, cold starts in fresh processes) and notes.
const glob = globExtras(rows, { quick, include });
const tokens = tokenExtras({ quick, include });
rows.push(...glob.rows, ...workspace.rows, ...tokens.rows);

const cpu = cpus()[0]?.model ?? 'unknown CPU';
console.log(`${new Date().toISOString().slice(0, 10)} · ${cpu} · ${cpus().length} cores · ${Math.round(totalmem() / 2 ** 30)} GiB · Node ${process.version} (V8 ${process.versions.v8})`);
console.log(`${options.rounds} rounds × ${options.time} ms per case; ratio = median over rounds of baseline median ÷ ours median\n`);
console.log(markdownTable(rows));
const notes = [...glob.notes, ...workspace.notes, ...tokens.notes];
if (notes.length > 0) console.log(`\n${notes.join('\n')}`);
