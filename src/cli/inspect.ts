// `dsh-context inspect`: what the model would see at the start of a session in a directory, and why:
// each instruction file with its fate, the budget used, the memory index, the rules that apply now
// and the ones waiting on `paths:`, the time each phase took, and every part in DeepSeek V3 tokens
// against the model's context window (tokens.ts). Every decision shown is the plugins' own (their
// discovery, reads, budget, rule decisions and index read), never computed a second time.

import { lstatSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { countTokens, truncateUtf8, utf8Length } from '../engine/index.js';
import { createNodeFileSystem } from '../fs/index.js';
import { escapeReminder, locateProjectRoot, type HomeEnvironment } from '../host/index.js';
import { resolveConfig as resolveMemoryConfig, type Config as MemoryConfig, type ResolvedConfig as ResolvedMemoryConfig } from '../plugins/auto-memory/config.js';
import { nodeDisk } from '../plugins/auto-memory/disk.js';
import { readIndex } from '../plugins/auto-memory/inject.js';
import { projectAt } from '../plugins/auto-memory/project.js';
import { decideRules, RuleReader, type Rule, type RuleSkip } from '../plugins/auto-memory/rules.js';
import { loadBaseline, renderBaseline, type BaselineTrace, type CandidateOutcome } from '../plugins/workspace-context/baseline.js';
import { resolveConfig as resolveWorkspaceConfig, type Config as WorkspaceConfig } from '../plugins/workspace-context/config.js';
import { displayDirectory, slashes, type Candidate, type Layout } from '../plugins/workspace-context/files.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import { atImports, type AtImport } from './imports.js';
import { firstRequest, PROBE_PROMPT, type SeenMessage } from './offline-request.js';
import { DEEPSEEK_V3_CONTEXT_WINDOW, messageTokens, tokenReport, type TokenReport } from './tokens.js';

export interface InspectOptions {
  readonly dir: string;
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly maxBytes: number;
  /** workspace-context's `allowedLinkTargets` (exact mode: the mounted row's); default none. */
  readonly allowedLinkTargets?: readonly string[];
  /** `--dsh-home`; otherwise `$DSH_HOME`, then `~/.dsh`. */
  readonly dshHome?: string;
  /** `--profile`: the context profile the session starts with (default `none`). */
  readonly profile?: string;
  /** `--context-window`: the model's window in tokens (default DeepSeek V3's 131,072). */
  readonly contextWindow?: number;
  /** `--prompt`: the user's first message (default PROBE_PROMPT). */
  readonly prompt?: string;
}

/** One instruction candidate that exists (absent ones are not listed). */
export interface InstructionFileReport {
  readonly path: string;
  readonly status: 'injected' | 'truncated' | 'omitted' | 'duplicate' | 'oversize' | 'unreadable' | 'not-a-file' | 'refused';
  readonly bytes?: number;
  /** DeepSeek V3 tokens of the file's text as the message holds it (injected and truncated files). */
  readonly tokens?: number;
  readonly sha1?: string;
  /** Why it is not injected whole, in words. */
  readonly note?: string;
  /** Where a symbolic link leads (relative to the directory when inside it), when the candidate is one. */
  readonly target?: string;
  /** Claude Code `@path` imports in the text (imports.ts): DSH sends them as written and reads nothing they name. */
  readonly imports?: readonly AtImport[];
}

export interface RuleReport {
  readonly path: string;
  readonly level: Rule['level'];
  readonly bytes: number;
  /** DeepSeek V3 tokens of the rule's body. */
  readonly tokens: number;
  readonly paths: readonly string[];
  /** Why an applicable rule is not injected (limits), when it is not. */
  readonly skipped?: string;
}

export interface InspectReport {
  readonly directory: string;
  /** The user's first message of the session. */
  readonly prompt: string;
  /** The session cwd relative to the directory (`.` when equal). */
  readonly cwd: string;
  /** The project root relative to the directory. */
  readonly projectRoot: string;
  readonly dshHome: { readonly path: string; readonly display: string; readonly simulated?: true };
  readonly workspace: {
    readonly maxBytes: number;
    readonly maxSourceBytes: number;
    /** UTF-8 bytes of the injected baseline message (0 when there is none). */
    readonly bytes: number;
    readonly files: readonly InstructionFileReport[];
    readonly omitted: readonly string[];
    readonly truncated?: { readonly path: string; readonly from: number; readonly to: number };
  };
  readonly memory: {
    /** `/memories/MEMORY.md` of this project, on disk. */
    readonly file: string;
    /**
     * What auto-memory's own read of it gives: `injected` whole or `truncated` to the limits, `empty`
     * (nothing to inject), `absent`, `not-a-file`, `refused` (a symbolic link or a path leaving the
     * memory directory) or `undecodable` (not UTF-8).
     */
    readonly status: 'injected' | 'truncated' | 'empty' | 'absent' | 'not-a-file' | 'refused' | 'undecodable';
    /** The file's size in bytes (0 when there is none). */
    readonly size: number;
    /** Lines and UTF-8 bytes of the body the message holds. */
    readonly lines: number;
    readonly bytes: number;
    /** DeepSeek V3 tokens of that body. */
    readonly tokens: number;
    readonly truncated: boolean;
    /** Why nothing is injected, for `refused` and `undecodable`. */
    readonly reason?: string;
    readonly maxIndexLines: number;
    readonly maxIndexBytes: number;
  };
  readonly rules: { readonly now: readonly RuleReport[]; readonly waiting: readonly RuleReport[] };
  /** Request 1 in order; the prompt is the entry whose kind is `user`. `tokens`: DeepSeek V3 tokens of its text. */
  readonly messages: readonly { readonly kind: string; readonly bytes: number; readonly tokens: number; readonly blocks: readonly string[] }[];
  /** Request 1 in DeepSeek V3 tokens: the plugins' system-prompt sections and tools, the messages, the window. */
  readonly tokens: TokenReport;
  /** Milliseconds per phase. */
  readonly timings: Readonly<Record<'projectRoot' | 'probe' | 'readDigest' | 'render' | 'memory' | 'rules' | 'session' | 'tokens', number>>;
  readonly warnings: readonly string[];
}


async function timed<T>(timings: Record<string, number>, phase: string, work: () => Promise<T> | T): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    timings[phase] = (timings[phase] ?? 0) + performance.now() - start;
  }
}

