// A `cat` tool for tests that need a large plain-text tool result: DSH's spill policy (and the
// simulated host's) leaves `read` results alone, so a spilled result must come from another tool.

import { join } from 'node:path/posix';
import type { ToolDefinition } from '../../src/host/index.js';
import type { MemoryFileSystem, TestHost } from '../../src/testing/index.js';

/**
 * `cat({ file_path })`: the file's text from the host's in-memory provider.
 * @param host - the host whose provider is read.
 * @param cwd - what a relative `file_path` is relative to.
 * @returns the tool definition, to register with `host.ctx.tools.register`.
 */
export function catTool(host: TestHost<MemoryFileSystem>, cwd: string): ToolDefinition {
  return {
    name: 'cat',
    description: 'Print a file.',
    parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    output: { schema: { type: 'string' }, render: (_args, value) => [{ type: 'text', text: value as string }] },
    execute: async (args) => host.fs.read(join(cwd, (args as { file_path: string }).file_path)),
  };
}
