// The two text edits of the memory tool (spec AM-08, AM-10 [R]), pure: `str_replace` with
// non-overlapping occurrence counting, and `insert` after a 0-based line number in the file's own
// line-ending style.

import { memoryError, type MemoryError } from './content.js';
import { lineEnding } from './index-file.js';

/** Non-overlapping occurrences of `needle` (non-empty) in `text`, counted left to right. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** Replaces the single occurrence of `oldStr`; `NO_MATCH` for none or an empty `oldStr`, `MULTIPLE_MATCHES` for more. */
export function replaceOnce(text: string, oldStr: string, newStr: string, shown: string): string | MemoryError {
  if (oldStr === '') return memoryError('NO_MATCH', 'old_str is empty; give the exact text to replace');
  const count = countOccurrences(text, oldStr);
  if (count === 0) return memoryError('NO_MATCH', `old_str does not occur in ${shown}`);
  if (count > 1) return memoryError('MULTIPLE_MATCHES', `old_str occurs ${count} times in ${shown}; it must occur exactly once, so include more surrounding text`);
  const at = text.indexOf(oldStr);
  return text.slice(0, at) + newStr + text.slice(at + oldStr.length);
}

/** The lines of `text` without line endings; a final line ending does not start another line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/**
 * Inserts `insertText` after line `insertLine` (0 inserts before the first line). `insertLine` must
 * be an integer in `0..lineCount` (`INVALID_LINE`). The inserted lines take the file's line ending;
 * the file keeps or lacks its final line ending as before, except that text appended at the end
 * keeps the final line ending it brought, and an empty last line gets one (or it would vanish).
 */
export function editLines(text: string, insertLine: number, insertText: string, shown: string): string | MemoryError {
  const lines = splitLines(text);
  if (!Number.isSafeInteger(insertLine) || insertLine < 0 || insertLine > lines.length) {
    return memoryError('INVALID_LINE', `insert_line ${String(insertLine)} is outside 0..${lines.length} for ${shown} (${lines.length} lines)`);
  }
  const eol = lineEnding(text);
  const added = splitLines(insertText);
  if (added.length === 0) added.push('');
  const parts = [...lines.slice(0, insertLine), ...added, ...lines.slice(insertLine)];
  const endsWithEol = lines.length === 0 ? /\n$/.test(insertText) : /\n$/.test(text) || (insertLine === lines.length && /\n$/.test(insertText));
  // A last line that is empty exists only through the line ending after it.
  return parts.join(eol) + (endsWithEol || parts.at(-1) === '' ? eol : '');
}
