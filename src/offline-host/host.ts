// The offline host: DSH's host services simulated in-process (events, session log and surface,
// inbox, agent loop, tools, system prompt, services), enough to run plugins over any filesystem
// provider without DSH. One driver that reads like a session: mount plugins, run turns answered by a
// scripted model, compact, resume, and read the durable log, the model requests and the logs.
// `dsh-context` runs the plugins on it (the first request `inspect` shows offline, the profiles
// panel); the test host of `dsh-context-engine/testing` builds on it with an in-memory filesystem.

import type { Agent } from '../host/agent.js';
import type { Context, PluginModule } from '../host/cordis.js';
import type { FileSystem } from '../host/fs.js';
import { deepFreeze, type ContentBlock, type UserMessage } from '../host/message.js';
import { COMPACTION_PLUGIN, CompactionFrame, HostEvent, HostService, SessionEventType, SourceKind } from '../host/names.js';
import type { HostRuntime } from '../host/runtime.js';
import type { SessionEvent, SessionHeader } from '../host/session.js';
import type { ToolExecutionInput } from '../host/tools.js';
import { OfflineAgent } from './agent.js';
import { codeModeTool } from './code-mode.js';
import { OfflineContext, type HostCore } from './context.js';
import { EventBus, Fiber } from './events.js';
import { fileTools } from './file-tools.js';
import { createRecordingLogger, type LogEntry } from './logger.js';
import { drive } from './loop.js';
import { modelRegistry, ScriptedModel, type ModelRequest, type StepScript } from './model.js';
import type { AgentDefaultModel, LlmService } from '../host/model.js';
import { ServiceTable } from './services.js';
import { assertPluginModule, validateConfig } from './plugins.js';
import { PromptRegistry } from './prompt.js';
import { OfflineSession } from './session.js';
import { executeTool } from './tool-pipeline.js';
import { ToolRegistry } from './tool-registry.js';
import { MemorySpillStore, spillContent, type SpillOptions } from './spill.js';

export interface OfflineHostOptions {
  /** The session's cwd (absolute); omitted → the header has none, as DSH allows. */
  readonly cwd?: string;
  /** The fs provider plugins get (e.g. the node:fs one); omitted → none is mounted. */
  readonly fs?: FileSystem;
  /** Sets `DSH_HOME` in the host runtime's environment. */
  readonly dshHome?: string;
  /** The OS home `~` expands to; default `/home/user`. */
  readonly homedir?: string;
  /** The process cwd; default `/`. */
  readonly processCwd?: string;
  /** More environment variables for the host runtime (the real `process.env` is never read). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Timestamps for events and the header; default a counter from 0. */
  readonly clock?: () => number;
  /**
   * The host runtime's monotonic clock in milliseconds (`HostRuntime.now`), which caches read to tell
   * how long ago they saw something; default a clock standing at 0, so time passes only when a test
   * moves it.
   */
  readonly now?: () => number;
  /** Default `session-1`. */
  readonly sessionId?: string;
  /** Make the session a sub-agent's (`origin: 'subagent'`). */
  readonly subagent?: boolean | { readonly parentSession?: string; readonly delegationDepth?: number };
  readonly agentOptions?: Agent['options'];
  /** A turn with more steps fails (guards runaway scripts); default 100. */
  readonly maxStepsPerTurn?: number;
  /** How Code Mode logs nested calls; default rc.8's `code-dispatch` pair, `ptc-dispatch` for session format 3. */
  readonly dispatchRecords?: 'code-dispatch' | 'ptc-dispatch';
  /** Spill large tool results but a `read`'s (as DSH's spill policy): log a preview with DSH's notice and keep the text in `host.spillStore`. */
  readonly spill?: SpillOptions;
  /**
   * Provide `ctx.llm` knowing these routes (`'<provider>/<model>'` → declared effort ids, or
   * `null` for a model that declares none); other routes reject. Omitted: no llm service.
   */
  readonly models?: Readonly<Record<string, readonly string[] | null>>;
  /**
   * Model the `refreshContext` re-check of the newer DSH the seeds describe: a `required` runtime
   * context a listener removed is put back after the `system-prompt/assemble` waterfall. DSH rc.8 has
   * no such re-check; off by default.
   */
  readonly refreshContexts?: boolean;
  /** Provide this `ctx.llm` instead (e.g. a `OfflineLlm` whose `stream` answers plugins' own model calls). */
  readonly llm?: LlmService;
  /** Provide `ctx.agentDefaultModel` with this selection (DSH always has one; omitted here: none). */
  readonly defaultModel?: ReturnType<AgentDefaultModel['currentSelection']>;
}

