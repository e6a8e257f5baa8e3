// Applying a profile's tool states to one root session (spec CP-08..CP-10, CP-12, CP-15, CP-16):
// hidden tools are denied in the agent scope, deferred tools are shadowed there by placeholders,
// `tool_search` exists while something is deferred, and every refresh is incremental so unchanged
// registrations keep their identity (the host admits tools per step by object identity).

import { CODE_MODE_TOOL, type Agent, type Context, type ToolDefinition, type ToolSchema } from '../../host/index.js';
import type { Effective, Profile } from './model.js';
import { placeholderOf, TOOL_SEARCH, toolSearchTool } from './placeholders.js';
import { deferralSummary, effectiveState, type CatalogTool } from './resolve.js';

/** Refresh passes in one `refresh` call at most. */
const MAX_PASSES = 4;

/** Tools the profile never touches: the host's Code Mode composite and our own search tool. */
const UNMANAGED = new Set([CODE_MODE_TOOL, TOOL_SEARCH]);

/** The tools a profile resolves against: the global definitions, in registration order. */
export function globalCatalog(ctx: Context): ToolDefinition[] {
  const tools = ctx.tools;
  if (tools === undefined) return [];
  return tools.schemas().flatMap((s) => {
    if (UNMANAGED.has(s.name)) return [];
    const def = tools.get(s.name);
    return def === undefined ? [] : [def];
  });
}

interface Placeholder {
  readonly full: ToolDefinition;
  readonly summary: string;
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
  #search: (() => void) | undefined;
  #refreshing = false;
  #again = false;

  constructor(
    readonly ctx: Context,
    readonly agent: Agent,
    public profile: Profile | undefined,
  ) {}

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
    const out: Record<string, SessionToolState> = {};
    for (const [name, state] of this.#states) out[name] = state === 'defer' && this.loaded.has(name) ? 'loaded' : state;
    return out;
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
    const catalog = this.profile === undefined ? [] : globalCatalog(this.ctx);
    const desired = new Map<string, { def: ToolDefinition; state: Effective }>();
    for (const def of catalog) desired.set(def.name, { def, state: effectiveState(this.profile!, def as CatalogTool) });
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
        this.#placeholders.set(name, { full: def, summary, revoke: tools.register(placeholderOf(def, summary)) });
      } else if (state === 'hidden' && !this.#denied.has(name)) {
        this.#denied.set(name, tools.restrict({ deny: [name] }));
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

  /** CP-15: an explicit switch recomputes the states under the new profile, incrementally. */
  switchTo(profile: Profile | undefined): void {
    this.profile = profile;
    this.refresh();
  }

  /** The names of tools whose guidance sections (`tool:<name>`) must not appear (CP-12). */
  withoutGuidance(name: string): boolean {
    const state = this.#states.get(name);
    return state === 'hidden' || state === 'defer';
  }
}
