// How a change meets what is on disk (spec CP-14, CP-31, CP-37): the state file has several
// writers — every DSH process with the plugin (session records, the panel on DSH's web server) and
// `dsh-context profiles serve` — so each write re-reads the file under its lock and applies only
// the change it carries. Pure functions over states; store.ts does the I/O.

import { fromEntries } from './json.js';
import { NONE, STATE_LIMITS, type Baseline, type Profile, type State } from './model.js';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A three-way choice for one value: mine where I changed it from what I started from, else theirs. */
function pick<T>(base: T, mine: T, theirs: T): T {
  return same(mine, base) ? theirs : mine;
}

/** The baseline field by field; keys this version does not define are the file's (a save never changes them). */
function mergeBaseline(base: Baseline, mine: Baseline, theirs: Baseline): Baseline {
  return {
    ...theirs,
    contract: pick(base.contract, mine.contract, theirs.contract),
    cardReceipt: pick(base.cardReceipt, mine.cardReceipt, theirs.cardReceipt),
    untrustedDownload: pick(base.untrustedDownload, mine.untrustedDownload, theirs.untrustedDownload),
    custom: {
      ...theirs.custom,
      enabled: pick(base.custom.enabled, mine.custom.enabled, theirs.custom.enabled),
      text: pick(base.custom.text, mine.custom.text, theirs.custom.text),
    },
  };
}

/**
 * Profiles, three-way by id: a profile I left as it was in `base` is theirs (changed, kept or removed
 * by another writer); one I changed or added is mine; one I removed is removed. Their order is kept,
 * with my new profiles after it.
 */
function mergeProfiles(base: readonly Profile[], mine: readonly Profile[], theirs: readonly Profile[]): Profile[] {
  const before = new Map(base.map((p) => [p.id, p]));
  const after = new Map(mine.map((p) => [p.id, p]));
  const out: Profile[] = [];
  for (const profile of theirs) {
    const original = before.get(profile.id);
    const edited = after.get(profile.id);
    if (original === undefined) out.push(edited ?? profile);
    else if (edited === undefined) continue;
    else out.push(pick(original, edited, profile));
  }
  const present = new Set(out.map((p) => p.id));
  for (const profile of mine) {
    const original = before.get(profile.id);
    // Mine and new, or changed by me after another writer removed it: mine. Unchanged and removed by them: gone.
    if (!present.has(profile.id) && (original === undefined || !same(original, profile))) out.push(profile);
  }
  return out;
}

/**
 * CP-37 POST /state against what is on disk now. `base` is the state the saving panel was shown,
 * `mine` what it saved (both normalized), `theirs` the file now. Only what the panel changed is
 * applied: profiles by id, `lastUsedId`, each additional-rule field; the session records are always
 * the file's (a save never carries them), and so are top-level keys this version does not define;
 * a profile's own unknown keys travel with it. Two panels (or a panel and a DSH process) that change
 * different things both keep their change; when both change the same profile or field, the later
 * save wins that one.
 * @param base - what the saver started from.
 * @param mine - what it saves.
 * @param theirs - the file now.
 * @returns the state to write.
 */
export function mergeSave(base: State, mine: State, theirs: State): State {
  return {
    ...theirs,
    version: theirs.version,
    lastUsedId: pick(base.lastUsedId, mine.lastUsedId, theirs.lastUsedId),
    profiles: mergeProfiles(base.profiles, mine.profiles, theirs.profiles),
    sessions: theirs.sessions,
    baseline: mergeBaseline(base.baseline, mine.baseline, theirs.baseline),
  };
}

/**
 * CP-14: a session's first profile (`none` included) against the file now: written only when the file
 * has no record for the session yet.
 * @param theirs - the file now.
 * @param sessionId - the session.
 * @param profileId - the profile it started under.
 * @returns the state to write, or undefined when the file already has a record.
 */
export function recordSession(theirs: State, sessionId: string, profileId: string): State | undefined {
  if (Object.hasOwn(theirs.sessions, sessionId)) return undefined;
  return { ...theirs, sessions: withRecord(theirs.sessions, sessionId, profileId) };
}

/**
 * The records with `sessionId`'s last (newest); past STATE_LIMITS.sessions the oldest go (item 5:
 * a record per session ever started would grow the file forever). Built from entries: a session id
 * such as `__proto__` is an ordinary key.
 */
function withRecord(sessions: Readonly<Record<string, string>>, sessionId: string, profileId: string): Record<string, string> {
  const entries = Object.entries(sessions).filter(([id]) => id !== sessionId);
  entries.push([sessionId, profileId]);
  return fromEntries(entries.slice(Math.max(0, entries.length - STATE_LIMITS.sessions)));
}

/**
 * CP-14/CP-15: an explicit switch against the file now: the session's record and `lastUsedId`.
 * @param theirs - the file now.
 * @param sessionId - the session.
 * @param profileId - the chosen profile, or `none`.
 * @returns the state to write.
 */
export function chooseSession(theirs: State, sessionId: string, profileId: string): State {
  return { ...theirs, lastUsedId: profileId, sessions: withRecord(theirs.sessions, sessionId, profileId) };
}

/** Whether `profileId` can be chosen in `state`: `none` or an existing profile. */
export function choosable(state: State, profileId: string): boolean {
  return profileId === NONE || state.profiles.some((p) => p.id === profileId);
}
