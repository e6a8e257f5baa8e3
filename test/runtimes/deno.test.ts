// examples/deno/main.ts run by the pinned Deno from .test-tools/ (installed by global-setup.ts).

import { inject } from 'vitest';
import { toolPath } from '../../bench/runtime-tools.js';
import { describeRuntime, runExample } from './support.js';

describeRuntime('Deno', async () => {
  const deno = toolPath('Deno', inject('runtimeTools').deno);
  const args = ['run', '--no-prompt', '--allow-read=build/engine.wasm', 'examples/deno/main.ts'];
  return { demo: JSON.parse(runExample(deno, [...args, '--json'])), text: runExample(deno, args) };
});
