// The project's one cross-process lock: a lock file created with O_EXCL next to what it guards,
// holding its owner (owner.ts: pid, host, boot id, PID namespace, start time) and a random token.
// Whoever creates it holds the lock; everyone else waits, polling with a growing pause, up to a
// timeout. The rules (issue 32, docs/untrusted-input.md):
//
// - A holder whose pid can be looked up here (same kernel and PID namespace) is judged by its pid
//   alone: while it runs (stopped with Ctrl-Z included) its lock is never taken, however old; once it
//   is gone (or its pid belongs to a later process) the lock is taken at once.
// - Any other holder (another host, another PID namespace, an unreadable lock) refreshes its lock
//   while it holds it (the async form every REFRESH_FRACTION of `staleMs`); its lock is taken once it
//   has not been refreshed for `staleMs`: its modification time is that old by this clock, or this
//   process has watched it unchanged that long (a modification time in the future, from a clock
//   that runs ahead, never makes a lock immortal).
// - A holder checks that the lock is still its own just before it commits a write (`confirm`): a
//   holder robbed while it could not refresh (stopped) fails instead of writing over what the new
//   holder saved.
// - Breaking an abandoned lock happens under a second lock file (`<lock>.break`, judged by the same
//   rules), and only if the lock still holds the very content that was judged abandoned. Every turn
//   of the wait sleeps or makes progress, and the timeout ends it, whatever is found on disk.
// - Release removes the lock only while it is still the holder's own.

import { randomBytes } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { sha1Hex, truncateUtf8, utf8Length } from '../engine/index.js';
import { PRIVATE_FILE_MODE } from './atomic.js';
import { describeEntryType, type FileOps } from './ops.js';
import { liveness, ownerOf, thisProcess, type Owner } from './owner.js';
import { settle, type Steps } from './steps.js';

/** How long a caller waits for a lock by default before giving up. */
export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
/** How long a lock whose owner cannot be looked up (another host or PID namespace) may go without a refresh. */
export const DEFAULT_LOCK_STALE_MS = 30_000;
/** A holder refreshes its lock this many times per `staleMs`, so a few missed turns never make it stale. */
export const REFRESH_FRACTION = 5;
/** First and longest pause between attempts. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 20;
/** Attempts in a row without a pause: after a lock vanished or was broken, trying again at once is progress; more is a spin. */
const QUICK_RETRIES = 2;
/** Bytes read of a lock file: its content is a short JSON object. */
const LOCK_READ_BYTES = 1024;
const BREAK_SUFFIX = '.break';
/** Lock files this process is watching for a change (see `watched`); more are forgotten oldest first. */
const WATCHED_MAX = 64;

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

/** A lock this process holds: the path and the exact bytes it wrote there. */
export interface Held {
  readonly lockPath: string;
  readonly token: string;
  /** The lock file's content; the lock is still ours exactly while the file holds these bytes. */
  readonly bytes: Uint8Array;
}

/** What a lock file says: its owner, when the file is a lock this package wrote. */
interface Holder extends Owner {
  readonly since: number;
  readonly token: string;
}

/**
 * The lock could not be taken in time: `holder` says whom it was waited for (no path in it), and
 * `breakBlocked`, when set, what sits at `<lock>.break` and kept an abandoned lock from being taken over.
 */
export class LockTimeoutError extends Error {
  override readonly name = 'LockTimeoutError';
  readonly code = 'ELOCKED';
  constructor(readonly lockPath: string, readonly waitedMs: number, readonly holder: string, readonly breakBlocked?: string) {
    super(`${lockPath} is held by ${holder}; waited ${waitedMs} ms${breakBlocked !== undefined ? `; ${lockPath}${BREAK_SUFFIX} is ${breakBlocked} and keeps the lock from being taken over: remove it` : ''}`);
  }
}

/** Something other than a regular file sits at the lock path: waiting cannot help. */
export class LockPathError extends Error {
  override readonly name = 'LockPathError';
  readonly code = 'ELOCKPATH';
  constructor(readonly lockPath: string, readonly what: string) {
    super(`${lockPath} is ${what}, not a lock file; nothing can take the lock until it is removed`);
  }
}

/** The lock was taken over (judged abandoned) while this process held it: it must not commit. */
export class LockLostError extends Error {
  override readonly name = 'LockLostError';
  readonly code = 'ELOCKLOST';
  constructor(readonly lockPath: string) {
    super(`${lockPath} was taken over by another process while this one held it (it had not been refreshed for too long); nothing was written`);
  }
}

