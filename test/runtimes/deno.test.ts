// examples/deno/main.ts run by the pinned Deno from .test-tools/ (installed by global-setup.ts).

import { join } from 'node:path';
import { expect, inject, it } from 'vitest';
import { TOOLS_DIR, toolPath } from '../../bench/runtime-tools.js';
import { describeRuntime, ROOT, runExample } from './support.js';

// Deno's caches go to the tool directory, not the user's home.
const env = { DENO_DIR: join(ROOT, TOOLS_DIR, 'deno-dir') };
const deno = (): string => toolPath('Deno', inject('runtimeTools').deno);

describeRuntime('Deno', async () => {
  const args = ['run', '--no-prompt', '--allow-read=build/engine.wasm,build/deepseek-v3.tokenizer', 'examples/deno/main.ts'];
  return { demo: JSON.parse(runExample(deno(), [...args, '--json'], env)), text: runExample(deno(), args, env) };
});

it('X-14 Deno: the example type-checks as Deno TypeScript (deno check)', () => {
  expect(runExample(deno(), ['check', '--quiet', 'examples/deno/main.ts'], env)).toBe('');
});
