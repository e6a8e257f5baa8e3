// The project's one atomic write (AM-25, CP-31): the new bytes go to a temporary file in the same
// directory (so the rename cannot cross file systems), created exclusively with the target's mode
// and flushed to disk, then renamed over the target. Nothing but that rename ever touches the
// target, so a failure at any point leaves its old content; the temporary file is removed on
// failure, and temporary files of the same target that a killed process left behind are removed by
// the next write. Callers hold the target's lock (lock.ts), so no live writer's temporary file is
// ever swept. The steps can be staged and committed separately, for a caller that must prepare
// several files before it publishes any (the memory store's file plus index).

import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { truncateUtf8 } from '../engine/index.js';
import type { FileOps } from './ops.js';
import { settle, type Steps } from './steps.js';

/** Owner read/write only: state and memory files are private to the user. */
export const PRIVATE_FILE_MODE = 0o600;
/** Bytes of the target's name a temporary name repeats: `.` + this + `.` + 12 hex + `.tmp` stays under 255. */
const TEMP_PREFIX_BYTES = 64;
const TEMP_RANDOM_HEX = 12;
const TEMP_SUFFIX = '.tmp';

/** A file written under a temporary name, not yet renamed over its target. */
export interface Staged {
  /** The target. */
  readonly path: string;
  /** The temporary file holding the new bytes. */
  readonly temp: string;
}

/** The hidden name prefix of `path`'s temporary files: `.` + a readable prefix of its name + `.`. */
function tempPrefix(path: string): string {
  return `.${truncateUtf8(basename(path), TEMP_PREFIX_BYTES).text}.`;
}

/** Whether `name` (in the target's directory) is a temporary file of a target with `prefix`. */
function isTempName(name: string, prefix: string): boolean {
  if (!name.startsWith(prefix) || !name.endsWith(TEMP_SUFFIX)) return false;
  const random = name.slice(prefix.length, name.length - TEMP_SUFFIX.length);
  return random.length === TEMP_RANDOM_HEX && /^[0-9a-f]+$/.test(random);
}

/**
 * A fresh temporary name for `path`: hidden (it starts with `.`, so the memory tool can neither list
 * nor address it), with a random part (the one place X-15 allows randomness).
 * @param path the target
 * @returns an absolute path in the target's directory
 */
export function tempName(path: string): string {
  return join(dirname(path), `${tempPrefix(path)}${randomBytes(TEMP_RANDOM_HEX / 2).toString('hex')}${TEMP_SUFFIX}`);
}

/**
 * Removes `path` if it exists; a failure here must not hide the error or result being reported.
 * @param ops the file operations
 * @param path what to remove
 * @returns steps that never throw
 */
export function* removeQuietly(ops: FileOps, path: string): Steps<void> {
  try {
    if ((yield* settle(ops.lstat(path))) !== undefined) yield* settle(ops.unlink(path));
  } catch {
    // the caller's own outcome is what matters
  }
}

/**
 * Removes temporary files of `path` left by a writer that died before its rename or cleanup.
 * @param ops the file operations
 * @param path the target whose temporary files are swept (its lock must be held)
 * @returns steps that never throw
 */
export function* sweepTemps(ops: FileOps, path: string): Steps<void> {
  const prefix = tempPrefix(path);
  let entries;
  try {
    entries = yield* settle(ops.readdir(dirname(path)));
  } catch {
    return; // no directory yet: nothing to sweep, and the write will report its own error
  }
  for (const entry of entries) {
    if (entry.type === 'file' && isTempName(entry.name, prefix)) yield* removeQuietly(ops, join(dirname(path), entry.name));
  }
}

/**
 * Writes `bytes` to a new temporary file next to `path`; `path` is untouched. Old temporary files of
 * `path` are swept first, unless `sweep` is false (a second file staged for the same target, such as
 * a copy of its old bytes kept to undo a change, must not sweep the first).
 * @param ops the file operations
 * @param path the target
 * @param bytes the new content
 * @param mode the temporary file's mode, which the target takes over (default 0600)
 * @param sweep whether to sweep old temporary files of `path` first
 * @returns the staged file
 */
export function* stage(ops: FileOps, path: string, bytes: Uint8Array, mode = PRIVATE_FILE_MODE, sweep = true): Steps<Staged> {
  if (sweep) yield* sweepTemps(ops, path);
  const temp = tempName(path);
  try {
    yield* settle(ops.createExclusive(temp, bytes, mode));
  } catch (error) {
    yield* removeQuietly(ops, temp);
    throw error;
  }
  return { path, temp };
}

/**
 * Renames a staged file over its target; on failure the temporary file is removed and the target
 * keeps its old bytes.
 * @param ops the file operations
 * @param staged what `stage` returned
 * @returns steps that throw the OS error on failure
 */
export function* commit(ops: FileOps, staged: Staged): Steps<void> {
  try {
    yield* settle(ops.rename(staged.temp, staged.path));
  } catch (error) {
    yield* removeQuietly(ops, staged.temp);
    throw error;
  }
}

/**
 * Drops a staged file without publishing it.
 * @param ops the file operations
 * @param staged what `stage` returned
 * @returns steps that never throw
 */
export function* discard(ops: FileOps, staged: Staged): Steps<void> {
  yield* removeQuietly(ops, staged.temp);
}

/**
 * Stages and commits: `path` holds either its old bytes or all of `bytes`, never a mix.
 * @param ops the file operations
 * @param path the target
 * @param bytes the new content
 * @param mode the new file's mode (default 0600)
 * @returns steps that throw the OS error on failure
 */
export function* writeAtomic(ops: FileOps, path: string, bytes: Uint8Array, mode = PRIVATE_FILE_MODE): Steps<void> {
  yield* commit(ops, yield* stage(ops, path, bytes, mode));
}