function parseHolder(bytes: Uint8Array): Holder | undefined {
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes)) as { since?: unknown; token?: unknown };
    const owner = ownerOf(value);
    if (owner !== undefined && typeof value.since === 'number' && typeof value.token === 'string') return { ...owner, since: value.since, token: value.token };
  } catch {
    // written by something else, or cut short by a crash: judged by whether it changes
  }
  return undefined;
}

/**
 * Lock files seen unchanged, with when this process first saw them so (monotonic clock): a lock
 * whose modification time lies in the future is judged by how long it has been watched instead.
 */
const watched = new Map<string, { readonly state: string; readonly since: number }>();

/** How long this process has watched `lockPath` hold exactly `state`. */
function watchedFor(lockPath: string, state: string): number {
  const now = performance.now();
  const seen = watched.get(lockPath);
  if (seen?.state === state) return now - seen.since;
  watched.delete(lockPath);
  watched.set(lockPath, { state, since: now });
  while (watched.size > WATCHED_MAX) watched.delete(watched.keys().next().value!);
  return 0;
}

/** A lock file as found: absent, something that is no file, or a lock with its content and whether it is abandoned. */
type Found =
  | undefined
  | { readonly kind: 'blocked'; readonly what: string }
  | { readonly kind: 'lock'; readonly raw: string; readonly holder: Holder | undefined; readonly stale: boolean; readonly gone: boolean };

/** Reads a lock file and judges it (see the file comment). */
function* inspect(ops: FileOps, lockPath: string, staleMs: number): Steps<Found> {
  let read;
  let info;
  try {
    info = yield* settle(ops.lstat(lockPath));
    if (info === undefined) return undefined;
    if (info.type !== 'file') return { kind: 'blocked', what: describeEntryType(info.type) };
    read = yield* settle(ops.readPrefix(lockPath, LOCK_READ_BYTES));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    // Replaced by a directory or a FIFO between the lstat and the open.
    if (code === 'EISDIR' || code === 'ELOOP') return { kind: 'blocked', what: 'not a regular file' };
    throw error;
  }
  const raw = new TextDecoder().decode(read.bytes);
  const holder = parseHolder(read.bytes);
  const live = holder === undefined ? 'unknown' : liveness(holder);
  if (live !== 'unknown') return { kind: 'lock', raw, holder, stale: live === 'dead', gone: live === 'dead' };
  const unrefreshed = Math.max(Date.now() - info.mtimeMs, watchedFor(lockPath, `${info.mtimeMs}\0${info.size}\0${raw}`));
  return { kind: 'lock', raw, holder, stale: unrefreshed > staleMs, gone: false };
}

/** Whom a lock was waited for, for the timeout message. */
function describeHolder(found: Found): string {
  if (found === undefined) return 'no one (it kept vanishing)';
  if (found.kind === 'blocked') return `nothing: it is ${found.what}`;
  const { holder } = found;
  if (holder === undefined) return 'an unknown owner';
  const where = holder.pidns !== '' && holder.pidns !== thisProcess().pidns ? `on ${holder.host} (another PID namespace)` : `on ${holder.host}`;
  return `${found.gone ? 'a process that is gone, ' : ''}process ${holder.pid} ${where}`;
}

/** The content a new lock (or break) file gets. */
function lockBytes(token: string): Uint8Array {
  return new TextEncoder().encode(JSON.stringify({ ...thisProcess(), since: Date.now(), token }));
}

/** What breaking found: done (try again now), or not now, with what blocks it when waiting cannot help. */
type BreakOutcome = { readonly done: true } | { readonly done: false; readonly blocked?: string };

/**
 * Removes an abandoned lock, but only while it still holds `raw`: under the break file only one
 * waiter at a time looks again and removes it. A break file left by a crashed breaker is judged
 * like a lock and removed once abandoned; one that is not a regular file blocks breaking (said in
 * the timeout message).
 */
