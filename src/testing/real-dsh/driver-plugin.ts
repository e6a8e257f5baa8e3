// The plugin createDshHost mounts inside a real DSH process (by absolute path, through `--patch`) in
// place of DSH's one-shot headless runner: it creates the session's agent exactly as the runner
// does (`agents.create` with the default model selection installed), or resumes a persisted one
// (`agents.resume`), then takes orders from the test over Node's IPC channel: run one turn
// (`followup` + `whenIdle` + `sessions.flush`), compact the idle session as `/compact` does
// (`compaction.compactNow`), report the session's events, exit. One DSH process
// can so run many turns of one live session, and a later process can resume it, which headless
// mode (one task per process, no resume) cannot.
//
// This file is copied into the DSH profile directory before DSH starts, so that its bare
// `@deepseek-ai/*` imports resolve through the profile's own module fallback, as DSH's in-box
// plugins do. It must therefore import nothing of this package.

/** Orders the test sends (over `process.send`). */
export type DriverOrder =
  | { readonly op: 'turn'; readonly id: number; readonly content: readonly unknown[] }
  | { readonly op: 'events'; readonly id: number }
  | { readonly op: 'compact'; readonly id: number }
  | { readonly op: 'logs'; readonly id: number }
  | { readonly op: 'exit'; readonly id: number };

/** What the driver sends back. `ready` comes once, after the agent is published. */
export type DriverReport =
  | { readonly op: 'ready'; readonly sessionId: string; readonly resumed: boolean; readonly seq: number; readonly webPort?: number }
  | { readonly op: 'done'; readonly id: number; readonly value?: unknown }
  | { readonly op: 'failed'; readonly id?: number; readonly error: string };

