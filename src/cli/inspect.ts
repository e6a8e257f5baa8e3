// `dsh-context inspect`: what the model would see at the start of a session in a directory, and why:
// each instruction file with its fate, the budget used, the memory index, the rules that apply now
// and the ones waiting on `paths:`, and the time each phase took.

import { readFileSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { utf8Length } from '../engine/index.js';
import { createNodeFileSystem } from '../fs/index.js';
import { findProjectRoot, type HomeEnvironment } from '../host/index.js';
import { resolveConfig as resolveMemoryConfig, type Config as MemoryConfig } from '../plugins/auto-memory/config.js';
import { resolveProject } from '../plugins/auto-memory/project.js';
import { boundIndex } from '../plugins/auto-memory/render.js';
import { RuleReader, selectRules, type Rule } from '../plugins/auto-memory/rules.js';
import { loadBaseline, renderBaseline, type BaselineTrace, type CandidateOutcome } from '../plugins/workspace-context/baseline.js';
import { resolveConfig as resolveWorkspaceConfig, type Config as WorkspaceConfig } from '../plugins/workspace-context/config.js';
import { displayDirectory, slashes, type Layout } from '../plugins/workspace-context/files.js';
import * as autoMemory from '../plugins/auto-memory/index.js';
import { firstRequest, PROBE_PROMPT, type SeenMessage } from './session.js';

export interface InspectOptions {
  readonly dir: string;
  readonly cwd: string;
  readonly environment: HomeEnvironment;
  readonly maxBytes: number;
  /** `--dsh-home`; otherwise `$DSH_HOME`, then `~/.dsh`. */
  readonly dshHome?: string;
}

/** One instruction candidate that exists (absent ones are not listed). */
export interface InstructionFileReport {
  readonly path: string;
  readonly status: 'injected' | 'truncated' | 'omitted' | 'duplicate' | 'oversize' | 'unreadable';
  readonly bytes?: number;
  readonly sha1?: string;
  /** Why it is not injected whole, in words. */
  readonly note?: string;
}

export interface RuleReport {
  readonly path: string;
  readonly level: Rule['level'];
  readonly bytes: number;
  readonly paths: readonly string[];
  /** Why an applicable rule is not injected (limits), when it is not. */
  readonly skipped?: string;
}

export interface InspectReport {
  readonly directory: string;
  /** The session cwd relative to the directory (`.` when equal). */
  readonly cwd: string;
  /** The project root relative to the directory. */
  readonly projectRoot: string;
  readonly dshHome: { readonly path: string; readonly display: string };
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
    readonly exists: boolean;
    readonly bytes: number;
    readonly lines: number;
    readonly truncated: boolean;
    readonly maxIndexLines: number;
    readonly maxIndexBytes: number;
  };
  readonly rules: { readonly now: readonly RuleReport[]; readonly waiting: readonly RuleReport[] };
  /** Request 1 in order; the prompt is the entry whose kind is `user`. */
  readonly messages: readonly { readonly kind: string; readonly bytes: number; readonly blocks: readonly string[] }[];
  /** Milliseconds per phase. */
  readonly timings: Readonly<Record<'projectRoot' | 'probe' | 'readDigest' | 'render' | 'memory' | 'rules' | 'session', number>>;
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
  const fs = createNodeFileSystem({ cwd });
  const workspaceConfig: WorkspaceConfig = { maxBytes: options.maxBytes, ...(options.dshHome !== undefined ? { dshHome: options.dshHome } : {}) };
  const config = resolveWorkspaceConfig(workspaceConfig, environment);
  const root = await timed(timings, 'projectRoot', () => findProjectRoot(cwd, config.projectRootMarkers, fs));
  const layout: Layout = { cwd, root, config };
  const outcomes: { path: string; outcome: CandidateOutcome }[] = [];
  const trace: BaselineTrace = { probeMs: 0, readMs: 0, onCandidate: (candidate, outcome) => outcomes.push({ path: candidate.path, outcome }) };
  const files = await loadBaseline(fs, layout, undefined, trace);
  timings.probe = trace.probeMs;
  timings.readDigest = trace.readMs;
  const baseline = await timed(timings, 'render', () => renderBaseline(files, config.maxBytes, false));
  const included = new Set(baseline.included.map((f) => f.candidate.path));
  const instructionFiles = outcomes.flatMap(({ path, outcome }): InstructionFileReport[] => {
    switch (outcome.kind) {
      case 'absent':
        return [];
      case 'oversize':
        return [{ path, status: 'oversize', note: `larger than maxSourceBytes (${config.maxSourceBytes} bytes): ignored` }];
      case 'unavailable':
        return [{ path, status: 'unreadable', note: `the provider failed: ${(outcome.error as Error)?.message ?? String(outcome.error)}` }];
      case 'duplicate':
        return [{ path, status: 'duplicate', bytes: outcome.bytes, note: `same text as ${outcome.of} once trimmed: rendered once, as ${outcome.of}` }];
      case 'loaded': {
        const cut = baseline.truncated?.path === path ? baseline.truncated : undefined;
        if (cut !== undefined) return [{ path, status: 'truncated', bytes: outcome.bytes, sha1: outcome.digest, note: `cut from ${cut.from} to ${cut.to} bytes to fit maxBytes` }];
        if (baseline.omitted.includes(path) || !included.has(path)) return [{ path, status: 'omitted', bytes: outcome.bytes, sha1: outcome.digest, note: 'left out to fit maxBytes (broader files go first)' }];
        return [{ path, status: 'injected', bytes: outcome.bytes, sha1: outcome.digest }];
      }
    }
  });

  // auto-memory: the project's memory index and the rules, with the plugin's own code.
  const memoryConfig = resolveMemoryConfig(autoMemory.Config({}) as MemoryConfig, homeEnvironment(environment, options.dshHome));
  const memory = await timed(timings, 'memory', async () => {
    const project = await resolveProject({ session: { header: { cwd } } } as never, environment.processCwd, memoryConfig.projectRootMarkers, fs, memoryConfig.root);
    const file = join(project.memdir, 'MEMORY.md');
    let text: string | undefined;
    try {
      if (statSync(file).isFile()) text = readFileSync(file, 'utf8');
    } catch {
      text = undefined;
    }
    const bounded = text === undefined ? undefined : boundIndex(text, memoryConfig.maxIndexLines, memoryConfig.maxIndexBytes, true);
    return {
      file, exists: text !== undefined, bytes: text === undefined ? 0 : utf8Length(text), lines: text === undefined ? 0 : text.split(/\r?\n/).filter((l, i, a) => i < a.length - 1 || l !== '').length,
      truncated: bounded?.truncated ?? false, maxIndexLines: memoryConfig.maxIndexLines, maxIndexBytes: memoryConfig.maxIndexBytes,
    };
  });
  const warnings: string[] = [];
  const rules = await timed(timings, 'rules', () =>
    new RuleReader(fs, memoryConfig, (m) => warnings.push(m)).collect({ userRuleDirs: memoryConfig.userRuleDirs, projectRuleDirs: memoryConfig.projectRuleDirs, projectRoot: root }));
  const chosen = new Set(selectRules(rules, new Set(), memoryConfig).map((r) => r.displayPath));
  const ruleReport = (rule: Rule): RuleReport => ({ path: rule.displayPath, level: rule.level, bytes: rule.bytes, paths: rule.paths });
  const now = rules.filter((r) => r.paths.length === 0).map((r) => (chosen.has(r.displayPath) ? ruleReport(r) : { ...ruleReport(r), skipped: r.body === '' ? 'empty body' : r.bytes > memoryConfig.maxRuleBytes ? `over maxRuleBytes (${memoryConfig.maxRuleBytes})` : `over the collection limits (maxRules ${memoryConfig.maxRules}, maxRulesBytes ${memoryConfig.maxRulesBytes})` }));
  const waiting = rules.filter((r) => r.paths.length > 0).map(ruleReport);

  const session = await timed(timings, 'session', () => firstRequest({
    cwd, environment: homeEnvironment(environment, options.dshHome), workspaceConfig, memoryConfig: {},
  }));
  warnings.push(...session.logs);
  const messages = session.messages.map((m: SeenMessage) => ({ kind: m.kind, bytes: m.blocks.reduce((n, b) => n + utf8Length(b), 0), blocks: m.blocks }));
  const injected = messages.find((m) => m.kind === 'agent-instructions');
  return {
    directory: options.dir,
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
    timings: timings as InspectReport['timings'],
    warnings,
  };
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
