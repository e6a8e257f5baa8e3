// One cold start, run in a fresh process by glob.bench.ts: `node build/bench/cold-start.js ours|picomatch`.
// Times, with performance.now, loading the library + compiling the 50 rule patterns + matching 1,000
// paths, and prints {"ms": ..., "phases": {"load", "compile", "match"}, "digest": ...} (the digest
// of the results, so the parent can check that both sides gave the same answers). The inputs are
// generated before the clock starts.

import { matchingIndices, monorepoPaths, RULE_PATTERNS } from './glob-inputs.js';

const side = process.argv[2];
if (side !== 'ours' && side !== 'picomatch') throw new Error(`usage: cold-start.js ours|picomatch (got ${side})`);

const paths = monorepoPaths(1000, 7);
const patterns = [...RULE_PATTERNS];

const start = performance.now();
let results: number[][];
let loaded: number;
let compiled: number;
if (side === 'ours') {
  const { compileGlobs } = await import('dsh-context-engine/engine');
  loaded = performance.now();
  const set = compileGlobs(patterns);
  compiled = performance.now();
  results = set.matchAll(paths);
} else {
  const { default: picomatch } = await import('picomatch');
  loaded = performance.now();
  const matchers = patterns.map((p) => picomatch(p));
  compiled = performance.now();
  results = paths.map((path) => matchingIndices(matchers, path));
}
const end = performance.now();
const phases = { load: loaded - start, compile: compiled - loaded, match: end - compiled };

const { createHash } = await import('node:crypto');
const digest = createHash('sha1').update(JSON.stringify(results)).digest('hex');
process.stdout.write(`${JSON.stringify({ ms: end - start, phases, digest })}\n`);