/** Builds the report; see the module comment. */
export async function inspect(options: InspectOptions): Promise<InspectReport> {
  const { environment, cwd } = options;
  const timings: Record<string, number> = {};
  const warnings: string[] = [];
  const fs = createNodeFileSystem({ cwd });
  const workspaceConfig: WorkspaceConfig = {
    maxBytes: options.maxBytes,
    ...(options.dshHome !== undefined ? { dshHome: options.dshHome } : {}),
    ...(options.allowedLinkTargets !== undefined ? { allowedLinkTargets: [...options.allowedLinkTargets] } : {}),
  };
  const config = resolveWorkspaceConfig(workspaceConfig, environment);
  const located = await timed(timings, 'projectRoot', () => locateProjectRoot(cwd, config.projectRootMarkers, fs));
  const root = located.root;
  if (located.marker === undefined) warnings.push(noRootWarning(config.projectRootMarkers));
  const layout: Layout = { cwd, root, config };
  const outcomes: { candidate: Candidate; outcome: CandidateOutcome }[] = [];
  const trace: BaselineTrace = { probeMs: 0, readMs: 0, onCandidate: (candidate, outcome) => outcomes.push({ candidate, outcome }) };
  const files = await loadBaseline(fs, layout, undefined, trace);
  timings.probe = trace.probeMs;
  timings.readDigest = trace.readMs;
  const baseline = await timed(timings, 'render', () => renderBaseline(files, config.maxBytes, false));
  const included = new Set(baseline.included.map((f) => f.candidate.path));
  const texts = new Map(files.map((f) => [f.candidate.path, f.text]));
  const instructionFiles = outcomes.flatMap(({ candidate, outcome }): InstructionFileReport[] => {
    const path = candidate.path;
    const described = describeOutcome(candidate, outcome, baseline, included, config.maxSourceBytes);
    if (described === undefined) return [];
    const report = { ...described, ...sentTokens(described, texts.get(path), baseline.truncated) };
    const target = linkTarget(candidate.absolute, options.dir, environment.homedir);
    const imports = atImports(texts.get(path), candidate.absolute, environment.homedir);
    return [{ ...report, ...(target !== undefined ? { target } : {}), ...(imports.length > 0 ? { imports } : {}) }];
  });

  // auto-memory: the project's memory index and the rules, through the plugin's own reads and decisions.
  const memoryConfig = resolveMemoryConfig(autoMemory.Config({}) as MemoryConfig, homeEnvironment(environment, options.dshHome));
  const memory = await timed(timings, 'memory', () => memoryReport(cwd, memoryConfig, fs));
  const rules = await timed(timings, 'rules', () =>
    new RuleReader(fs, memoryConfig, (m) => warnings.push(m)).collect({ userRuleDirs: memoryConfig.userRuleDirs, projectRuleDirs: memoryConfig.projectRuleDirs, projectRoot: root }));
  const decisions = decideRules(rules, new Set(), memoryConfig);
  const ruleReport = (rule: Rule): RuleReport => ({ path: rule.displayPath, level: rule.level, bytes: rule.bytes, tokens: countTokens(rule.body), paths: rule.paths });
  const now = decisions.filter((d) => d.due).map((d) => (d.skip === undefined ? ruleReport(d.rule) : { ...ruleReport(d.rule), skipped: skipReason(d.skip, memoryConfig) }));
  const waiting = decisions.filter((d) => !d.due).map((d) => ruleReport(d.rule));

  const profile = options.profile ?? 'none';
  const sessionOptions = { cwd, environment: homeEnvironment(environment, options.dshHome), workspaceConfig, memoryConfig: {}, prompt: options.prompt ?? PROBE_PROMPT };
  const session = await timed(timings, 'session', () => firstRequest({ ...sessionOptions, profile }));
  // Without the profile, for what it replaces (the same session when there is none).
  const unprofiled = profile === 'none' ? session : await firstRequest({ ...sessionOptions, profile: 'none' });
  warnings.push(...session.logs);
  const tokens = await timed(timings, 'tokens', () => tokenReport(session, unprofiled, profile, options.contextWindow ?? DEEPSEEK_V3_CONTEXT_WINDOW));
  const messages = session.messages.map((m: SeenMessage) => ({ kind: m.kind, bytes: m.blocks.reduce((n, b) => n + utf8Length(b), 0), tokens: messageTokens(m.blocks), blocks: m.blocks }));
  const injected = messages.find((m) => m.kind === 'agent-instructions');
  return {
    directory: options.dir,
    prompt: options.prompt ?? PROBE_PROMPT,
    cwd: displayDirectory(options.dir, cwd),
    projectRoot: displayDirectory(options.dir, root),
    dshHome: { path: tildify(config.dshHome.path, environment.homedir), display: config.dshHome.display },
    workspace: {
      maxBytes: config.maxBytes, maxSourceBytes: config.maxSourceBytes, bytes: injected?.bytes ?? 0, files: instructionFiles,
      omitted: baseline.omitted, ...(baseline.truncated !== undefined ? { truncated: baseline.truncated } : {}),
    },
    memory: { ...memory, file: tildify(memory.file, environment.homedir) },
    rules: { now, waiting },
    messages,
    tokens,
    timings: timings as InspectReport['timings'],
    warnings,
  };
}

