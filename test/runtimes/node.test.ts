// examples/node/main.mjs: the raw .wasm in Node through the standalone loader, without the package's
// TypeScript (the Node row of the runtime table).

import { describeRuntime, runExample } from './support.js';

describeRuntime('Node', async () => ({
  demo: JSON.parse(runExample(process.execPath, ['examples/node/main.mjs', '--json'])),
  text: runExample(process.execPath, ['examples/node/main.mjs']),
}));
