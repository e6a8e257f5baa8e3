// Browser: fetch build/engine.wasm and run every primitive of the engine (examples/README.md).
// The results are shown in the page and left on `window` (demoResults, benchResults or
// exampleError) for test/runtimes/chromium.test.ts and bench/runtimes.ts to read.

import { loadEngine } from '../engine.js';
import { formatDemo, runDemo } from '../demo.js';
import { measure } from '../bench.js';

const output = document.getElementById('output');

async function main() {
  const url = new URL('../../build/engine.wasm', import.meta.url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`cannot fetch ${url}: HTTP ${response.status}`);
  const engine = await loadEngine(await response.arrayBuffer());
  const table = await fetch(new URL('../../build/deepseek-v3.tokenizer', import.meta.url));
  if (!table.ok) throw new Error(`cannot fetch the tokenizer table: HTTP ${table.status}`);
  engine.loadTokenizer(new Uint8Array(await table.arrayBuffer()));
  if (new URLSearchParams(location.search).has('bench')) {
    output.textContent = 'Measuring…';
    const results = { runtime: navigator.userAgent, ...await measure(engine) };
    output.textContent = JSON.stringify(results, null, 2);
    window.benchResults = results;
  } else {
    const results = runDemo(engine);
    output.textContent = formatDemo(results);
    window.demoResults = results;
  }
}

main().catch((error) => {
  output.textContent = `Failed: ${error}`;
  window.exampleError = String(error && error.stack || error);
});
