// The plugin `dsh-context inspect` mounts inside the user's own DSH for one run (by absolute path,
// through a `--patch` overlay, in a throwaway copy of the DSH home), to learn what the first model
// request is made of: DSH's system prompt by section, the source of every message, which tools a
// context profile changed and their full definitions, the context window DSH resolved, the rows
// that are mounted, and when each boot phase ended. It changes nothing the request is built from.
//
// It writes its report synchronously when DSH logs the request's header (`request/header`, just
// before the adapter sends the request), so the report is on disk before the request leaves. It
// sends nothing anywhere: every chat-completions call of the process goes to the loopback capture
// endpoint (`capture`), whatever base URL the user's settings name, and a request of a provider
// other than DSH's DeepSeek adapter stops the process before it is sent. Where the profile has no
// one-shot runner, it starts the session itself as DSH's headless runner does.
//
// This file is copied into the throwaway profile directory before DSH starts, so that its bare
// `@deepseek-ai/*` imports resolve through the profile's module fallback, as DSH's own plugins do.
// It must therefore import nothing of this package.

import { writeFileSync } from 'node:fs';

/** The row's config, written by inspect. */
export interface ProbeConfig {
  /** Where the report goes (a file in the throwaway directory). */
  readonly report: string;
  /** The capture endpoint's base URL (`http://127.0.0.1:<port>/v1`). */
  readonly capture: string;
  /** Start the session with this prompt (profiles without DSH's one-shot runner). */
  readonly drive?: { readonly prompt: string; readonly cwd: string };
}

/** A tool of the request, compared with the registry's own definition. */
export interface ProbeTool {
  readonly name: string;
  /**
   * `full`: sent as registered; `deferred`: sent in another form than registered (a context
   * profile's placeholder); `added`: registered for this session only (`tool_search`); `hidden`:
   * registered, not sent.
   */
  readonly state: 'full' | 'deferred' | 'added' | 'hidden';
  /** The registered definition, for `deferred` and `hidden` tools. */
  readonly registered?: CanonicalTool;
}

/** A tool schema as DSH holds it before its adapter maps it to the wire. */
export interface CanonicalTool {
  readonly name: string;
  readonly description?: string;
  readonly parameters?: unknown;
}

/** What the probe reports. */
export interface ProbeReport {
  /** Milliseconds from DSH's process start to: this plugin's apply, the agent's creation, the first assembly, the request. */
  readonly marks: { readonly apply: number; readonly agent?: number; readonly assemble?: number; readonly request?: number };
  readonly provider?: string;
  readonly model?: string;
  /** The context window DSH resolved for the model (`request/context`). */
  readonly contextWindow?: number;
  /** The system prompt's sections as rendered, in order, when they join to exactly the prompt sent; otherwise null. */
  readonly sections?: readonly { readonly name: string; readonly text: string }[] | null;
  /** Why `sections` is null. */
  readonly sectionsNote?: string;
  /** The request's messages after the system prompt, in order: their source and text. */
  readonly messages?: readonly { readonly role: string; readonly source: unknown; readonly text: string }[];
  readonly tools?: readonly ProbeTool[];
  /** Mounted rows of the tree (id, module name; config for this package's rows), for who loads what. */
  readonly rows?: readonly { readonly id: string; readonly name: string; readonly config?: unknown }[];
  /** Why the probe stopped DSH, when it did. */
  readonly error?: string;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- DSH's own objects, typed structurally at the seam. */
type Any = any;

/** DSH's DeepSeek adapter's provider route, the one whose requests reach the capture endpoint. */
const DEEPSEEK_PROVIDER = 'deepseek-official';

/** Cordis plugin name. */
export const name = 'dsh-context-inspect-probe';

/** Validates the row's config synchronously (Standard Schema, as Cordis asks). */
export const Config = {
  '~standard': {
    version: 1,
    vendor: 'dsh-context-engine',
    validate(value: unknown) {
      const v = value as Partial<ProbeConfig> | undefined;
      if (v === undefined || typeof v.report !== 'string' || typeof v.capture !== 'string') return { issues: [{ message: `${name}: config needs report and capture (strings)` }] };
      return { value: v };
    },
  },
};

const describe = (error: unknown): string => (error instanceof Error ? (error.stack ?? error.message) : String(error));
const textOf = (content: readonly Any[]): string => content.flatMap((b) => (b?.type === 'text' ? [b.text as string] : [])).join('');

/**
 * Mounts the probe.
 * @param ctx - the plugin's Cordis context (DSH's).
 * @param config - where to report, the capture endpoint, and the session to start if any.
 */
export function apply(ctx: Any, config: ProbeConfig): void {
  const marks: { apply: number; agent?: number; assemble?: number; request?: number } = { apply: performance.now() };
  const report = (value: Omit<ProbeReport, 'marks'>): void => writeFileSync(config.report, JSON.stringify({ marks, ...value }));
  const stop = (error: string): never => {
    report({ error });
    process.kill(process.pid, 'SIGKILL');
    throw new Error(error);
  };

  // Every chat-completions call of this process goes to the capture endpoint, whatever base URL the
  // settings name: inspecting must never call a model.
  const send = globalThis.fetch;
  const capture = `${config.capture}/chat/completions`;
  globalThis.fetch = (input: Any, init?: Any) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : String(input?.url);
    return send(/\/chat\/completions(\?|$)/.test(url) ? capture : input, init);
  };
  ctx.effect(() => () => {
    globalThis.fetch = send;
  });

