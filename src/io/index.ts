// The project's one atomic write, one cross-process lock and one in-process queue (style guide 15),
// shared by auto-memory's store and context-profiles' state and translation files.
export { commit, discard, PRIVATE_FILE_MODE, removeQuietly, stage, sweepTemps, tempName, writeAtomic } from './atomic.js';
export type { Staged } from './atomic.js';
export { acquire, DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_TIMEOUT_MS, locked, LockTimeoutError, lockPathFor, release } from './lock.js';
export type { LockOptions } from './lock.js';
export { nodeFileOps, nodeFileOpsSync } from './ops.js';
export type { AsyncFileOps, EntryInfo, EntryType, FileOps, SyncFileOps } from './ops.js';
export { KeyedQueue } from './queue.js';
export { runAsync, runSync, settle } from './steps.js';
export type { Awaitable, Steps } from './steps.js';
export { ensureDirectory, PRIVATE_DIR_MODE, updateFile, updateFileSync, withLock, withLockSync } from './update.js';
export type { Change } from './update.js';
