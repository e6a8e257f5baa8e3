// Memory storage on disk (spec AM-24, AM-25, AM-26). Memory lives under `$DSH_HOME`, not in the
// workspace, and the DSH fs provider (`ctx.fs`) is the workspace's: it may be sandboxed or remote,
// and it has no rename, unlink, mkdir or file mode, which atomic writes need. So storage goes
// through node:fs directly, behind the small `MemoryDisk` port below, so tests can inject a failure
// at any single operation (a crash between temp file and rename, a full disk, a vanished file).

import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, sep } from 'node:path';
import { truncateUtf8 } from '../../engine/index.js';

/** What an entry is, without following a final symlink. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/** The node:fs operations memory storage uses; every one may throw the OS error. */
export interface MemoryDisk {
  /** `undefined` when absent. Does not follow a final symlink. */
  lstat(path: string): Promise<{ readonly type: EntryType; readonly size: number } | undefined>;
  realpath(path: string): Promise<string>;
  /** Entries of a directory (types from lstat, so a symlink is `symlink`), in any order. */
  readdir(path: string): Promise<{ readonly name: string; readonly type: EntryType }[]>;
  /** Up to `maxBytes` bytes from the start of a regular file (refusing a final symlink) and its size. */
  readPrefix(path: string, maxBytes: number): Promise<{ readonly bytes: Uint8Array; readonly size: number }>;
  /** Creates one directory with `mode`; an existing directory is fine. */
  mkdir(path: string, mode: number): Promise<void>;
  /** Creates a new file (failing if anything exists at `path`) with `mode`, writes `data`, flushes it to disk. */
  createExclusive(path: string, data: Uint8Array, mode: number): Promise<void>;
  /** Atomically replaces `to` with `from`. */
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
}

/** File mode of memory files (AM-25). */
export const FILE_MODE = 0o600;
/** Mode of directories the store creates (AM-25 [R]). */
export const DIR_MODE = 0o700;
/** Bytes of the target's name a temporary file name repeats (`.` + this + `.` + 12 hex + `.tmp` < 255). */
const TEMP_PREFIX_BYTES = 64;

const typeOf = (s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType =>
  s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';

// O_NOFOLLOW is POSIX-only; where it is missing (Windows) the lstat walk in `checkPath` still refuses links.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0);

/** The real `MemoryDisk`, over node:fs/promises. */
export const nodeDisk: MemoryDisk = {
  async lstat(path) {
    try {
      const stats = await lstat(path);
      return { type: typeOf(stats), size: stats.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
      throw error;
    }
  },
  realpath: (path) => realpath(path),
  async readdir(path) {
    return (await readdir(path, { withFileTypes: true })).map((d) => ({ name: d.name, type: typeOf(d) }));
  },
  async readPrefix(path, maxBytes) {
    const handle = await open(path, READ_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'EISDIR' });
      const buffer = new Uint8Array(Math.min(maxBytes, stats.size + 1));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: buffer.subarray(0, filled), size: Math.max(stats.size, filled) };
    } finally {
      await handle.close();
    }
  },
  async mkdir(path, mode) {
    try {
      await mkdir(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  },
  async createExclusive(path, data, mode) {
    const handle = await open(path, 'wx', mode);
    try {
      await handle.writeFile(data);
      // The rename that follows must not publish a file whose bytes are still only in the page cache.
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
};

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
 * Creates `memdir` (and missing ancestors) and then each directory of `segments` but the last, all
 * with mode 0700. Directories created by someone else keep their mode.
 */
export async function ensureParents(disk: MemoryDisk, memdir: string, segments: readonly string[]): Promise<void> {
  const missing: string[] = [];
  for (let dir = memdir; (await disk.lstat(dir)) === undefined; dir = dirname(dir)) {
    missing.unshift(dir);
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) await disk.mkdir(dir, DIR_MODE);
  let current = memdir;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    await disk.mkdir(current, DIR_MODE);
  }
}

/**
 * Writes `bytes` to `path` atomically (AM-25): a new temporary file in the same directory (so the
 * rename cannot cross file systems), mode 0600, flushed, then renamed over `path`. On any failure
 * the temporary file is removed and the error rethrown; `path` keeps its old content, because
 * nothing but the final rename ever touches it. The temporary name starts with `.`, so the tool can
 * never address it and listings skip it; its random part is the one place X-15 allows randomness.
 * `verify`, if given, runs between the two steps: when it answers false, the temporary file is
 * removed, `path` is left alone and the result is false (the caller re-reads and retries).
 */
export async function writeAtomic(disk: MemoryDisk, path: string, bytes: Uint8Array, verify?: () => Promise<boolean>): Promise<boolean> {
  // The name keeps a readable prefix of the target's, short enough that the whole stays under 255 bytes.
  const temp = join(dirname(path), `.${truncateUtf8(basename(path), TEMP_PREFIX_BYTES).text}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await disk.createExclusive(temp, bytes, FILE_MODE);
    if (verify !== undefined && !(await verify())) {
      await removeQuietly(disk, temp);
      return false;
    }
    await disk.rename(temp, path);
    return true;
  } catch (error) {
    await removeQuietly(disk, temp);
    throw error;
  }
}

/** Removes a temporary file if it exists; a failure here must not hide the error being reported. */
async function removeQuietly(disk: MemoryDisk, path: string): Promise<void> {
  try {
    if ((await disk.lstat(path)) !== undefined) await disk.unlink(path);
  } catch {
    // the original error (or result) is what the caller needs
  }
}

/** A queue per key: `run` calls with the same key never overlap (one memory dir's read-modify-write). */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of `key` has settled. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(() => undefined, () => undefined);
    this.#tails.set(key, tail);
    try {
      return await result;
    } finally {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
