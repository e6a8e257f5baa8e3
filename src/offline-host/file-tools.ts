// The host's first-party `read`, `write` and `edit` tools over the mounted provider, as DSH rc.8's
// `@deepseek-ai/dsh-tool-fs` answers the model: `file_path` relative to the session cwd or absolute,
// the same canonical values and the same model-visible text (read: a line-numbered window in a
// `<path>`/`<type>`/`<content>` envelope with DSH's caps and footers, and its presentation meta;
// write: `Created file` / `Updated file`; edit: `The file … has been updated successfully.`), so that
// what plugins derive from tool results (slice-tape's read index and tape lines) is what it would be
// in real DSH. Not reproduced: write's and edit's presentation meta (DSH's diff hunks), which the
// model never sees except in a recall of raw records.

import type { Agent } from '../host/agent.js';
import { FsError, type FileSystem } from '../host/fs.js';
import { FileToolName } from '../host/names.js';
import type { ToolDefinition } from '../host/tools.js';

/** What the tools need: the provider mounted now (it may change) and the fallback cwd. */
export interface FileToolHost {
  readonly fs: FileSystem | undefined;
  readonly processCwd: string;
}

/** DSH's read caps (tool-fs defaults): lines per call, characters per line, bytes of selected lines. */
export const READ_LIMIT = 2000;
export const READ_MAX_LINE_LENGTH = 2000;
export const READ_MAX_BYTES = 50 * 1024;

/** One numbered line of a read window. */
interface ReadLine {
  readonly number: number;
  readonly text: string;
}

/** The read tool's canonical value. */
interface ReadValue {
  readonly path: string;
  readonly offset: number;
  readonly lines: readonly ReadLine[];
  readonly totalLines: number;
}

const str = (description: string) => ({ type: 'string', description }) as const;

/** DSH's syntax hint for a read's presentation meta, by lowercased file extension. */
const LANG_BY_EXTENSION: Readonly<Record<string, string>> = {
  ts: 'ts', tsx: 'tsx', mts: 'ts', cts: 'ts', js: 'js', jsx: 'jsx', mjs: 'js', cjs: 'js', json: 'json', jsonc: 'json',
  py: 'py', rb: 'rb', go: 'go', rs: 'rs', java: 'java', c: 'c', h: 'c', cc: 'cpp', cpp: 'cpp', hpp: 'cpp', cxx: 'cpp',
  cs: 'cs', kt: 'kotlin', swift: 'swift', php: 'php', sh: 'sh', bash: 'sh', zsh: 'sh', yaml: 'yaml', yml: 'yaml',
  toml: 'toml', ini: 'ini', md: 'md', markdown: 'md', mdx: 'mdx', html: 'html', htm: 'html', css: 'css', scss: 'scss',
  less: 'less', sql: 'sql', xml: 'xml', lua: 'lua',
};

/** The hint for `path`: none for a dotfile without extension or an unknown extension. */
function langOf(path: string): string | undefined {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return Object.hasOwn(LANG_BY_EXTENSION, base.slice(dot + 1).toLowerCase()) ? LANG_BY_EXTENSION[base.slice(dot + 1).toLowerCase()] : undefined;
}

/** The window `offset`..`offset+limit-1` of `text`, each line capped, the selected lines capped in bytes. */
function readWindow(text: string, offset: number, limit: number, path: string): ReadValue & { readonly truncatedByBytes: boolean } {
  const lines: ReadLine[] = [];
  let totalLines = 0;
  let bytes = 0;
  let truncatedByBytes = false;
  const raw = text.split('\n');
  if (raw.at(-1) === '') raw.pop();
  for (const rawLine of raw) {
    totalLines += 1;
    if (truncatedByBytes || totalLines < offset || lines.length >= limit) continue;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    const shown = line.length > READ_MAX_LINE_LENGTH ? `${line.substring(0, READ_MAX_LINE_LENGTH)}... (line truncated to ${READ_MAX_LINE_LENGTH} chars)` : line;
    const size = Buffer.byteLength(shown, 'utf8') + (lines.length > 0 ? 1 : 0);
    if (bytes + size > READ_MAX_BYTES) {
      truncatedByBytes = true;
      continue;
    }
    bytes += size;
    lines.push({ number: totalLines, text: shown });
  }
  if (!truncatedByBytes && offset > totalLines && !(totalLines === 0 && offset === 1)) {
    throw new FsError('FS_NOT_FOUND', `offset ${offset} is out of range for "${path}" (${totalLines} lines)`);
  }
  return { path, offset, lines, totalLines, truncatedByBytes };
}

/** DSH's read envelope: numbered lines, then a footer saying where the window ends. */
function readText(value: ReadValue, truncatedByBytes: boolean): string {
  const endLine = value.lines.at(-1)?.number ?? Math.max(0, value.offset - 1);
  const footer = truncatedByBytes
    ? `(Output capped. Showing lines ${value.offset}-${endLine}. Use offset=${endLine + 1} to continue.)`
    : endLine < value.totalLines
      ? `(Showing lines ${value.offset}-${endLine} of ${value.totalLines}. Use offset=${endLine + 1} to continue.)`
      : `(End of file - total ${value.totalLines} lines)`;
  const body = value.lines.length > 0 ? `${value.lines.map((l) => `${l.number}: ${l.text}`).join('\n')}\n\n${footer}` : footer;
  return `<path>${value.path}</path>\n<type>file</type>\n<content>\n${body}\n</content>`;
}

