// Frontmatter of memory files and rule files (spec AM-13, AM-14, AM-33). Deliberately not full
// YAML: the block is the leading `---` line through the next `---` line, and only flat `key: value`
// lines plus one nested `metadata:` level are read; everything else is ignored, so a hand-written
// `description: use a: b` still reads as `use a: b`. Quoted values and flow lists (`["a", "b"]`) are
// decoded by the `yaml` library, which knows YAML's escape rules; unquoted values are taken as they
// are (a leading `*` in a glob would be an alias to YAML).

import { parse as parseYaml } from 'yaml';

/** The frontmatter split off a file. */
export interface Frontmatter {
  /** The raw lines between the fences, without line endings; `undefined` when there is no block. */
  readonly lines: readonly string[] | undefined;
  /** Everything after the closing fence line (the whole text when there is no block). */
  readonly body: string;
}

const FENCE = /^---[ \t]*$/;
const KEY_VALUE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*?)|)[ \t]*$/;
const INDENTED = /^[ \t]+/;
const LIST_ITEM = /^[ \t]*-[ \t]+(.*?)[ \t]*$/;

/** Splits `text` into its frontmatter lines and body (AM-14): the block must start on the first line. */
export function splitFrontmatter(text: string): Frontmatter {
  const lines = text.split('\n');
  if (lines.length < 2 || !FENCE.test(stripCr(lines[0]!))) return { lines: undefined, body: text };
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(stripCr(lines[i]!))) {
      return { lines: lines.slice(1, i).map(stripCr), body: lines.slice(i + 1).join('\n') };
    }
  }
  return { lines: undefined, body: text };
}

function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/**
 * Decodes one scalar: surrounding single or double quotes through YAML's rules (escapes, doubled
 * single quotes), falling back to stripping the quotes when YAML refuses the text; anything else
 * as written.
 */
export function scalar(raw: string): string {
  const text = raw.trim();
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.endsWith(text[0])) {
    try {
      const value: unknown = parseYaml(text);
      if (typeof value === 'string') return value;
    } catch {
      // not valid YAML: strip the quotes only
    }
    return text.slice(1, -1);
  }
  return text;
}

/** Memory frontmatter fields (AM-13): top-level flat keys and the `metadata:` map. */
export interface MemoryFields {
  readonly name?: string;
  readonly description?: string;
  /** `metadata.type`, else a top-level `type`. */
  readonly type?: string;
}

/** Reads the memory fields of a file's frontmatter (AM-14); a file without a block has none. */
export function memoryFields(text: string): MemoryFields {
  const { lines } = splitFrontmatter(text);
  if (lines === undefined) return {};
  const top = new Map<string, string>();
  const metadata = new Map<string, string>();
  let inMetadata = false;
  for (const line of lines) {
    if (INDENTED.test(line)) {
      const nested = inMetadata ? KEY_VALUE.exec(line.trimStart()) : null;
      if (nested !== null && !metadata.has(nested[1]!)) metadata.set(nested[1]!, scalar(nested[2] ?? ''));
      continue;
    }
    const match = KEY_VALUE.exec(line);
    inMetadata = match !== null && match[1] === 'metadata' && (match[2] ?? '') === '';
    if (match !== null && !inMetadata && !top.has(match[1]!)) top.set(match[1]!, scalar(match[2] ?? ''));
  }
  const pick = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const type = pick(metadata.get('type')) ?? pick(top.get('type'));
  return {
    ...(pick(top.get('name')) !== undefined ? { name: top.get('name')! } : {}),
    ...(pick(top.get('description')) !== undefined ? { description: top.get('description')! } : {}),
    ...(type !== undefined ? { type } : {}),
  };
}

/**
 * The `paths` globs of a rule file (AM-33): a block list of `- glob` items (quoted or not), a flow
 * list, or a single scalar. Blank entries are dropped; absent or empty `paths` gives `[]`, which
 * makes the rule unconditional. Every other key is ignored.
 */
export function rulePaths(lines: readonly string[] | undefined): string[] {
  if (lines === undefined) return [];
  for (let i = 0; i < lines.length; i++) {
    const match = INDENTED.test(lines[i]!) ? null : KEY_VALUE.exec(lines[i]!);
    if (match === null || match[1] !== 'paths') continue;
    const value = (match[2] ?? '').trim();
    if (value !== '') return nonBlank(value.startsWith('[') ? flowList(value) : [scalar(value)]);
    const items: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const item = LIST_ITEM.exec(lines[j]!);
      if (item !== null) items.push(scalar(item[1]!));
      else if (lines[j]!.trim() !== '') break;
    }
    return nonBlank(items);
  }
  return [];
}

function flowList(text: string): string[] {
  try {
    const value: unknown = parseYaml(text);
    if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  } catch {
    // not a YAML flow list: read it as one scalar below
  }
  return [scalar(text)];
}

function nonBlank(values: string[]): string[] {
  return values.map((v) => v.trim()).filter((v) => v !== '');
}
