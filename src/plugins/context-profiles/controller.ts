// The plugin's live state (spec CP-13..CP-17, CP-21, CP-28, CP-29, CP-37): which root sessions run
// under which profile, what happens at `agent/created`, the outermost pre-step channel filter, and
// the operations the HTTP API exposes.

import {
  HostEvent, type Agent, type AgentEvent, type Context, type PreStepDecision, type PreStepEvent, type PromptAssembly, type UserMessage,
} from '../../host/index.js';
import { EnvironmentProbe, renderFacts } from './environment.js';
import { CHANNEL_KINDS, CONTEXT_SWITCHES, ENVIRONMENT_CONTEXT, NONE, type Baseline, type Profile } from './model.js';
import { fromEntries } from './json.js';
import { StateError } from './normalize.js';
import { definitionTokens, placeholderOf, schemaChars, tokenEstimate } from './placeholders.js';
import { filterAssembly, registerShadows } from './prompt.js';
import { deferralSummary, effectiveState, groupOf, overridden, resolveAll, serverOf, type CatalogTool, type Resolution } from './resolve.js';
import { globalCatalog, SessionTools } from './session.js';
import type { StateStore } from './store.js';

/** One live root session. */
interface Root {
  readonly agent: Agent;
  readonly tools: SessionTools;
  undoShadows: () => void;
}

/**
 * The host rendered the contexts before the probe settled on the first step: the facts are added
 * here then (at the end), so the first request already carries them and later ones do not change.
 */
function withFacts(assembly: PromptAssembly, facts: string): PromptAssembly {
  if (facts === '') return assembly;
  // DSH renders context texts before the waterfall and keeps empty ones in the assembly: on the
  // first assembly, before the probe settled, ours is there with no text. Fill it, so the facts are
  // in the session's first snapshot (a later one would replace the snapshot and cost the cache).
  const at = assembly.contexts.findIndex((c) => c.name === ENVIRONMENT_CONTEXT);
  if (at < 0) return { ...assembly, contexts: [...assembly.contexts, { name: ENVIRONMENT_CONTEXT, text: facts }] };
  if (assembly.contexts[at]!.text !== '') return assembly;
  return { ...assembly, contexts: assembly.contexts.map((c, i) => (i === at ? { name: c.name, text: facts } : c)) };
}

/** [R] Where the environment facts sit among the runtime contexts. */
const ENVIRONMENT_ORDER = 900;

/** Marks an assemble call as the private unfiltered bypass (CP-21). */
const BYPASS = Symbol('context-profiles: unfiltered');

/** Whether a session belongs to a sub-agent (CP-17: no profile). */
function isSubagent(agent: Agent): boolean {
  return agent.session.header.origin === 'subagent';
}

/** CP-28: the source kinds a profile's channels filter. */
export function filteredKinds(profile: Profile | undefined): Set<string> {
  const kinds = new Set<string>();
  if (profile?.channels?.workspaceInstructions === 'off') CHANNEL_KINDS.workspaceInstructions.forEach((k) => kinds.add(k));
  if (profile?.channels?.timeContext === 'off') CHANNEL_KINDS.timeContext.forEach((k) => kinds.add(k));
  return kinds;
}

/** The live controller; one per mounted plugin. */
export class Profiles {
  readonly #roots = new Map<string, Root>();
  readonly #baselines = new WeakMap<object, Baseline>();
  /** CP-27: each agent's environment facts, fixed once probed, and the probe still running. */
  readonly #facts = new WeakMap<object, string>();
  readonly #probing = new WeakMap<object, Promise<void>>();

  constructor(readonly ctx: Context, readonly store: StateStore, readonly probe = new EnvironmentProbe()) {}