function positive(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

/** Builds the three tool definitions. */
export function fileTools(host: FileToolHost): ToolDefinition[] {
  const target = async (args: unknown, agent: Agent | undefined, signal: AbortSignal, tool: string) => {
    const fs = host.fs;
    if (fs === undefined) throw new Error(`${tool}: no filesystem provider is mounted`);
    const path = (args as { file_path?: unknown } | null)?.file_path;
    if (typeof path !== 'string' || path.trim() === '') throw new TypeError('file_path must be a non-empty string');
    const cwd = agent?.session.header.cwd ?? host.processCwd;
    return { fs, target: await fs.resolve(path, { cwd, signal }) };
  };
  const string = (args: unknown, key: string): string => {
    const value = (args as Record<string, unknown>)[key];
    if (typeof value !== 'string') throw new TypeError(`${key} must be a string`);
    return value;
  };
  return [
    {
      name: FileToolName.read,
      description: 'Read a UTF-8 text file and return line-numbered content.',
      parameters: {
        type: 'object',
        properties: {
          file_path: str('Path to read, resolved by the filesystem backend.'),
          offset: { type: 'number', description: '1-based first line to return. Defaults to 1.' },
          limit: { type: 'number', description: `Maximum number of lines to return. Defaults to ${READ_LIMIT}.` },
        },
        required: ['file_path'],
      },
      output: {
        schema: { type: 'object', properties: { path: { type: 'string' }, offset: { type: 'integer' }, lines: { type: 'array', items: { type: 'object', properties: { number: { type: 'integer' }, text: { type: 'string' } } } }, totalLines: { type: 'integer' } } },
        render: (args, value) => {
          const v = value as unknown as ReadValue;
          const limit = (args as { limit?: number }).limit ?? READ_LIMIT;
          const endLine = v.lines.at(-1)?.number ?? Math.max(0, v.offset - 1);
          return [{ type: 'text', text: readText(v, v.lines.length < limit && endLine < v.totalLines) }];
        },
        // What DSH logs beside a read's result for its UI (and recall's full view shows).
        presentationMeta: (_args, value) => {
          const v = value as unknown as ReadValue;
          const lang = langOf(v.path);
          return { path: v.path, offset: v.offset, lines: v.lines.map(({ number, text }) => ({ number, text })), totalLines: v.totalLines, ...(lang !== undefined ? { lang } : {}) };
        },
      },
      async execute(args, exec) {
        const a = (args ?? {}) as { offset?: unknown; limit?: unknown };
        const offset = a.offset === undefined ? 1 : positive(a.offset, 'offset');
        const limit = a.limit === undefined ? READ_LIMIT : positive(a.limit, 'limit');
        if (limit > READ_LIMIT) throw new Error(`limit must be less than or equal to ${READ_LIMIT}`);
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'read');
        const info = await fs.stat(t, exec.signal);
        if (info === undefined) throw new FsError('FS_NOT_FOUND', `cannot read "${t.displayPath}": not found`);
        if (info.type !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `cannot read "${t.displayPath}": not a regular file`);
        const { truncatedByBytes: _, ...value } = readWindow(await fs.readText(t, exec.signal), offset, limit, t.displayPath);
        return value;
      },
    },
    {
      name: FileToolName.write,
      description: 'Create or fully replace a UTF-8 text file.',
      parameters: {
        type: 'object',
        properties: { file_path: str('Path to write, resolved by the filesystem backend.'), content: str('Full UTF-8 text content to write.') },
        required: ['file_path', 'content'],
      },
      output: {
        schema: { type: 'object', properties: { path: { type: 'string' }, operation: { type: 'string', enum: ['create', 'update'] } } },
        render: (_args, value) => {
          const v = value as { path: string; operation: 'create' | 'update' };
          return [{ type: 'text', text: `<path>${v.path}</path>\n<type>file</type>\n<content>\n${v.operation === 'create' ? 'Created' : 'Updated'} file\n</content>` }];
        },
      },
      async execute(args, exec) {
        const content = string(args, 'content');
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'write');
        const outcome = await fs.writeText(t, content, undefined, exec.signal);
        return { path: t.displayPath, operation: outcome.created ? 'create' : 'update' };
      },
    },
    {
      name: FileToolName.edit,
      description: 'Edit an existing UTF-8 text file by replacing literal text.',
      parameters: {
        type: 'object',
        properties: {
          file_path: str('Path to edit, resolved by the filesystem backend.'),
          old_string: str('Literal text to replace.'),
          new_string: str('Literal replacement text. Use an empty string to delete the match.'),
          replace_all: { type: 'boolean', description: 'Replace every occurrence instead of exactly one.' },
        },
        required: ['file_path', 'old_string', 'new_string'],
      },
      output: {
        schema: { type: 'object', properties: { path: { type: 'string' }, replaceAll: { type: 'boolean' }, replacements: { type: 'integer' } } },
        render: (_args, value) => {
          const v = value as { path: string; replaceAll: boolean };
          return [{ type: 'text', text: v.replaceAll ? `The file ${v.path} has been updated. All occurrences were successfully replaced.` : `The file ${v.path} has been updated successfully.` }];
        },
      },
      async execute(args, exec) {
        const oldString = string(args, 'old_string');
        const newString = string(args, 'new_string');
        const replaceAll = (args as { replace_all?: unknown }).replace_all === true;
        const { fs, target: t } = await target(args, exec.agent, exec.signal, 'edit');
        const outcome = await fs.editText(t, { oldString, newString, replaceAll }, undefined, exec.signal);
        return { path: t.displayPath, replaceAll, replacements: outcome.replacements };
      },
    },
  ];
}
