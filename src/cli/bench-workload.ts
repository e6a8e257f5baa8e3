// What `dsh-context bench` measures, found with the plugins' own code: the files (git's set), the
// project root from the session cwd (markers, as the plugins find it), the instruction files DSH
// reads in a session there (every candidate of the baseline chain from the root down to the cwd, as
// workspace-context probes it, and the listed candidates below the cwd, which touches reach; probed
// and followed through links as workspace-context does), the rule files auto-memory collects (and any
// brought with --rules-from or --glob), the globs the engine accepts, and the baseline of a session
// started in each directory that holds files. Below the cwd only listed candidates are probed: probing
// every name in every directory costs far more than the reads it finds (four failed lookups per
// directory), and a candidate git ignores there (an AGENTS.local.md) is left out.

import { basename, dirname, join } from 'node:path';
import { createNodeFileSystem } from '../fs/index.js';
import { locateProjectRoot, type FileSystem, type HomeEnvironment } from '../host/index.js';
import { resolveConfig as resolveMemoryConfig, type Config as MemoryConfig } from '../plugins/auto-memory/config.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import { below, RuleMatcher, RuleReader, type Rule } from '../plugins/auto-memory/rules.js';
import { resolveConfig as resolveWorkspaceConfig } from '../plugins/workspace-context/config.js';
import {
  baselineDirectories, candidateFor, compareDirectories, directoryCandidates, displayDirectory, probeCandidate, scopeKey, type Candidate, type Layout,
} from '../plugins/workspace-context/files.js';
import type { RenderItem } from '../plugins/workspace-context/render.js';
import type { ReadInput, ReadOutcome } from './bench-paths.js';
import { listFiles, type Listing } from './files.js';
import { noRootWarning } from './inspect.js';

export interface WorkloadOptions {
  /** The directory whose files are listed (absolute). */
  readonly dir: string;
  /** The session cwd (absolute, `dir` or below it). */
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly maxBytes: number;
  /** A rule directory to add, read as auto-memory reads a user rule directory. */
  readonly rulesFrom?: { readonly path: string; readonly shown: string };
  /** Extra globs for the glob phase. */
  readonly globs: readonly string[];
  /** Globs of listed files to leave out. */
  readonly exclude: readonly string[];
  /** Progress of a step: `done` of `total` (`undefined` while the total is unknown). */
  readonly progress?: (step: 'list' | 'probe', done: number, total: number | undefined) => void;
  /** Called once the files are listed (a whole run times its steps with it). */
  readonly listed?: () => void;
}

/** Something the bench leaves out, and why (as the plugins skip it). */
export interface Skipped {
  readonly kind: 'instruction file' | 'glob';
  readonly path: string;
  readonly pattern?: string;
  readonly reason: string;
}

/** An instruction file DSH reads in the session, and how it is reached. */
export interface InstructionInput extends ReadInput {
  /** `baseline`: on the chain from the root to the cwd; `touch`: in a directory below the cwd. */
  readonly reach: 'baseline' | 'touch';
}

export interface Workload {
  readonly fs: FileSystem;
  readonly listing: Listing;
  readonly root: string;
  /** The marker found at the root; `undefined` when the cwd became the root. */
  readonly marker: string | undefined;
  readonly layout: Layout;
  /** Instruction candidates probed (every name on the chain, listed ones below the cwd). */
  readonly probes: number;
  readonly instructions: readonly InstructionInput[];
  readonly ruleFiles: number;
  /** Globs the glob phase matches: every accepted rule glob, then `--glob`. */
  readonly globs: readonly string[];
  /** Listed files under the project root, root-relative: what project rules match (AM-34). */
  readonly paths: readonly string[];
  /** The display directories of each session's baseline chain (one session per directory holding files under the cwd). */
  readonly sessions: readonly (readonly string[])[];
  readonly skipped: readonly Skipped[];
  readonly warnings: readonly string[];
}

/**
 * Finds the workload; the shared first part of every whole run.
 * @param options what to list and where the session is
 * @returns the workload
 */
