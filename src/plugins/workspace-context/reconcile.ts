// Reconciliation (spec WC-16, WC-32, WC-39, contract §10.5): probe a set of scopes against what the
// model has seen and turn the differences into `set` / `replace` / `remove` transitions, one directory
// group at a time, in the order DSH's loader takes them. Reads happen only when a version changed; probes go through the
// session's `CandidateProbes`, which asks the provider only what it cannot already answer.

import { dirname } from 'node:path';
import type { FileSystem } from '../../host/index.js';
import { directoryCandidates, parseScope, readCandidate, type Candidate, type Layout, type Probe } from './files.js';
import type { LinkFence } from './fence.js';
import type { CandidateProbes } from './probes.js';
import type { RenderItem } from './render.js';
import { isActive, type Change, type VersionState } from './state.js';

/** One transition with the text it renders and the cache entry it commits if rendered. */
export interface Transition {
  readonly change: Change;
  readonly item: RenderItem;
  /** The cache entry after the transition; `undefined` drops the scope's entry. */
  readonly state: VersionState | undefined;
}

export interface ReconcileInput {
  readonly fs: FileSystem;
  /** The session's probe memory for `fs`. */
  readonly probes: CandidateProbes;
  /** Refuses links out of the project (fence.ts). */
  readonly fence: LinkFence;
  readonly layout: Layout;
  readonly signal: AbortSignal | undefined;
  /** The latest change per scope the model has (or is about to have) seen. */
  readonly effective: ReadonlyMap<string, Change>;
  /** Scopes to probe; each is reconciled with its directory's configured siblings present here. */
  readonly scopes: ReadonlySet<string>;
  /** Baseline scopes read but not represented by the visible baseline: never probed (contract §10.5). */
  readonly excluded: ReadonlySet<string>;
  /** This session's cache; refreshed entries are written at once, transitions' entries by the caller. */
  readonly versions: Map<string, VersionState>;
  /** Absolute paths already claimed by earlier candidates (a home inside the chain shows once, WC-11). */
  readonly seen?: Set<string>;
}

const removal = (scope: string, path: string): Transition => ({
  change: { action: 'remove', scope, path },
  item: { kind: 'remove', path, directory: parseScope(scope)?.directory ?? '.', content: '' },
  state: undefined,
});

/**
 * Reconciles `input.scopes`; returns the transitions in render order. As DSH's loader (contract
 * §10.5), directories come in the order their first scope has in `input.scopes`, and the scopes of
 * one directory in their own order there; so the caller's order (baseline, pending, visible,
 * touched) is the order the model reads, and the order in which a directory's duplicates are judged.
 */
export async function reconcile(input: ReconcileInput): Promise<Transition[]> {
  const { fs, layout, signal, effective, versions, excluded } = input;
  const seen = input.seen ?? new Set<string>();
  const groups = new Map<string, Candidate[]>();
  for (const scope of input.scopes) {
    const parsed = parseScope(scope);
    if (parsed === undefined) continue;
    const candidate = directoryCandidates(layout, parsed.directory).find((c) => c.scope === scope);
    if (candidate === undefined) continue; // not a configured name here
    const group = groups.get(parsed.directory);
    if (group === undefined) groups.set(parsed.directory, [candidate]);
    else group.push(candidate);
  }
  const order = [...groups.keys()];
  // Every directory's probes first, several directories at a time (they are independent and most are
  // answered by memory); then the transitions, one directory after another.
  const found = new Map<Candidate, Probe>();
  await eachConcurrently(order, PROBE_CONCURRENCY, async (directory) => {
    const probed = groups.get(directory)!.filter((c) => !excluded.has(c.scope));
    if (probed.length === 0) return;
    const probes = await input.fence.apply(probed, await input.probes.probe(dirname(probed[0]!.absolute), probed, signal), signal);
    probes.forEach((p, i) => found.set(probed[i]!, p));
  });
  const transitions: Transition[] = [];
  for (const directory of order) {
    transitions.push(...(await reconcileDirectory(groups.get(directory)!, found, { fs, layout, signal, effective, versions, excluded, seen })));
  }
  return transitions;
}

/** Directories probed at once: enough to keep the provider busy, few enough to leave room for others. */
const PROBE_CONCURRENCY = 32;

/** Runs `work` for every item, at most `limit` at a time; rejects with the first failure. */
async function eachConcurrently<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

type GroupInput = Required<Pick<ReconcileInput, 'fs' | 'layout' | 'signal' | 'effective' | 'versions' | 'excluded' | 'seen'>>;

async function reconcileDirectory(group: readonly Candidate[], found: ReadonlyMap<Candidate, Probe>, input: GroupInput): Promise<Transition[]> {
  const { fs, layout, signal, effective, versions, excluded, seen } = input;
  const out: Transition[] = [];
  const priorVersions = new Map(group.map((c) => [c.scope, versions.get(c.scope)]));
  const claimed: string[] = [];
  const kept = new Set<string>();
  const forget = (scope: string): void => void versions.delete(scope);
  for (const candidate of group) {
    const { scope } = candidate;
    const previous = effective.get(scope);
    if (excluded.has(scope)) {
      if (isActive(previous)) out.push(removal(scope, previous.path));
      else forget(scope);
      continue;
    }
    const probe = found.get(candidate)!;
    if (probe.kind === 'unavailable') {
      if (!isActive(previous)) continue;
      // WC-16 [R]: a loaded member that cannot be observed freezes its whole directory this time.
      for (const [s, prior] of priorVersions) {
        if (prior === undefined) versions.delete(s);
        else versions.set(s, prior);
      }
      for (const path of claimed) seen.delete(path);
      return [];
    }
    if (probe.kind === 'absent' || probe.kind === 'refused') {
      if (isActive(previous)) out.push(removal(scope, previous.path));
      else forget(scope);
      continue;
    }
    if (seen.has(candidate.absolute)) continue;
    seen.add(candidate.absolute);
    claimed.push(candidate.absolute);
    const cached = versions.get(scope);
    if (cached !== undefined && cached.version === probe.version && cached.path === candidate.path) {
      // WC-32 fast path: the provider says nothing changed since the last confirmed read.
      const visibleAndCurrent = isActive(previous) && previous.path === cached.path && previous.digest === cached.digest;
      if (visibleAndCurrent) {
        if (kept.has(cached.trimmedDigest)) out.push(removal(scope, previous.path));
        else kept.add(cached.trimmedDigest);
        continue;
      }
      if (!isActive(previous) && kept.has(cached.trimmedDigest)) continue; // still a duplicate of an earlier sibling
    }
    const read = await readCandidate(fs, probe, layout.config.maxSourceBytes, signal);
    if (read.kind !== 'loaded') continue; // WC-14/16: unavailable or oversize is never a removal
    const state: VersionState = { path: candidate.path, version: probe.version, digest: read.digest, trimmedDigest: read.trimmedDigest };
    if (kept.has(read.trimmedDigest)) {
      // WC-12/39: a later candidate converged on an earlier sibling's content.
      if (isActive(previous)) out.push(removal(scope, previous.path));
      versions.set(scope, state);
      continue;
    }
    kept.add(read.trimmedDigest);
    if (isActive(previous) && previous.path === candidate.path && previous.digest === read.digest) {
      versions.set(scope, state); // WC-32: same digest, only the cache moves
      continue;
    }
    out.push({
      change: { action: isActive(previous) ? 'replace' : 'set', scope, path: candidate.path, digest: read.digest },
      item: { kind: isActive(previous) ? 'replace' : 'set', path: candidate.path, directory: candidate.directory, content: read.text },
      state,
    });
  }
  return out;
}
