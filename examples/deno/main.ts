// Deno: load build/engine.wasm and run every primitive of the engine (examples/README.md).
//   deno run --allow-read=build examples/deno/main.ts [--json] [--bench]
// `--allow-read` is for the .wasm file and the tokenizer table; the engine itself does no I/O.

import { loadEngine } from '../engine.js';
import { formatDemo, runDemo } from '../demo.js';
import { measure } from '../bench.js';

const bytes = await Deno.readFile(new URL('../../build/engine.wasm', import.meta.url));
const engine = await loadEngine(bytes);
engine.loadTokenizer(await Deno.readFile(new URL('../../build/deepseek-v3.tokenizer', import.meta.url)));

if (Deno.args.includes('--bench')) {
  console.log(JSON.stringify({ runtime: `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`, ...await measure(engine) }));
} else if (Deno.args.includes('--json')) {
  console.log(JSON.stringify(runDemo(engine)));
} else {
  console.log(formatDemo(runDemo(engine)));
}
