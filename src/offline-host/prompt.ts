// System-prompt sections, runtime contexts, variables and the assemble waterfall of the offline
// host (contract §8). Registrations are layered like tools: an agent-scoped section shadows the
// global one of the same name.

import type { Agent } from '../host/agent.js';
import { HostEvent } from '../host/names.js';
import type { AssembleContext, PromptAssembly, PromptContext, PromptSection } from '../host/prompt.js';
import type { EventBus } from './events.js';
import type { ToolRegistry } from './tool-registry.js';
import { addUnique } from './unique.js';

const GLOBAL = Symbol('global');
type LayerKey = object | typeof GLOBAL;
const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/;

interface Layer {
  readonly sections: Map<string, PromptSection>;
  readonly contexts: Map<string, PromptContext>;
  readonly variables: Map<string, (ctx: AssembleContext) => string | undefined>;
}

/** Prompt registrations of one host. `onChange` emits `system-prompt/change`. */
export class PromptRegistry {
  readonly #layers = new Map<LayerKey, Layer>();
  #suppressed = 0;
  /**
   * The `refreshContext` re-check the seeds describe for DSH ≥ 0.2 (a `required` context a listener
   * removed is put back). DSH rc.8 has none, so it is off unless a host asks for it.
   */
  refreshContexts = false;

  constructor(
    private readonly bus: EventBus,
    private readonly tools: ToolRegistry,
    private readonly onChange: () => void,
  ) {}

  #layer(scope: object | undefined): Layer {
    const key = scope ?? GLOBAL;
    let layer = this.#layers.get(key);
    if (layer === undefined) this.#layers.set(key, (layer = { sections: new Map(), contexts: new Map(), variables: new Map() }));
    return layer;
  }

  #add<T>(map: Map<string, T>, name: string, value: T, what: string): () => void {
    return addUnique(map, name, value, what, () => this.onChange());
  }

  /** Registers a section; the name must be unique in its layer and the order finite. */
  section(section: PromptSection, scope: object | undefined): () => void {
    if (!Number.isFinite(section.order)) throw new RangeError(`system prompt section "${section.name}": order must be finite`);
    return this.#add(this.#layer(scope).sections, section.name, section, 'system prompt section');
  }

  /** Registers a runtime context (rendered into the loop's runtime-context snapshot). */
  context(context: PromptContext, scope: object | undefined): () => void {
    if (!Number.isFinite(context.order)) throw new RangeError(`runtime context "${context.name}": order must be finite`);
    return this.#add(this.#layer(scope).contexts, context.name, context, 'runtime context');
  }

  /** Registers a `{{name}}` variable; names match `/^[a-z][a-z0-9_]*$/`. */
  variable(name: string, provider: (ctx: AssembleContext) => string | undefined, scope: object | undefined): () => void {
    if (!VARIABLE_NAME.test(name)) throw new TypeError(`system prompt variable name "${name}" must match ${VARIABLE_NAME}`);
    return this.#add(this.#layer(scope).variables, name, provider, 'system prompt variable');
  }

  /** While any suppression is active, the loop proposes no runtime-context snapshot. */
  suppressRuntimeContext(): () => void {
    this.#suppressed++;
    let done = false;
    return () => {
      if (!done) this.#suppressed--;
      done = true;
    };
  }

  get runtimeContextSuppressed(): boolean {
    return this.#suppressed > 0;
  }

  /**
   * Renders sections and contexts for `ctx.scope ?? ctx.agent` (ascending order, stable; functions
   * called; `{{variable}}` interpolated strictly), adds the tool schemas the scope sees in name
   * order, then runs the `system-prompt/assemble` waterfall. As in DSH, a section or context whose
   * text is empty stays in the assembly the listeners see (the system prompt and the runtime
   * snapshot leave it out when they render), and every section goes through the waterfall even when
   * one is `complete`: that one alone becomes the prompt afterwards.
   */
  async assemble(ctx: AssembleContext = {}): Promise<PromptAssembly> {
    const scope = (ctx.scope ?? ctx.agent) as object | undefined;
    const merged = <T extends { name: string }>(pick: (l: Layer) => Map<string, T>): T[] => {
      const byName = new Map(pick(this.#layer(undefined)));
      if (scope) for (const [name, value] of pick(this.#layer(scope))) byName.set(name, value);
      return [...byName.values()];
    };
    const variables: Record<string, string | undefined> = {};
    for (const [name, provider] of [...this.#layer(undefined).variables, ...(scope ? this.#layer(scope).variables : [])]) variables[name] = provider(ctx);
    const render = (item: PromptSection | PromptContext, what: string) => ({
      name: item.name,
      text: interpolate(typeof item.text === 'function' ? item.text(ctx) : item.text, variables, `${what} "${item.name}"`),
    });
    const ordered = <T extends { order: number }>(items: T[]) => items.map((item, i) => ({ item, i })).sort((a, b) => a.item.order - b.item.order || a.i - b.i).map((x) => x.item);
    const sections = ordered(merged((l) => l.sections));
    const complete = sections.find((s) => s.complete);
    const base: PromptAssembly = {
      sections: sections.map((s) => render(s, 'system prompt section')),
      contexts: ordered(merged((l) => l.contexts)).map((c) => render(c, 'runtime context')),
      // DSH orders the tools by name (code units) before the waterfall, so every assembly of one tool
      // set is byte-identical whatever the registration order.
      tools: this.tools.schemas(scope).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
      variables,
    };
    const agent = ctx.agent as Agent | undefined;
    const assembled = await this.bus.waterfall<Promise<PromptAssembly>>(HostEvent.systemPromptAssemble, agent, [base, ctx], async () => base);
    const refreshed = this.refreshContexts ? refreshContexts(assembled, ordered(merged((l) => l.contexts)), (c) => render(c, 'runtime context')) : assembled;
    if (complete !== undefined) return { ...refreshed, sections: [render(complete, 'system prompt section')] };
    return refreshed;
  }
}

/**
 * The host's `refreshContext` re-check: a `required` context (after agent-scope shadowing) that a
 * listener removed is put back, in registration order among the contexts that stayed.
 */
function refreshContexts(assembly: PromptAssembly, registered: PromptContext[], render: (c: PromptContext) => { name: string; text: string }): PromptAssembly {
  const present = new Set(assembly.contexts.map((c) => c.name));
  const missing = registered.filter((c) => c.required === true && !present.has(c.name));
  if (missing.length === 0) return assembly;
  const back = new Set(missing.map((c) => c.name));
  const contexts = registered.flatMap((c) => {
    if (back.has(c.name)) return [render(c)].filter((r) => r.text !== '');
    return assembly.contexts.filter((a) => a.name === c.name);
  });
  // Contexts a listener added (not registered) keep their place at the end.
  const known = new Set(registered.map((c) => c.name));
  return { ...assembly, contexts: [...contexts, ...assembly.contexts.filter((a) => !known.has(a.name))] };
}

/** The system prompt text of an assembly: its non-empty sections joined by a blank line. */
export function systemText(assembly: PromptAssembly): string {
  return assembly.sections.map((s) => s.text).filter((text) => text !== '').join('\n\n');
}

function interpolate(text: string, variables: Record<string, string | undefined>, where: string): string {
  return text.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_, name: string) => {
    // As DSH: only a registered variable counts, never a name Object.prototype answers (`constructor`).
    const registered = Object.hasOwn(variables, name);
    const value = registered ? variables[name] : undefined;
    if (value === undefined) throw new Error(`${where} references ${registered ? 'undefined' : 'unknown'} variable "${name}"`);
    return value;
  });
}