function* breakLock(ops: FileOps, lockPath: string, raw: string, staleMs: number): Steps<BreakOutcome> {
  const breaker = lockPath + BREAK_SUFFIX;
  const mine = lockBytes(randomBytes(8).toString('hex'));
  try {
    yield* settle(ops.createExclusive(breaker, mine, PRIVATE_FILE_MODE, false));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const found = yield* inspect(ops, breaker, staleMs);
    if (found === undefined) return { done: true };
    if (found.kind === 'blocked') return { done: false, blocked: found.what };
    if (!found.stale) return { done: false };
    try {
      yield* settle(ops.unlink(breaker));
    } catch (unlinkError) {
      if ((unlinkError as NodeJS.ErrnoException).code !== 'ENOENT') throw unlinkError;
    }
    return { done: true };
  }
  try {
    const again = yield* inspect(ops, lockPath, staleMs);
    if (again?.kind === 'lock' && again.raw === raw && again.stale) yield* settle(ops.unlink(lockPath));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  } finally {
    yield* removeIfSame(ops, breaker, mine);
  }
  return { done: true };
}

/** Removes `path` if it still holds `bytes` (a break file, a lock): never someone else's. Never throws. */
function* removeIfSame(ops: FileOps, path: string, bytes: Uint8Array): Steps<void> {
  try {
    const read = yield* settle(ops.readPrefix(path, LOCK_READ_BYTES));
    if (Buffer.compare(read.bytes, bytes) === 0) yield* settle(ops.unlink(path));
  } catch {
    // already gone, or unreadable: either way it is not ours to remove any more
  }
}

/**
 * Takes the lock at `lockPath` (its directory must exist).
 * @param ops the file operations
 * @param lockPath the lock file
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns steps ending in what proves ownership; they throw `LockTimeoutError` after the timeout,
 *   `LockPathError` at once when something other than a file sits at `lockPath`
 */
export function* acquire(ops: FileOps, lockPath: string, options: LockOptions = {}): Steps<Held> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const token = randomBytes(8).toString('hex');
  const started = Date.now();
  let pause = FIRST_PAUSE_MS;
  let quick = 0;
  let blockedBreak: string | undefined;
  for (;;) {
    const bytes = lockBytes(token);
    try {
      yield* settle(ops.createExclusive(lockPath, bytes, PRIVATE_FILE_MODE, false));
      watched.delete(lockPath);
      return { lockPath, token, bytes };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const current = yield* inspect(ops, lockPath, staleMs);
    if (current?.kind === 'blocked') throw new LockPathError(lockPath, current.what);
    let progressed = current === undefined; // released meanwhile
    if (current?.stale === true) {
      const outcome = yield* breakLock(ops, lockPath, current.raw, staleMs);
      progressed = outcome.done;
      blockedBreak = outcome.done ? undefined : outcome.blocked;
    }
    if (progressed && quick < QUICK_RETRIES) {
      quick++;
      continue;
    }
    quick = 0;
    const waited = Date.now() - started;
    if (waited >= timeoutMs) {
      throw new LockTimeoutError(lockPath, waited, describeHolder(current), blockedBreak);
    }
    yield* settle(ops.sleep(Math.min(pause, timeoutMs - waited)));
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

/**
 * Checks that `held` is still this process's lock and refreshes it (its modification time moves to
 * now). Called while holding: by the async holder's timer, and by every writer just before it
 * commits, so a holder that lost its lock (judged abandoned while it was stopped) writes nothing.
 * @param ops the file operations
 * @param held what `acquire` returned
 * @returns steps that throw `LockLostError` when the lock is no longer ours
 */
export function* confirm(ops: FileOps, held: Held): Steps<void> {
  if (!(yield* settle(ops.rewriteIfSame(held.lockPath, held.bytes)))) throw new LockLostError(held.lockPath);
}

/**
 * Releases the lock if it is still the one `held` took (a lock broken as stale meanwhile is someone else's now).
 * @param ops the file operations
 * @param held what `acquire` returned
 * @returns steps that never throw
 */
export function* release(ops: FileOps, held: Held): Steps<void> {
  yield* removeIfSame(ops, held.lockPath, held.bytes);
}

/**
 * Runs `body` while holding the lock at `lockPath`, releasing it however `body` ends.
 * @param ops the file operations
 * @param lockPath the lock file
 * @param body the steps to run under the lock; they get the lock, to `confirm` it before committing
 * @param options how long to wait, and when an abandoned lock may be taken over
 * @returns steps ending in `body`'s result
 */
export function* locked<T>(ops: FileOps, lockPath: string, body: (held: Held) => Steps<T>, options: LockOptions = {}): Steps<T> {
  const held = yield* acquire(ops, lockPath, options);
  try {
    return yield* body(held);
  } finally {
    yield* release(ops, held);
  }
}
