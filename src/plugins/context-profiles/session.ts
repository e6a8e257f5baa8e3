// Applying a profile's tool states to one root session (spec CP-08..CP-10, CP-12, CP-15, CP-16):
// hidden tools are denied in the agent scope, deferred tools are shadowed there by placeholders,
// `tool_search` exists while something is deferred, and every refresh is incremental so unchanged
// registrations keep their identity (the host admits tools per step by object identity).

import { CODE_MODE_TOOL, HOST_GUIDANCE_FAMILIES, type Agent, type Context, type ToolDefinition, type ToolSchema } from '../../host/index.js';
import { fromEntries } from './json.js';
import type { Effective, Profile } from './model.js';
import { placeholderOf, TOOL_SEARCH, toolSearchTool } from './placeholders.js';
import { deferralSummary, effectiveState, type CatalogTool } from './resolve.js';

/** Refresh passes in one `refresh` call at most. */
const MAX_PASSES = 4;

/** Tools the profile never touches: the host's Code Mode composite and our own search tool. */
const UNMANAGED = new Set([CODE_MODE_TOOL, TOOL_SEARCH]);

/** The tools a profile resolves against outside a session: the global definitions, in registration order. */
export function globalCatalog(ctx: Context): ToolDefinition[] {
  const tools = ctx.tools;
  if (tools === undefined) return [];
  return tools.schemas().flatMap((s) => {
    if (UNMANAGED.has(s.name)) return [];
    const def = tools.get(s.name);
    return def === undefined ? [] : [def];
  });
}

/** A tool the agent inherits, as first seen; `global` when it is the global layer's definition. */
interface SeenTool {
  readonly def: ToolDefinition;
  readonly global: boolean;
}

/**
 * The tools one root agent inherits, in first-seen order, as it would see them without our own
 * registrations. Under DSH an agent's tools need not be global: the web profile composes them in
 * the scope of the agent's preset, which only the agent's own view (`schemas(agent)`) shows. That view
 * also shows our placeholders in place of the tools they shadow and lacks the tools we denied, so for
 * those the definition is the one seen before: re-read from the global layer when it came from there
 * (a global tool can change or vanish, e.g. an MCP server), kept otherwise (a preset's composition is
 * fixed for the sessions that joined it: DSH never disposes a generation a session runs on).
 */
class AgentCatalog {
  readonly #seen = new Map<string, SeenTool>();

  constructor(readonly ctx: Context, readonly agent: Agent) {}