  /** The environment-facts text of an agent ('' until probed: the context is then absent). */
  factsOf(agent: Agent | undefined): string {
    return (agent !== undefined ? this.#facts.get(agent) : undefined) ?? '';
  }

  /** The baseline an agent was created with (CP-24), else the current one. */
  baselineOf(agent: Agent | undefined): Baseline {
    return (agent !== undefined ? this.#baselines.get(agent) : undefined) ?? this.store.baseline;
  }

  /** Wires the listeners and the environment-facts context (CP-27). */
  mount(): void {
    const { ctx } = this;
    // The base layer renders the context; root sessions filter it through their profile (CP-25).
    ctx.systemPrompt?.context({ name: ENVIRONMENT_CONTEXT, order: ENVIRONMENT_ORDER, text: (actx) => this.factsOf(actx.agent) });
    ctx.on(HostEvent.agentCreated, ({ agent }: AgentEvent) => this.#created(agent));
    ctx.on(HostEvent.agentDisposed, ({ agent }: AgentEvent) => this.#disposed(agent));
    ctx.on(HostEvent.toolsChange, () => {
      for (const root of this.#roots.values()) root.tools.refresh();
    });
    // CP-19: the waterfall is dispatched per agent scope, so the listener must be global; prepend
    // keeps it outermost so context deletion happens after every other listener (CP-26).
    ctx.on(HostEvent.systemPromptAssemble, async (assembly: PromptAssembly, actx: { agent?: Agent; [BYPASS]?: true } | undefined, next: () => Promise<PromptAssembly>) => {
      const agent = actx?.agent;
      // CP-27: the first assembly waits for the probe, which settles within its limit.
      if (agent !== undefined) await this.#probing.get(agent);
      const out = withFacts(await next(), this.factsOf(agent));
      const root = agent !== undefined ? this.#roots.get(agent.id) : undefined;
      const filtered = filterAssembly({ assembly: out, session: root?.agent === agent ? root?.tools : undefined, baseline: this.baselineOf(agent) });
      if (actx?.[BYPASS] === true) return { ...filtered, sections: out.sections.map((s) => filtered.sections.find((f) => f.name === s.name) ?? s) };
      return filtered;
    }, { global: true, prepend: true });
  }

  #created(agent: Agent): void {
    // CP-13, CP-24: the record, default and rules as saved now (the panel may run in another process).
    this.store.refresh();
    this.#baselines.set(agent, this.store.baseline);
    this.#probing.set(agent, this.probe.probe(agent.session.header.cwd).then((facts) => {
      this.#facts.set(agent, renderFacts(facts));
    }));
    if (isSubagent(agent)) return;
    const id = this.store.profileIdFor(agent.id);
    let profile: Profile | undefined;
    if (id !== NONE) {
      profile = this.store.profile(id);
      if (profile === undefined) this.ctx.logger.warn('context-profiles: session %s names profile "%s", which does not exist; the session is left unprocessed', agent.id, id);
      else this.#record(agent.id, id);
    } else {
      // CP-14/CP-15: `none` is recorded too, so a session started unprocessed stays so when the user
      // later picks a default profile (its channels are not filtered, a resume does not adopt it).
      this.#record(agent.id, NONE);
    }
    const tools = new SessionTools(this.ctx, agent, profile);
    const root: Root = { agent, tools, undoShadows: profile !== undefined ? registerShadows(agent, profile) : () => {} };
    this.#roots.set(agent.id, root);
    tools.refresh();
    // CP-29: registered per agent, prepended, so it stays outermost whatever registered before.
    agent.ctx.on(HostEvent.agentPreStep, (event: PreStepEvent, next: () => Promise<PreStepDecision>) => this.#channels(event, next), { prepend: true });
  }

  /** CP-14: a record that cannot be written is logged; it must never veto the agent (a throw would). */
  #record(sessionId: string, profileId: string): void {
    try {
      this.store.recordFirst(sessionId, profileId);
    } catch (error) {
      this.ctx.logger.warn('context-profiles: could not record profile "%s" for session %s: %s', profileId, sessionId, error instanceof Error ? error.message : String(error));
    }
  }

  #disposed(agent: Agent): void {
    const root = this.#roots.get(agent.id);
    if (root?.agent === agent) this.#roots.delete(agent.id);
  }