export async function discover(options: WorkloadOptions): Promise<Workload> {
  const { dir, cwd, environment } = options;
  const listing = await listFiles(dir, options.exclude, (n) => options.progress?.('list', n, undefined));
  options.listed?.();
  const fs = createNodeFileSystem({ cwd });
  const config = resolveWorkspaceConfig({ maxBytes: options.maxBytes }, environment);
  const { root, marker } = await locateProjectRoot(cwd, config.projectRootMarkers, fs);
  const warnings = marker === undefined ? [noRootWarning(config.projectRootMarkers)] : [];
  const layout: Layout = { cwd, root, config };

  // Directories holding listed files under the cwd: one session each, and touches reach them.
  const fileDirs = new Set<string>();
  for (const file of listing.files) fileDirs.add(dirname(join(dir, file)));
  const underCwd = [...fileDirs].filter((d) => d === cwd || below(cwd, d) !== undefined);
  // The user-global file is left out: the bench measures the repository, not this machine's home.
  const chain = baselineDirectories(layout).slice(1);
  const onChain = new Set(chain);
  const candidates = chain.flatMap((d) => directoryCandidates(layout, d));
  const names = config.candidateNames;
  for (const file of listing.files) {
    const absolute = join(dir, file);
    const directory = displayDirectory(root, dirname(absolute));
    if (!names.includes(basename(file)) || onChain.has(directory) || below(cwd, absolute) === undefined) continue;
    const candidate = candidateFor(layout, scopeKey(directory, basename(file)));
    if (candidate !== undefined) candidates.push(candidate);
  }
  candidates.sort((a, b) => compareDirectories(a.directory, b.directory) || names.indexOf(a.name) - names.indexOf(b.name));

  const instructions: InstructionInput[] = [];
  const skipped: Skipped[] = [];
  const seen = new Set<string>();
  let done = 0;
  for (const candidate of candidates) {
    options.progress?.('probe', ++done, candidates.length);
    if (seen.has(candidate.absolute)) continue;
    seen.add(candidate.absolute);
    const probe = await probeCandidate(fs, candidate, undefined);
    if (probe.kind === 'present') instructions.push({ path: candidate.path, directory: candidate.directory, probe, reach: onChain.has(candidate.directory) ? 'baseline' : 'touch' });
    else if (probe.kind === 'unavailable') skipped.push({ kind: 'instruction file', path: candidate.path, reason: `the provider failed: ${errorText(probe.error)}` });
  }

  const memoryConfig = resolveMemoryConfig(autoMemory.Config({}) as MemoryConfig, environment);
  const userRuleDirs = options.rulesFrom === undefined ? [] : [{ configured: options.rulesFrom.shown, path: options.rulesFrom.path }];
  const rules = await new RuleReader(fs, memoryConfig, (m) => warnings.push(m)).collect({ userRuleDirs, projectRuleDirs: memoryConfig.projectRuleDirs, projectRoot: root });
  // The plugin's own matcher decides which globs the engine refuses; --glob patterns go through it too.
  const fromOption: Rule = { level: 'project', displayPath: '--glob', paths: options.globs, body: '', bytes: 0 };
  const matcher = new RuleMatcher();
  matcher.update([...rules, fromOption]);
  const refused = new Set(matcher.rejected.map((r) => r.pattern));
  for (const r of matcher.rejected) skipped.push({ kind: 'glob', path: r.displayPath, pattern: r.pattern, reason: r.reason });
  const globs = [...rules.flatMap((r) => r.paths), ...options.globs].filter((g) => !refused.has(g));

  const paths = listing.files.flatMap((f) => below(root, join(dir, f)) ?? []);
  const sessions = underCwd.sort().map((d) => baselineDirectories({ ...layout, cwd: d }).slice(1));
  return { fs, listing, root, marker, layout, probes: candidates.length, instructions, ruleFiles: rules.length, globs, paths, sessions, skipped, warnings };
}

/**
 * The instruction files of each session's baseline, as workspace-context composes them: the chain's
 * loaded files broadest first, a later file whose trimmed text equals an earlier one in the same
 * directory dropped (WC-12). Sessions with no file are left out.
 * @param sessions each session's chain of display directories
 * @param outcomes the reads, broadest directory first
 * @returns each session's render items
 */
export function baselineChains(sessions: readonly (readonly string[])[], outcomes: readonly ReadOutcome[]): RenderItem[][] {
  const byDirectory = new Map<string, RenderItem[]>();
  const digests = new Map<string, Set<string>>();
  for (const { input, read } of outcomes) {
    if (read.kind !== 'loaded') continue;
    const kept = digests.get(input.directory) ?? new Set<string>();
    digests.set(input.directory, kept);
    if (kept.has(read.trimmedDigest)) continue;
    kept.add(read.trimmedDigest);
    const items = byDirectory.get(input.directory) ?? [];
    items.push({ kind: 'baseline', path: input.path, directory: input.directory, content: read.text });
    byDirectory.set(input.directory, items);
  }
  return sessions.map((chain) => chain.flatMap((d) => byDirectory.get(d) ?? [])).filter((items) => items.length > 0);
}

/**
 * Files read but not loaded (too large, unreadable, not UTF-8), as the plugin skips them.
 * @param outcomes the reads
 * @param maxSourceBytes the per-file byte limit
 * @returns what was skipped and why
 */
export function unreadFiles(outcomes: readonly ReadOutcome[], maxSourceBytes: number): Skipped[] {
  return outcomes.flatMap(({ input, read }): Skipped[] => {
    if (read.kind === 'oversize') return [{ kind: 'instruction file', path: input.path, reason: `larger than maxSourceBytes (${maxSourceBytes.toLocaleString('en-US')} bytes)` }];
    if (read.kind === 'unavailable') return [{ kind: 'instruction file', path: input.path, reason: `the provider failed: ${errorText(read.error)}` }];
    return [];
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
