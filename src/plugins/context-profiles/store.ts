// The state file `$DSH_HOME/session-context-config.json` (spec CP-14, CP-31..CP-35). It has several
// writers at once — every DSH process running the plugin (session records, switches, the panel on
// DSH's web server) and `dsh-context profiles serve` — so every write takes the file's lock, re-reads
// what is on disk, applies only its own change (merge.ts) and replaces the file with the project's
// one atomic write (io/). Reads take no lock (writes are atomic renames) and happen whenever a fresh
// answer matters: at load, when a session is created, at each step's channel filter, when the panel
// asks. Nothing a user wrote is ever lost silently: an unparsable file is moved aside, a file with
// shape errors is copied aside before its normalized form replaces it (both reported to the log and
// the panel), and a path that is not a regular file (a FIFO would block every read) is refused. So
// is a file over the size cap and one written by a newer package (issue 32, items 5 and 10): they
// are neither read nor written, moved nor copied, and the refusal is logged once. Every write
// confirms that the lock is still this process's just before its rename (io/lock.ts): a writer
// robbed of the lock while it was stopped fails instead of overwriting what the new holder saved.

import { basename, join } from 'node:path';
import { sha256Hex } from '../../engine/index.js';
import type { Logger } from '../../host/index.js';
import {
  confirm, describeEntryType, LockLostError, LockPathError, LockTimeoutError, lockPathFor, nodeFileOpsSync, runSync, withLockSync, writeAtomic, writeLocked,
  type Held, type SyncFileOps,
} from '../../io/index.js';
import { parseJson } from './json.js';
import { chooseSession, choosable, mergeSave, recordSession } from './merge.js';
import { defaultState, NONE, STATE_LIMITS, STATE_VERSION, type Baseline, type Profile, type State } from './model.js';
import { NewerStateError, readState, StateError, validateSave } from './normalize.js';

/** CP-31: file names under the DSH home. */
export const STATE_FILE = 'session-context-config.json';
export const LEGACY_FILE = 'context-profile.json';
export const LEGACY_SUFFIX = '.migrated';
/** Suffix of a file kept aside: an unparsable one moved, or a copy of one with shape errors. */
export const CORRUPT_SUFFIX = '.corrupt';

/** The synchronous file operations the store uses: the shared port (node:fs by default; tests inject faults). */
export type StoreIo = SyncFileOps;

/**
 * How long a write waits for another process writing the same file. The wait blocks the thread
 * (the store is synchronous), so it is short; the other writer holds the lock for one write.
 */
export const STATE_LOCK_TIMEOUT_MS = 2000;
/** Mode of the state file: 0666 less the umask, as before the shared write existed. */
const STATE_FILE_MODE = 0o666;
/** Snapshots the panel may still save against (see `snapshot`). */
const SNAPSHOTS_KEPT = 32;
/** Hex digits of a snapshot's revision. */
const REVISION_HEX = 16;

/** What a store starts from while there is no state file (config `defaultProfile` and `profiles`). */
export interface FreshState {
  readonly lastUsedId: string;
  readonly profiles: readonly Profile[];
}

/** What the last read found, for the API (the panel shows it) and the log. */
export type LoadReport =
  | { readonly kind: 'missing' }
  | { readonly kind: 'current' }
  | { readonly kind: 'migrated'; readonly from: string }
  /** Unparsable (or unreadable, or newer): moved to `keptAt`, the defaults are in use. */
  | { readonly kind: 'corrupt'; readonly keptAt: string; readonly reason: string }
  /** Parsed with shape errors: the original bytes copied to `keptAt`, what could be read is in use and was written back. */
  | { readonly kind: 'set-aside'; readonly keptAt: string; readonly problems: readonly string[] }
  /** Not a regular file, over the size cap, or from a newer package: not read, not written; the defaults are in use. */
  | { readonly kind: 'refused'; readonly reason: string };

/** The file as one read found it. */
interface DiskRead {
  readonly state: State;
  readonly report: LoadReport;
  /** Whether the file must be rewritten under the lock (an old version, shape errors, unparsable). */
  readonly rewrite: boolean;
  /** The state file's inode, size, modification and change times when it was read (see `#seen`). */
  readonly stamp?: string;
}

/**
 * How old a file's modification time must be before its stamp is trusted: a file system with coarse
 * timestamps could show an edit made within the same tick as unchanged (auto-memory's rules wait as long).
 */
