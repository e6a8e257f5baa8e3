// Issue 33: the bundled engine facade (built with --platform=neutral) chooses its path per call from
// what the runtime has (node:crypto and Buffer, found without an import) and must answer the same
// everywhere. test/runtimes/facade/check.mjs makes a fixed set of calls; Deno and Bun (pinned, from
// .test-tools/) must print exactly what Node prints.

import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { TOOLS_DIR, toolPath } from '../../bench/runtime-tools.js';
import { ROOT, runExample } from './support.js';

const CHECK = 'test/runtimes/facade/check.mjs';
const FACADE = join(ROOT, 'lib/engine/index.js');

describe('issue 33 X-14: the engine facade answers alike in Node, Deno and Bun', () => {
  const node = JSON.parse(runExample(process.execPath, [CHECK, FACADE])) as Record<string, unknown>;

  it('Node: the answers themselves are the references\'', () => {
    expect(node.sha1).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(node.utf8).toEqual([6, 303, 4000]);
    expect(node.glob).toEqual([[0], [1], []]);
  });

  it('Deno prints what Node prints', () => {
    const deno = toolPath('Deno', inject('runtimeTools').deno);
    const env = { DENO_DIR: join(ROOT, TOOLS_DIR, 'deno-dir') };
    expect(JSON.parse(runExample(deno, ['run', '--no-prompt', '--allow-read', '--allow-env', CHECK, FACADE], env))).toEqual(node);
  });

  it('Bun prints what Node prints', () => {
    const bun = toolPath('Bun', inject('runtimeTools').bun);
    expect(JSON.parse(runExample(bun, [CHECK, FACADE]))).toEqual(node);
  });
});
