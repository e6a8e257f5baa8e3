// The state file `$DSH_HOME/session-context-config.json` (spec CP-14, CP-31..CP-35): read once,
// migrated, and written with the project's one atomic write under its lock file (io/: temporary
// file, fsync, rename). A file that cannot be parsed is moved aside under a new name and reported;
// it is never overwritten, so the user's profiles survive a crash, a half-written file or a bad edit.

import { join } from 'node:path';
import type { Logger } from '../../host/index.js';
import { nodeFileOpsSync, updateFileSync, type SyncFileOps } from '../../io/index.js';
import { defaultState, NONE, type Baseline, type Profile, type State } from './model.js';
import { readState, StateError, validateSave } from './normalize.js';

/** CP-31: file names under the DSH home. */
export const STATE_FILE = 'session-context-config.json';
export const LEGACY_FILE = 'context-profile.json';
export const LEGACY_SUFFIX = '.migrated';
export const CORRUPT_SUFFIX = '.corrupt';

/** The synchronous file operations the store uses: the shared port (node:fs by default; tests inject faults). */
export type StoreIo = SyncFileOps;

/**
 * How long a save waits for another DSH process that is writing the same file. The wait blocks the
 * thread (the store is synchronous), so it is short; the other writer holds the lock for one write.
 */
export const STATE_LOCK_TIMEOUT_MS = 2000;

/** What a load found, for the API and the log. */
export type LoadReport =
  | { readonly kind: 'missing' }
  | { readonly kind: 'current' }
  | { readonly kind: 'migrated'; readonly from: string }
  | { readonly kind: 'corrupt'; readonly keptAt: string; readonly reason: string };

/**
 * Holds the state in memory and persists every change. Single writer per home: the plugin is the
 * only one that writes the file while it runs (the panel talks to it through the API).
 */
export class StateStore {
  readonly path: string;
  #state: State = defaultState();
  #report: LoadReport = { kind: 'missing' };
  /** Set when an unreadable file could not be moved aside: every write is refused. */
  #frozen: string | undefined;

  constructor(readonly home: string, readonly logger: Pick<Logger, 'warn'>, readonly io: StoreIo = nodeFileOpsSync) {
    this.path = join(home, STATE_FILE);
  }

  /** The current state (do not mutate; use the methods). */
  get state(): State {
    return this.#state;
  }

  /** What the last `load` found. */
  get report(): LoadReport {
    return this.#report;
  }

  /**
   * Reads the file (CP-31), or migrates the legacy file (CP-35), or starts from the defaults. A
   * migrated file is written back in v4 form; a corrupt one is moved aside and reported.
   */
  load(): LoadReport {
    const { io } = this;
    const legacy = join(this.home, LEGACY_FILE);
    let source = this.path;
    if (!this.#exists(this.path)) {
      if (!this.#exists(legacy)) {
        this.#state = defaultState();
        return (this.#report = { kind: 'missing' });
      }
      source = legacy;
    }
    let outcome;
    try {
      outcome = readState(JSON.parse(Buffer.from(io.readPrefix(source, Number.MAX_SAFE_INTEGER).bytes).toString('utf8')) as unknown);
    } catch (error) {
      return this.#setAside(source, error);
    }
    this.#state = outcome.state;
    if (source === legacy) {
      this.#write(this.#state);
      io.rename(legacy, legacy + LEGACY_SUFFIX);
      return (this.#report = { kind: 'migrated', from: LEGACY_FILE });
    }
    if (outcome.migrated) {
      this.#write(this.#state);
      return (this.#report = { kind: 'migrated', from: STATE_FILE });
    }
    return (this.#report = { kind: 'current' });
  }

  #setAside(source: string, error: unknown): LoadReport {
    const reason = error instanceof Error ? error.message : String(error);
    let keptAt = source + CORRUPT_SUFFIX;
    for (let n = 1; this.#exists(keptAt); n++) keptAt = `${source}${CORRUPT_SUFFIX}.${n}`;
    this.#state = defaultState();
    try {
      this.io.rename(source, keptAt);
    } catch (renameError) {
      // The unreadable file must survive: with no copy aside, nothing may be written over it.
      this.#frozen = `${source} could not be read (${reason}) nor moved aside (${renameError instanceof Error ? renameError.message : String(renameError)})`;
      this.logger.warn('context-profiles: %s; the defaults are in use and nothing will be saved', this.#frozen);
      return (this.#report = { kind: 'corrupt', keptAt: source, reason });
    }
    this.logger.warn('context-profiles: %s could not be read (%s); it was kept as %s and the defaults are in use', source, reason, keptAt);
    return (this.#report = { kind: 'corrupt', keptAt, reason });
  }

  #exists(path: string): boolean {
    return this.io.lstat(path) !== undefined;
  }

  /**
   * CP-31 [R]: the shared atomic write (temp file in the same directory, fsync, rename; the old file
   * stays intact on failure) under the file's lock. The whole state is written, as before: merging
   * with what another process wrote is not done here.
   */
  #write(state: State): void {
    if (this.#frozen !== undefined) throw new StateError(`not saving: ${this.#frozen}`, 503);
    const bytes = new TextEncoder().encode(`${JSON.stringify(state, null, 2)}\n`);
    // Mode 0666 less the umask, as node:fs created the file before.
    updateFileSync(this.io, this.path, () => bytes, { timeoutMs: STATE_LOCK_TIMEOUT_MS, mode: 0o666 });
  }

  /** Replaces the state and writes it; on a write failure the in-memory state is unchanged too. */
  #commit(next: State): void {
    this.#write(next);
    this.#state = next;
  }

  /** CP-37 POST /state: validates (CP-32) and saves profiles, `lastUsedId` and `baseline`. */
  save(raw: unknown): State {
    const next = validateSave(raw, this.#state);
    this.#commit(next);
    return next;
  }

  /** A profile by id. */
  profile(id: string): Profile | undefined {
    return this.#state.profiles.find((p) => p.id === id);
  }

  /** CP-13: the profile id recorded for a session, else `lastUsedId`. */
  profileIdFor(sessionId: string): string {
    return this.#state.sessions[sessionId] ?? this.#state.lastUsedId;
  }

  /** CP-14: records the first application for a session (a one-time record). */
  recordFirst(sessionId: string, profileId: string): void {
    if (this.#state.sessions[sessionId] !== undefined) return;
    this.#commit({ ...this.#state, sessions: { ...this.#state.sessions, [sessionId]: profileId } });
  }

  /** CP-14/CP-15: an explicit switch overwrites the record and becomes `lastUsedId`. */
  choose(sessionId: string, profileId: string): void {
    if (profileId !== NONE && this.profile(profileId) === undefined) throw new StateError(`profile "${profileId}" does not exist`, 404);
    this.#commit({ ...this.#state, lastUsedId: profileId, sessions: { ...this.#state.sessions, [sessionId]: profileId } });
  }

  /** The global additional-rule settings. */
  get baseline(): Baseline {
    return this.#state.baseline;
  }
}
