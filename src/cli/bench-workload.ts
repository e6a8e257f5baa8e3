// What `dsh-context bench` measures, found with the plugins' own code: the files (git's set), the
// project root from the session cwd (markers, as the plugins find it), the instruction files DSH
// reads in a session there (every candidate of the baseline chain from the root down to the cwd, as
// workspace-context probes it, and the listed candidates below the cwd, which touches reach; probed
// and followed through links as workspace-context does), the rule files auto-memory collects (and any
// brought with --rules-from or --glob), the globs the engine accepts, and the baseline of a session
// started in each directory that holds files. Below the cwd only listed candidates are probed: probing
// every name in every directory costs far more than the reads it finds (four failed lookups per
// directory), and a candidate git ignores there (an AGENTS.local.md) is left out.

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
  /** The display directory of each session: one per directory holding listed files under the cwd, sorted. */
  readonly sessions: readonly string[];
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

  // Everything below is computed on root-relative paths with string operations (git lists normalized
  // paths): path.relative and resolve per file cost seconds on a million files.
  const paths = rootRelative(dir, root, listing.files);
  const cwdDirectory = displayDirectory(root, cwd);
  const underCwd = (directory: string) => cwdDirectory === '.' || directory === cwdDirectory || directory.startsWith(`${cwdDirectory}/`);
  // Directories holding listed files under the cwd: one session each, and touches reach them.
  const fileDirs = new Set<string>();
  for (const path of paths) fileDirs.add(parentOf(path));
  // The user-global file is left out: the bench measures the repository, not this machine's home.
  const chain = baselineDirectories(layout).slice(1);
  const onChain = new Set(chain);
  const candidates = chain.flatMap((d) => directoryCandidates(layout, d));
  const names = config.candidateNames;
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (!names.includes(name)) continue;
    const directory = parentOf(path);
    if (onChain.has(directory) || !underCwd(directory)) continue;
    const candidate = candidateFor(layout, scopeKey(directory, name));
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

  const sessions = [...fileDirs].filter(underCwd).sort(byCodePoint);
  return { fs, listing, root, marker, layout, probes: candidates.length, instructions, ruleFiles: rules.length, globs, paths, sessions, skipped, warnings };
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The display directory of a root-relative file path: `.` for a file at the root. */
function parentOf(path: string): string {
  const at = path.lastIndexOf('/');
  return at < 0 ? '.' : path.slice(0, at);
}

/**
 * The listed files (relative to `dir`, `/`-separated, normalized as git and the walk give them) that
 * lie under `root`, relative to it: the same list when `dir` is the root, prefixed when the root is
 * above it, filtered and cut when it is below.
 */
export function rootRelative(dir: string, root: string, files: readonly string[]): readonly string[] {
  if (dir === root) return files;
  const up = below(root, dir);
  if (up !== undefined) return files.map((f) => `${up}/${f}`);
  const down = below(dir, root);
  if (down === undefined) return [];
  const prefix = `${down}/`;
  const out: string[] = [];
  for (const f of files) if (f.startsWith(prefix)) out.push(f.slice(prefix.length));
  return out;
}

/**
 * The instruction files of each session's baseline, as workspace-context composes them: the chain's
 * loaded files broadest first (the chain of a session in directory d is the root, then every
 * directory down to d: baselineDirectories without the user-global scope), a later file whose
 * trimmed text equals an earlier one in the same directory dropped (WC-12). Sessions with no file are
 * left out. Sessions whose chains hold the same files share one array (a million files make hundreds
 * of thousands of sessions, and few directories hold instruction files).
 * @param sessions each session's display directory
 * @param outcomes the reads, broadest directory first
 * @returns each session's render items
 */
export function baselineChains(sessions: readonly string[], outcomes: readonly ReadOutcome[]): RenderItem[][] {
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
  const chains = new Map<string, RenderItem[]>([['', []]]);
  const chainOf = (directory: string): RenderItem[] => {
    // Up to the nearest directory already known, then down again (no recursion: trees can be deep).
    const pending: string[] = [];
    let d: string | undefined = directory;
    while (d !== undefined && !chains.has(d)) {
      pending.push(d);
      d = d === '.' ? '' : d.includes('/') ? d.slice(0, d.lastIndexOf('/')) : '.';
    }
    let chain = chains.get(d!)!;
    for (let i = pending.length - 1; i >= 0; i--) {
      const own = byDirectory.get(pending[i]!);
      if (own !== undefined) chain = [...chain, ...own];
      chains.set(pending[i]!, chain);
    }
    return chain;
  };
  return sessions.map(chainOf).filter((items) => items.length > 0);
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
