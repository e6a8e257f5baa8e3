// What callers use: the lock, the atomic write, and both together as "under the lock, read what is
// on disk now, apply the change, write it atomically", each async (memory store, translation cache)
// and synchronous (the context-profiles state file). Within one process the async forms also queue
// by lock path, so tasks of one process never poll against each other's lock file.

import { dirname } from 'node:path';
import { commit, discard, PRIVATE_FILE_MODE, stage } from './atomic.js';
import { acquire, confirm, DEFAULT_LOCK_STALE_MS, lockPathFor, locked, REFRESH_FRACTION, release, type Held, type LockOptions } from './lock.js';
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
 * Keeps `held` refreshed while an async task holds it (lock.ts: a holder another host or PID
 * namespace cannot look up by pid is judged by its refreshes). A failed refresh is left to the
 * `confirm` before the task's commit, which fails then.
 * @returns the stop function
 */
function keepRefreshed(ops: AsyncFileOps, held: Held, staleMs: number): () => void {
  const every = Math.floor(staleMs / REFRESH_FRACTION);
  if (!(every > 0)) return () => {};
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(() => runAsync(confirm(ops, held))).catch(() => undefined);
  }, every);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Runs `task` while this process holds the lock file `lockPath` (tasks of this process with the same
 * path run one after another first), refreshing the lock while the task runs. The lock's directory
 * is created when missing. A task that writes calls `confirm(ops, held)` just before it commits.
 * @param ops the file operations (node:fs/promises in production, a faulty wrapper in tests)
 * @param lockPath the lock file, e.g. `lockPathFor(file)`
 * @param task the work to do under the lock; it gets the lock
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns what `task` returns; rejects with `LockTimeoutError` when the lock stays taken
 */
export function withLock<T>(ops: AsyncFileOps, lockPath: string, task: (held: Held) => Promise<T>, options: LockOptions = {}): Promise<T> {
  return processQueue.run(lockPath, async () => {
    await runAsync(ensureDirectory(ops, dirname(lockPath)));
    const held = await runAsync(acquire(ops, lockPath, options));
    heldAsync.add(lockPath);
    const stop = keepRefreshed(ops, held, options.staleMs ?? DEFAULT_LOCK_STALE_MS);
    try {
      return await task(held);
    } finally {
      stop();
      heldAsync.delete(lockPath);
      await runAsync(release(ops, held));
    }
  });
}

/**
 * The synchronous `withLock`: waits by blocking the thread, so keep `task` short and `timeoutMs`
 * small; no timer can refresh the lock while the thread is blocked, so the task's `confirm` before
 * its commit is what keeps a robbed holder from writing. A lock path must not also be used by async
 * tasks of this process (that throws at once).
 * @param ops synchronous file operations
 * @param lockPath the lock file
 * @param task the work to do under the lock; it gets the lock
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns what `task` returns
 */
export function withLockSync<T>(ops: SyncFileOps, lockPath: string, task: (held: Held) => T, options: LockOptions = {}): T {
  if (heldAsync.has(lockPath)) throw new Error(`withLockSync: ${lockPath} is held by an async task of this process`);
  runSync(ensureDirectory(ops, dirname(lockPath)));
  return runSync(locked(ops, lockPath, function* (held) {
    return task(held);
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

/**
 * The atomic write under a held lock: the new bytes are staged, the lock is confirmed still ours,
 * and only then renamed over `path` (a holder robbed meanwhile leaves `path` as the new holder wrote it).
 * @param ops the file operations
 * @param held the lock guarding `path`
 * @param path the target
 * @param bytes the new content
 * @param mode the new file's mode (default 0600)
 * @returns steps that throw `LockLostError` (nothing written) or the OS error
 */
export function* writeLocked(ops: FileOps, held: Held, path: string, bytes: Uint8Array, mode = PRIVATE_FILE_MODE): Steps<void> {
  const staged = yield* stage(ops, path, bytes, mode);
  try {
    yield* confirm(ops, held);
  } catch (error) {
    yield* discard(ops, staged);
    throw error;
  }
  yield* commit(ops, staged);
}

function* applyChange(ops: FileOps, held: Held, path: string, change: Change, mode: number): Steps<boolean> {
  const current = yield* readWhole(ops, path);
  const next = change(current);
  if (next === undefined || (current !== undefined && Buffer.from(next).equals(current))) return false;
  yield* writeLocked(ops, held, path, next, mode);
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
  return withLock(ops, lockPathFor(path), (held) => runAsync(applyChange(ops, held, path, change, options.mode ?? PRIVATE_FILE_MODE)), options);
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
  return withLockSync(ops, lockPathFor(path), (held) => runSync(applyChange(ops, held, path, change, options.mode ?? PRIVATE_FILE_MODE)), options);
}