  /** CP-28/CP-29: drops filtered channels from what enters, reading the profile as saved now. */
  async #channels(event: PreStepEvent, next: () => Promise<PreStepDecision>): Promise<PreStepDecision> {
    const decision = await next();
    if (decision.kind !== 'enter') return decision;
    this.store.refresh();
    const id = this.store.profileIdFor(event.agent.id);
    const kinds = filteredKinds(id === NONE ? undefined : this.store.profile(id));
    if (kinds.size === 0) return decision;
    const kept = decision.messages.filter((m: UserMessage) => !kinds.has(String((m.source as { kind?: unknown } | undefined)?.kind)));
    return kept.length === decision.messages.length ? decision : { kind: 'enter', messages: kept };
  }

  /** The live root session with this id; a StateError 404 otherwise (CP-38). */
  root(id: string): Root {
    const root = this.#roots.get(id);
    if (root === undefined) throw new StateError(`unknown session "${id}"`, 404);
    return root;
  }

  /** CP-15/CP-37 POST /session: records the choice and recomputes the live session incrementally. */
  choose(id: string, profileId: string): void {
    const root = this.root(id);
    this.store.choose(id, profileId);
    const profile = profileId === NONE ? undefined : this.store.profile(profileId);
    root.undoShadows();
    root.undoShadows = profile !== undefined ? registerShadows(root.agent, profile) : () => {};
    root.tools.switchTo(profile);
  }

  /** CP-37 GET /preview: the lists a profile would give this session. */
  preview(id: string, profileId: string): Resolution {
    const root = this.root(id);
    const profile = this.store.profile(profileId);
    if (profile === undefined) throw new StateError(`profile "${profileId}" does not exist`, 404);
    return resolveAll(profile, root.tools.catalog());
  }

  /** CP-37 GET /session: the profile and per-tool state of a live session. */
  session(id: string): { id: string; profile: string; tools: Record<string, string> } {
    const root = this.root(id);
    return { id, profile: root.tools.profile?.id ?? NONE, tools: root.tools.report() };
  }

  /** CP-37 GET /assemble: a dry-run assembly of the session as the model would get it now. */
  async assemble(id: string): Promise<{ tools: PromptAssembly['tools']; chars: number; sections: string[]; contexts: string[] }> {
    const root = this.root(id);
    const prompt = root.agent.ctx.systemPrompt;
    if (prompt === undefined) throw new StateError('the host has no system prompt service', 503);
    const assembly = await prompt.assemble({ agent: root.agent, scope: root.agent });
    const chars = assembly.tools.reduce((sum, t) => sum + schemaChars(t), 0);
    return { tools: assembly.tools, chars, sections: assembly.sections.map((s) => s.name), contexts: assembly.contexts.map((c) => c.name) };
  }

  /** CP-21 `sccFullSections`: every section name of the session's assembly, unfiltered. */
  async fullSections(id: string | undefined): Promise<string[]> {
    const root = id !== undefined ? this.#roots.get(id) : [...this.#roots.values()].at(-1);
    const prompt = (root?.agent.ctx ?? this.ctx).systemPrompt;
    if (prompt === undefined) return [];
    const bypass = { agent: root?.agent, scope: root?.agent, [BYPASS]: true as const };
    // Sections with no text are in the assembly (DSH keeps them there) but never in the prompt.
    return (await prompt.assemble(bypass)).sections.filter((s) => s.text !== '').map((s) => s.name);
  }

  /**
   * CP-37 GET /state's catalog [R]: each tool with group, server, states under every profile, token
   * estimate. The tools are those the session `id` inherits, else the latest live root session's
   * (under DSH's web profile an agent's tools come from its preset, not the global layer), else the
   * global ones.
   * @param id - the session whose tools to list.
   * @returns one entry per tool, in catalog order.
   */
  catalog(id?: string): CatalogEntry[] {
    const root = (id !== undefined ? this.#roots.get(id) : undefined) ?? [...this.#roots.values()].at(-1);
    const profiles = this.store.state.profiles;
    return (root !== undefined ? root.tools.catalog() : globalCatalog(this.ctx)).map((def) => {
      const tool = def as CatalogTool;
      const states = profiles.map((p) => [p.id, { effective: effectiveState(p, tool), overridden: overridden(p, tool), summary: deferralSummary(p, tool) }] as const);
      const server = serverOf(tool);
      // Exact DeepSeek V3 tokens of what each profile sends for it: the definition, its placeholder, nothing.
      const full = definitionTokens(def);
      // A placeholder depends only on the definition and its summary: counted once per summary, not per profile.
      const placeholderTokens = new Map<string, number>();
      const placeholder = (summary: string): number => {
        let tokens = placeholderTokens.get(summary);
        if (tokens === undefined) placeholderTokens.set(summary, (tokens = definitionTokens(placeholderOf(def, summary))));
        return tokens;
      };
      // Keyed by profile id (user data): built from entries, so an id such as `__proto__` is an ordinary key (item 13).
      const sent = fromEntries(states.map(([id, state]) => [id, state.effective === 'inject' ? full : state.effective === 'defer' ? placeholder(state.summary) : 0]));
      return {
        name: def.name, description: def.description, group: groupOf(tool), ...(server !== undefined ? { server } : {}),
        tokens: tokenEstimate(def), deepseekTokens: { full, sent }, states: fromEntries(states),
      };
    });
  }

  /** The switchable contexts (CP-25) for the panel. */
  get contextSwitches(): typeof CONTEXT_SWITCHES {
    return CONTEXT_SWITCHES;
  }
}

/** One row of the tool catalog. */
export interface CatalogEntry {
  name: string;
  description: string;
  group: string;
  server?: string;
  /** CP-UI-05's estimate, round(0.28 × characters). */
  tokens: number;
  /** DeepSeek V3 tokens of the definition as sent whole, and of what each profile sends (placeholder, or 0 when hidden). */
  deepseekTokens: { full: number; sent: Record<string, number> };
  states: Record<string, { effective: string; overridden: boolean; summary: string }>;
}
