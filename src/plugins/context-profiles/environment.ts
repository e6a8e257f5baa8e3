// Environment facts (spec CP-27): one `git status` per session, cached per directory for 60 s,
// `unknown` on any failure; the probe never throws. The facts go into the session's first runtime
// snapshot, so they are part of every later request's prefix: they must depend on the repository's
// state only, never on how busy the machine is. CP-27's 600 ms limit made a slow `git status` (a large
// tree on a loaded host) read `unknown` where the same tree read `main`/`clean` a moment before, and
// two identical sessions sent different bytes (issue 30). So the first assembly waits for git's
// answer, and the time limit only guards against a git that hangs (a lock, a network filesystem).

import { execFile } from 'node:child_process';

/** How long the probe waits for git before it gives up on a hung one (issue 30: not CP-27's 600 ms, which depended on load). */
export const PROBE_TIMEOUT_MS = 10_000;
/** CP-27: the per-directory cache lifetime. */
export const PROBE_CACHE_MS = 60_000;
export const UNKNOWN = 'unknown';

/** What the probe learned; every field may be `unknown`. */
export interface EnvironmentFacts {
  readonly cwd: string;
  readonly gitBranch: string;
  readonly workingTree: 'clean' | 'modified' | typeof UNKNOWN;
}

/** Runs `git status --porcelain=v1 --branch` in `cwd` and resolves its stdout (rejects on failure). */
export type GitStatusRunner = (cwd: string, timeoutMs: number) => Promise<string>;

/**
 * The real runner: one `git` process with the host's own timeout as a second guard. With
 * `--no-optional-locks` git does not refresh the index while it reads, so the probe writes nothing
 * and never waits on another git's lock.
 */
export const runGitStatus: GitStatusRunner = (cwd, timeoutMs) => new Promise((resolve, reject) => {
  execFile('git', ['--no-optional-locks', 'status', '--porcelain=v1', '--branch'], { cwd, timeout: timeoutMs, windowsHide: true }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
});

/** Parses porcelain v1 output: `## <branch>[...upstream]` then one line per changed path. */
export function parseStatus(cwd: string, stdout: string): EnvironmentFacts {
  const [head = '', ...rest] = stdout.split('\n');
  let branch = UNKNOWN;
  if (head.startsWith('## ')) {
    const text = head.slice(3);
    const initial = /^No commits yet on (.+)$/.exec(text);
    if (initial) branch = initial[1]!;
    else if (!text.startsWith('HEAD (no branch)')) branch = text.split('...')[0]!.split(' ')[0]!;
  }
  return { cwd, gitBranch: branch, workingTree: head.startsWith('## ') ? (rest.some((l) => l.trim() !== '') ? 'modified' : 'clean') : UNKNOWN };
}

/** [P] The context text. */
export function renderFacts(facts: EnvironmentFacts): string {
  return `Environment facts (sampled once at session start):\n- working directory: ${facts.cwd}\n- git branch: ${facts.gitBranch}\n- working tree: ${facts.workingTree}`;
}

/** Probes with a per-directory cache; `now` is injectable so the cache is testable without waiting. */
export class EnvironmentProbe {
  readonly #cache = new Map<string, { at: number; facts: Promise<EnvironmentFacts> }>();

  constructor(
    readonly run: GitStatusRunner = runGitStatus,
    readonly now: () => number = Date.now,
    readonly timeoutMs = PROBE_TIMEOUT_MS,
  ) {}

  /** The facts for `cwd` (undefined cwd → all unknown); never rejects; settles within the limit. */
  probe(cwd: string | undefined): Promise<EnvironmentFacts> {
    if (cwd === undefined) return Promise.resolve({ cwd: UNKNOWN, gitBranch: UNKNOWN, workingTree: UNKNOWN });
    const hit = this.#cache.get(cwd);
    if (hit !== undefined && this.now() - hit.at < PROBE_CACHE_MS) return hit.facts;
    const unknown: EnvironmentFacts = { cwd, gitBranch: UNKNOWN, workingTree: UNKNOWN };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<EnvironmentFacts>((resolve) => {
      timer = setTimeout(() => resolve(unknown), this.timeoutMs);
    });
    const ran = Promise.resolve()
      .then(() => this.run(cwd, this.timeoutMs))
      .then((stdout) => parseStatus(cwd, stdout), () => unknown);
    const facts = Promise.race([ran, limit]).finally(() => clearTimeout(timer));
    this.#cache.set(cwd, { at: this.now(), facts });
    return facts;
  }
}
