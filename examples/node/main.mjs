// Node (20 or later): load build/engine.wasm (and the tokenizer table) and run every primitive of the engine without the
// package's TypeScript (examples/README.md).
//   node examples/node/main.mjs [--json] [--bench]

import { readFile } from 'node:fs/promises';
import { loadEngine } from '../engine.js';
import { formatDemo, runDemo } from '../demo.js';
import { measure } from '../bench.js';

const bytes = await readFile(new URL('../../build/engine.wasm', import.meta.url));
const engine = await loadEngine(bytes);
// The DeepSeek V3 tokenizer's table (package export `dsh-context-engine/tokenizer-table`).
engine.loadTokenizer(await readFile(new URL('../../build/deepseek-v3.tokenizer', import.meta.url)));

if (process.argv.includes('--bench')) {
  console.log(JSON.stringify({ runtime: `Node ${process.version} (V8 ${process.versions.v8})`, ...await measure(engine) }));
} else if (process.argv.includes('--json')) {
  console.log(JSON.stringify(runDemo(engine)));
} else {
  console.log(formatDemo(runDemo(engine)));
}