const STAMP_SETTLED_MS = 2100;

const encode = (state: State): Uint8Array => new TextEncoder().encode(`${JSON.stringify(state, null, 2)}\n`);
const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const count = (n: number): string => n.toLocaleString('en-US');

/** The state file of one DSH home, shared with other processes; see the file comment. */
export class StateStore {
  readonly path: string;
  #state: State;
  #report: LoadReport = { kind: 'missing' };
  /** The bytes last read or written, so an unchanged file is not parsed again. */
  #bytes: Uint8Array | undefined;
  readonly #snapshots = new Map<string, State>();
  /** The lock while a locked task runs: every write confirms it just before its rename. */
  #held: Held | undefined;
  /**
   * The last read of the state file that needed no rewrite, with the file's stamp: while the stamp
   * stays the same (and is settled) a refresh answers from it without reading the file, so a step
   * costs one lstat whatever the file's size (issue 32, item 5).
   */
  #seen: { readonly stamp: string; readonly read: DiskRead } | undefined;

  /**
   * @param home - the DSH home holding the file.
   * @param logger - where problems with the file are reported.
   * @param io - the file operations (node:fs unless a test injects faults).
   * @param fresh - what the state is while there is no readable file: its `lastUsedId` (config
   *   `defaultProfile`) and the profiles it holds besides the built-ins (config `profiles`). The first
   *   write makes it the file; a file that exists is never given them.
   */
  constructor(readonly home: string, readonly logger: Pick<Logger, 'warn'>, readonly io: StoreIo = nodeFileOpsSync, readonly fresh: FreshState = { lastUsedId: NONE, profiles: [] }) {
    this.path = join(home, STATE_FILE);
    this.#state = this.#defaults();
  }