  // The system prompt's sections of each session's latest assembly. The listener is prepended when
  // the first agent is created, after every plugin has loaded, so it is outermost: what `next()`
  // returns is the assembly every other listener made.
  const assemblies = new WeakMap<object, Any>();
  ctx.on('agent/created', () => {
    if (marks.agent !== undefined) return;
    marks.agent = performance.now();
    ctx.on('system-prompt/assemble', async (assembly: Any, actx: Any, next: () => Promise<Any>) => {
      marks.assemble ??= performance.now();
      const out = await next();
      if (actx?.agent?.session !== undefined) assemblies.set(actx.agent.session, out);
      return out;
    }, { global: true, prepend: true });
  });

  // DSH's own renderer, loaded now so the report can be written synchronously at the request.
  let render: ((assembly: Any) => string) | string = 'DSH\'s renderer has not loaded yet';
  import('@deepseek-ai/dsh-system-prompt' as string).then(
    (m: Any) => (render = typeof m.renderPrompt === 'function' ? m.renderPrompt : '@deepseek-ai/dsh-system-prompt has no renderPrompt'),
    (error: unknown) => (render = `@deepseek-ai/dsh-system-prompt did not load: ${describe(error)}`),
  );

  // DSH logs `request/header` and then (for a first request) `request/context` synchronously, and
  // sends the request after both: the report is on disk before the request leaves.
  let done = false;
  ctx.on('session/event', (session: Any, event: Any) => {
    if (done) return;
    if (event?.type === 'request/header') {
      marks.request = performance.now();
      const route = event.data.header.config;
      if (route?.provider !== DEEPSEEK_PROVIDER) stop(`the session's model route is ${route?.provider}/${route?.model}; inspect captures requests of DSH's DeepSeek adapter (${DEEPSEEK_PROVIDER}) only, and stopped DSH before this one was sent`);
      return;
    }
    if (event?.type !== 'request/context' || marks.request === undefined) return;
    done = true;
    try {
      const header = session.requestHeader();
      report({
        provider: event.data.provider, model: event.data.model, contextWindow: event.data.contextWindow,
        ...sectionsOf(render, assemblies.get(session), header.system ?? ''),
        messages: session.deriveMessages().map((m: Any) => ({ role: m.role, source: m.source, text: textOf(m.content) })),
        tools: toolStates(header.tools ?? [], ctx.get('tools')?.schemas() ?? []),
        rows: mountedRows(ctx),
      });
    } catch (error) {
      report({ error: describe(error) });
    }
  });

