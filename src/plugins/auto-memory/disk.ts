// Memory storage on disk (spec AM-24, AM-25, AM-26). Memory lives under `$DSH_HOME`, not in the
// workspace, and the DSH fs provider (`ctx.fs`) is the workspace's: it may be sandboxed or remote,
// and it has no rename, unlink, mkdir or file mode, which atomic writes need. So storage goes
// through node:fs directly, behind the small `MemoryDisk` port below, so tests can inject a failure
// at any single operation (a crash between temp file and rename, a full disk, a vanished file).

import { realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { nodeFileOps, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, type AsyncFileOps, type EntryType } from '../../io/index.js';

export type { EntryType } from '../../io/index.js';

/**
 * The node:fs operations memory storage uses: the shared file port (io/ops.ts: the atomic write
 * and the lock run over it) plus `realpath`. Every one may throw the OS error.
 */
export interface MemoryDisk extends AsyncFileOps {
  realpath(path: string): Promise<string>;
}

/** File mode of memory files (AM-25). */
export const FILE_MODE = PRIVATE_FILE_MODE;
/** Mode of directories the store creates (AM-25 [R]). */
export const DIR_MODE = PRIVATE_DIR_MODE;

/** The real `MemoryDisk`, over node:fs/promises. */
export const nodeDisk: MemoryDisk = { ...nodeFileOps, realpath: (path) => realpath(path) };

/** A refusal found on disk (AM-24); the store turns it into a structured error. */
export class UnsafePathError extends Error {
  override readonly name = 'UnsafePathError';
}

/** What `checkPath` found at the final component. */
export interface CheckedPath {
  /** The absolute path on disk. */
  readonly path: string;
  /** The final component's type, or `undefined` when it does not exist. */
  readonly type: EntryType | undefined;
  readonly size: number;
}

/**
 * Maps `segments` below `memdir` to a disk path and proves it safe (AM-24): no existing component
 * below `memdir` is a symlink (checked with lstat, component by component), no existing component
 * but the last is anything other than a directory, and the real path of the deepest existing
 * component stays under the real path of `memdir`. `memdir` itself may be a link (a user's choice,
 * e.g. to share memory between two checkouts). Throws `UnsafePathError` on a violation.
 */
export async function checkPath(disk: MemoryDisk, memdir: string, segments: readonly string[]): Promise<CheckedPath> {
  let current = memdir;
  let deepest = memdir;
  // memdir itself may be a link to a directory; an absent memdir means nothing below exists either.
  let found: { type: EntryType; size: number } | undefined = (await disk.lstat(memdir)) === undefined ? undefined : { type: 'directory', size: 0 };
  if (found === undefined) return { path: join(memdir, ...segments), type: undefined, size: 0 };
  for (let i = 0; i < segments.length; i++) {
    current = join(current, segments[i]!);
    found = await disk.lstat(current);
    if (found === undefined) {
      // Nothing below a missing component exists either.
      current = join(memdir, ...segments);
      break;
    }
    const shown = segments.slice(0, i + 1).join('/');
    if (found.type === 'symlink') throw new UnsafePathError(`/memories/${shown} is a symbolic link; memory storage never follows links`);
    if (i < segments.length - 1 && found.type !== 'directory') throw new UnsafePathError(`/memories/${shown} is not a directory`);
    deepest = current;
  }
  if (deepest !== memdir) {
    const [realBase, realDeepest] = await Promise.all([disk.realpath(memdir), disk.realpath(deepest)]);
    if (!isInside(realBase, realDeepest)) throw new UnsafePathError(`/memories/${segments.join('/')} resolves outside the memory directory`);
  }
  return { path: current, type: found?.type, size: found?.size ?? 0 };
}

function isInside(base: string, path: string): boolean {
  return path === base || path.startsWith(base.endsWith(sep) ? base : base + sep);
}

/**
 * Creates each directory of `segments` but the last below `memdir` (which must exist), mode 0700.
 * Each directory it creates is pushed onto `created` (outermost first) as soon as it exists, so a
 * failed command can remove them again even when a later one could not be created.
 */
export async function ensureParents(disk: MemoryDisk, memdir: string, segments: readonly string[], created: string[]): Promise<void> {
  let current = memdir;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    if ((await disk.lstat(current)) !== undefined) continue;
    await disk.mkdir(current, DIR_MODE);
    created.push(current);
  }
}

/** Removes directories a failed command created (innermost first), as long as they are empty. */
export async function removeCreated(disk: MemoryDisk, created: readonly string[]): Promise<void> {
  for (const dir of [...created].reverse()) {
    try {
      await disk.rmdir(dir);
    } catch {
      return; // not empty (someone else wrote there) or already gone: the rest are its parents
    }
  }
}
