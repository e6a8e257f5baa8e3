// The baseline (spec WC-11, WC-12, WC-17, WC-25..WC-28, WC-44): discover every candidate from the
// user-global file down to the cwd, read each with a bounded read, collapse trimmed duplicates per
// directory, and render what fits.

import { dirname } from 'node:path';
import { utf8Length } from '../../engine/index.js';
import type { FileSystem } from '../../host/index.js';
import { baselineDirectories, directoryCandidates, readCandidate, type Candidate, type Layout } from './files.js';
import { LinkFence } from './fence.js';
import { CandidateProbes } from './probes.js';
import { baselineIntro, renderBlock, renderEmptyReplacement } from './render.js';
import { isActive, type Change, type VersionState, type VisibleBaseline } from './state.js';

/** A baseline file that was read. */
export interface BaselineFile {
  readonly candidate: Candidate;
  readonly text: string;
  readonly state: VersionState;
}

/** What happened to one baseline candidate, for tools that explain a baseline (the CLI's inspect). */
export type CandidateOutcome =
  | { readonly kind: 'loaded'; readonly bytes: number; readonly digest: string }
  | { readonly kind: 'duplicate'; readonly bytes: number; readonly of: string }
  | { readonly kind: 'absent' | 'oversize' }
  /** A link out of the project (fence.ts); `target` is the real path it leads to. */
  | { readonly kind: 'refused'; readonly target: string }
  | { readonly kind: 'unavailable'; readonly error: unknown };

/** Optional observation of `loadBaseline`: each candidate's outcome and the time spent per phase. */
export interface BaselineTrace {
  onCandidate?(candidate: Candidate, outcome: CandidateOutcome): void;
  /** Milliseconds spent in resolve + stat, and in bounded reads with their digests (accumulated). */
  probeMs: number;
  readMs: number;
}

/**
 * Discovers and reads the baseline set, broadest first. Candidates are unique by absolute path (the
 * home's `AGENTS.md` shows once, as user-global, when the home is a chain directory). Missing,
 * unavailable and oversize candidates are skipped (WC-14); a later candidate whose trimmed content
 * equals an earlier loaded one in the same directory is dropped (WC-12). `trace` observes it.
 * Each directory's candidates are probed at once through `probes` (a session's probe memory, or a
 * new one), which gives `probeCandidate`'s outcomes with an `lstat` for each name that is not there
 * instead of a `resolve` and a `stat`: a chain 2,000 levels deep is 2,000 directories (issue 32 item 9).
 * `fence` (the session's, or a new one that warns nobody) refuses links out of the project.
 */
export async function loadBaseline(
  fs: FileSystem, layout: Layout, signal: AbortSignal | undefined, trace?: BaselineTrace, probes = new CandidateProbes(fs, () => performance.now()),
  fence = new LinkFence(fs, layout),
): Promise<BaselineFile[]> {
  const files: BaselineFile[] = [];
  const seen = new Set<string>();
  const timed = async <T>(phase: 'probeMs' | 'readMs', work: () => Promise<T>): Promise<T> => {
    if (trace === undefined) return work();
    const start = performance.now();
    try {
      return await work();
    } finally {
      trace[phase] += performance.now() - start;
    }
  };
  for (const directory of baselineDirectories(layout)) {
    const kept = new Map<string, string>();
    const candidates = directoryCandidates(layout, directory).filter((c) => !seen.has(c.absolute));
    for (const c of candidates) seen.add(c.absolute);
    if (candidates.length === 0) continue;
    const found = await timed('probeMs', async () => fence.apply(candidates, await probes.probe(dirname(candidates[0]!.absolute), candidates, signal), signal));
    for (const [i, candidate] of candidates.entries()) {
      const probe = found[i]!;
      if (probe.kind !== 'present') {
        trace?.onCandidate?.(candidate, probe.kind === 'refused' ? { kind: 'refused', target: fs.processPath(probe.target) } : probe);
        continue;
      }
      const read = await timed('readMs', () => readCandidate(fs, probe, layout.config.maxSourceBytes, signal));
      if (read.kind !== 'loaded') {
        trace?.onCandidate?.(candidate, read);
        continue;
      }
      const bytes = utf8Length(read.text);
      const earlier = kept.get(read.trimmedDigest);
      if (earlier !== undefined) {
        trace?.onCandidate?.(candidate, { kind: 'duplicate', bytes, of: earlier });
        continue;
      }
      kept.set(read.trimmedDigest, candidate.path);
      trace?.onCandidate?.(candidate, { kind: 'loaded', bytes, digest: read.digest });
      files.push({ candidate, text: read.text, state: { path: candidate.path, version: probe.version, digest: read.digest, trimmedDigest: read.trimmedDigest } });
    }
  }
  return files;
}

/** A rendered baseline block and the files it represents. */
export interface ComposedBaseline {
  /** The framed block, or `undefined` when there is nothing to say (WC-28: an empty chain costs nothing). */
  readonly text: string | undefined;
  /** The files the block represents, in order (WC-27). */
  readonly included: readonly BaselineFile[];
  /** `set` per included file (WC-29). */
  readonly changes: readonly Change[];
  /** What the budget left out whole or cut (WC-26). */
  readonly omitted: readonly string[];
  readonly truncated?: { readonly path: string; readonly from: number; readonly to: number };
}

/** The `set` change a baseline file commits. */
export const baselineChange = (file: BaselineFile): Change => ({ action: 'set', scope: file.candidate.scope, path: file.candidate.path, digest: file.state.digest });

/** Renders the baseline block for `files` under `maxBytes`; `replacing` selects the WC-44 intro. */
export function renderBaseline(files: readonly BaselineFile[], maxBytes: number, replacing: boolean): ComposedBaseline {
  if (files.length === 0) return { text: replacing ? renderEmptyReplacement(maxBytes) : undefined, included: [], changes: [], omitted: [] };
  const block = renderBlock(
    files.map((f) => ({ kind: 'baseline', path: f.candidate.path, directory: f.candidate.directory, content: f.text })),
    baselineIntro(replacing),
    maxBytes,
  );
  const included = files.filter((_, i) => block.represented[i]);
  return { text: block.text, included, changes: included.map(baselineChange), omitted: block.omitted, ...(block.truncated !== undefined ? { truncated: block.truncated } : {}) };
}

/**
 * WC-44: the `remove` changes a superseding baseline starts with, one per scope the superseded
 * baseline loaded that the new one does not.
 */
export function supersededRemovals(previous: VisibleBaseline, next: readonly Change[]): Change[] {
  const kept = new Set(next.map((c) => c.scope));
  const loaded = new Map<string, Change>();
  for (const change of previous.changes) loaded.set(change.scope, change);
  return [...loaded.values()].filter((c) => isActive(c) && !kept.has(c.scope)).map((c) => ({ action: 'remove', scope: c.scope, path: c.path }));
}