/**
 * The warning for a session whose cwd became the project root because no marker was found.
 * @param markers the configured markers
 * @returns the warning
 */
export function noRootWarning(markers: readonly string[]): string {
  return markers.length === 0
    ? 'no project-root markers are configured: the session cwd is the project root'
    : `no ${markers.join(' or ')} found in the session cwd or above it: the session cwd is the project root (project rules and the instruction chain start there)`;
}

/**
 * Tokens of what the message holds of a file: all of its text when injected, the kept prefix when
 * truncated, escaped as the message escapes it.
 */
function sentTokens(report: Omit<InstructionFileReport, 'target' | 'imports'>, text: string | undefined, cut: { path: string; to: number } | undefined): { tokens?: number } {
  if (text === undefined || (report.status !== 'injected' && report.status !== 'truncated')) return {};
  return { tokens: countTokens(escapeReminder(report.status === 'truncated' && cut !== undefined ? truncateUtf8(text, cut.to).text : text)) };
}

function describeOutcome(
  candidate: Candidate, outcome: CandidateOutcome, baseline: ReturnType<typeof renderBaseline>, included: ReadonlySet<string>, maxSourceBytes: number,
): Omit<InstructionFileReport, 'target' | 'imports'> | undefined {
  const path = candidate.path;
  switch (outcome.kind) {
    case 'absent': {
      const what = notAFile(candidate.absolute);
      return what === undefined ? undefined : { path, status: 'not-a-file', note: `${what}, not a regular file: skipped without reading it, as DSH's loader skips it${what === 'a named pipe (FIFO)' ? ' (reading one would wait for a writer)' : ''}` };
    }
    case 'refused':
      return { path, status: 'refused', note: 'leads outside the project root: not sent to the model (DSH\'s own loader would send it); allow its target with the workspace-context config key allowedLinkTargets' };
    case 'oversize':
      return { path, status: 'oversize', note: `larger than maxSourceBytes (${maxSourceBytes.toLocaleString('en-US')} bytes): ignored` };
    case 'unavailable':
      return { path, status: 'unreadable', note: `the provider failed: ${(outcome.error as Error)?.message ?? String(outcome.error)}` };
    case 'duplicate':
      return { path, status: 'duplicate', bytes: outcome.bytes, note: `same text as ${outcome.of} once trimmed: rendered once, as ${outcome.of}` };
    case 'loaded': {
      const cut = baseline.truncated?.path === path ? baseline.truncated : undefined;
      if (cut !== undefined) return { path, status: 'truncated', bytes: outcome.bytes, sha1: outcome.digest, note: `cut from ${cut.from.toLocaleString('en-US')} to ${cut.to.toLocaleString('en-US')} bytes to fit maxBytes` };
      if (baseline.omitted.includes(path) || !included.has(path)) return { path, status: 'omitted', bytes: outcome.bytes, sha1: outcome.digest, note: 'left out to fit maxBytes (broader files go first)' };
      return { path, status: 'injected', bytes: outcome.bytes, sha1: outcome.digest };
    }
  }
}

