// Frontmatter of memory files and rule files (spec AM-13, AM-14, AM-33). Deliberately not full
// YAML: the block is the leading `---` line through the next `---` line, and only flat `key: value`
// lines plus one nested `metadata:` level are read; everything else is ignored, so a hand-written
// `description: use a: b` still reads as `use a: b`. Rule files and memory files are untrusted
// (a repository's `.claude/rules`, or the model through the memory tool), so every line is read by
// a hand scan that looks at each character a bounded number of times: the time is linear in the
// text (a `Meter` counts the steps for the tests). Quoted values are decoded by the `yaml` library,
// which knows YAML's escape rules and reads one quoted scalar in linear time; flow lists
// (`["a", "b"]`) are split here, because `yaml`'s flow-collection parser is not linear (quadratic on
// `[? ? ? …]`). Unquoted values are taken as they are (a leading `*` in a glob would be an alias to
// YAML).

import { parse as parseYaml } from 'yaml';

/** The frontmatter split off a file. */
export interface Frontmatter {
  /** The raw lines between the fences, without line endings; `undefined` when there is no block. */
  readonly lines: readonly string[] | undefined;
  /** Everything after the closing fence line (the whole text when there is no block). */
  readonly body: string;
}

/**
 * Counts the characters the reader looks at (its own loops and the built-in calls it makes, each at
 * the length of its input), so a test can check the work is linear without timing anything.
 */
export interface Meter {
  steps: number;
}

/** The meter of callers that do not count. */
const UNCOUNTED: Meter = { steps: 0 };

const TAB = 0x09;
const SPACE = 0x20;
const CR = 0x0d;
const LF = 0x0a;
const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;
const COLON = 0x3a;
const DASH = 0x2d;
const BACKSLASH = 0x5c;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const isBlank = (c: number) => c === SPACE || c === TAB;
/** What ECMAScript's `.` does not match: a value may not hold these. */
const isLineTerminator = (c: number) => c === LF || c === CR || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR;
const isKeyStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
const isKeyChar = (c: number) => isKeyStart(c) || (c >= 0x30 && c <= 0x39) || c === DASH;
const isOpening = (c: number) => c === OPEN_BRACKET || c === OPEN_BRACE;
const isClosing = (c: number) => c === CLOSE_BRACKET || c === CLOSE_BRACE;

