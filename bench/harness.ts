// Side-by-side timing with tinybench. The machines we run on drift in speed over seconds, so a
// comparison is not "run A for a while, then B": each round times every case of a group back to
// back, and the reported ratio is the median over rounds of the per-round ratio of medians.

import { Bench } from 'tinybench';

export interface Case {
  readonly name: string;
  readonly fn: () => unknown;
}

export interface Comparison {
  readonly group: string;
  /** Our implementation. */
  readonly ours: Case;
  /** Baselines; each gets a ratio row. */
  readonly baselines: readonly Case[];
  /** Projects a result to something comparable (results must be equal before anything is timed). */
  readonly same?: (value: unknown) => unknown;
  /** Targets as minimum ratios, per baseline name. */
  readonly targets?: Readonly<Record<string, number>>;
}

export interface Row {
  readonly group: string;
  readonly ours: string;
  readonly oursNs: number;
  readonly baseline: string;
  readonly baselineNs: number;
  /** baseline time / our time: above 1 means ours is faster. */
  readonly ratio: number;
  readonly target?: number;
}

/**
 * The median of `values` (the mean of the middle two for an even count).
 * @param values the numbers, left unsorted
 * @returns their median
 */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function settle(value: unknown): Promise<unknown> {
  return value instanceof Promise ? await value : value;
}

/** Fails loudly when a baseline disagrees with ours: a bench of different answers means nothing. */
async function checkEqual(c: Comparison): Promise<void> {
  const project = c.same ?? ((v: unknown) => v);
  const expected = JSON.stringify(project(await settle(c.ours.fn())));
  for (const b of c.baselines) {
    const got = JSON.stringify(project(await settle(b.fn())));
    if (got !== expected) throw new Error(`${c.group}: ${b.name} disagrees with ${c.ours.name}: ${got.slice(0, 200)} vs ${expected.slice(0, 200)}`);
  }
}

export interface RunOptions {
  readonly rounds: number;
  /** Milliseconds per task per round. */
  readonly time: number;
}

export async function compare(c: Comparison, options: RunOptions): Promise<Row[]> {
  await checkEqual(c);
  const cases = [c.ours, ...c.baselines];
  const perRound: number[][] = cases.map(() => []);
  // Warm-up so that both sides run optimized code (V8 tiers WASM and JS up in the background).
  const warm = new Bench({ time: Math.max(200, options.time), warmupTime: 200 });
  for (const k of cases) warm.add(k.name, k.fn);
  await warm.run();
  for (let round = 0; round < options.rounds; round++) {
    const bench = new Bench({ time: options.time, warmupTime: 20 });
    for (const k of cases) bench.add(k.name, k.fn);
    await bench.run();
    bench.tasks.forEach((task, i) => {
      const result = task.result;
      if (result.state !== 'completed') throw new Error(`${c.group}: ${task.name} ${result.state}`);
      perRound[i]!.push(result.latency.p50 * 1e6); // ms → ns
    });
  }
  const oursNs = median(perRound[0]!);
  return c.baselines.map((b, j) => {
    const ratios = perRound[0]!.map((ours, round) => perRound[j + 1]![round]! / ours);
    return {
      group: c.group,
      ours: c.ours.name,
      oursNs,
      baseline: b.name,
      baselineNs: median(perRound[j + 1]!),
      ratio: median(ratios),
      target: c.targets?.[b.name],
    };
  });
}

const formatNs = (ns: number): string =>
  ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e3 ? `${(ns / 1e3).toFixed(2)} µs` : `${ns.toFixed(0)} ns`;

export function markdownTable(rows: readonly Row[]): string {
  const lines = [
    '| case | ours | baseline | baseline time | ours time | ratio (baseline ÷ ours) | target |',
    '|---|---|---|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const target = r.target === undefined ? '' : `≥ ${r.target}× ${r.ratio >= r.target ? 'met' : '**not met**'}`;
    lines.push(`| ${r.group} | ${r.ours} | ${r.baseline} | ${formatNs(r.baselineNs)} | ${formatNs(r.oursNs)} | ${r.ratio.toFixed(2)}× | ${target} |`);
  }
  return lines.join('\n');
}