  /** The state without a readable file (CP-31 and the config, see `fresh`). */
  #defaults(): State {
    return defaultState(this.fresh.lastUsedId, this.fresh.profiles);
  }

  /** The state as last read or written (do not mutate; use the methods). */
  get state(): State {
    return this.#state;
  }

  /** What the last read found. */
  get report(): LoadReport {
    return this.#report;
  }

  /**
   * Reads the file (CP-31), or migrates the legacy file (CP-35), or starts from the defaults. A
   * migrated file is written back in v4 form (under the lock, against the file as it is then).
   * @returns what it found.
   */
  load(): LoadReport {
    const legacy = join(this.home, LEGACY_FILE);
    if (this.io.lstat(this.path) === undefined && this.io.lstat(legacy) !== undefined) {
      try {
        this.#locked(() => this.#migrateLegacy(legacy));
      } catch (error) {
        this.logger.warn('context-profiles: %s could not be migrated now (%s)', legacy, message(error));
      }
    }
    this.refresh();
    return this.#report;
  }

  /**
   * CP-35 under the lock: the legacy file's state becomes the new file, and the legacy file is
   * renamed `.migrated` (so its bytes stay, whatever the read dropped). An unparsable legacy file is
   * moved aside instead, a non-regular one left alone.
   */
  #migrateLegacy(legacy: string): void {
    if (this.io.lstat(this.path) !== undefined) return;
    const read = this.#read(legacy);
    if (read.report.kind === 'refused' || read.report.kind === 'missing') return;
    if (read.report.kind === 'corrupt') {
      const keptAt = this.#asideName(legacy);
      this.io.rename(legacy, keptAt);
      this.logger.warn('context-profiles: %s could not be read (%s); it was kept as %s and the defaults are in use', legacy, read.report.reason, keptAt);
      this.#adopt({ state: read.state, report: { kind: 'corrupt', keptAt, reason: read.report.reason }, rewrite: false });
      return;
    }
    this.#write(read.state);
    this.io.rename(legacy, legacy + LEGACY_SUFFIX);
    if (read.report.kind === 'set-aside') {
      this.logger.warn('context-profiles: %s has shape errors: %s; the original was kept as %s and the rest is in use', legacy, read.report.problems.join('; '), legacy + LEGACY_SUFFIX);
      this.#adopt({ state: read.state, report: { kind: 'set-aside', keptAt: legacy + LEGACY_SUFFIX, problems: read.report.problems }, rewrite: false });
    } else {
      this.#adopt({ state: read.state, report: { kind: 'migrated', from: LEGACY_FILE }, rewrite: false });
    }
  }

  /**
   * Re-reads the file when its bytes changed since the last read or write (another process wrote
   * it), so a new session, a step's channel filter and the panel see what is saved now. A file that
   * needs rewriting (an old version, shape errors, unparsable) is repaired under the lock. Never
   * throws: a failure is logged and the last state stays in use.
   */
  refresh(): void {
    let read: DiskRead & { readonly bytes?: Uint8Array };
    try {
      read = this.#read(this.path);
    } catch (error) {
      this.logger.warn('context-profiles: %s could not be read (%s); the last state read stays in use', this.path, message(error));
      return;
    }
    if (!read.rewrite) return this.#adopt(read);
    try {
      this.#locked(() => this.#adopt(this.#repair(this.#read(this.path))));
    } catch (error) {
      // Another writer holds the file, or the file cannot be set aside: use what was read.
      this.logger.warn('context-profiles: %s needs rewriting but was not written (%s)', this.path, message(error));
      this.#adopt(read, false);
    }
  }

  /**
   * The state as the panel is shown it, with a revision it can save against (`save`'s `revision`):
   * a save applies what the panel changed from this snapshot, whatever was written since.
   * @returns the state and its revision.
   */
  snapshot(): { readonly state: State; readonly revision: string } {
    const state = this.#state;
    const revision = sha256Hex(JSON.stringify(state)).slice(0, REVISION_HEX);
    this.#snapshots.delete(revision);
    this.#snapshots.set(revision, state);
    while (this.#snapshots.size > SNAPSHOTS_KEPT) this.#snapshots.delete(this.#snapshots.keys().next().value!);
    return { state, revision };
  }

  /**
   * CP-37 POST /state: validates (CP-32) and saves profiles, `lastUsedId` and `baseline`, applying
   * only what changed from the snapshot `revision` names (else from the state last read here) to
   * the file as it is now (merge.ts).
   * @param raw - the request body.
   * @param revision - the snapshot the panel started from (`snapshot().revision`).
   * @returns the state written.
   * @throws StateError 400 for a bad save (nothing written), 503 when the file cannot be written.
   */
  save(raw: unknown, revision?: string): State {
    const base = (revision !== undefined ? this.#snapshots.get(revision) : undefined) ?? this.#state;
    const mine = validateSave(raw, base);
    return this.#update((theirs) => {
      const merged = mergeSave(base, mine, theirs);
      // A save that names an old revision adds its new profiles to the file's: the cap holds for the
      // result (a file already over it, from an older version, may only shrink).
      const limit = Math.max(STATE_LIMITS.profiles, theirs.profiles.length);
      if (merged.profiles.length > limit) throw new StateError(`saving would leave ${merged.profiles.length} profiles in the file; the limit is ${limit}`);
      return merged;
    });
  }

  /**
   * A profile by id, as last read.
   * @param id - the profile id.
   * @returns the profile, or undefined.
   */
  profile(id: string): Profile | undefined {
    return this.#state.profiles.find((p) => p.id === id);
  }

  /**
   * CP-13: the profile id recorded for a session, else `lastUsedId` (as last read).
   * @param sessionId - the session.
   * @returns a profile id or `none`.
   */
  profileIdFor(sessionId: string): string {
    return Object.hasOwn(this.#state.sessions, sessionId) ? this.#state.sessions[sessionId]! : this.#state.lastUsedId;
  }

  /**
   * CP-14: records a session's first profile (`none` included), unless the file has a record.
   * @param sessionId - the session.
   * @param profileId - the profile it started under.
   */
  recordFirst(sessionId: string, profileId: string): void {
    // A refused file was logged once when it was read; trying to record would only fail again.
    if (this.#report.kind === 'refused') return;
    this.#update((theirs) => recordSession(theirs, sessionId, profileId));
  }

  /**
   * CP-14/CP-15: an explicit switch overwrites the record and becomes `lastUsedId`.
   * @param sessionId - the session.
   * @param profileId - the chosen profile, or `none`.
   * @throws StateError 404 when the profile does not exist in the file, 503 when it cannot be written.
   */
  choose(sessionId: string, profileId: string): void {
    this.#update((theirs) => {
      if (!choosable(theirs, profileId)) throw new StateError(`profile "${profileId}" does not exist`, 404);
      return chooseSession(theirs, sessionId, profileId);
    });
  }

  /** The global additional-rule settings. */
  get baseline(): Baseline {
    return this.#state.baseline;
  }

  /**
   * Under the lock: reads the file, applies `change` to what it holds now, writes the result
   * atomically, and adopts it. `undefined` from `change` writes nothing (the file is adopted as read).
   */
  #update(change: (theirs: State) => State | undefined): State {
    return this.#locked(() => {
      const read = this.#repair(this.#read(this.path));
      if (read.report.kind === 'refused') throw new StateError(`not saving: ${this.path} ${read.report.reason}`, 503);
      const next = change(read.state);
      if (next === undefined) {
        this.#adopt(read);
      } else {
        this.#write(next);
        this.#adopt({ state: next, report: read.report, rewrite: false });
      }
      return this.#state;
    });
  }

  /**
   * Runs `task` holding the file's lock. A lock that stays taken is a 503 naming the holder; so is a
   * lock taken over while this write waited, and something other than a file at the lock path.
   */
  #locked<T>(task: () => T): T {
    const lockPath = lockPathFor(this.path);
    try {
      return withLockSync(this.io, lockPath, (held) => {
        this.#held = held;
        try {
          return task();
        } finally {
          this.#held = undefined;
        }
      }, { timeoutMs: STATE_LOCK_TIMEOUT_MS });
    } catch (error) {
      if (error instanceof LockTimeoutError) throw new StateError(`not saving: ${error.message}`, 503);
      if (error instanceof LockLostError) throw new StateError('not saving: another process took over the state file\'s lock while this write waited (it had not been refreshed for too long); nothing was written, save again', 503);
      if (error instanceof LockPathError) throw new StateError(`not saving: the state file's lock (${basename(lockPath)} in the DSH home) is ${error.what}, not a lock file; remove it and save again`, 503);
      throw error;
    }
  }

  /**
   * Reads `path` without the lock. A path that is not a regular file is refused unopened (a FIFO
   * would block). Unparsable JSON, a shape that is not a state object, or a newer version: `corrupt`
   * (the file must be moved aside before anything is written). Shape errors: `set-aside` (a copy
   * must be kept before the normalized form is written).
   */
  #read(path: string): DiskRead & { readonly bytes?: Uint8Array } {
    const info = this.io.lstat(path);
    if (info === undefined) return { state: this.#defaults(), report: { kind: 'missing' }, rewrite: false };
    if (info.type !== 'file') {
      return { state: this.#defaults(), report: { kind: 'refused', reason: `is ${describeEntryType(info.type)}; context-profiles reads and replaces only a regular file` }, rewrite: false };
    }
    const stamp = path === this.path ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : undefined;
    if (stamp !== undefined && this.#seen?.stamp === stamp && Date.now() - info.mtimeMs > STAMP_SETTLED_MS) return this.#seen.read;
    let bytes: Uint8Array;
    let size: number;
    try {
      ({ bytes, size } = this.io.readPrefix(path, STATE_LIMITS.stateBytes + 1));
    } catch (error) {
      return { state: this.#defaults(), report: { kind: 'corrupt', keptAt: path, reason: message(error) }, rewrite: true };
    }
    if (size > STATE_LIMITS.stateBytes) {
      const reason = `is ${count(size)} bytes; the limit is ${count(STATE_LIMITS.stateBytes)}, so context-profiles neither reads nor writes it (it stays as it is): shrink it or move it away`;
      return { state: this.#defaults(), report: { kind: 'refused', reason }, rewrite: false, stamp };
    }
    if (path === this.path && this.#bytes !== undefined && Buffer.compare(bytes, this.#bytes) === 0) {
      return { state: this.#state, report: { kind: 'current' }, rewrite: false, bytes, stamp };
    }
    try {
      const outcome = readState(parseJson(new TextDecoder('utf-8', { fatal: true }).decode(bytes)));
      if (outcome.problems.length > 0) return { state: outcome.state, report: { kind: 'set-aside', keptAt: path, problems: outcome.problems }, rewrite: true, bytes };
      return { state: outcome.state, report: outcome.migrated ? { kind: 'migrated', from: STATE_FILE } : { kind: 'current' }, rewrite: outcome.migrated, bytes, stamp };
    } catch (error) {
      if (error instanceof NewerStateError) {
        // Item 10: a newer package's file is its to write; this one must not move it aside at every step.
        const reason = `is version ${error.version}, written by a newer dsh-context-engine (this one reads up to version ${STATE_VERSION}), so this one neither uses nor writes it: update the package`;
        return { state: this.#defaults(), report: { kind: 'refused', reason }, rewrite: false, stamp };
      }
      return { state: this.#defaults(), report: { kind: 'corrupt', keptAt: path, reason: message(error) }, rewrite: true, bytes };
    }
  }

  /**
   * Under the lock: makes a read safe to write over. A corrupt file is moved aside (the defaults
   * apply); a file with shape errors is copied aside and its normalized form written; an old version
   * is written back migrated. A file that cannot be moved or copied aside stops every write.
   */
  #repair(read: DiskRead & { readonly bytes?: Uint8Array }): DiskRead {
    const { report } = read;
    if (report.kind === 'corrupt') {
      const keptAt = this.#asideName(this.path);
      try {
        runSync(confirm(this.io, this.#heldNow()));
        this.io.rename(this.path, keptAt);
      } catch (error) {
        if (error instanceof LockLostError) throw error;
        throw new StateError(`not saving: ${this.path} could not be read (${report.reason}) nor moved aside (${message(error)})`, 503);
      }
      this.logger.warn('context-profiles: %s could not be read (%s); it was kept as %s and the defaults are in use', this.path, report.reason, keptAt);
      return { state: read.state, report: { kind: 'corrupt', keptAt, reason: report.reason }, rewrite: false };
    }
    if (report.kind === 'set-aside' && read.bytes !== undefined) {
      const keptAt = this.#asideName(this.path);
      try {
        runSync(writeAtomic(this.io, keptAt, read.bytes, STATE_FILE_MODE));
      } catch (error) {
        throw new StateError(`not saving: ${this.path} has shape errors (${report.problems.join('; ')}) and could not be copied aside (${message(error)})`, 503);
      }
      this.logger.warn('context-profiles: %s has shape errors: %s; the original was kept as %s and the rest is in use', this.path, report.problems.join('; '), keptAt);
      this.#write(read.state);
      return { state: read.state, report: { kind: 'set-aside', keptAt, problems: report.problems }, rewrite: false };
    }
    if (read.rewrite) {
      this.#write(read.state);
      return { state: read.state, report: read.report, rewrite: false };
    }
    return read;
  }

  /** A free name beside `path` for a kept copy: `.corrupt`, then `.corrupt.1`, …. */
  #asideName(path: string): string {
    let name = path + CORRUPT_SUFFIX;
    for (let n = 1; this.io.lstat(name) !== undefined; n++) name = `${path}${CORRUPT_SUFFIX}.${n}`;
    return name;
  }

  /** The lock of the locked task running now (every write runs in one). */
  #heldNow(): Held {
    if (this.#held === undefined) throw new Error('context-profiles: a state write outside the lock');
    return this.#held;
  }

  /**
   * The shared atomic write of the state file, under the lock, confirmed still held just before the
   * rename; a state over the size cap is refused (400) and nothing is written.
   */
  #write(state: State): void {
    const bytes = encode(state);
    if (bytes.length > STATE_LIMITS.stateBytes) throw new StateError(`the state file would be ${count(bytes.length)} bytes; the limit is ${count(STATE_LIMITS.stateBytes)}`);
    runSync(writeLocked(this.io, this.#heldNow(), this.path, bytes, STATE_FILE_MODE));
    this.#bytes = bytes;
    this.#seen = undefined;
  }

  /**
   * Takes a read's state as current (and its bytes as the last seen, unless `remember` is false).
   * The report keeps what the user must be told: a file kept aside or migrated stays reported until
   * something else noteworthy happens; a refused path is reported (and logged) while it lasts.
   */
  #adopt(read: DiskRead & { readonly bytes?: Uint8Array }, remember = true): void {
    this.#state = read.state;
    if (remember && read.bytes !== undefined) this.#bytes = read.bytes;
    if (remember && read.stamp !== undefined && !read.rewrite) {
      this.#seen = { stamp: read.stamp, read: { state: read.state, report: read.report.kind === 'refused' ? read.report : { kind: 'current' }, rewrite: false, stamp: read.stamp } };
    }
    const next = read.report;
    const previous = this.#report;
    const sticky = previous.kind === 'corrupt' || previous.kind === 'set-aside' || previous.kind === 'migrated';
    if ((next.kind === 'current' || next.kind === 'missing') && sticky) return;
    if (next.kind === 'refused' && (previous.kind !== 'refused' || previous.reason !== next.reason)) {
      this.logger.warn('context-profiles: %s %s; the defaults are in use and nothing will be saved', this.path, next.reason);
    }
    this.#report = next;
  }
}
