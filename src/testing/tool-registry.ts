// The tool registry of the simulated host (contract §7.1, §12.5): a global layer and one layer per
// agent scope (an agent-scoped definition shadows the global one of the same name), restrictions
// per scope, guards, `tools/change` on every change, and DSH's registration errors.

import { CODE_MODE_TOOL } from '../host/names.js';
import type { ToolDefinition, ToolExecution, ToolRestriction, ToolSchema } from '../host/tools.js';
import { addUnique } from './unique.js';

/** The key of the global layer. */
const GLOBAL = Symbol('global');
type LayerKey = object | typeof GLOBAL;

const SCHEMA_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'oneOf', 'description', 'title', 'default', 'examples']);
const SCALAR_TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);

/** Registered definitions and restrictions of one host. `onChange` emits `tools/change`. */
export class ToolRegistry {
  readonly #layers = new Map<LayerKey, Map<string, ToolDefinition>>();
  readonly #restrictions = new Map<LayerKey, ToolRestriction[]>();
  readonly guards: ((exec: ToolExecution) => string | undefined)[] = [];
  presentation: 'native' | 'code' | 'both' = 'native';

  constructor(readonly onChange: () => void) {}

  /**
   * Adds `def` to the global layer (`scope` undefined) or an agent's layer. Throws on what DSH
   * refuses: no output definition, a render that is not a function, an output schema outside DSH's
   * subset, a non-positive or non-finite `timeoutMs`, the reserved `run_code` (unless `internal`,
   * which the host's own composite uses), or a name already registered in the same layer:
   * `tool "<name>" is already registered`.
   */
  register(def: ToolDefinition, scope: object | undefined, internal = false): () => void {
    const name = def?.name;
    if (typeof name !== 'string' || name === '') throw new TypeError('tools.register: name must be a non-empty string');
    if (name === CODE_MODE_TOOL && !internal) throw new Error(`tool name "${CODE_MODE_TOOL}" is reserved`);
    if (def.output === undefined || def.output === null) throw new TypeError(`tool "${name}" has no output definition`);
    if (typeof def.output.render !== 'function') throw new TypeError(`tool "${name}": output.render must be a function`);
    checkSchemaSubset(def.output.schema, `tool "${name}": output.schema`, '$');
    if (def.timeoutMs !== undefined && !(Number.isFinite(def.timeoutMs) && def.timeoutMs > 0)) {
      throw new RangeError(`tool "${name}": timeoutMs must be a positive finite number, got ${def.timeoutMs}`);
    }
    const key = scope ?? GLOBAL;
    const layer = this.#layers.get(key) ?? new Map<string, ToolDefinition>();
    this.#layers.set(key, layer);
    return addUnique(layer, name, def, 'tool', () => this.onChange());
  }

  /** Adds a restriction for the global layer or one agent; returns its removal. */
  restrict(filter: ToolRestriction, scope: object | undefined): () => void {
    const key = scope ?? GLOBAL;
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

function checkSchemaSubset(schema: unknown, where: string, path: string): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) throw new TypeError(`${where}: ${path} must be a schema object`);
  for (const [key, value] of Object.entries(schema)) {
    if (!SCHEMA_KEYWORDS.has(key)) throw new TypeError(`${where}: unsupported keyword "${key}" at ${path}`);
    if (key === 'type' && !(typeof value === 'string' && SCALAR_TYPES.has(value))) throw new TypeError(`${where}: ${path}.type must be one scalar type name`);
    if (key === 'additionalProperties' && typeof value !== 'boolean') throw new TypeError(`${where}: ${path}.additionalProperties must be a boolean`);
    if (key === 'properties') for (const [name, sub] of Object.entries(value as object)) checkSchemaSubset(sub, where, `${path}.properties.${name}`);
    if (key === 'items') checkSchemaSubset(value, where, `${path}.items`);
    if (key === 'oneOf') {
      if (!Array.isArray(value) || value.length < 2) throw new TypeError(`${where}: ${path}.oneOf needs at least two schemas`);
      value.forEach((sub, i) => checkSchemaSubset(sub, where, `${path}.oneOf[${i}]`));
    }
  }
}
