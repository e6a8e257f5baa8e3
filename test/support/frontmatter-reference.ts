// The regular-expression frontmatter reader this package shipped before issue 18, kept as the
// reference its replacement (src/plugins/auto-memory/frontmatter.ts, a linear hand scan) must agree
// with. Its `(.*?)[ \t]*$` shapes backtrack (about n³ on `paths:` + n spaces + U+2028), so the
// differential test feeds it short lines only. Flow lists are left out: the replacement splits them
// itself instead of handing them to the `yaml` library, whose flow parser is not linear.

const FENCE = /^---[ \t]*$/;
const KEY_VALUE = /^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(?:[ \t]+(.*?)|)[ \t]*$/;
const INDENTED = /^[ \t]+/;
const LIST_ITEM = /^[ \t]*-[ \t]+(.*?)[ \t]*$/;

const stripCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);

/** The reference split: the frontmatter lines (CR stripped) and the body. */
export function referenceSplit(text: string): { lines: string[] | undefined; body: string } {
  const lines = text.split('\n');
  if (lines.length < 2 || !FENCE.test(stripCr(lines[0]!))) return { lines: undefined, body: text };
  for (let i = 1; i < lines.length; i++) {
    if (FENCE.test(stripCr(lines[i]!))) return { lines: lines.slice(1, i).map(stripCr), body: lines.slice(i + 1).join('\n') };
  }
  return { lines: undefined, body: text };
}

/** The reference reading of flat keys and the `metadata:` map, values raw (before scalar decoding). */
export function referenceFields(lines: readonly string[]): { top: [string, string][]; metadata: [string, string][] } {
  const top = new Map<string, string>();
  const metadata = new Map<string, string>();
  let inMetadata = false;
  for (const line of lines) {
    if (INDENTED.test(line)) {
      const nested = inMetadata ? KEY_VALUE.exec(line.trimStart()) : null;
      if (nested !== null && !metadata.has(nested[1]!)) metadata.set(nested[1]!, nested[2] ?? '');
      continue;
    }
    const match = KEY_VALUE.exec(line);
    inMetadata = match !== null && match[1] === 'metadata' && (match[2] ?? '') === '';
    if (match !== null && !inMetadata && !top.has(match[1]!)) top.set(match[1]!, match[2] ?? '');
  }
  return { top: [...top], metadata: [...metadata] };
}

/** The reference `paths` reading, raw: the inline value, or the block items (before scalar decoding). */
export function referencePaths(lines: readonly string[]): { inline: string } | { items: string[] } | undefined {
  for (let i = 0; i < lines.length; i++) {
    const match = INDENTED.test(lines[i]!) ? null : KEY_VALUE.exec(lines[i]!);
    if (match === null || match[1] !== 'paths') continue;
    const value = (match[2] ?? '').trim();
    if (value !== '') return { inline: value };
    const items: string[] = [];
    for (let j = i + 1; j < lines.length; j++) {
      const item = LIST_ITEM.exec(lines[j]!);
      if (item !== null) items.push(item[1]!);
      else if (lines[j]!.trim() !== '') break;
    }
    return { items };
  }
  return undefined;
}

/** The reference reading of one line: fence, `key: value` (raw value) and list item. */
export function referenceLine(line: string): { fence: boolean; keyValue: { key: string; value: string } | undefined; listItem: string | undefined } {
  const kv = KEY_VALUE.exec(line);
  const item = LIST_ITEM.exec(line);
  return { fence: FENCE.test(stripCr(line)), keyValue: kv === null ? undefined : { key: kv[1]!, value: kv[2] ?? '' }, listItem: item === null ? undefined : item[1]! };
}