/** `line` without one final CR. */
function stripCr(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Index of the first character at or after `from` that is not a space or tab. */
function skipBlanks(line: string, from: number, meter: Meter): number {
  let i = from;
  while (i < line.length && isBlank(line.charCodeAt(i))) i++;
  meter.steps += i - from + 1;
  return i;
}

/**
 * A value after its `:` or `-` marker: it must be empty or start with a space or tab, hold no line
 * terminator, and it is returned without surrounding spaces and tabs; `undefined` when it does not
 * qualify (so the line is not a `key: value` or list-item line).
 */
function markedValue(line: string, from: number, meter: Meter): string | undefined {
  if (from < line.length && !isBlank(line.charCodeAt(from))) return undefined;
  let first = -1;
  let last = -1;
  for (let i = from; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (isLineTerminator(c)) {
      meter.steps += i - from + 1;
      return undefined;
    }
    if (!isBlank(c)) {
      if (first < 0) first = i;
      last = i;
    }
  }
  meter.steps += line.length - from + 1;
  return first < 0 ? '' : line.slice(first, last + 1);
}

/** A `---` fence line (trailing spaces and tabs allowed; a final CR is stripped first). */
export function isFence(line: string, meter: Meter = UNCOUNTED): boolean {
  const text = stripCr(line);
  return text.startsWith('---') && skipBlanks(text, 3, meter) === text.length;
}

/**
 * A `key: value` line (AM-14): a key of `[A-Za-z_][A-Za-z0-9_-]*` at the start, optional spaces or
 * tabs, a colon, then nothing or a space or tab and the value; the value is trimmed of spaces and
 * tabs and may hold no line terminator. `undefined` for any other line.
 */
export function keyValue(line: string, meter: Meter = UNCOUNTED): { readonly key: string; readonly value: string } | undefined {
  if (line.length === 0 || !isKeyStart(line.charCodeAt(0))) return undefined;
  let end = 1;
  while (end < line.length && isKeyChar(line.charCodeAt(end))) end++;
  meter.steps += end;
  const colon = skipBlanks(line, end, meter);
  if (line.charCodeAt(colon) !== COLON) return undefined;
  const value = markedValue(line, colon + 1, meter);
  return value === undefined ? undefined : { key: line.slice(0, end), value };
}

/** A block-list item line (`- value`, indented or not, at least one space or tab after the dash); `undefined` otherwise. */
export function listItem(line: string, meter: Meter = UNCOUNTED): string | undefined {
  const dash = skipBlanks(line, 0, meter);
  if (line.charCodeAt(dash) !== DASH || dash + 1 >= line.length) return undefined;
  return markedValue(line, dash + 1, meter);
}

/** Whether a line is indented (starts with a space or tab). */
const isIndented = (line: string) => line.length > 0 && isBlank(line.charCodeAt(0));

/** Splits `text` into its frontmatter lines and body (AM-14): the block must start on the first line. */
export function splitFrontmatter(text: string, meter: Meter = UNCOUNTED): Frontmatter {
  const lines = text.split('\n');
  meter.steps += text.length + 1;
  if (lines.length < 2 || !isFence(lines[0]!, meter)) return { lines: undefined, body: text };
  for (let i = 1; i < lines.length; i++) {
    if (isFence(lines[i]!, meter)) {
      meter.steps += text.length;
      return { lines: lines.slice(1, i).map(stripCr), body: lines.slice(i + 1).join('\n') };
    }
  }
  return { lines: undefined, body: text };
}

/**
 * Decodes one scalar: surrounding single or double quotes through YAML's rules (escapes, doubled
 * single quotes), falling back to stripping the quotes when YAML refuses the text; anything else
 * as written.
 */
export function scalar(raw: string, meter: Meter = UNCOUNTED): string {
  const text = raw.trim();
  meter.steps += raw.length + 1;
  if (text.length >= 2 && (text[0] === '"' || text[0] === "'") && text.endsWith(text[0])) {
    meter.steps += text.length;
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

/** The raw (undecoded) flat keys and `metadata:` keys of a block, first occurrence of each. */
export function rawFields(lines: readonly string[], meter: Meter = UNCOUNTED): { top: Map<string, string>; metadata: Map<string, string> } {
  const top = new Map<string, string>();
  const metadata = new Map<string, string>();
  let inMetadata = false;
  for (const line of lines) {
    if (isIndented(line)) {
      if (inMetadata) {
        meter.steps += line.length;
        const nested = keyValue(line.trimStart(), meter);
        if (nested !== undefined && !metadata.has(nested.key)) metadata.set(nested.key, nested.value);
      }
      continue;
    }
    const match = keyValue(line, meter);
    inMetadata = match !== undefined && match.key === 'metadata' && match.value === '';
    if (match !== undefined && !inMetadata && !top.has(match.key)) top.set(match.key, match.value);
  }
  return { top, metadata };
}

/** Memory frontmatter fields (AM-13): top-level flat keys and the `metadata:` map. */
export interface MemoryFields {
  readonly name?: string;
  readonly description?: string;
  /** `metadata.type`, else a top-level `type`. */
  readonly type?: string;
}

/** Reads the memory fields of a file's frontmatter (AM-14); a file without a block has none. */
export function memoryFields(text: string, meter: Meter = UNCOUNTED): MemoryFields {
  const { lines } = splitFrontmatter(text, meter);
  if (lines === undefined) return {};
  const raw = rawFields(lines, meter);
  const get = (map: Map<string, string>, key: string) => {
    const value = map.get(key);
    return value === undefined ? undefined : scalar(value, meter);
  };
  const pick = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const name = pick(get(raw.top, 'name'));
  const description = pick(get(raw.top, 'description'));
  const type = pick(get(raw.metadata, 'type')) ?? pick(get(raw.top, 'type'));
  return {
    ...(name !== undefined ? { name } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(type !== undefined ? { type } : {}),
  };
}

/**
 * The raw `paths` entry of a block: the inline value (trimmed) or the block items that follow an
 * empty `paths:` (until the first non-blank line that is not an item); `undefined` without one.
 */
export function rawPaths(lines: readonly string[], meter: Meter = UNCOUNTED): { inline: string } | { items: string[] } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const match = isIndented(lines[i]!) ? undefined : keyValue(lines[i]!, meter);
    if (match === undefined || match.key !== 'paths') continue;
    const value = match.value.trim();
    meter.steps += match.value.length;
    if (value !== '') return { inline: value };
    const items: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const item = listItem(lines[j]!, meter);
      if (item !== undefined) items.push(item);
      else {
        meter.steps += lines[j]!.length;
        if (lines[j]!.trim() !== '') break;
      }
    }
    return { items };
  }
  return undefined;
}

/**
 * The `paths` globs of a rule file (AM-33): a block list of `- glob` items (quoted or not), a flow
 * list, or a single scalar. Blank entries are dropped; absent or empty `paths` gives `[]`, which
 * makes the rule unconditional. Every other key is ignored.
 */
export function rulePaths(lines: readonly string[] | undefined, meter: Meter = UNCOUNTED): string[] {
  const raw = lines === undefined ? undefined : rawPaths(lines, meter);
  if (raw === undefined) return [];
  if ('items' in raw) return nonBlank(raw.items.map((item) => scalar(item, meter)), meter);
  return nonBlank(raw.inline.startsWith('[') ? flowList(raw.inline, meter) : [scalar(raw.inline, meter)], meter);
}

/**
 * A flow list `[a, "b", 'c']`: split at the commas that are outside quotes and outside nested
 * `[]`/`{}` (so `{ts,tsx}` stays in its glob), each item decoded as a scalar. An item that is a whole
 * nested list or map is not a glob and is dropped (YAML would make it a collection). Text that is not
 * a well-formed flow list (no closing `]`, an open quote or bracket) is read as one scalar.
 */
function flowList(text: string, meter: Meter): string[] {
  if (!text.endsWith(']')) return [scalar(text, meter)];
  const items: string[] = [];
  let depth = 0;
  let quote = 0;
  let start = 1;
  const end = text.length - 1;
  for (let i = 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === BACKSLASH && quote === DOUBLE_QUOTE) i++; // an escape inside double quotes
      else if (c === quote) quote = 0;
    } else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) quote = c;
    else if (isOpening(c)) depth++;
    else if (isClosing(c)) {
      if (--depth < 0) break;
    } else if (c === COMMA && depth === 0) {
      items.push(text.slice(start, i));
      start = i + 1;
    }
  }
  meter.steps += 2 * text.length;
  if (quote !== 0 || depth !== 0) return [scalar(text, meter)];
  items.push(text.slice(start, end));
  return items.filter((item) => !isCollection(item.trim())).map((item) => scalar(item, meter));
}

/** Whether `item` is one whole `[...]` or `{...}` (its first bracket closes at its last character). */
function isCollection(item: string): boolean {
  if (!isOpening(item.charCodeAt(0))) return false;
  let depth = 0;
  for (let i = 0; i < item.length; i++) {
    const c = item.charCodeAt(i);
    if (isOpening(c)) depth++;
    else if (isClosing(c) && --depth === 0) return i === item.length - 1;
  }
  return false;
}

function nonBlank(values: string[], meter: Meter): string[] {
  for (const v of values) meter.steps += v.length + 1;
  return values.map((v) => v.trim()).filter((v) => v !== '');
}
