// What a memory file says about itself (spec AM-13, AM-15, AM-16, AM-18): its index title and
// description, and the frontmatter issues the tool reports without blocking the write.

import { memoryFields, splitFrontmatter } from './frontmatter.js';
import { MARKDOWN_SUFFIX } from './paths.js';

/** The kebab-case grammar names must follow (AM-15 [R]). */
export const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The memory types `metadata.type` may take (AM-13). */
export const MEMORY_TYPES: readonly string[] = ['user', 'feedback', 'project', 'reference'];

/** Issue types (AM-16 [P]), in the order they are reported. */
export const ISSUE_TYPES = [
  'missing-name', 'invalid-name', 'name-mismatch', 'subdirectory-name', 'missing-description', 'missing-type', 'invalid-type',
] as const;
export type IssueType = (typeof ISSUE_TYPES)[number];

/** One frontmatter problem, as the tool output lists it. */
export interface Issue {
  readonly type: IssueType;
  readonly message: string;
}

/** The index line parts a memory file derives (AM-18). */
export interface DerivedEntry {
  readonly title: string;
  /** `undefined` when there is neither a description nor a non-empty body line. */
  readonly description: string | undefined;
}

/** The file name without `.md` (the fallback title and the name a memory should carry). */
export function fileStem(relative: string): string {
  const name = relative.slice(relative.lastIndexOf('/') + 1);
  return name.endsWith(MARKDOWN_SUFFIX) ? name.slice(0, -MARKDOWN_SUFFIX.length) : name;
}

/**
 * Title and description of `text` stored at `relative` (AM-18): the title is the frontmatter `name`
 * when it is valid kebab-case, else the file stem; the description is the frontmatter `description`,
 * else the first non-empty body line, trimmed. An index entry is one line, so a control character
 * or line separator in the description (a lone CR ends a line in Markdown) becomes a space.
 */
export function deriveEntry(text: string, relative: string): DerivedEntry {
  const fields = memoryFields(text);
  const title = fields.name !== undefined && NAME_PATTERN.test(fields.name) ? fields.name : fileStem(relative);
  const description = oneLine(fields.description?.trim() || firstBodyLine(splitFrontmatter(text).body) || '').trim();
  return { title, description: description === '' ? undefined : description };
}

/** `text` with every control character but tab, and U+2028/U+2029, replaced by a space. */
function oneLine(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029) {
      out += `${text.slice(from, i)} `;
      from = i + 1;
    }
  }
  return from === 0 ? text : out + text.slice(from);
}

function firstBodyLine(body: string): string | undefined {
  for (const line of body.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '') return trimmed;
  }
  return undefined;
}

/**
 * The title a v0.3.0 index line may still carry (AM-22): the file's `name` when it is present but
 * not valid kebab-case. Such a title counts as generated, so the next edit or rename normalizes it.
 */
export function legacyTitle(text: string): string | undefined {
  const { name } = memoryFields(text);
  return name !== undefined && !NAME_PATTERN.test(name) ? name : undefined;
}

/** Every frontmatter issue of `text` stored at `relative` (AM-16), in ISSUE_TYPES order. */
export function memoryIssues(text: string, relative: string): Issue[] {
  const { name, description, type } = memoryFields(text);
  const stem = fileStem(relative);
  const issues: Issue[] = [];
  if (name === undefined) issues.push({ type: 'missing-name', message: `no name in the frontmatter; use name: ${NAME_PATTERN.test(stem) ? stem : '<kebab-case file name>'}` });
  else {
    if (!NAME_PATTERN.test(name)) issues.push({ type: 'invalid-name', message: `name ${JSON.stringify(name)} is not kebab-case (lowercase letters and digits joined by single hyphens)` });
    if (name !== stem) issues.push({ type: 'name-mismatch', message: `name ${JSON.stringify(name)} differs from the file name ${JSON.stringify(stem)}` });
    if (relative.includes('/')) {
      issues.push({
        type: 'subdirectory-name',
        message: `[[${name}]] resolves to /memories/${name}.md, not ${relative}; keep memories you link to at the top level or write the full path in the body`,
      });
    }
  }
  if (description === undefined) issues.push({ type: 'missing-description', message: 'no description in the frontmatter; add a one-line description' });
  if (type === undefined) issues.push({ type: 'missing-type', message: `no type in the frontmatter; add metadata.type: one of ${MEMORY_TYPES.join(', ')}` });
  else if (!MEMORY_TYPES.includes(type)) issues.push({ type: 'invalid-type', message: `type ${JSON.stringify(type)} is not one of ${MEMORY_TYPES.join(', ')}` });
  return issues;
}

/** The issues of `after` whose type `before` did not have (AM-16: edits report only new issue types). */
export function newIssues(before: readonly Issue[], after: readonly Issue[]): Issue[] {
  const had = new Set(before.map((i) => i.type));
  return after.filter((i) => !had.has(i.type));
}
