// Instruction files that lead out of the project (issue 32 item 6). DSH's loader follows a candidate
// wherever it leads (WC-13, NG-WC-5), so a cloned repository whose `CLAUDE.md` is a link to
// `../../.git-credentials` puts the token into the first model request without any user action;
// Claude Code asks before it imports a file from outside the project. Here a project candidate whose
// real path is outside the project root is not loaded, unless it is the user-global
// `<DSH home>/AGENTS.md` or under a path the user allows (`allowedLinkTargets`). Only the file
// `AGENTS.md` of the home is allowed, not the home: it also holds DSH's `.credentials.yaml`, session
// logs and other projects' memories. The user-global candidate itself is the user's own file and
// is followed wherever it leads. Every other outcome stays DSH's, byte for byte; a refused candidate
// counts as absent (a file that was loaded and becomes such a link is withdrawn), and it is named in
// a warning once per link and target.

import { join } from 'node:path';
import type { FileSystem, FsTarget } from '../../host/index.js';
import { USER_GLOBAL_DIRECTORY, USER_GLOBAL_FILE, type Candidate, type Layout, type Probe } from './files.js';

/** Says once that a link was refused: its candidate and the real path it leads to. */
export type RefusalWarning = (candidate: Candidate, targetPath: string) => void;

/** The warning's format (Cordis placeholders): the link's display path, then where it leads. */
export const LINK_REFUSED =
  'workspace-context: not loading %s: it leads to %s, outside the project root, so it is not sent to the model (DSH\'s own loader would send it); allow it with the allowedLinkTargets config key';

/** The real paths a project candidate may lead to, resolved once through the provider. */
export class LinkFence {
  #allowed: Promise<FsTarget[]> | undefined;

  /**
   * @param fs the provider the candidates were probed through
   * @param layout the session's root and config (`dshHome`, `allowedLinkTargets`)
   * @param warn called for a refused candidate (the caller says each link once)
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly layout: Pick<Layout, 'root' | 'config'>,
    private readonly warn?: RefusalWarning,
  ) {}

  /**
   * `probes` (one per candidate, in order) with every present project candidate whose target is
   * outside the allowed places turned into `refused`. When the allowed places cannot be resolved,
   * such candidates are `unavailable` (WC-16: neither loaded nor withdrawn). Cancellation rejects.
   * @param candidates the probed candidates
   * @param probes their probes
   * @param signal the step's signal
   * @returns the probes after the fence
   */
  async apply(candidates: readonly Candidate[], probes: readonly Probe[], signal: AbortSignal | undefined): Promise<Probe[]> {
    if (!probes.some((p, i) => p.kind === 'present' && candidates[i]!.directory !== USER_GLOBAL_DIRECTORY)) return [...probes];
    let allowed: FsTarget[];
    try {
      allowed = await (this.#allowed ??= this.#resolveAllowed(signal));
    } catch (error) {
      this.#allowed = undefined;
      signal?.throwIfAborted();
      return probes.map((p, i) => (p.kind === 'present' && candidates[i]!.directory !== USER_GLOBAL_DIRECTORY ? { kind: 'unavailable', error } : p));
    }
    return probes.map((probe, i) => {
      const candidate = candidates[i]!;
      if (probe.kind !== 'present' || candidate.directory === USER_GLOBAL_DIRECTORY) return probe;
      if (allowed.some((place) => this.fs.contains(place, probe.target))) return probe;
      this.warn?.(candidate, this.fs.processPath(probe.target));
      return { kind: 'refused', target: probe.target };
    });
  }

  /**
   * The project root, the user-global file and each allowed path, as the provider resolves them (real
   * paths). An allowed path the provider can never resolve (a file stands on its way: `FS_NOT_FOUND`)
   * is a place nothing leads to, not a reason to hold back every instruction file of the project.
   */
  async #resolveAllowed(signal: AbortSignal | undefined): Promise<FsTarget[]> {
    const { root, config } = this.layout;
    const resolve = (path: string) => this.fs.resolve(path, { signal });
    const allowed = config.allowedLinkTargets.map((path) =>
      resolve(path).catch((error: unknown) => {
        if ((error as { code?: unknown } | undefined)?.code === 'FS_NOT_FOUND') return undefined;
        throw error;
      }));
    const places = await Promise.all([resolve(root), resolve(join(config.dshHome.path, USER_GLOBAL_FILE)), ...allowed]);
    return places.filter((place) => place !== undefined);
  }
}

/**
 * A warning function that says each refused link (by candidate path and target) once per plugin
 * instance, through `warn` with LINK_REFUSED.
 * @param warn the logger's `warn`
 * @returns the once-only warning
 */
export function warnOnce(warn: (format: string, ...args: unknown[]) => void): RefusalWarning {
  const said = new Set<string>();
  return (candidate, targetPath) => {
    const key = `${candidate.absolute}\u0000${targetPath}`;
    if (said.has(key)) return;
    said.add(key);
    warn(LINK_REFUSED, candidate.path, targetPath);
  };
}
