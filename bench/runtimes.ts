// The runtime table: runs each runtime's example (examples/) with --bench (browser: ?bench), one
// runtime after another, and prints a Markdown table of what examples/bench.js measured there:
// SHA-256 throughput on 1 MiB, synchronous 64-byte digests per second through the WASM ABI, and the
// same 64-byte digest through that runtime's async crypto.subtle.digest, per call.
//
//   npm run build && npx tsc -p bench/tsconfig.json && node build/bench/runtimes.js [--json]
//
// Deno, Bun and playwright-core come from .test-tools/ (installed here if missing, as the tests do).

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ensureRuntimeTools, runBrowserExample, toolPath } from './runtime-tools.js';

interface Measured {
  runtime: string;
  sha256MiBps: number;
  sha256Raw64PerSecond: number;
  wasmBare64Microseconds: number;
  wasmRaw64Microseconds: number;
  wasmHex64Microseconds: number;
  subtle64Microseconds: number | null;
  subtleOverWasmRaw: number | null;
  subtleOverWasmHex: number | null;
}

const root = fileURLToPath(new URL('../../', import.meta.url));
const tools = ensureRuntimeTools(root);

function runExample(file: string, args: readonly string[]): Measured {
  const result = spawnSync(file, [...args, '--bench'], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  if (result.status !== 0) throw new Error(`${file} ${args.join(' ')} --bench failed: ${result.stderr}${result.error ?? ''}`);
  return JSON.parse(result.stdout) as Measured;
}

const runs: [string, () => Promise<Measured>][] = [
  ['Node', async () => runExample(process.execPath, ['examples/node/main.mjs'])],
  ['Deno', async () => runExample(toolPath('Deno', tools.deno), ['run', '--allow-read=build/engine.wasm,build/deepseek-v3.tokenizer', 'examples/deno/main.ts'])],
  ['Bun', async () => runExample(toolPath('Bun', tools.bun), ['examples/bun/main.ts'])],
  ['Chromium', async () => {
    const { value, browser } = await runBrowserExample(root, tools, true, 300_000);
    return { ...(value as Measured), runtime: `Chromium ${browser} (headless)` };
  }],
];

const results: Measured[] = [];
for (const [name, run] of runs) {
  process.stderr.write(`measuring ${name}…\n`);
  results.push(await run());
}

if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
} else {
  const fixed = (value: number | null, digits: number): string => (value === null ? 'n/a' : value.toFixed(digits));
  const lines = [
    '| runtime | SHA-256 1 MiB | 64 B SHA-256: export alone | WASM raw (sync) | WASM hex (sync) | crypto.subtle (async) | subtle ÷ WASM raw | subtle ÷ WASM hex |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.runtime} | ${fixed(r.sha256MiBps, 0)} MiB/s | ${fixed(r.wasmBare64Microseconds, 2)} µs | ${fixed(r.wasmRaw64Microseconds, 2)} µs (${fixed(r.sha256Raw64PerSecond / 1e6, 2)} M/s) | ${fixed(r.wasmHex64Microseconds, 2)} µs | ${fixed(r.subtle64Microseconds, 2)} µs | ${fixed(r.subtleOverWasmRaw, 1)}× | ${fixed(r.subtleOverWasmHex, 1)}× |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
