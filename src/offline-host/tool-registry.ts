// The tool registry of the offline host (contract §7.1, §12.5): a global layer and one layer per
// agent scope (an agent-scoped definition shadows the global one of the same name), restrictions
// per scope, guards, `tools/change` on every change, and DSH's registration errors.

import { assertSupportedJsonSchema } from '../host/json-schema.js';
import { CODE_MODE_TOOL } from '../host/names.js';
import type { ToolDefinition, ToolExecution, ToolRestriction, ToolSchema } from '../host/tools.js';
import { addUnique } from './unique.js';

/** The key of the global layer. */
const GLOBAL = Symbol('global');
type LayerKey = object | typeof GLOBAL;

/** Registered definitions and restrictions of one host. `onChange` emits `tools/change`. */
export class ToolRegistry {
  readonly #layers = new Map<LayerKey, Map<string, ToolDefinition>>();
  readonly #restrictions = new Map<LayerKey, ToolRestriction[]>();
  readonly guards: ((exec: ToolExecution) => string | undefined)[] = [];
  presentation: 'native' | 'code' | 'both' = 'native';

  constructor(readonly onChange: () => void) {}

  /**
   * Adds `def` to the global layer (`scope` undefined) or an agent's layer. Throws what DSH throws,
   * in its words: no output `{ schema, render }`, an output schema outside DSH's subset
   * (`unsupported JSON schema: …`, json-schema.ts), a non-positive or non-finite `timeoutMs`, the
   * reserved `run_code` (unless `internal`, which the host's own composite uses), or a name already
   * registered in the same layer (`tool "<name>" is already registered …`).
   */
  register(def: ToolDefinition, scope: object | undefined, internal = false): () => void {
    const name = def?.name;
    if (typeof name !== 'string' || name === '') throw new TypeError('tools.register: name must be a non-empty string');
    const output = def.output as ToolDefinition['output'] | undefined;
    if (output === undefined || output === null || typeof output !== 'object' || typeof output.render !== 'function' || (output.presentationMeta !== undefined && typeof output.presentationMeta !== 'function')) {
      throw new TypeError(`tool "${name}" must declare output { schema, render, presentationMeta? }`);
    }
    assertSupportedJsonSchema(output.schema);
    if (def.timeoutMs !== undefined && !(Number.isFinite(def.timeoutMs) && def.timeoutMs > 0)) {
      throw new TypeError(`tool "${name}" timeoutMs must be a positive finite number`);
    }
    if (name === CODE_MODE_TOOL && !internal) throw new Error(`tool name "${CODE_MODE_TOOL}" is reserved for the Code Mode presentation transport and cannot be registered or shadowed`);
    const key = scope ?? GLOBAL;
    const layer = this.#layers.get(key) ?? new Map<string, ToolDefinition>();
    this.#layers.set(key, layer);
    if (layer.has(name)) {
      throw new Error(scope === undefined
        ? `tool "${name}" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`
        : `tool "${name}" is already registered in this scope`);
    }
    return addUnique(layer, name, def, 'tool', () => this.onChange());
  }

  /**
   * Adds a restriction for one agent; returns its removal. Refuses what DSH refuses, in its words: a
   * context-global restriction, an empty filter, the reserved `run_code`, and names the agent does
   * not inherit (its own scope's registrations cannot be restricted).
   */
  restrict(filter: ToolRestriction, scope: object | undefined): () => void {
    if (scope === undefined) throw new Error('tools.restrict() requires a scoped context (agent.ctx): a context-global restriction would mask every agent — deny the tool for the intended agent instead');
    if (filter.allow === undefined && filter.deny === undefined) throw new Error('tools.restrict({}) is a no-op: pass `allow` and/or `deny` (an empty filter is almost always a materialized-empty-config bug)');
    const named = [...(filter.allow ?? []), ...(filter.deny ?? [])];
    if (named.includes(CODE_MODE_TOOL)) throw new Error(`tools.restrict() cannot name reserved Code Mode presentation transport "${CODE_MODE_TOOL}"; restrict end-capability tools instead`);
    const known = new Set([...(this.#layers.get(GLOBAL)?.keys() ?? [])].filter((name) => name !== CODE_MODE_TOOL));
    const unknown = named.filter((name) => !known.has(name));
    if (unknown.length > 0) throw new Error(`tools.restrict() names unknown global tool${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known global tools: ${[...known].sort().join(', ') || '(none)'}`);
    const key = scope;
    const list = this.#restrictions.get(key) ?? [];
    const entry = { allow: filter.allow?.slice(), deny: filter.deny?.slice() };
    list.push(entry);
    this.#restrictions.set(key, list);
    this.onChange();
    return () => {
      const i = list.indexOf(entry);
      if (i < 0) return;
      list.splice(i, 1);
      this.onChange();
    };
  }

  /** Whether restrictions of the global layer and of `scope` let `name` through. */
  allowed(name: string, scope: object | undefined): boolean {
    const lists = [this.#restrictions.get(GLOBAL) ?? [], scope ? (this.#restrictions.get(scope) ?? []) : []];
    return lists.flat().every((r) => (r.allow === undefined || r.allow.includes(name)) && !(r.deny ?? []).includes(name));
  }

  /** The definition `scope` sees for `name`: its own layer first, then the global one; restricted = undefined. */
  get(name: string, scope: object | undefined): ToolDefinition | undefined {
    if (!this.allowed(name, scope)) return undefined;
    return (scope ? this.#layers.get(scope)?.get(name) : undefined) ?? this.#layers.get(GLOBAL)?.get(name);
  }

  /** Schemas `scope` sees: global registration order with shadows in place, then scope-only tools. */
  schemas(scope: object | undefined): ToolSchema[] {
    const names = [...(this.#layers.get(GLOBAL)?.keys() ?? [])];
    for (const name of scope ? (this.#layers.get(scope)?.keys() ?? []) : []) if (!names.includes(name)) names.push(name);
    return names.flatMap((name) => {
      const def = this.get(name, scope);
      return def ? [{ name: def.name, description: def.description, parameters: def.parameters }] : [];
    });
  }

  /** Drops an agent's layer and restrictions (the agent was disposed). */
  dropScope(scope: object): void {
    const hadLayer = this.#layers.delete(scope);
    const hadRestrictions = this.#restrictions.delete(scope);
    if (hadLayer || hadRestrictions) this.onChange();
  }
}

