// examples/bun/main.ts run by the pinned Bun from .test-tools/ (installed by global-setup.ts).

import { inject } from 'vitest';
import { toolPath } from '../../bench/runtime-tools.js';
import { describeRuntime, runExample } from './support.js';

describeRuntime('Bun', async () => {
  const bun = toolPath('Bun', inject('runtimeTools').bun);
  return { demo: JSON.parse(runExample(bun, ['examples/bun/main.ts', '--json'])), text: runExample(bun, ['examples/bun/main.ts']) };
});
