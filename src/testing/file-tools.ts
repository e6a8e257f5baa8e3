// The host's first-party `read`, `write` and `edit` tools over the mounted provider, with
// `file_path` inputs as DSH's own (contract §7.5), so plugins that react to file touches can be
// exercised without writing tools in every test. Relative paths resolve against the session cwd.

import type { Agent } from '../host/agent.js';
import { FsError, type FileSystem } from '../host/fs.js';
import { FileToolName } from '../host/names.js';
import type { ToolDefinition } from '../host/tools.js';

/** What the tools need: the provider mounted now (it may change) and the fallback cwd. */
export interface FileToolHost {
  readonly fs: FileSystem | undefined;
  readonly processCwd: string;
}

const str = { type: 'string' } as const;

/** Builds the three tool definitions. */
export function fileTools(host: FileToolHost): ToolDefinition[] {
  const target = async (args: unknown, agent: Agent | undefined, signal: AbortSignal, tool: string) => {
    const fs = host.fs;
    if (fs === undefined) throw new Error(`${tool}: no filesystem provider is mounted`);
    const path = (args as { file_path?: unknown } | null)?.file_path;
    if (typeof path !== 'string' || path.trim() === '') throw new TypeError(`${tool}: file_path must be a non-empty string`);
    const cwd = agent?.session.header.cwd ?? host.processCwd;
    return { fs, target: await fs.resolve(path, { cwd, signal }) };
  };
  const string = (args: unknown, key: string, tool: string): string => {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== 'string') throw new TypeError(`${tool}: ${key} must be a string`);
    return value;
  };
  return [
    {
      name: FileToolName.read,
      description: 'Read a text file.',
      parameters: { type: 'object', properties: { file_path: str }, required: ['file_path'] },
      output: {
        schema: { type: 'object', properties: { file_path: str, content: str }, required: ['file_path', 'content'] },
        render: (_args, value) => [{ type: 'text', text: (value as { content: string }).content }],
      },
      async execute(args, exec) {
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'read');
        if ((await fs.stat(t, exec.signal)) === undefined) throw new FsError('FS_NOT_FOUND', `read: ${t.displayPath} does not exist`);
        return { file_path: t.displayPath, content: await fs.readText(t, exec.signal) };
      },
    },
    {
      name: FileToolName.write,
      description: 'Write a text file, replacing its content.',
      parameters: { type: 'object', properties: { file_path: str, content: str }, required: ['file_path', 'content'] },
      output: {
        schema: { type: 'object', properties: { file_path: str, created: { type: 'boolean' } }, required: ['file_path', 'created'] },
        render: (_args, value) => {
          const v = value as { file_path: string; created: boolean };
          return [{ type: 'text', text: `${v.created ? 'Created' : 'Updated'} ${v.file_path}` }];
        },
      },
      async execute(args, exec) {
        const content = string(args, 'content', 'write');
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'write');
        const outcome = await fs.writeText(t, content, undefined, exec.signal);
        return { file_path: t.displayPath, created: outcome.created };
      },
    },
    {
      name: FileToolName.edit,
      description: 'Replace an exact string in a text file.',
      parameters: {
        type: 'object',
        properties: { file_path: str, old_string: str, new_string: str, replace_all: { type: 'boolean' } },
        required: ['file_path', 'old_string', 'new_string'],
      },
      output: {
        schema: { type: 'object', properties: { file_path: str, replacements: { type: 'integer' } }, required: ['file_path', 'replacements'] },
        render: (_args, value) => {
          const v = value as { file_path: string; replacements: number };
          return [{ type: 'text', text: `Edited ${v.file_path} (${v.replacements} replacement${v.replacements === 1 ? '' : 's'})` }];
        },
      },
      async execute(args, exec) {
        const oldString = string(args, 'old_string', 'edit');
        const newString = string(args, 'new_string', 'edit');
        const replaceAll = (args as { replace_all?: unknown }).replace_all === true;
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'edit');
        const outcome = await fs.editText(t, { oldString, newString, replaceAll }, undefined, exec.signal);
        return { file_path: t.displayPath, replacements: outcome.replacements };
      },
    },
  ];
}