/** A mounted plugin. */
export interface PluginHandle {
  readonly name: string;
  readonly ctx: Context;
  /** Settles when an async `apply` has finished (the host awaits it before running). */
  readonly ready: Promise<void>;
  /** Unloads the plugin: its listeners, registrations and effects go away. */
  dispose(): void;
}

/** Options of `compact()`. */
export interface CompactOptions {
  /** The summary message text; default `Summary of the earlier conversation.` */
  readonly summary?: string;
  /** Visible nodes at the end to keep; default 0 (everything is shadowed). */
  readonly keep?: number;
}

/**
 * Creates an offline host with one session.
 * @param options - the session's cwd, the fs provider, the process facts plugins read, the models.
 * @returns the host; `dispose()` it when done.
 */
export function createOfflineHost(options: OfflineHostOptions = {}): OfflineHost {
  return new OfflineHost(options);
}

/** The offline host; see `createOfflineHost`. */
export class OfflineHost<F extends FileSystem = FileSystem> {
  /** Every model request so far. */
  readonly requests: ModelRequest[] = [];
  /** Every line any plugin logged. */
  readonly logs: LogEntry[] = [];
  /** A context owned by no plugin, for tests that listen or register directly. */
  readonly ctx: OfflineContext;
  readonly core: HostCore;
  readonly model = new ScriptedModel();
  /** Where spilled results are kept (used only with the `spill` option). */
  readonly spillStore = new MemorySpillStore();
  readonly #spill: SpillOptions | undefined;
  readonly #counters = new Map<string, number>();
  readonly #pending: Promise<void>[] = [];
  readonly #plugins: Fiber[] = [];
  readonly #clock: () => number;
  readonly #maxSteps: number;
  #fs: FileSystem | undefined;
  #session: OfflineSession;
  #agent: OfflineAgent | undefined;
  /** The agent that owns each session, from construction on, so its `session/event`s reach `agent.ctx` listeners even during `agent/created`. */
  readonly #owners = new WeakMap<OfflineSession, OfflineAgent>();
  #compactions = 0;
  #tokens = 0;