  if (config.drive !== undefined) drive(ctx, config.drive).catch((error) => stop(`starting the session failed: ${describe(error)}`));
}

/**
 * The sections as DSH renders them into the system prompt (its own `renderPrompt` on each), when
 * the non-empty ones joined by blank lines are exactly `system`; otherwise null and why.
 */
function sectionsOf(render: ((assembly: Any) => string) | string, assembly: Any, system: string): Pick<ProbeReport, 'sections' | 'sectionsNote'> {
  if (typeof render === 'string') return { sections: null, sectionsNote: render };
  if (assembly === undefined) return { sections: null, sectionsNote: 'no system-prompt assembly of this session was seen' };
  const sections = (assembly.sections as Any[]).map((s) => ({ name: String(s.name), text: render({ sections: [s], variables: assembly.variables }) })).filter((s) => s.text !== '');
  if (sections.map((s) => s.text).join('\n\n') === system) return { sections };
  return { sections: null, sectionsNote: 'the sections of the last assembly do not join to the system prompt sent' };
}

/** Each tool of the request against the registry's global definitions. */
function toolStates(sent: readonly CanonicalTool[], registered: readonly CanonicalTool[]): ProbeTool[] {
  const global = new Map(registered.map((t) => [t.name, t]));
  const names = new Set(sent.map((t) => t.name));
  const same = (a: CanonicalTool, b: CanonicalTool): boolean => JSON.stringify([a.name, a.description, a.parameters]) === JSON.stringify([b.name, b.description, b.parameters]);
  return [
    ...sent.map((tool): ProbeTool => {
      const own = global.get(tool.name);
      if (own === undefined) return { name: tool.name, state: 'added' };
      return same(own, tool) ? { name: tool.name, state: 'full' } : { name: tool.name, state: 'deferred', registered: own };
    }),
    ...registered.filter((t) => !names.has(t.name)).map((t): ProbeTool => ({ name: t.name, state: 'hidden', registered: t })),
  ];
}

/** The tree's enabled rows: their id and module, and the config of this package's rows only (other rows' configs may hold secrets). */
function mountedRows(ctx: Any): ProbeReport['rows'] {
  const loader = ctx.get('loader');
  if (loader === undefined || typeof loader.entries !== 'function') return [];
  return [...loader.entries()].flatMap((entry: Any) => {
    const options = entry?.options;
    if (options === undefined || options.disabled === true || typeof options.name !== 'string') return [];
    const ours = options.name.startsWith('dsh-context-engine/');
    return [{ id: String(options.id), name: options.name, ...(ours && options.config !== undefined ? { config: options.config } : {}) }];
  });
}

/**
 * Starts a session with `prompt` as DSH's headless runner does (`agents.create` with the default
 * model selection installed, then a follow-up), joining the default agent preset where the profile
 * has a preset roster, as DSH's web API composes its sessions.
 */
async function drive(ctx: Any, { prompt, cwd }: NonNullable<ProbeConfig['drive']>): Promise<void> {
  await ctx.get('loader')?.await();
  const { installModelSelection } = (await import('@deepseek-ai/dsh-agent' as string)) as Any;
  const { createUserMessage } = (await import('@deepseek-ai/dsh-llm' as string)) as Any;
  const selection = ctx.get('agentDefaultModel').currentSelection();
  const presets = ctx.get('agentPresets');
  const agentPreset: string | undefined = presets !== undefined ? (await presets.resolve(undefined)).id : undefined;
  const { agent } = await ctx.get('agents').create({
    sessionId: `session-${crypto.randomUUID()}`,
    meta: { cwd, ...(agentPreset !== undefined ? { agentPreset } : {}) },
    agentOptions: { provider: selection.provider, model: selection.model },
    setup: async (agentCtx: Any) => {
      installModelSelection(agentCtx, { current: selection, assembled: undefined });
      if (presets !== undefined) await presets.mount(agentCtx, agentPreset);
    },
  });
  await agent.whenIdle();
  agent.followup(createUserMessage({ content: [{ type: 'text', text: prompt }], source: { kind: 'user' } }));
}
