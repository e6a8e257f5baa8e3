// Probing the candidates of a directory at every step (spec WC-13, WC-46; contract §10.5) without
// asking the provider about every configured name each time. DSH's loader resolves and stats every
// candidate of every visible directory at every step: two calls per name, and `resolve` is a
// realpath. Here an unchanged directory answers for its absent names with one `lstat` of itself,
// and a loaded file answers for itself with one `lstat`; every case that is not plainly one of
// those (a symlink, a provider error, a directory that changed) gets the probe DSH's loader makes,
// so the outcomes are `probeCandidate`'s.
//
// Whether an unchanged directory version can answer for its names follows src/host/racy.ts: only
// once a look that began RACY_WINDOW_MS after the version was first seen found it still there; until
// then every name is looked at again at every step.

import { LSTAT_FAILED, lstatOf, observeVersion, RACY_WINDOW_MS, type FileSystem, type FsPathInfo, type FsVersion, type SeenVersion } from '../../host/index.js';
import { probeCandidate, type Candidate, type Probe } from './files.js';

/** What a candidate name is in its directory, as `lstat` sees it. */
type EntryKind = 'none' | 'other' | 'file' | 'link';

interface DirectoryMemo {
  readonly seen: SeenVersion;
  /** What each name was, as the look that made `seen` found it (or a later one under the same settled version). */
  readonly names: Map<string, EntryKind>;
}

/** A regular-file candidate: its entry's version and what `probeCandidate` found for it then. */
interface FileMemo {
  readonly entry: FsVersion;
  readonly probe: Extract<Probe, { kind: 'present' }>;
}

/**
 * One session's probe memory for one provider: per directory the version and what each candidate
 * name was, per regular-file candidate the `probeCandidate` result for its entry version. It only
 * chooses which calls to make (WC-31); it holds no instruction text (WC-32).
 */
export class CandidateProbes {
  readonly #directories = new Map<string, DirectoryMemo>();
  readonly #files = new Map<string, FileMemo>();
  /** `lstat` with a provider error as LSTAT_FAILED (cancellation rejects). */
  readonly #lstat: (path: string, signal: AbortSignal | undefined) => Promise<Look>;

  /**
   * @param fs - the provider this memory belongs to.
   * @param now - the runtime's monotonic clock, in milliseconds.
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly now: () => number,
  ) {
    this.#lstat = lstatOf(fs);
  }

  /**
   * Probes `candidates`, which all live in the absolute directory `dir`, and returns what
   * `probeCandidate` gives for each, in order. The calls run concurrently (the provider's outcomes do
   * not depend on their order). Cancellation (WC-15) rejects.
   */
  async probe(dir: string, candidates: readonly Candidate[], signal: AbortSignal | undefined): Promise<Probe[]> {
    const started = this.now();
    const known = this.#directories.get(dir);
    if (known !== undefined && !known.seen.settled && started < known.seen.since + RACY_WINDOW_MS) {
      // Inside the window every name is looked at anyway and no look can settle the version yet, so
      // the directory itself need not be asked, unless no name is there: then only it can tell a
      // directory that went away (its names are absent) from one that became a file (DSH's probes
      // report that as unavailable).
      const looks = await Promise.all(candidates.map((c) => this.#lstat(c.absolute, signal)));
      if (looks.some((l) => l !== undefined)) return Promise.all(candidates.map((c, i) => this.#outcome(c, kindOf(looks[i]!), looks[i]!, signal)));
      return this.#look(dir, candidates, known, started, looks, signal);
    }
    return this.#look(dir, candidates, known, started, undefined, signal);
  }

  /** A look with the directory's own version: answered from memory when that is settled and unchanged. */
  async #look(dir: string, candidates: readonly Candidate[], known: DirectoryMemo | undefined, started: number, looked: readonly Look[] | undefined, signal: AbortSignal | undefined): Promise<Probe[]> {
    const trusted = known?.seen.settled === true ? known : undefined;
    // The directory, and at once every name whose answer it cannot give: all of them unless its memory
    // is trusted, else only the files (a file's entry says whether the file is still the same).
    const ask = (c: Candidate, i: number): Promise<Look> | Look | typeof NOT_ASKED => {
      if (looked !== undefined) return looked[i]!;
      const kind = trusted?.names.get(c.name);
      return kind === 'none' || kind === 'other' || kind === 'link' ? NOT_ASKED : this.#lstat(c.absolute, signal);
    };
    const [info, ...asked] = await Promise.all([this.#lstat(dir, signal), ...candidates.map(ask)]);
    if (info === LSTAT_FAILED || info?.type !== 'directory') {
      // Gone, a file, a symlink, or an error: DSH's probes decide (a parent that is a file, say, makes
      // `resolve` fail, which is "unavailable", not "absent").
      this.#directories.delete(dir);
      return Promise.all(candidates.map((c) => probeCandidate(this.fs, c, signal)));
    }
    if (trusted !== undefined && trusted.seen.version === info.version) {
      return Promise.all(candidates.map(async (c, i) => {
        const kind = trusted.names.get(c.name);
        if (kind === 'none' || kind === 'other') return ABSENT;
        if (kind === 'link') return probeCandidate(this.fs, c, signal);
        const entry = asked[i] as Look;
        const now = kindOf(entry);
        if (kind === 'file' && now !== 'file') this.#directories.delete(dir); // only a race gets here
        else if (now !== undefined) trusted.names.set(c.name, now);
        return this.#outcome(c, now, entry, signal);
      }));
    }
    const memo: DirectoryMemo = { seen: observeVersion(known?.seen, info.version, started, this.now()), names: new Map() };
    const probes = await Promise.all(candidates.map(async (c, i) => {
      const entry = asked[i] === NOT_ASKED ? await this.#lstat(c.absolute, signal) : (asked[i] as Look);
      const kind = kindOf(entry);
      if (kind !== undefined) memo.names.set(c.name, kind);
      return this.#outcome(c, kind, entry, signal);
    }));
    this.#directories.set(dir, memo);
    return probes;
  }

  async #outcome(candidate: Candidate, kind: EntryKind | undefined, entry: Look, signal: AbortSignal | undefined): Promise<Probe> {
    if (kind === 'none' || kind === 'other') {
      this.#files.delete(candidate.absolute);
      return ABSENT;
    }
    if (kind === 'file' && entry !== undefined && entry !== LSTAT_FAILED) {
      const memo = this.#files.get(candidate.absolute);
      // Not a link, so `lstat` and `stat` see one file: an unchanged entry has the `stat` seen then.
      if (memo !== undefined && memo.entry === entry.version) return memo.probe;
      const probe = await probeCandidate(this.fs, candidate, signal);
      if (probe.kind === 'present') this.#files.set(candidate.absolute, { entry: entry.version, probe });
      else this.#files.delete(candidate.absolute);
      return probe;
    }
    this.#files.delete(candidate.absolute);
    return probeCandidate(this.fs, candidate, signal);
  }
}

/** A name the trusted memory answered without asking the provider. */
const NOT_ASKED = Symbol('not asked');
/** What one `lstat` gave; LSTAT_FAILED (it threw, not for cancellation) leaves the name to `probeCandidate`. */
type Look = FsPathInfo | undefined | typeof LSTAT_FAILED;
const ABSENT: Probe = { kind: 'absent' };

function kindOf(entry: Look): EntryKind | undefined {
  if (entry === LSTAT_FAILED) return undefined;
  if (entry === undefined) return 'none';
  return entry.type === 'file' ? 'file' : entry.type === 'symlink' ? 'link' : 'other';
}