  /**
   * The inherited tools now.
   * @param ours - our registration in the agent scope by name (a placeholder), to look through.
   * @param hidden - names we denied (absent from the agent's view, still inherited).
   * @returns the definitions in first-seen order.
   */
  current(ours: ReadonlyMap<string, ToolDefinition>, hidden: ReadonlySet<string>): ToolDefinition[] {
    const global = this.ctx.tools;
    const view = this.agent.ctx.tools;
    if (global === undefined || view === undefined) return [];
    const present = new Map<string, ToolDefinition>();
    for (const schema of view.schemas(this.agent)) {
      if (UNMANAGED.has(schema.name)) continue;
      const def = view.get(schema.name, this.agent);
      if (def === undefined) continue;
      if (def === ours.get(schema.name)) continue;
      if (this.#seen.get(schema.name)?.def !== def) this.#seen.set(schema.name, { def, global: global.get(schema.name) === def });
      present.set(schema.name, def);
    }
    for (const name of new Set([...ours.keys(), ...hidden])) {
      if (present.has(name)) continue;
      const seen = this.#seen.get(name);
      if (seen === undefined) continue;
      if (!seen.global) {
        present.set(name, seen.def);
        continue;
      }
      const now = global.get(name);
      if (now === undefined) continue;
      if (now !== seen.def) this.#seen.set(name, { def: now, global: true });
      present.set(name, now);
    }
    for (const name of this.#seen.keys()) if (!present.has(name)) this.#seen.delete(name);
    return [...this.#seen.keys()].map((name) => present.get(name)!);
  }
}

interface Placeholder {
  readonly full: ToolDefinition;
  readonly summary: string;
  /** What we registered in the agent scope. */
  readonly def: ToolDefinition;
  readonly revoke: () => void;
}

/** The per-tool state a session reports (CP-37 GET /session). */
export type SessionToolState = Effective | 'loaded';

/** One root session under a profile. */
export class SessionTools {
  readonly #placeholders = new Map<string, Placeholder>();
  readonly #denied = new Map<string, () => void>();
  readonly #states = new Map<string, Effective>();
  readonly loaded = new Set<string>();
  readonly #catalog: AgentCatalog;
  /** Registrations the host refused, logged once each. */
  readonly #refused = new Set<string>();
  #search: (() => void) | undefined;
  #refreshing = false;
  #again = false;

  constructor(
    readonly ctx: Context,
    readonly agent: Agent,
    public profile: Profile | undefined,
  ) {
    this.#catalog = new AgentCatalog(ctx, agent);
  }

  /** The tools this session's profile resolves against (what the agent inherits), in catalog order. */
  catalog(): ToolDefinition[] {
    return this.#catalog.current(new Map([...this.#placeholders].map(([name, p]) => [name, p.def])), new Set(this.#denied.keys()));
  }

  /** The effective state of each managed tool, as last applied. */
  get states(): ReadonlyMap<string, Effective> {
    return this.#states;
  }

  /** Deferred tools in catalog order, for `tool_search`. */
  deferred(): { full: ToolSchema; summary: string }[] {
    return [...this.#placeholders.values()].map((p) => ({ full: p.full, summary: p.summary }));
  }

  /** Per-tool state including `loaded` (a deferred tool whose definition `tool_search` returned). */
  report(): Record<string, SessionToolState> {
    // Tool names are keys: built from entries, so a tool named `__proto__` is reported like any other (item 13).
    return fromEntries([...this.#states].map(([name, state]) => [name, state === 'defer' && this.loaded.has(name) ? 'loaded' : state] as const));
  }

  /**
   * CP-16: brings the registrations in line with the catalog and the profile. Only what changed is
   * touched: a placeholder is re-registered when its full definition changed (a new object) or its
   * summary did, revoked when its tool vanished or is no longer deferred; denials likewise.
   * Re-entrant calls (our own registrations emit `tools/change`) fold into one more pass.
   */
  refresh(): void {
    if (this.#refreshing) {
      this.#again = true;
      return;
    }
    this.#refreshing = true;
    try {
      // Our own registrations emit tools/change; the pass after them finds nothing to do. A host whose
      // registry keeps changing under us must not spin the loop forever.
      let passes = 0;
      do {
        this.#again = false;
        this.#apply();
      } while (this.#again && ++passes < MAX_PASSES);
      if (this.#again) this.ctx.logger.warn('context-profiles: the tool set kept changing during %d refresh passes; the next tools/change refreshes again', MAX_PASSES);
    } finally {
      this.#refreshing = false;
    }
  }

  #apply(): void {
    const catalog = this.catalog();
    const desired = new Map<string, { def: ToolDefinition; state: Effective }>();
    if (this.profile !== undefined) for (const def of catalog) desired.set(def.name, { def, state: effectiveState(this.profile, def as CatalogTool) });
    const tools = this.agent.ctx.tools!;
    for (const [name, p] of this.#placeholders) {
      const want = desired.get(name);
      if (want?.state === 'defer' && want.def === p.full && deferralSummary(this.profile!, want.def) === p.summary) continue;
      this.#placeholders.delete(name);
      p.revoke();
    }
    for (const [name, undo] of this.#denied) {
      if (desired.get(name)?.state === 'hidden') continue;
      this.#denied.delete(name);
      undo();
    }
    this.#states.clear();
    for (const [name, { def, state }] of desired) {
      this.#states.set(name, state);
      if (state === 'defer' && !this.#placeholders.has(name)) {
        const summary = deferralSummary(this.profile!, def);
        const placeholder = placeholderOf(def, summary);
        const revoke = this.#guard(name, 'defer', () => tools.register(placeholder));
        if (revoke !== undefined) this.#placeholders.set(name, { full: def, summary, def: placeholder, revoke });
      } else if (state === 'hidden' && !this.#denied.has(name)) {
        const lift = this.#guard(name, 'hide', () => tools.restrict({ deny: [name] }));
        if (lift !== undefined) this.#denied.set(name, lift);
      }
    }
    for (const name of this.loaded) if (!this.#placeholders.has(name)) this.loaded.delete(name);
    if (this.#placeholders.size > 0 && this.#search === undefined) {
      this.#search = tools.register(toolSearchTool({ deferred: () => this.deferred(), loaded: (names) => names.forEach((n) => this.loaded.add(n)) }));
    } else if (this.#placeholders.size === 0 && this.#search !== undefined) {
      const revoke = this.#search;
      this.#search = undefined;
      revoke();
    }
  }

  /**
   * One registration the host may refuse (DSH refuses to restrict a tool the agent's own scope
   * registered, and a second registration of a name in one scope): the tool is then left as it is
   * and the refusal logged, rather than failing the whole refresh (which would veto the agent).
   */
  #guard(name: string, what: 'defer' | 'hide', act: () => () => void): (() => void) | undefined {
    try {
      return act();
    } catch (error) {
      this.#states.set(name, 'inject');
      if (this.#refused.has(`${what} ${name}`)) return undefined;
      this.#refused.add(`${what} ${name}`);
      this.ctx.logger.warn('context-profiles: could not %s tool "%s" for session %s: %s', what, name, this.agent.id, error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }

  /** CP-15: an explicit switch recomputes the states under the new profile, incrementally. */
  switchTo(profile: Profile | undefined): void {
    this.profile = profile;
    this.refresh();
  }

  /**
   * CP-12: whether the guidance section `tool:<name>` must not appear: its tool is hidden or
   * deferred, or, for a section DSH names after a family of tools (HOST_GUIDANCE_FAMILIES: `jobs`,
   * `goal`, `cordis`), the session has tools of the family and none of them is injected.
   */
  withoutGuidance(name: string): boolean {
    const state = this.#states.get(name);
    if (state !== undefined) return state !== 'inject';
    const family = Object.hasOwn(HOST_GUIDANCE_FAMILIES, name) ? HOST_GUIDANCE_FAMILIES[name]! : undefined;
    if (family === undefined) return false;
    const members = [...this.#states].filter(([tool]) => (family.tools?.includes(tool) ?? false) || (family.prefix !== undefined && tool.startsWith(family.prefix)));
    return members.length > 0 && members.every(([, effective]) => effective !== 'inject');
  }
}
