// Injection on `agent/pre-step` (spec AM-27..AM-29, AM-34..AM-36): the bounded MEMORY.md index and
// the rules due this step, each as one user-role message folded into the entering batch, after the
// claimed history and before this turn's new user message. State lives only in message `source`s
// a message is skipped while an identical one (same digest) is visible, entering or pending,
// so compaction, which hides the old message, brings it back, and a resumed session rebuilds which
// path-scoped rules were active from the rules it was sent.

import { join, resolve as resolvePath } from 'node:path';
import type { Agent, PreStepDecision, PreStepEvent } from '../../host/agent.js';
import { serviceIdentity, type Context } from '../../host/cordis.js';
import type { FileSystem } from '../../host/fs.js';
import { createUserMessage, type UserMessage } from '../../host/message.js';
import { HostService, InstructionSourceKind, SessionEventType, SourceKind } from '../../host/names.js';
import type { HostRuntime } from '../../host/runtime.js';
import type { ToolExecution, ToolExecutionResult } from '../../host/tools.js';
import { fileTouchPath, visibleUserMessages } from '../../host/visibility.js';
import type { ResolvedConfig } from './config.js';
import { completeUtf8Length, decodeText, hardLinkProblem, isMemoryError, type MemoryError } from './content.js';
import { checkPath, UnsafePathError, type MemoryDisk } from './disk.js';
import { claimingAccess, type FolderAccess } from './folder.js';
import { INDEX_FILE } from './paths.js';
import { isSubagent, resolveProject, type Project } from './project.js';
import { boundIndex, digestOf, renderIndexMessage, renderRulesMessage, ruleSection, type IndexBody } from './render.js';
import { below, RuleMatcher, RuleReader, selectRules, type Touch } from './rules.js';

/** The source kind of every message auto-memory injects. */
export const SOURCE_KIND = 'auto-memory';

/** `{ kind: 'auto-memory', channel: 'index', digest, projectKey }` (AM-28). */
export type IndexSource = {
  readonly kind: typeof SOURCE_KIND;
  readonly channel: 'index';
  readonly digest: string;
  readonly projectKey: string;
};
/** `{ kind: 'auto-memory', channel: 'rules', rules: [{ path, digest }] }` (AM-36). */
export type RulesSource = {
  readonly kind: typeof SOURCE_KIND;
  readonly channel: 'rules';
  readonly rules: readonly { readonly path: string; readonly digest: string }[];
};

/** Extra bytes read past `maxIndexBytes`: enough to finish a cut UTF-8 sequence and see that the file goes on. */
const INDEX_READ_SLACK = 4;

/** Everything the injector needs from the plugin. */
export interface InjectorHost {
  readonly ctx: Context;
  readonly config: ResolvedConfig;
  readonly disk: MemoryDisk;
  readonly runtime: HostRuntime;
  /** How the project's memory folder is found and whether an unclaimed one is claimed (default: claimed through `disk`). */
  readonly folders?: FolderAccess;
}

/** The pre-step and touch listeners of one plugin instance, with their per-session state. */
export class Injector {
  /** Absolute paths touched since the last step, per session. */
  readonly #touches = new Map<string, string[]>();
  /** Display paths of path-scoped rules activated in this process, per session. */
  readonly #active = new Map<string, Set<string>>();
  /** Per session, the log (its events array) whose sent rules `#active` holds, and up to which event. */
  readonly #scanned = new Map<string, { readonly events: readonly unknown[]; readonly upTo: number }>();
  readonly #matcher = new RuleMatcher();
  /** Rule files read so far, for one provider (`serviceIdentity`: DSH hands out a new proxy at every lookup). */
  #reader: { provider: object; reader: RuleReader } | undefined;

  constructor(readonly host: InjectorHost) {}

