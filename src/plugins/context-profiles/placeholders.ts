// Deferred tools (spec CP-09..CP-11, NG-CP-2): the slim placeholder that shadows a deferred tool in
// the agent scope, and `tool_search`, which returns full definitions without executing anything.

import { codePointLength, countTokens } from '../../engine/index.js';
import type { ContentBlock, JsonValue, ToolDefinition, ToolSchema } from '../../host/index.js';

/** CP-09 [R]: the structural keywords a placeholder keeps; everything else is stripped. */
const KEPT = new Set(['type', 'properties', 'items', 'required', 'enum', 'anyOf', 'oneOf', 'allOf', 'additionalProperties', 'nullable']);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf']);

/**
 * CP-09: the type skeleton of a JSON Schema: every property's name and type stay, recursively
 * (properties, items, combinators, schema-valued additionalProperties); descriptions, titles,
 * examples, defaults and every other annotation or constraint go.
 */
export function slimSchema(schema: unknown): unknown {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT.has(key)) continue;
    if (key === 'properties' && value !== null && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, slimSchema(sub)]));
    } else if (key === 'items' || (key === 'additionalProperties' && typeof value === 'object')) {
      out[key] = Array.isArray(value) ? value.map(slimSchema) : slimSchema(value);
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map(slimSchema);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/**
 * CP-09: the placeholder registered in the agent scope for a deferred tool: same name, the deferral
 * summary as description, the slim parameters, and everything else (output, execute, timeouts)
 * inherited from the full definition, so a call without `tool_search` still runs the real tool.
 */
export function placeholderOf(def: ToolDefinition, summary: string): ToolDefinition {
  const slim = Object.create(def) as ToolDefinition;
  Object.defineProperties(slim, {
    description: { value: summary, enumerable: true },
    parameters: { value: slimSchema(def.parameters), enumerable: true },
  });
  return Object.freeze(slim);
}

/** The characters (code points, X-06) of a tool definition's JSON as the model receives it. */
export function schemaChars(schema: ToolSchema): number {
  return codePointLength(JSON.stringify({ name: schema.name, description: schema.description, parameters: schema.parameters }));
}

/** CP-UI-05 [R: rounding]: the token estimate `round(0.28 × characters)` for JSON schemas. */
export const TOKENS_PER_CHAR = 0.28;
export function tokenEstimate(schema: ToolSchema): number {
  return Math.round(TOKENS_PER_CHAR * schemaChars(schema));
}

/**
 * A tool's definition as DSH's DeepSeek adapter puts it in the request's `tools` (chat completions:
 * `{ type: 'function', function: { name, description, parameters } }`), as JSON.
 */
export function toolDefinitionJson(schema: ToolSchema): string {
  return JSON.stringify({ type: 'function', function: { name: schema.name, description: schema.description, parameters: schema.parameters } });
}

/** DeepSeek V3 tokens of that definition (the engine's tokenizer, equal to the reference's count). */
export function definitionTokens(schema: ToolSchema): number {
  return countTokens(toolDefinitionJson(schema));
}

/** The `tool_search` tool name (CP-10). */
export const TOOL_SEARCH = 'tool_search';

/** [P] `tool_search`'s description. */
export const TOOL_SEARCH_DESCRIPTION =
  'Load the full definitions of deferred tools. Deferred tools appear in your tool list with a one-line summary and a bare parameter skeleton. ' +
  'Call tool_search with a query (matched case-insensitively against deferred tool names and summaries) to receive their complete descriptions and parameter schemas. ' +
  'It only returns definitions; it never runs a tool.';

/** `tool_search`'s parameters. */
const TOOL_SEARCH_PARAMETERS = { type: 'object', properties: { query: { type: 'string', description: 'Text to look for in deferred tool names and summaries.' } }, required: ['query'], additionalProperties: false };

/** `tool_search`'s schema, as every session that defers something offers it. */
export const TOOL_SEARCH_SCHEMA: ToolSchema = { name: TOOL_SEARCH, description: TOOL_SEARCH_DESCRIPTION, parameters: TOOL_SEARCH_PARAMETERS };

/** What `tool_search` needs from the session: its deferred tools, full and summarized. */
export interface DeferredCatalog {
  /** Deferred tools in catalog order: the full definition and the placeholder summary. */
  deferred(): readonly { readonly full: ToolSchema; readonly summary: string }[];
  /** Called with the names whose definitions were returned (the session's `loaded` state). */
  loaded(names: readonly string[]): void;
}

/** [P] The rendered result: one JSON block of the matched definitions, or a no-match line. */
export function renderSearch(query: string, tools: readonly ToolSchema[]): ContentBlock[] {
  if (tools.length === 0) return [{ type: 'text', text: `No deferred tool matches "${query}".` }];
  return [{ type: 'text', text: JSON.stringify(tools, null, 2) }];
}

/** CP-10: a case-insensitive substring match on name or summary; catalog order. */
export function searchDeferred(catalog: DeferredCatalog, query: string): ToolSchema[] {
  const needle = query.toLowerCase();
  return catalog.deferred()
    .filter((t) => t.full.name.toLowerCase().includes(needle) || t.summary.toLowerCase().includes(needle))
    .map((t) => ({ name: t.full.name, description: t.full.description, parameters: t.full.parameters }));
}

/**
 * CP-10: the `tool_search` definition for one session. It returns definitions as its result (the
 * history grows; the `tools` array does not change) and never executes a tool.
 */
export function toolSearchTool(catalog: DeferredCatalog): ToolDefinition {
  return {
    ...TOOL_SEARCH_SCHEMA,
    output: {
      schema: { type: 'object', properties: { query: { type: 'string' }, tools: { type: 'array', items: { type: 'object' } } }, required: ['query', 'tools'] },
      render: (_args, value) => {
        const v = value as unknown as { query: string; tools: ToolSchema[] };
        return renderSearch(v.query, v.tools);
      },
    },
    async execute(args) {
      const query = (args as { query?: unknown } | null)?.query;
      if (typeof query !== 'string') throw new TypeError(`tool_search: query must be a string, got ${JSON.stringify(query) ?? 'undefined'}`);
      const tools = searchDeferred(catalog, query);
      catalog.loaded(tools.map((t) => t.name));
      return { query, tools: JSON.parse(JSON.stringify(tools)) as JsonValue };
    },
    isConcurrencySafe: () => true,
  };
}