  constructor(options: OfflineHostOptions) {
    let tick = 0;
    this.#clock = options.clock ?? (() => tick++);
    this.#maxSteps = options.maxStepsPerTurn ?? 100;
    this.#spill = options.spill;
    this.#fs = options.fs;
    const bus = new EventBus();
    const tools = new ToolRegistry(() => bus.notify(HostEvent.toolsChange, null, []));
    const prompt = new PromptRegistry(bus, tools, () => bus.notify(HostEvent.systemPromptChange, null, []));
    prompt.refreshContexts = options.refreshContexts === true;
    const runtime: HostRuntime = {
      env: { ...options.env, ...(options.dshHome !== undefined ? { DSH_HOME: options.dshHome } : {}) },
      homedir: options.homedir ?? '/home/user',
      processCwd: options.processCwd ?? '/',
      newId: () => this.newId('msg'),
      now: options.now ?? (() => 0),
    };
    const host = this;
    const pipeline = { bus, registry: tools, mintToken: (name: string) => Symbol(`tool-execution:${name}#${++this.#tokens}`) };
    this.core = {
      bus, tools, prompt, runtime,
      get fs() {
        return host.#fs;
      },
      ...(options.spill !== undefined && options.spill.store !== false ? { spill: this.spillStore } : {}),
      ...(options.llm !== undefined ? { llm: options.llm } : options.models !== undefined ? { llm: modelRegistry(options.models) } : {}),
      services: new ServiceTable(),
      execute: (input: ToolExecutionInput) => executeTool(pipeline, input),
    };
    if (options.defaultModel !== undefined) {
      const selection = { ...options.defaultModel };
      this.core.services.provide(HostService.agentDefaultModel, { currentSelection: () => ({ ...selection }) } satisfies AgentDefaultModel);
    }
    this.ctx = new OfflineContext(this.core, new Fiber('host'), createRecordingLogger('host', this.logs), undefined);
    for (const def of fileTools({ get fs() { return host.#fs; }, processCwd: runtime.processCwd })) tools.register(def, undefined);
    tools.register(codeModeTool({ bus, execute: this.core.execute, dispatchRecords: options.dispatchRecords }), undefined, true);
    const subagent = options.subagent === true ? {} : options.subagent || undefined;
    this.#session = this.#newSession({
      version: 0,
      id: options.sessionId ?? 'session-1',
      createdAt: this.#clock(),
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      ...(subagent !== undefined
        ? { parentSession: subagent.parentSession ?? 'session-parent', origin: 'subagent' as const, delegationDepth: subagent.delegationDepth ?? 1 }
        : {}),
    }, []);
    this.agentOptions = options.agentOptions ?? {};
  }

  readonly agentOptions: Agent['options'];

  /** How the host names itself in its errors. */
  protected get label(): string {
    return 'offline host';
  }

  /** A deterministic id: `<prefix>-<n>`, counted per prefix (`msg-1`, `call-1`, …). */
  newId(prefix: string): string {
    const n = (this.#counters.get(prefix) ?? 0) + 1;
    this.#counters.set(prefix, n);
    return `${prefix}-${n}`;
  }

  /**
   * Provides a service while plugins run (Cordis's `ctx.provide`): `ctx.get(name)` answers it, and
   * every `ctx.inject` waiting on it loads. DSH's `webServer`, for one, may come after our plugins.
   * @param name - the service name (`HostService.webServer`, …).
   * @param value - the service, e.g. a `TestWebServer`.
   * @returns its removal: injected children that need it unload.
   */
  provide(name: string, value: unknown): () => void {
    return this.core.services.provide(name, value);
  }

  /** The current session (a new object after `resume()`, over the same log). */
  get session(): OfflineSession {
    return this.#session;
  }

  /** The current agent; throws before `start()` / `run()`. */
  get agent(): OfflineAgent {
    if (this.#agent === undefined) throw new Error(`${this.label}: no agent yet; call start() or run() first`);
    return this.#agent;
  }

  /** The mounted provider; throws when none is mounted (use `ctx.get('fs')` to test absence). */
  get fs(): F {
    if (this.#fs === undefined) throw new Error(`${this.label}: no fs provider is mounted`);
    return this.#fs as F;
  }

  /** Mounts (or replaces) the fs provider; plugins see it at their next `ctx.get('fs')`. */
  mountFs(fs: FileSystem): void {
    this.#fs = fs;
  }

  /** Unmounts the fs provider. */
  unmountFs(): void {
    this.#fs = undefined;
  }

  /**
   * Mounts a plugin module as DSH would: checks its shape (no default export), validates `config`
   * with its `Config` (throwing DSH's `invalid config:` error), refuses an `inject` the host cannot
   * satisfy, and calls `apply` with the validated value.
   */
  use<C>(plugin: PluginModule<C>, config?: unknown): PluginHandle {
    assertPluginModule(plugin);
    const value = plugin.Config !== undefined ? validateConfig(plugin.Config, config) : (config as C);
    const fiber = new Fiber(`plugin ${plugin.name}`);
    const ctx = new OfflineContext(this.core, fiber, createRecordingLogger(plugin.name, this.logs), undefined);
    for (const service of plugin.inject ?? []) {
      if (ctx.get(service) === undefined) throw new Error(`plugin ${plugin.name} injects "${service}", which this host does not provide`);
    }
    // A failed apply (sync throw or async rejection) unloads what it registered before failing.
    let out: ReturnType<PluginModule<C>['apply']>;
    try {
      out = plugin.apply(ctx, value);
    } catch (error) {
      fiber.dispose();
      throw error;
    }
    const ready = Promise.resolve(out).then(
      (teardown) => {
        if (typeof teardown === 'function') fiber.add(teardown);
      },
      (error: unknown) => {
        fiber.dispose();
        throw error;
      },
    );
    this.#pending.push(ready);
    this.#plugins.push(fiber);
    return { name: plugin.name, ctx, ready, dispose: () => fiber.dispose() };
  }

  /** Publishes the agent (`session/created`, `agent/created`, `agent/session-start { source: 'startup' }`) once. */
  async start(): Promise<OfflineAgent> {
    await Promise.all(this.#pending);
    this.#agent ??= this.#publish(this.#session, 'startup');
    return this.#agent;
  }

  /**
   * One user turn: queues `prompt` as a follow-up and runs the loop; the scripted model answers
   * each step from `script`, in order. Rejects if a turn fails, or if answers are left unused.
   */
  async run(prompt: string | UserMessage, script: readonly StepScript[]): Promise<void> {
    const agent = await this.start();
    const message = typeof prompt === 'string'
      ? deepFreeze({ content: [{ type: 'text' as const, text: prompt }], source: { kind: SourceKind.user }, role: 'user' as const, id: this.newId('msg') })
      : prompt;
    agent.followup(message);
    await this.runPending(script);
  }

  /** Runs whatever the agent was woken for (e.g. after a listener's `steer`), with more answers. */
  async runPending(script: readonly StepScript[] = []): Promise<void> {
    const agent = await this.start();
    this.model.load(script);
    const spill = this.#spill;
    const turns = drive({
      model: this.model, requests: this.requests, maxStepsPerTurn: this.#maxSteps, newId: (p) => this.newId(p),
      ...(spill !== undefined ? { spill: (callId: string, name: string, content: readonly ContentBlock[]) => spillContent(spill, this.spillStore, this.#session.id, callId, name, content) } : {}),
    }, agent);
    agent.idle = turns.then(() => undefined, () => undefined);
    try {
      await turns;
    } catch (error) {
      this.model.reset();
      throw error;
    }
    const left = this.model.remaining;
    this.model.reset();
    if (left > 0) throw new Error(`scripted model: ${left} answer(s) left unused`);
  }

  /**
   * Compaction as DSH's `/compact` records it (rc.8, `dsh-compaction-basic`): `compaction/start
   * { compactionId, turn }`, `compaction/summary { compactionId, summary, shadowedRange,
   * shadowedSeqs }`, the checkpoint `user/message` (source `{ kind: 'plugin', plugin: 'compact',
   * compactionId }`, the summary framed as DSH frames it) replacing the visible nodes except the last
   * `keep` and citing the two records and every shadowed node in `sourceEventSeqs`, then
   * `compaction/end { compactionId, turn }`. `turn` is the open turn, `null` between turns.
   */
  compact(options: CompactOptions = {}): SessionEvent {
    const session = this.#session;
    const nodes = session.surface.nodes;
    const end = nodes.length - (options.keep ?? 0);
    if (end <= 0) throw new Error(`${this.label}: nothing to compact (${nodes.length} visible nodes, keep ${options.keep ?? 0})`);
    const compactionId = `compaction-${++this.#compactions}`;
    const summary = [{ type: 'text', text: options.summary ?? 'Summary of the earlier conversation.' }];
    const turn = openTurn(session.events);
    const shadowedSeqs = nodes.slice(0, end);
    const shadowedRange = { start: shadowedSeqs[0]!, end: shadowedSeqs.at(-1)! };
    const start = session.append(SessionEventType.compactionStart, { compactionId, turn });
    const record = session.append(SessionEventType.compactionSummary, { compactionId, summary, shadowedRange, shadowedSeqs });
    const content = [{ type: 'text', text: `${CompactionFrame.preamble}\n\n${CompactionFrame.open}` }, ...summary, { type: 'text', text: CompactionFrame.close }];
    const message = { content, source: { kind: SourceKind.plugin, plugin: COMPACTION_PLUGIN, compactionId }, role: 'user', id: this.newId('msg') };
    const checkpoint = session.append(SessionEventType.userMessage, message, { surfaceOp: { op: 'replace', ...shadowedRange }, sourceEventSeqs: [start.seq, record.seq, ...shadowedSeqs] });
    session.append(SessionEventType.compactionEnd, { compactionId, turn });
    return checkpoint;
  }

  /**
   * A new loop instance on the same log, as after a restart: the old agent is disposed
   * (`agent/disposed`, its `agent.ctx` registrations removed), a session is rebuilt from the log
   * (not re-published), its inbox replays the logged splices, and the new agent is published with
   * `agent/session-start { source: 'resume' }`.
   */
  async resume(): Promise<OfflineAgent> {
    await Promise.all(this.#pending);
    const old = this.#agent;
    if (old !== undefined) {
      await old.whenIdle();
      old.notify(HostEvent.agentDisposed, {});
      old.fiber.dispose();
    }
    this.#session = this.#newSession(this.#session.header, this.#session.events);
    this.#agent = this.#publish(this.#session, 'resume');
    return this.#agent;
  }

  /** Lets pending microtasks and immediates run (async listener work on the in-memory provider). */
  async settle(): Promise<void> {
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
  }

  /** Unloads every plugin and disposes the agent. */
  dispose(): void {
    this.#agent?.fiber.dispose();
    for (const fiber of this.#plugins.splice(0).reverse()) fiber.dispose();
  }

  #newSession(header: SessionHeader, seed: readonly SessionEvent[]): OfflineSession {
    return new OfflineSession({
      header,
      seed,
      clock: this.#clock,
      onAppend: (session, event) => this.core.bus.notify(HostEvent.sessionEvent, this.#owners.get(session), [session, event]),
    });
  }

  #publish(session: OfflineSession, source: 'startup' | 'resume'): OfflineAgent {
    const agent = new OfflineAgent(this.core, session, this.agentOptions, createRecordingLogger('agent', this.logs));
    this.#owners.set(session, agent);
    this.core.bus.notify(HostEvent.sessionCreated, agent, [session]);
    try {
      this.core.bus.vetoable(HostEvent.agentCreated, agent, [{ agent }]);
    } catch (error) {
      agent.fiber.dispose();
      throw error;
    }
    this.#agent = agent;
    agent.notify(HostEvent.agentSessionStart, { source });
    return agent;
  }
}

/** The turn open at the end of the log, `null` when none is. */
function openTurn(events: readonly SessionEvent[]): number | null {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.type === SessionEventType.turnEnd) return null;
    if (event.type === SessionEventType.turnStart) return (event.data as { turn: number }).turn;
  }
  return null;
}
