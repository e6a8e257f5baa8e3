// The file operations the atomic write and the lock use, as a small port so tests can fail any one
// of them (fault injection) and so one algorithm runs over node:fs/promises or over node:fs's
// synchronous calls (steps.ts). Every operation may throw the OS error; absence is a value where
// callers branch on it (`lstat`), an error elsewhere.

import { constants, closeSync, fstatSync, fsyncSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { lstat, mkdir, open, readdir, rename, rmdir, unlink } from 'node:fs/promises';
import type { Awaitable } from './steps.js';

/** What an entry is, without following a final symlink. */
export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

/** `lstat`'s answer: the type, size, inode and modification and change times of an entry. */
export interface EntryInfo {
  readonly type: EntryType;
  readonly size: number;
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/**
 * What an entry that is not a regular file is, for a message: `a directory`, `a symbolic link`, or
 * `not a regular file (a FIFO, socket or device)`.
 * @param type the entry's type (not `file`)
 * @returns the words
 */
export function describeEntryType(type: EntryType): string {
  return type === 'directory' ? 'a directory' : type === 'symlink' ? 'a symbolic link' : 'not a regular file (a FIFO, socket or device)';
}

/** The port, generic over how results come back (see `SyncFileOps` and `AsyncFileOps`). */
export interface FileOps {
  /** `undefined` when absent (or a parent is not a directory). Does not follow a final symlink. */
  lstat(path: string): Awaitable<EntryInfo | undefined>;
  /** Entries of a directory (types from lstat, so a symlink is `symlink`), in any order. */
  readdir(path: string): Awaitable<{ readonly name: string; readonly type: EntryType }[]>;
  /**
   * Up to `maxBytes` bytes from the start of a regular file (refusing a final symlink), its size, and
   * how many names it has (`links`: more than 1 is a hard link; the memory store refuses those).
   */
  readPrefix(path: string, maxBytes: number): Awaitable<{ readonly bytes: Uint8Array; readonly size: number; readonly links: number }>;
  /** Creates one directory with `mode`; an existing directory is fine. */
  mkdir(path: string, mode: number): Awaitable<void>;
  /**
   * Creates a new file (failing with EEXIST if anything is at `path`, never following a link) and
   * writes `data`; flushes it to disk unless `flush` is false (a lock file needs no durability).
   */
  createExclusive(path: string, data: Uint8Array, mode: number, flush?: boolean): Awaitable<void>;
  /** Atomically replaces `to` with `from`. */
  rename(from: string, to: string): Awaitable<void>;
  unlink(path: string): Awaitable<void>;
  /** Removes an empty directory. */
  rmdir(path: string): Awaitable<void>;
  /**
   * Opens the regular file at `path` (never following a link) and, if it holds exactly `expected`,
   * writes those bytes again through the same open file, so its modification time moves to now by
   * the file system's clock. Reading and writing through one open file means a file put in its
   * place by someone else is never written. False when it holds anything else, is absent or is not
   * a regular file (a lock holder refreshing its lock, lock.ts).
   */
  rewriteIfSame(path: string, expected: Uint8Array): Awaitable<boolean>;
  /** Waits `ms` milliseconds (between lock attempts). */
  sleep(ms: number): Awaitable<void>;
}

/** The port with plain (synchronous) results. */
export type SyncFileOps = { [K in keyof FileOps]: (...args: Parameters<FileOps[K]>) => Awaited<ReturnType<FileOps[K]>> };
/** The port with promised results. */
export type AsyncFileOps = { [K in keyof FileOps]: (...args: Parameters<FileOps[K]>) => Promise<Awaited<ReturnType<FileOps[K]>>> };

const typeOf = (s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): EntryType =>
  s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';

// O_NOFOLLOW is POSIX-only; where it is missing (Windows) callers' lstat checks still refuse links.
// O_NONBLOCK: opening a FIFO to read would otherwise wait for a writer; it opens at once and is then refused as not a regular file.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const REWRITE_FLAGS = constants.O_RDWR | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

const isAbsence = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
};
const notRegular = (path: string) => Object.assign(new Error(`${path} is not a regular file`), { code: 'EISDIR' });
/** What `rewriteIfSame` answers false to instead of throwing: nothing there, or nothing that can be ours (a directory, a link, a FIFO). */
const notOurs = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  return isAbsence(error) || code === 'EISDIR' || code === 'ELOOP' || code === 'ENXIO' || code === 'EMLINK';
};
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/** The port over node:fs/promises. */
export const nodeFileOps: AsyncFileOps = {
  async lstat(path) {
    try {
      const stats = await lstat(path);
      return { type: typeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
    } catch (error) {
      if (isAbsence(error)) return undefined;
      throw error;
    }
  },
  async readdir(path) {
    return (await readdir(path, { withFileTypes: true })).map((d) => ({ name: d.name, type: typeOf(d) }));
  },
  async readPrefix(path, maxBytes) {
    const handle = await open(path, READ_FLAGS);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw notRegular(path);
      const buffer = new Uint8Array(Math.min(maxBytes, stats.size + 1));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      return { bytes: buffer.subarray(0, filled), size: Math.max(stats.size, filled), links: stats.nlink };
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
  async createExclusive(path, data, mode, flush = true) {
    const handle = await open(path, CREATE_FLAGS, mode);
    try {
      await handle.writeFile(data);
      // A rename that follows must not publish a file whose bytes are still only in the page cache.
      if (flush) await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  unlink: (path) => unlink(path),
  rmdir: (path) => rmdir(path),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  async rewriteIfSame(path, expected) {
    let handle;
    try {
      handle = await open(path, REWRITE_FLAGS);
    } catch (error) {
      if (notOurs(error)) return false;
      throw error;
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size !== expected.length) return false;
      const current = new Uint8Array(expected.length);
      for (let filled = 0; filled < current.length; ) {
        const { bytesRead } = await handle.read(current, filled, current.length - filled, filled);
        if (bytesRead === 0) return false;
        filled += bytesRead;
      }
      if (!sameBytes(current, expected)) return false;
      for (let written = 0; written < expected.length; ) written += (await handle.write(expected, written, expected.length - written, written)).bytesWritten;
      return true;
    } finally {
      await handle.close();
    }
  },
};

/** One Int32 to block on: `Atomics.wait` is the only way to sleep a thread without spinning. */
const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** The port over node:fs's synchronous calls; `sleep` blocks the thread. */
export const nodeFileOpsSync: SyncFileOps = {
  lstat(path) {
    try {
      const stats = lstatSync(path);
      return { type: typeOf(stats), size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino };
    } catch (error) {
      if (isAbsence(error)) return undefined;
      throw error;
    }
  },
  readdir(path) {
    return readdirSync(path, { withFileTypes: true }).map((d) => ({ name: d.name, type: typeOf(d) }));
  },
  readPrefix(path, maxBytes) {
    const fd = openSync(path, READ_FLAGS);
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw notRegular(path);
      const buffer = new Uint8Array(Math.min(maxBytes, stats.size + 1));
      let filled = 0;
      while (filled < buffer.length) {
        const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
        if (read === 0) break;
        filled += read;
      }
      return { bytes: buffer.subarray(0, filled), size: Math.max(stats.size, filled), links: stats.nlink };
    } finally {
      closeSync(fd);
    }
  },
  mkdir(path, mode) {
    try {
      mkdirSync(path, { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  },
  createExclusive(path, data, mode, flush = true) {
    const fd = openSync(path, CREATE_FLAGS, mode);
    try {
      for (let written = 0; written < data.length; ) written += writeSync(fd, data, written, data.length - written);
      if (flush) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  rename: (from, to) => renameSync(from, to),
  unlink: (path) => unlinkSync(path),
  rmdir: (path) => rmdirSync(path),
  sleep(ms) {
    Atomics.wait(sleeper, 0, 0, ms);
  },
  rewriteIfSame(path, expected) {
    let fd;
    try {
      fd = openSync(path, REWRITE_FLAGS);
    } catch (error) {
      if (notOurs(error)) return false;
      throw error;
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size !== expected.length) return false;
      const current = new Uint8Array(expected.length);
      for (let filled = 0; filled < current.length; ) {
        const read = readSync(fd, current, filled, current.length - filled, filled);
        if (read === 0) return false;
        filled += read;
      }
      if (!sameBytes(current, expected)) return false;
      for (let written = 0; written < expected.length; ) written += writeSync(fd, expected, written, expected.length - written, written);
      return true;
    } finally {
      closeSync(fd);
    }
  },
};
