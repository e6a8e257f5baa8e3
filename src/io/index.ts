// The project's one atomic write, one cross-process lock and one in-process queue (style guide 15),
// shared by auto-memory's store and context-profiles' state and translation files.
export { commit, discard, PRIVATE_FILE_MODE, removeQuietly, stage, sweepTemps, tempName, writeAtomic } from './atomic.js';
export type { Staged } from './atomic.js';
export { acquire, confirm, DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_TIMEOUT_MS, locked, LockLostError, LockPathError, LockTimeoutError, lockPathFor, REFRESH_FRACTION, release } from './lock.js';
export type { Held, LockOptions } from './lock.js';
export { liveness, thisProcess } from './owner.js';
export type { Liveness, Owner } from './owner.js';
export { describeEntryType, nodeFileOps, nodeFileOpsSync } from './ops.js';
export type { AsyncFileOps, EntryInfo, EntryType, FileOps, SyncFileOps } from './ops.js';
export { KeyedQueue } from './queue.js';
export { runAsync, runSync, settle } from './steps.js';
export type { Awaitable, Steps } from './steps.js';
export { ensureDirectory, PRIVATE_DIR_MODE, updateFile, updateFileSync, withLock, withLockSync, writeLocked } from './update.js';
export type { Change } from './update.js';
