// When what was seen under a provider version can be trusted not to change under it: git's "racy"
// entries, for opaque `FsVersion`s (contract §9). A directory's version changes when an entry is
// added, removed or renamed in it, and a file's when it is written, but only as finely as the
// filesystem keeps times: nanoseconds on most, a second or two on some (FAT, HFS+, ext3, some network
// and FUSE mounts). A change made within the tick of the change we saw leaves the version as it was.
// So a plugin that answers from memory while a version stays the same (instead of asking the
// provider again) may do so only once a look that began RACY_WINDOW_MS after the version was first
// seen found it still there: every change after that lands in a later tick and changes the version.
// Versions are never parsed, so the window is measured on the plugin's own monotonic clock.

import type { FsVersion } from './fs.js';

/**
 * Milliseconds a version must have been known before what was seen under it is trusted: the
 * coarsest timestamp granularity in common use (FAT's 2 s) plus the kernel clock's tick, with margin.
 */
export const RACY_WINDOW_MS = 2_100;

/** A version of something, when it was first seen, and whether it is settled. */
export interface SeenVersion {
  readonly version: FsVersion;
  /** When this version was first seen, on the runtime's monotonic clock (`HostRuntime.now`). */
  readonly since: number;
  /** A look that began RACY_WINDOW_MS after `since` found this version: nothing changes under it any more. */
  readonly settled: boolean;
}

/**
 * The record after a look that began at `started` found `version` (and looked at everything that
 * the record will answer for from then on).
 * @param previous - the record before this look, if any.
 * @param version - the version this look found.
 * @param started - when this look began (taken before its first provider call).
 * @param now - the time now (after the call that returned `version`).
 * @returns the new record: a new version starts unsettled at `now`; the same version settles once a look began a window after it was first seen.
 */
export function observeVersion(previous: SeenVersion | undefined, version: FsVersion, started: number, now: number): SeenVersion {
  if (previous === undefined || previous.version !== version) return { version, since: now, settled: false };
  return { version, since: previous.since, settled: previous.settled || started >= previous.since + RACY_WINDOW_MS };
}
