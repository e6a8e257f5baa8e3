// Rule directory listings between steps (spec AM-31): the rules are collected at every pre-step, and
// listing a directory through DSH's provider resolves and stats every entry (a realpath and a stat
// per child, one after another), which cost the bench tree's 205 rules about 20 ms per step. A
// directory whose version has not changed, and whose rule files have not changed either, still has
// the listing it had: then one `lstat` of the directory and one per plain `.md` file answer, all at
// once. A directory version answers for its names only once it is settled (src/host/racy.ts), so an
// entry added within the tick of the last change is still seen; anything that is not plainly a
// directory of plain files (a symlink, an error, a provider whose `lstat` and `stat` versions
// differ) is listed again every time, as before.

import { LSTAT_FAILED, lstatOf, observeVersion, RACY_WINDOW_MS, type FileSystem, type FsDirEntry, type FsPathInfo, type FsTarget, type FsVersion, type SeenVersion } from '../../host/index.js';
import { MARKDOWN_SUFFIX } from './paths.js';

interface ListingMemo {
  readonly seen: SeenVersion;
  readonly entries: readonly FsDirEntry[];
  /** The display path and version of every plain rule file of the listing (all of them: else no memo is kept). */
  readonly files: readonly (readonly [string, FsVersion])[];
}

/** The listings of one provider's rule directories, by display path. */
export class RuleListings {
  readonly #memos = new Map<string, ListingMemo>();
  readonly #lstatOnce: ReturnType<typeof lstatOf>;

  /**
   * @param fs - the provider the listings come from.
   * @param now - the runtime's monotonic clock, in milliseconds.
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly now: () => number,
  ) {
    this.#lstatOnce = lstatOf(fs);
  }

  /**
   * What `fs.listDir(dir)` gives now: the remembered listing when the directory and its rule files
   * are unchanged and its version settled, else a new listing. Errors of `listDir` propagate.
   */
  async list(dir: FsTarget, signal: AbortSignal | undefined): Promise<readonly FsDirEntry[]> {
    const started = this.now();
    const memo = this.#memos.get(dir.displayPath);
    // Inside the window the directory is listed anyway and its version cannot settle yet: list only.
    if (memo !== undefined && !memo.seen.settled && started < memo.seen.since + RACY_WINDOW_MS) return this.fs.listDir(dir, signal);
    if (memo?.seen.settled === true) {
      const [info, ...files] = await Promise.all([this.#lstat(dir.displayPath, signal), ...memo.files.map(([path]) => this.#lstat(path, signal))]);
      const same = info?.type === 'directory' && info.version === memo.seen.version && memo.files.every(([, version], i) => files[i]?.type === 'file' && files[i]!.version === version);
      if (same) return memo.entries;
    }
    // Before the listing, so a change during it leaves a version the next look will not match.
    const info = await this.#lstat(dir.displayPath, signal);
    const entries = await this.fs.listDir(dir, signal);
    if (info?.type !== 'directory') {
      this.#memos.delete(dir.displayPath);
      return entries;
    }
    const seen = observeVersion(memo?.seen, info.version, started, this.now());
    // The files' own versions are needed only once the listing can be trusted; until then it is taken again at every step.
    const files = seen.settled ? await this.#plainFiles(entries, signal) : [];
    if (files === undefined) this.#memos.delete(dir.displayPath);
    else this.#memos.set(dir.displayPath, { seen, entries, files });
    return entries;
  }

  /**
   * The display path and version of each rule file of `entries`, when every one is a plain file
   * whose `lstat` version is the listing's (so a later `lstat` tells whether it changed); else
   * `undefined`.
   */
  async #plainFiles(entries: readonly FsDirEntry[], signal: AbortSignal | undefined): Promise<[string, FsVersion][] | undefined> {
    const rules = entries.filter((e) => e.type === 'file' && e.name.endsWith(MARKDOWN_SUFFIX) && !e.name.startsWith('.'));
    const looks = await Promise.all(rules.map((e) => this.#lstat(e.target.displayPath, signal)));
    const files: [string, FsVersion][] = [];
    for (const [i, entry] of rules.entries()) {
      const look = looks[i];
      if (look?.type !== 'file' || entry.version === undefined || look.version !== entry.version) return undefined;
      files.push([entry.target.displayPath, entry.version]);
    }
    return files;
  }

  /** `lstat`, with a provider error read as "not there" (the directory is then listed as before). */
  async #lstat(path: string, signal: AbortSignal | undefined): Promise<FsPathInfo | undefined> {
    const look = await this.#lstatOnce(path, signal);
    return look === LSTAT_FAILED ? undefined : look;
  }
}