interface DriverConfig {
  readonly sessionId: string;
  readonly resume: boolean;
  readonly cwd: string;
  /** The agent preset a new session joins where the profile has a preset roster (web); default the roster's. */
  readonly agentPreset?: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- DSH's own objects, typed structurally at the seam. */
type Any = any;

/** Cordis plugin name. */
export const name = 'dsh-test-driver';
/** The services the driver needs before it can create an agent (as DSH's headless runner). */
export const inject = ['agentDefaultModel', 'agents', 'sessions'];

/** Validates the row's config synchronously (Standard Schema, as Cordis asks). */
export const Config = {
  '~standard': {
    version: 1,
    vendor: 'dsh-context-engine',
    validate(value: unknown) {
      const v = value as Partial<DriverConfig> | undefined;
      if (v === undefined || typeof v.sessionId !== 'string' || typeof v.resume !== 'boolean' || typeof v.cwd !== 'string' || (v.agentPreset !== undefined && typeof v.agentPreset !== 'string')) {
        return { issues: [{ message: 'dsh-test-driver: config needs sessionId (string), resume (boolean) and cwd (string), and optionally agentPreset (string)' }] };
      }
      return { value: v };
    },
  },
};

function send(report: DriverReport): void {
  process.send?.(report);
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Mounts the driver: creates or resumes the agent, then serves the test's orders until `exit`.
 * @param ctx - the plugin's Cordis context (DSH's).
 * @param config - the session to create or resume, and its cwd.
 */
export function apply(ctx: Any, config: DriverConfig): void {
  if (typeof process.send !== 'function') {
    throw new Error('dsh-test-driver: no IPC channel; this plugin is started by createDshHost (dsh-context-engine/testing)');
  }
  const exit = ctx.get('appExit') as ((code: number) => void) | undefined;
  // Every plugin's log lines from here on, at every level: DSH's own exporter keeps only errors and
  // info, so a plugin's warnings are otherwise invisible in a headless run.
  const logs: { level: string; name: string; text: string }[] = [];
  const format = import('@deepseek-ai/cordis' as string).then((cordis: Any) => cordis.Logger.format as (exporter: unknown, message: unknown) => string);
  const exporter = { colors: 0, levels: { default: 3 }, export: (message: Any) => void format.then((f) => logs.push({ level: message.type, name: message.name, text: f(exporter, message) })) };
  ctx.logger.exporter(exporter);
  let handle: { agent: Any; dispose(): Promise<void> } | undefined;
  let queue: Promise<void> = Promise.resolve();

  const serve = async (order: DriverOrder): Promise<void> => {
    const agent = handle?.agent;
    if (agent === undefined) throw new Error('dsh-test-driver: no agent');
    switch (order.op) {
      case 'turn': {
        const { createUserMessage } = (await import('@deepseek-ai/dsh-llm' as string)) as Any;
        const from = agent.session.seq;
        agent.followup(createUserMessage({ content: order.content, source: { kind: 'user' } }));
        await agent.whenIdle();
        await ctx.sessions.flush(agent.session);
        send({ op: 'done', id: order.id, value: { from, to: agent.session.seq } });
        return;
      }
      case 'compact': {
        // What DSH's `/compact` command runs: one useful older span summarized below the pressure threshold.
        const compaction = ctx.get('compaction');
        if (compaction === undefined) throw new Error('dsh-test-driver: the profile mounts no compaction service');
        const from = agent.session.seq;
        const result = await compaction.compactNow(agent, new AbortController().signal);
        send({ op: 'done', id: order.id, value: { from, to: agent.session.seq, compacted: result !== null } });
        return;
      }
      case 'logs':
        send({ op: 'done', id: order.id, value: logs });
        return;
      case 'events':
        send({ op: 'done', id: order.id, value: { header: agent.session.header, events: agent.session.events, surface: agent.session.surface.nodes } });
        return;
      case 'exit':
        await ctx.sessions.flush(agent.session);
        send({ op: 'done', id: order.id });
        exit?.(0);
        return;
    }
  };

  const onMessage = (order: DriverOrder): void => {
    queue = queue.then(() => serve(order)).catch((error: unknown) => send({ op: 'failed', id: order.id, error: describe(error) }));
  };
  process.on('message', onMessage);
  ctx.effect(() => () => {
    process.off('message', onMessage);
  });

  const start = async (): Promise<void> => {
    await ctx.get('loader')?.await();
    const { installModelSelection } = (await import('@deepseek-ai/dsh-agent' as string)) as Any;
    const selection = ctx.agentDefaultModel.currentSelection();
    // Where the profile has a preset roster (web), an agent gets its tools and sections by joining a
    // preset, as DSH's web API composes its sessions: the id goes on a new session's header, and
    // setup mounts it (a resumed session joins the preset its header names).
    const presets = ctx.get('agentPresets') as Any;
    const agentPreset: string | undefined = presets !== undefined && !config.resume ? (await presets.resolve(config.agentPreset)).id : undefined;
    const setup = async (agentCtx: Any): Promise<void> => {
      installModelSelection(agentCtx, { current: selection, assembled: undefined });
      if (presets !== undefined) await presets.mount(agentCtx, agentPreset ?? agentCtx.agent?.session.header.agentPreset);
    };
    const agentOptions = { provider: selection.provider, model: selection.model };
    handle = config.resume
      ? await ctx.agents.resume({ resumeSessionId: config.sessionId, agentOptions, setup })
      : await ctx.agents.create({ sessionId: config.sessionId, meta: { cwd: config.cwd, ...(agentPreset !== undefined ? { agentPreset } : {}) }, agentOptions, setup });
    await handle!.agent.whenIdle();
    const webPort = (ctx.get('webServer') as { port?: number } | undefined)?.port;
    send({ op: 'ready', sessionId: config.sessionId, resumed: config.resume, seq: handle!.agent.session.seq, ...(webPort !== undefined ? { webPort } : {}) });
  };
  start().catch((error: unknown) => {
    send({ op: 'failed', error: describe(error) });
    exit?.(1);
  });
}