/**
 * What is at `absolute` when a candidate there counts as absent although something is there: the
 * plugins skip anything that is not a regular file (WC-13), and a FIFO, a socket or a device named
 * `AGENTS.md` deserves saying so rather than "no AGENTS.md".
 * @param absolute the candidate's path
 * @returns `a named pipe (FIFO)`, `a socket`, `a character device`, `a block device`, `a directory`, or `undefined` when nothing is there
 */
export function notAFile(absolute: string): string | undefined {
  let info;
  try {
    info = statSync(absolute, { throwIfNoEntry: false });
  } catch {
    return undefined; // a looping link or no permission: nothing this can name
  }
  if (info === undefined || info.isFile()) return undefined;
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return info.isDirectory() ? 'a directory' : 'not a file';
}

/**
 * Where `absolute` leads when it is a symbolic link: relative to `dir` inside it, else with `~` for the home.
 * @param absolute the candidate's path
 * @param dir the inspected directory
 * @param homedir the OS home
 * @returns the target, or `undefined` for a file that is not a link (or a link that leads nowhere)
 */
export function linkTarget(absolute: string, dir: string, homedir: string): string | undefined {
  try {
    if (!lstatSync(absolute).isSymbolicLink()) return undefined;
    const real = realpathSync(absolute);
    const rel = relative(realpathSync(dir), real);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? slashes(rel) : tildify(real, homedir);
  } catch {
    return undefined; // a dangling or looping link: the file's own status says it could not be read
  }
}

async function memoryReport(cwd: string, config: ResolvedMemoryConfig, fs: ReturnType<typeof createNodeFileSystem>): Promise<InspectReport['memory']> {
  const project = await projectAt(cwd, config.projectRootMarkers, fs, config.root);
  const base = { file: `${project.memdir}${sep}MEMORY.md`, size: 0, lines: 0, bytes: 0, tokens: 0, truncated: false, maxIndexLines: config.maxIndexLines, maxIndexBytes: config.maxIndexBytes };
  let read;
  try {
    read = await readIndex(nodeDisk, project.memdir, config);
  } catch (error) {
    return { ...base, status: 'refused', reason: (error as Error).message };
  }
  if (read.kind === 'absent' || read.kind === 'not-a-file') return { ...base, status: read.kind };
  if (read.kind === 'undecodable') return { ...base, status: 'undecodable', reason: read.error.message };
  const body = read.index.body;
  if (body.trim() === '') return { ...base, size: read.size, status: 'empty' };
  return {
    ...base, size: read.size, lines: body.split('\n').length, bytes: utf8Length(body), tokens: countTokens(body), truncated: read.index.truncated,
    status: read.index.truncated ? 'truncated' : 'injected',
  };
}

/** A rule skip in words, with the limit that decided it. */
function skipReason(skip: RuleSkip, limits: ResolvedMemoryConfig): string {
  switch (skip) {
    case 'empty':
      return 'empty body';
    case 'over-rule-bytes':
      return `over maxRuleBytes (${limits.maxRuleBytes.toLocaleString('en-US')})`;
    case 'over-limits':
      return `over the collection limits (maxRules ${limits.maxRules.toLocaleString('en-US')}, maxRulesBytes ${limits.maxRulesBytes.toLocaleString('en-US')})`;
  }
}

/** `path` with the OS home written as `~` (what users recognize, and stable across machines). */
export function tildify(path: string, homedir: string): string {
  if (path === homedir) return '~';
  return path.startsWith(homedir + sep) ? `~/${slashes(path.slice(homedir.length + 1))}` : path;
}

/** The environment with `--dsh-home` set as `DSH_HOME`, so auto-memory's root and workspace-context's home agree. */
export function homeEnvironment(environment: HomeEnvironment, dshHome: string | undefined): HomeEnvironment {
  return dshHome === undefined ? environment : { ...environment, env: { ...environment.env, DSH_HOME: dshHome } };
}

export { PROBE_PROMPT };