  /** `tools/result`: remembers the file a successful first-party read/write/edit touched (AM-34). */
  onToolResult(exec: ToolExecution, result: ToolExecutionResult): void {
    const path = fileTouchPath(exec, result);
    const agent = exec.agent;
    if (path === undefined || agent === undefined || !this.host.config.rules || !this.#serves(agent)) return;
    const cwd = agent.session.header.cwd ?? this.host.runtime.processCwd;
    const list = this.#touches.get(agent.session.id) ?? [];
    list.push(resolvePath(cwd, path));
    this.#touches.set(agent.session.id, list);
  }

  /** `agent/pre-step`: lets the rest of the chain decide, then folds the index and rules messages in. */
  async onPreStep(event: PreStepEvent, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> {
    const decision = await next();
    const { agent, signal } = event;
    if (decision.kind !== 'enter' || (event.step === 1 && decision.messages.length === 0) || !this.#serves(agent)) return decision;
    const { config, ctx } = this.host;
    // Each part fails alone: an unreadable MEMORY.md must not cost the rules, nor the other way round.
    const attempt = async (what: string, make: () => Promise<UserMessage | undefined>): Promise<UserMessage[]> => {
      try {
        const message = await make();
        return message === undefined ? [] : [message];
      } catch (error) {
        if (signal.aborted) throw error;
        ctx.logger.warn(`auto-memory: ${what} injection failed: %o`, error);
        return [];
      }
    };
    const fs = ctx.get(HostService.fs) as FileSystem | undefined;
    const project = await resolveProject(agent, this.host.runtime.processCwd, config.projectRootMarkers, fs, config.root, signal, this.host.folders ?? claimingAccess(this.host.disk));
    const present = presentSources(agent, decision.messages);
    const added = [
      ...(config.inject ? await attempt('index', () => this.#indexMessage(project, present)) : []),
      ...(config.rules && fs !== undefined ? await attempt('rules', () => this.#rulesMessage(agent, fs, project, present, signal)) : []),
    ];
    if (added.length === 0) return decision;
    const at = insertionPoint(decision.messages, event.messages, event.step);
    return { kind: 'enter', messages: [...decision.messages.slice(0, at), ...added, ...decision.messages.slice(at)] };
  }

  /** Forgets a session's state (the agent went away). */
  forget(sessionId: string): void {
    this.#touches.delete(sessionId);
    this.#active.delete(sessionId);
    this.#scanned.delete(sessionId);
  }

  #serves(agent: Pick<Agent, 'session'>): boolean {
    return this.host.config.injectInSubagents || !isSubagent(agent);
  }

  /** AM-27: the bounded index message, unless MEMORY.md is absent or the same digest is already there. */
  async #indexMessage(project: Project, present: readonly Record<string, unknown>[]): Promise<UserMessage | undefined> {
    const { config, disk, ctx } = this.host;
    const read = await readIndex(disk, project.memdir, config);
    if (read.kind === 'undecodable') {
      ctx.logger.warn('auto-memory: not injecting the index: %s', read.error.message);
      return undefined;
    }
    if (read.kind !== 'read' || read.index.body.trim() === '') return undefined;
    const text = renderIndexMessage(read.index);
    const digest = digestOf(text);
    if (present.some((s) => s.channel === 'index' && s.digest === digest)) return undefined;
    const source: IndexSource = { kind: SOURCE_KIND, channel: 'index', digest, projectKey: project.key };
    return createUserMessage(ctx, text, source);
  }

  /** AM-34..AM-36: one message with every due rule not already present. */
  async #rulesMessage(agent: Agent, fs: FileSystem, project: Project, present: readonly Record<string, unknown>[], signal: AbortSignal): Promise<UserMessage | undefined> {
    const { config, ctx } = this.host;
    const provider = serviceIdentity(fs);
    if (this.#reader?.provider !== provider) {
      const { runtime } = this.host;
      this.#reader = { provider, reader: new RuleReader(fs, config, (m) => ctx.logger.warn('%s', m), () => runtime.now()) };
    }
    const rules = await this.#reader.reader.collect({ userRuleDirs: config.userRuleDirs, projectRuleDirs: config.projectRuleDirs, projectRoot: project.root }, signal);
    const rejectedBefore = this.#matcher.rejected;
    this.#matcher.update(rules, config);
    if (this.#matcher.rejected !== rejectedBefore) {
      for (const r of this.#matcher.rejected) ctx.logger.warn('auto-memory: rule %s: ignoring glob %s: %s', r.displayPath, shownGlob(r.pattern), r.reason);
    }
    const active = this.#activeFor(agent, project);
    const already = new Set(present.flatMap((s) => (s.channel === 'rules' && Array.isArray(s.rules) ? s.rules : []).map((r: { path?: unknown; digest?: unknown }) => `${r.path}\0${r.digest}`)));
    const sections = selectRules(rules, active, config)
      .map((rule) => {
        const text = ruleSection(rule.displayPath, rule.body);
        return { path: rule.displayPath, text, digest: digestOf(text) };
      })
      .filter((s) => !already.has(`${s.path}\0${s.digest}`));
    if (sections.length === 0) return undefined;
    const source: RulesSource = { kind: SOURCE_KIND, channel: 'rules', rules: sections.map(({ path, digest }) => ({ path, digest })) };
    return createUserMessage(ctx, renderRulesMessage(sections.map((s) => s.text)), source);
  }

  /**
   * The session's active path-scoped rules (AM-34): the ones activated in this process, the ones its
   * pending touches activate now (one GlobSet call), and every rule the session's log shows it was
   * sent, so activation survives compaction and resume ("stays active for the session").
   */
  #activeFor(agent: Agent, project: Project): Set<string> {
    const id = agent.session.id;
    const active = this.#active.get(id) ?? new Set<string>();
    this.#active.set(id, active);
    const touched = this.#touches.get(id) ?? [];
    this.#touches.delete(id);
    const touches: Touch[] = touched.map((path) => ({ fromCwd: below(project.cwd, path), fromRoot: below(project.root, path) }));
    for (const path of this.#matcher.activated(touches)) active.add(path);
    // The log only grows: each step reads the events appended since the last one (all of a new log).
    const { events } = agent.session;
    const scanned = this.#scanned.get(id);
    for (let i = scanned?.events === events ? scanned.upTo : 0; i < events.length; i++) {
      const event = events[i]!;
      if (event.type !== SessionEventType.userMessage) continue;
      const source = (event.data as UserMessage).source as Partial<RulesSource>;
      if (source.kind === SOURCE_KIND && source.channel === 'rules' && Array.isArray(source.rules)) for (const r of source.rules) active.add(r.path);
    }
    this.#scanned.set(id, { events, upTo: events.length });
    return active;
  }
}

/** A glob for a log line: quoted, and cut after 80 characters (a hostile one can be 64 KiB). */
function shownGlob(pattern: string): string {
  return pattern.length > 80 ? `${JSON.stringify(pattern.slice(0, 60))}… (${pattern.length} characters)` : JSON.stringify(pattern);
}

/**
 * The auto-memory sources already in play (AM-27 step 6, AM-36, X-13): on the visible surface, in
 * the batch entering now, or pending in the inbox.
 */
function presentSources(agent: Agent, entering: readonly UserMessage[]): Record<string, unknown>[] {
  const messages = [...visibleUserMessages(agent.session, [SOURCE_KIND]).map((v) => v.message), ...entering, ...agent.inbox.nextStep];
  return messages.filter((m) => m.source.kind === SOURCE_KIND).map((m) => m.source as Record<string, unknown>);
}

/**
 * Where injected messages go (AM-27 step 7): before this turn's new user message (on a turn's
 * first step, the last claimed message when the user wrote it), otherwise right after the last
 * claimed message in the decision, or first when the decision holds none — and after the workspace
 * instructions the instruction loader put there. The loader places its message right after the last
 * claimed one, ahead of other plugins' additions (contract §10.1); both plugins call `next()` first,
 * so without this step the one whose listener DSH happened to register last would win the place.
 * DSH registers listeners as plugin modules finish loading, not in row order, so the order of the
 * two messages would depend on module load timing; with it, it depends on nothing.
 */
export function insertionPoint(decision: readonly UserMessage[], claimed: readonly UserMessage[], step: number): number {
  const prompt = claimed.at(-1);
  if (step === 1 && prompt !== undefined && prompt.source.kind === SourceKind.user) {
    const at = decision.findIndex((m) => m.id === prompt.id);
    if (at >= 0) return at;
  }
  const ids = new Set(claimed.map((m) => m.id));
  let last = -1;
  decision.forEach((m, i) => {
    if (ids.has(m.id)) last = i;
  });
  let at = last + 1;
  while (at < decision.length && !ids.has(decision[at]!.id) && isInstructions(decision[at]!)) at++;
  return at;
}

/** A message of an instruction loader (ours or DSH's, current or older kind). */
function isInstructions(message: UserMessage): boolean {
  return message.source.kind === InstructionSourceKind.current || message.source.kind === InstructionSourceKind.legacy;
}

/** What the index read found (AM-27 steps 1–4): no file, something that is not a file, bytes that are not UTF-8, or the bounded body. */
export type IndexRead =
  | { readonly kind: 'absent' }
  | { readonly kind: 'not-a-file' }
  | { readonly kind: 'undecodable'; readonly error: MemoryError }
  /** `size` is the file's size; `index.body` is what the message holds (escaped, bounded; blank means no message). */
  | { readonly kind: 'read'; readonly index: IndexBody; readonly size: number };

/**
 * AM-27 steps 1–4: reads a project's MEMORY.md as the injector does, a prefix of at most
 * `maxIndexBytes` plus a few bytes (never the whole of a large file), decoded strictly and bounded by
 * `maxIndexLines` / `maxIndexBytes`. The index message is `renderIndexMessage(index)` unless the body
 * is blank. Throws `UnsafePathError` when MEMORY.md is a symbolic link, a hard link, or resolves
 * outside `memdir` (the injector then logs and injects nothing).
 * @param disk the memory storage
 * @param memdir the project's memory directory
 * @param limits `maxIndexLines` and `maxIndexBytes`
 * @returns what was found
 */
export async function readIndex(disk: MemoryDisk, memdir: string, limits: Pick<ResolvedConfig, 'maxIndexLines' | 'maxIndexBytes'>): Promise<IndexRead> {
  const found = await checkPath(disk, memdir, [INDEX_FILE]);
  if (found.type === undefined) return { kind: 'absent' };
  if (found.type !== 'file') return { kind: 'not-a-file' };
  // [R] never skipped as oversize: a prefix is read and truncated (NG-AM-6).
  const { bytes, size, links } = await disk.readPrefix(join(memdir, INDEX_FILE), limits.maxIndexBytes + INDEX_READ_SLACK);
  const linked = hardLinkProblem(`/memories/${INDEX_FILE}`, links);
  if (linked !== undefined) throw new UnsafePathError(linked);
  const complete = size <= bytes.length;
  const file = await decodeText(complete ? bytes : bytes.subarray(0, completeUtf8Length(bytes)), `/memories/${INDEX_FILE}`);
  if (isMemoryError(file)) return { kind: 'undecodable', error: file };
  return { kind: 'read', index: boundIndex(file.text, limits.maxIndexLines, limits.maxIndexBytes, complete), size };
}
