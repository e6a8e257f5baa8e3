// The project's one cross-process lock: a lock file created with O_EXCL next to what it guards,
// holding its owner's pid, host and a random token. Whoever creates it holds the lock; everyone else
// waits, polling with a growing pause, up to a timeout. A lock whose owner is gone is recovered:
// on the same host a pid that no longer runs gives it away at once, elsewhere (a home directory on
// a network file system) its age does. Breaking a stale lock happens under a second, short-lived
// lock file, and only if the lock still holds the very content that was judged stale, so two
// waiters that both saw it stale cannot remove a fresh lock between them. Release removes the lock
// only while it is still the holder's own.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { sha1Hex, truncateUtf8, utf8Length } from '../engine/index.js';
import { PRIVATE_FILE_MODE, removeQuietly } from './atomic.js';
import type { FileOps } from './ops.js';
import { settle, type Steps } from './steps.js';

/** How long a caller waits for a lock by default before giving up. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** Age after which a lock whose owner cannot be checked (another host, unreadable content) is taken over. */
export const DEFAULT_LOCK_STALE_MS = 30_000;
/** First and longest pause between attempts. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 20;
/** Bytes read of a lock file: its content is a short JSON object. */
const LOCK_READ_BYTES = 1024;
const BREAK_SUFFIX = '.break';

/** How long to wait, and when a lock counts as abandoned. */
export interface LockOptions {
  readonly timeoutMs?: number;
  readonly staleMs?: number;
}

/** Longest file name most file systems take, in bytes. */
const MAX_NAME_BYTES = 255;
/** Bytes of a long name a lock file name keeps, before a digest of the whole name. */
const LONG_NAME_PREFIX_BYTES = 200;

/**
 * The lock file next to `path`: `<dir>/.<name>.lock` (hidden, so listings skip it). A name too long
 * for that (a project key can be 255 bytes) keeps a prefix and adds a digest of the whole name.
 * @param path what the lock guards
 * @returns the lock file's path
 */
export function lockPathFor(path: string): string {
  const name = basename(path);
  const plain = `.${name}.lock`;
  if (utf8Length(plain) <= MAX_NAME_BYTES) return join(dirname(path), plain);
  return join(dirname(path), `.${truncateUtf8(name, LONG_NAME_PREFIX_BYTES).text}.${sha1Hex(name).slice(0, 16)}.lock`);
}

/** What a lock file says about its owner. */
interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly since: number;
  readonly token: string;
}

/** The lock could not be taken in time; `holder` is whom it was waited for. */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  readonly code = 'ELOCKED';
  constructor(readonly lockPath: string, readonly waitedMs: number, readonly holder: string) {
    super(`${lockPath} is held by ${holder}; waited ${waitedMs} ms`);
  }
}

function parseHolder(bytes: Uint8Array): Holder | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as Partial<Holder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.since === 'number' && typeof value.token === 'string') {
      return { pid: value.pid, host: value.host, since: value.since, token: value.token };
    }
  } catch {
    // written by something else, or cut short by a crash: judged by its age
  }
  return undefined;
}

/** Whether a process with this pid runs here (EPERM: it runs, as another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file's current content and whether it is abandoned; `undefined` when it is gone. */
function* inspect(ops: FileOps, lockPath: string, staleMs: number): Steps<{ raw: string; holder: Holder | undefined; stale: boolean } | undefined> {
  let read;
  let info;
  try {
    info = yield* settle(ops.lstat(lockPath));
    if (info === undefined) return undefined;
    read = yield* settle(ops.readPrefix(lockPath, LOCK_READ_BYTES));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const raw = new TextDecoder().decode(read.bytes);
  const holder = parseHolder(read.bytes);
  const age = Date.now() - (holder?.since ?? info.mtimeMs);
  const gone = holder !== undefined && holder.host === hostname() && holder.pid !== process.pid && !running(holder.pid);
  return { raw, holder, stale: gone || age > staleMs };
}

/**
 * Removes an abandoned lock, but only while it still holds `raw`: under the break file only one
 * waiter at a time looks again and removes it. A break file left by a crashed breaker is removed
 * once it is older than `staleMs`.
 */
function* breakLock(ops: FileOps, lockPath: string, raw: string, staleMs: number): Steps<void> {
  const breaker = lockPath + BREAK_SUFFIX;
  try {
    yield* settle(ops.createExclusive(breaker, new Uint8Array(0), PRIVATE_FILE_MODE, false));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const info = yield* settle(ops.lstat(breaker));
    if (info !== undefined && Date.now() - info.mtimeMs > staleMs) yield* removeQuietly(ops, breaker);
    return;
  }
  try {
    const again = yield* inspect(ops, lockPath, staleMs);
    if (again !== undefined && again.raw === raw && again.stale) yield* settle(ops.unlink(lockPath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    yield* removeQuietly(ops, breaker);
  }
}

/**
 * Takes the lock at `lockPath` (its directory must exist).
 * @param ops the file operations
 * @param lockPath the lock file
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns steps ending in the token that proves ownership; they throw `LockTimeoutError` after the timeout
 */
export function* acquire(ops: FileOps, lockPath: string, options: LockOptions = {}): Steps<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const token = randomBytes(8).toString('hex');
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    const content: Holder = { pid: process.pid, host: hostname(), since: Date.now(), token };
    try {
      yield* settle(ops.createExclusive(lockPath, new TextEncoder().encode(JSON.stringify(content)), PRIVATE_FILE_MODE, false));
      return token;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = yield* inspect(ops, lockPath, staleMs);
    if (current === undefined) continue; // released meanwhile: try again at once
    if (current.stale) {
      yield* breakLock(ops, lockPath, current.raw, staleMs);
      continue;
    }
    const waited = Date.now() - started;
    if (waited >= timeoutMs) {
      const who = current.holder === undefined ? 'an unknown owner' : `process ${current.holder.pid} on ${current.holder.host}`;
      throw new LockTimeoutError(lockPath, waited, who);
    }
    yield* settle(ops.sleep(Math.min(pause, timeoutMs - waited)));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

/**
 * Releases the lock if it is still the one `token` took (a lock broken as stale meanwhile is someone else's now).
 * @param ops the file operations
 * @param lockPath the lock file
 * @param token what `acquire` returned
 * @returns steps that never throw
 */
export function* release(ops: FileOps, lockPath: string, token: string): Steps<void> {
  try {
    const read = yield* settle(ops.readPrefix(lockPath, LOCK_READ_BYTES));
    if (parseHolder(read.bytes)?.token === token) yield* settle(ops.unlink(lockPath));
  } catch {
    // already gone, or unreadable: either way it is not ours to remove any more
  }
}

/**
 * Runs `body` while holding the lock at `lockPath`, releasing it however `body` ends.
 * @param ops the file operations
 * @param lockPath the lock file
 * @param body the steps to run under the lock
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns steps ending in `body`'s result
 */
export function* locked<T>(ops: FileOps, lockPath: string, body: () => Steps<T>, options: LockOptions = {}): Steps<T> {
  const token = yield* acquire(ops, lockPath, options);
  try {
    return yield* body();
  } finally {
    yield* release(ops, lockPath, token);
  }
}
