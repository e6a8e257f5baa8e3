// What callers use: the lock, the atomic write, and both together as "under the lock, read what is
// on disk now, apply the change, write it atomically", each async (memory store, translation cache)
// and synchronous (the context-profiles state file). Within one process the async forms also queue
// by lock path, so tasks of one process never poll against each other's lock file.

import { dirname } from 'node:path';
import { PRIVATE_FILE_MODE, writeAtomic } from './atomic.js';
import { acquire, lockPathFor, locked, release, type LockOptions } from './lock.js';
import type { AsyncFileOps, FileOps, SyncFileOps } from './ops.js';
import { KeyedQueue } from './queue.js';
import { runAsync, runSync, settle, type Steps } from './steps.js';

/** Mode of directories created for locks and files. */
export const PRIVATE_DIR_MODE = 0o700;

/** Tasks of this process, queued by lock path. */
const processQueue = new KeyedQueue<string>();
/** Lock paths an async task of this process holds: a synchronous wait for one of them could never end. */
const heldAsync = new Set<string>();

/**
 * Creates `dir` and its missing ancestors with `mode`. Each directory it creates is pushed onto
 * `created` (outermost first) as soon as it exists, so a caller can remove them even after a failure.
 */
export function* ensureDirectory(ops: FileOps, dir: string, mode = PRIVATE_DIR_MODE, created: string[] = []): Steps<string[]> {
  const missing: string[] = [];
  for (let at = dir; (yield* settle(ops.lstat(at))) === undefined; at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const at of missing) {
    yield* settle(ops.mkdir(at, mode));
    created.push(at);
  }
  return created;
}

/**
 * Runs `task` while this process holds the lock file `lockPath` (tasks of this process with the same
 * path run one after another first). The lock's directory is created when missing.
 * @param ops the file operations (node:fs/promises in production, a faulty wrapper in tests)
 * @param lockPath the lock file, e.g. `lockPathFor(file)`
 * @param task the work to do under the lock
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns what `task` returns; rejects with `LockTimeoutError` when the lock stays taken
 */
export function withLock<T>(ops: AsyncFileOps, lockPath: string, task: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  return processQueue.run(lockPath, async () => {
    await runAsync(ensureDirectory(ops, dirname(lockPath)));
    const token = await runAsync(acquire(ops, lockPath, options));
    heldAsync.add(lockPath);
    try {
      return await task();
    } finally {
      heldAsync.delete(lockPath);
      await runAsync(release(ops, lockPath, token));
    }
  });
}

/**
 * The synchronous `withLock`: waits by blocking the thread, so keep `task` short and `timeoutMs`
 * small. A lock path must not also be used by async tasks of this process (that throws at once).
 * @param ops synchronous file operations
 * @param lockPath the lock file
 * @param task the work to do under the lock
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns what `task` returns
 */
export function withLockSync<T>(ops: SyncFileOps, lockPath: string, task: () => T, options: LockOptions = {}): T {
  if (heldAsync.has(lockPath)) throw new Error(`withLockSync: ${lockPath} is held by an async task of this process`);
  runSync(ensureDirectory(ops, dirname(lockPath)));
  return runSync(locked(ops, lockPath, function* () {
    return task();
  }, options));
}

/** The file's bytes, or `undefined` when it does not exist. */
function* readWhole(ops: FileOps, path: string): Steps<Uint8Array | undefined> {
  if ((yield* settle(ops.lstat(path))) === undefined) return undefined;
  return (yield* settle(ops.readPrefix(path, Number.MAX_SAFE_INTEGER))).bytes;
}

/**
 * `change` maps the file's current bytes to new ones; `undefined` (or the same bytes) writes nothing.
 * It must not do I/O of its own: it runs under the lock.
 */
export type Change = (current: Uint8Array | undefined) => Uint8Array | undefined;

function* applyChange(ops: FileOps, path: string, change: Change, mode: number): Steps<boolean> {
  const current = yield* readWhole(ops, path);
  const next = change(current);
  if (next === undefined || (current !== undefined && Buffer.from(next).equals(current))) return false;
  yield* writeAtomic(ops, path, next, mode);
  return true;
}

/**
 * Under the file's lock (`lockPathFor(path)`): reads what is on disk now, applies `change`, and writes
 * the result atomically. Two processes updating one file therefore never lose each other's change.
 * @param ops the file operations
 * @param path the file to update; its directory is created when missing
 * @param change the pure update from current bytes (or `undefined`: absent) to new bytes
 * @param options lock waiting, and the new file's mode (default 0600)
 * @returns whether anything was written
 */
export function updateFile(ops: AsyncFileOps, path: string, change: Change, options: LockOptions & { mode?: number } = {}): Promise<boolean> {
  return withLock(ops, lockPathFor(path), () => runAsync(applyChange(ops, path, change, options.mode ?? PRIVATE_FILE_MODE)), options);
}

/**
 * The synchronous `updateFile` (see `withLockSync` for what blocking means here).
 * @param ops synchronous file operations
 * @param path the file to update; its directory is created when missing
 * @param change the pure update from current bytes to new bytes
 * @param options lock waiting, and the new file's mode (default 0600)
 * @returns whether anything was written
 */
export function updateFileSync(ops: SyncFileOps, path: string, change: Change, options: LockOptions & { mode?: number } = {}): boolean {
  return withLockSync(ops, lockPathFor(path), () => runSync(applyChange(ops, path, change, options.mode ?? PRIVATE_FILE_MODE)), options);
}
