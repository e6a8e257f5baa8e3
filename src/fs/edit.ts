// The exact-string edit both our providers apply (node:fs and the in-memory one), so the `edit` tool
// behaves the same whichever is mounted.

import { FsError, type FsEdit } from '../host/fs.js';

/**
 * Applies `edit` to `text`: replaces the one occurrence of `oldString` (or every non-overlapping one
 * with `replaceAll`). Throws `FS_EDIT_NOT_FOUND` for an empty or absent `oldString` and
 * `FS_AMBIGUOUS_EDIT` when it occurs more than once without `replaceAll`; the message names `path`
 * and the count.
 */
export function applyEdit(text: string, edit: FsEdit, path: string): { text: string; replacements: number } {
  if (edit.oldString === '') throw new FsError('FS_EDIT_NOT_FOUND', `editText ${path}: oldString is empty`);
  const parts = text.split(edit.oldString);
  const count = parts.length - 1;
  if (count === 0) throw new FsError('FS_EDIT_NOT_FOUND', `editText ${path}: oldString not found`);
  if (count > 1 && !edit.replaceAll) {
    throw new FsError('FS_AMBIGUOUS_EDIT', `editText ${path}: oldString occurs ${count} times; pass replaceAll to replace every one`);
  }
  return { text: parts.join(edit.newString), replacements: count };
}
