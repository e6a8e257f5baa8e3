// Project-root detection by markers (spec X-09, WC-10, AM-05), through the fs provider only, so it
// sees exactly what the plugin's reads will see (sandboxes, remote providers).

import { dirname, sep } from 'node:path';
import type { FileSystem } from './fs.js';

/** Default markers for WC and AM. */
export const DEFAULT_PROJECT_ROOT_MARKERS: readonly string[] = ['.git'];

/**
 * Walks from the absolute `cwd` toward the filesystem root and returns the first directory that has
 * an entry named by any marker (of any type, so a `.git` file from a linked worktree or submodule
 * counts). With no marker found, or no markers, the root is `cwd`. A provider exception while
 * probing one marker means "not here" and the walk continues; an aborted `signal` rejects with the
 * provider's abort error (or the signal's reason), so a cancelled step commits nothing.
 */
export async function findProjectRoot(
  cwd: string,
  markers: readonly string[],
  fs: Pick<FileSystem, 'resolve' | 'stat' | 'lstat'>,
  signal?: AbortSignal,
): Promise<string> {
  return (await locateProjectRoot(cwd, markers, fs, signal)).root;
}

/**
 * `findProjectRoot` that also says which marker decided: `marker` is the name found in `root`, or
 * `undefined` when none was found and the root fell back to `cwd` (a tool can warn about that).
 * @param cwd the absolute session cwd
 * @param markers the marker names, probed in order in each directory
 * @param fs the provider the markers are probed through
 * @param signal cancels the walk
 * @returns the root and the marker found there
 */
export async function locateProjectRoot(
  cwd: string,
  markers: readonly string[],
  fs: Pick<FileSystem, 'resolve' | 'stat' | 'lstat'>,
  signal?: AbortSignal,
): Promise<{ readonly root: string; readonly marker: string | undefined }> {
  if (markers.length === 0) return { root: cwd, marker: undefined };
  for (let dir = cwd; ; ) {
    for (const marker of markers) {
      signal?.throwIfAborted();
      // Not `join`: it normalizes the whole path again, at a cost in its depth, at every level (issue 32 item 9).
      if (await markerPresent(fs, dir.endsWith(sep) ? dir + marker : dir + sep + marker, signal)) return { root: dir, marker };
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: cwd, marker: undefined };
    dir = parent;
  }
}

/**
 * Whether `path` names an entry, as DSH's loader decides it with `resolve` + `stat` (a link counts
 * only when its target exists), in one `lstat` when the entry is not a link: an entry that is no
 * link exists exactly when `stat` finds it, and `lstat` is no realpath. This runs at every step.
 */
async function markerPresent(fs: Pick<FileSystem, 'resolve' | 'stat' | 'lstat'>, path: string, signal: AbortSignal | undefined): Promise<boolean> {
  try {
    const entry = await fs.lstat(path, undefined, signal);
    if (entry === undefined) return false;
    if (entry.type !== 'symlink') return true;
    const target = await fs.resolve(path, { signal });
    return (await fs.stat(target, signal)) !== undefined;
  } catch (error) {
    // X-09 [R]: a failing probe is "not present here", except cancellation, which must propagate.
    if (signal?.aborted) throw error;
    return false;
  }
}
