// Bun: load build/engine.wasm and run every primitive of the engine (examples/README.md).
//   bun examples/bun/main.ts [--json] [--bench]

import { loadEngine } from '../engine.js';
import { formatDemo, runDemo } from '../demo.js';
import { measure } from '../bench.js';

const bytes = await Bun.file(new URL('../../build/engine.wasm', import.meta.url)).arrayBuffer();
const engine = await loadEngine(bytes);
engine.loadTokenizer(new Uint8Array(await Bun.file(new URL('../../build/deepseek-v3.tokenizer', import.meta.url)).arrayBuffer()));

if (Bun.argv.includes('--bench')) {
  console.log(JSON.stringify({ runtime: `Bun ${Bun.version} (JavaScriptCore)`, ...await measure(engine) }));
} else if (Bun.argv.includes('--json')) {
  console.log(JSON.stringify(runDemo(engine)));
} else {
  console.log(formatDemo(runDemo(engine)));
}
