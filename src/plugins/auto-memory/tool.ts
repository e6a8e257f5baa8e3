// The `memory` tool definition (spec AM-08..AM-11): parameter and output schemas, argument checks
// (malformed arguments fail the call as DSH's own argument validation would; domain problems are
// structured `{ ok: false, code, message }` values), and dispatch to the project's store.

import type { ToolDefinition } from '../../host/tools.js';
import type { Project } from './project.js';
import { renderToolResult, toJson } from './render.js';
import { MemoryStore, type StoreLimits, type StoreResult } from './store.js';
import type { MemoryDisk } from './disk.js';

/** The tool name (AM-08). */
export const MEMORY_TOOL = 'memory';
/** The commands, in the order the description lists them. */
export const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename'] as const;
export type Command = (typeof COMMANDS)[number];

const str = (description: string) => ({ type: 'string', description });

const PARAMETERS = {
  type: 'object',
  properties: {
    command: { type: 'string', enum: [...COMMANDS], description: 'The operation.' },
    path: str('A virtual path: /memories or /memories/<file>.md (view: optional, default /memories).'),
    numbered: { type: 'boolean', description: 'view: prefix each line with its 1-based number.' },
    file_text: str('create: the whole content of the new file.'),
    old_str: str('str_replace: the exact text to replace; it must occur exactly once.'),
    new_str: str('str_replace: the replacement text.'),
    insert_line: { type: 'integer', description: 'insert: the 0-based line to insert after; 0 inserts before the first line.' },
    insert_text: str('insert: the text to insert.'),
    new_path: str('rename: the new virtual path.'),
  },
  required: ['command'],
  additionalProperties: false,
} as const;

const ISSUE = { type: 'object', properties: { type: { type: 'string' }, message: { type: 'string' } }, required: ['type', 'message'] };

const OUTPUT_SCHEMA = {
  oneOf: [
    {
      type: 'object',
      properties: { ok: { type: 'boolean', const: false }, code: { type: 'string' }, message: { type: 'string' } },
      required: ['ok', 'code', 'message'],
    },
    {
      type: 'object',
      properties: {
        ok: { type: 'boolean', const: true },
        command: { type: 'string', enum: [...COMMANDS] },
        path: { type: 'string' },
        new_path: { type: 'string' },
        kind: { type: 'string', enum: ['directory', 'file'] },
        entries: { type: 'array', items: { type: 'string' } },
        content: { type: 'string' },
        numbered: { type: 'boolean' },
        issues: { type: 'array', items: ISSUE },
      },
      required: ['ok', 'command', 'path'],
    },
  ],
};

const DESCRIPTION = [
  'Read and write your persistent memory for this project: Markdown files under the virtual directory /memories.',
  'Commands: view (list /memories or a directory, or show a file; numbered: true adds line numbers), create (a new file from file_text),',
  'str_replace (old_str must occur exactly once), insert (insert_text after insert_line; 0 inserts before the first line), delete, rename (to new_path).',
  'Only .md files; /memories/MEMORY.md is the index and is kept up to date automatically.',
].join(' ');

/** Where the tool finds the store for a call. */
export interface MemoryToolHost {
  readonly disk: MemoryDisk;
  readonly limits: StoreLimits;
  /** The project of the calling agent (or of the process without one). */
  project(exec: Parameters<ToolDefinition['execute']>[1]): Promise<Project>;
}

/** Builds the `memory` tool definition over `host`. */
export function memoryTool(host: MemoryToolHost): ToolDefinition {
  return {
    name: MEMORY_TOOL,
    description: DESCRIPTION,
    parameters: PARAMETERS,
    output: {
      schema: OUTPUT_SCHEMA,
      render: (_args, value) => [{ type: 'text', text: renderToolResult(value as unknown as StoreResult) }],
    },
    async execute(args, exec) {
      const input = checkArguments(args);
      const project = await host.project(exec);
      const store = new MemoryStore(host.disk, project.memdir, host.limits, {}, project.root);
      return toJson(await run(store, input));
    },
  };
}

type Input = Record<string, unknown> & { command: Command };

function run(store: MemoryStore, a: Input): Promise<StoreResult> {
  switch (a.command) {
    case 'view':
      return store.view(a.path, a.numbered === true);
    case 'create':
      return store.create(a.path, a.file_text as string);
    case 'str_replace':
      return store.strReplace(a.path, a.old_str as string, a.new_str as string);
    case 'insert':
      return store.insert(a.path, a.insert_line as number, a.insert_text as string);
    case 'delete':
      return store.delete(a.path);
    case 'rename':
      return store.rename(a.path, a.new_path);
  }
}

/** What each command requires, and of which JSON type (AM-08). */
const REQUIRED: Readonly<Record<Command, readonly [string, 'string' | 'number' | 'boolean'][]>> = {
  view: [],
  create: [['path', 'string'], ['file_text', 'string']],
  str_replace: [['path', 'string'], ['old_str', 'string'], ['new_str', 'string']],
  insert: [['path', 'string'], ['insert_line', 'number'], ['insert_text', 'string']],
  delete: [['path', 'string']],
  rename: [['path', 'string'], ['new_path', 'string']],
};
const OPTIONAL: Readonly<Record<string, 'string' | 'boolean'>> = { path: 'string', numbered: 'boolean' };

/** Checks the argument object; throws a TypeError naming the parameter (the call fails as invalid). */
export function checkArguments(args: unknown): Input {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) throw new TypeError('memory: arguments must be a JSON object with a command');
  const a = args as Record<string, unknown>;
  if (typeof a.command !== 'string' || !(COMMANDS as readonly string[]).includes(a.command)) {
    throw new TypeError(`memory: command must be one of ${COMMANDS.join(', ')}, got ${JSON.stringify(a.command ?? null)}`);
  }
  const command = a.command as Command;
  for (const [key, type] of REQUIRED[command]) {
    if (typeof a[key] !== type) throw new TypeError(`memory: ${command} needs ${key} (a ${type === 'number' ? 'integer' : type})`);
  }
  for (const [key, type] of Object.entries(OPTIONAL)) {
    if (a[key] !== undefined && typeof a[key] !== type) throw new TypeError(`memory: ${key} must be a ${type}`);
  }
  return a as Input;
}
