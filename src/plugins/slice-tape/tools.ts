// The four recall tools (spec ST-03, ST-29..ST-36) as DSH tool definitions. Each reads the calling
// agent's own session log (`exec.agent`), so one global registration serves every agent and never
// crosses sessions. The model guidance of ST-36 is in expand_result's description only: the tools are
// sent together, so one copy is read with all four (issue 30: three more cost ~120 tokens in every
// request), and expand_result is the one tool also mounted without the others (slice-tape/fold).

import type { Context } from '../../host/cordis.js';
import { HostService, SESSION_FORMAT_VERSION } from '../../host/names.js';
import type { SpillStore } from '../../host/spill.js';
import type { ToolDefinition, ToolRunContext } from '../../host/tools.js';
import { expandResult, type ExpandArgs } from './expand.js';
import { parseOrdinal, parseTurn, renderStep, renderTurn, type RecallView } from './recall.js';
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT, renderHits, search, SEARCH_KINDS, searchKinds, TOOL_OUTPUT_SLOTS, TOOL_SNIPPET_CHARS, type SearchKind, type SearchScope } from './search.js';
import type { TextOps } from './text.js';

/** ST-36, in expand_result's description (sent with the other recall tools, and alone by slice-tape/fold). */
export const ABSENCE_GUIDANCE = 'Absence from the visible history means "unknown" or "not selected", never false and never "it did not happen": recall before denying that something was said.';

const TEXT_OUTPUT = {
  schema: { type: 'string' },
  render: (_args: unknown, value: unknown) => [{ type: 'text' as const, text: value as string }],
} as const;

const describe = (value: unknown): string => JSON.stringify(value) ?? String(value);

function sessionOf(tool: string, exec: ToolRunContext) {
  if (exec.agent === undefined) throw new Error(`${tool} runs only inside an agent loop (this execution has no agent)`);
  return exec.agent.session;
}

function spillStore(ctx: Context): SpillStore | undefined {
  return ctx.get(HostService.spill) as SpillStore | undefined;
}

function turnArgument(tool: string, value: unknown): number {
  const turn = parseTurn(value);
  if (turn === undefined) throw new Error(`${tool}: turn must be "N", N or "slice-turn-N" with N >= 1, got ${describe(value)}`);
  return turn;
}

const TURN = { oneOf: [{ type: 'string' }, { type: 'integer' }] };

/** recall_turn({turn, view?}). */
export function recallTurnTool(ops: TextOps): ToolDefinition {
  return {
    name: 'recall_turn',
    description: 'An earlier turn of this session from the durable log, as recorded: view "dialogue" gives each user and assistant text once and every tool result as its expand_result locator; view "full" (default) adds generated context and every original record.',
    parameters: { type: 'object', properties: { turn: TURN, view: { type: 'string', enum: ['full', 'dialogue'] } }, required: ['turn'] },
    output: TEXT_OUTPUT,
    async execute(args, exec) {
      const a = (args ?? {}) as { turn?: unknown; view?: unknown };
      const view = a.view ?? 'full';
      if (view !== 'full' && view !== 'dialogue') throw new Error(`recall_turn: view must be "full" or "dialogue", got ${describe(view)}`);
      return renderTurn(sessionOf('recall_turn', exec).events, turnArgument('recall_turn', a.turn), view as RecallView, ops);
    },
  };
}

/** recall_step({turn, step}). */
export function recallStepTool(ctx: Context): ToolDefinition {
  return {
    name: 'recall_step',
    description: 'The recorded tool calls and results of one step of a turn; a result the host spilled is restored, or labelled a preview with its locator.',
    parameters: { type: 'object', properties: { turn: TURN, step: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }, required: ['turn', 'step'] },
    output: TEXT_OUTPUT,
    async execute(args, exec) {
      const a = (args ?? {}) as { turn?: unknown; step?: unknown };
      const step = parseOrdinal(a.step);
      if (step === undefined) throw new Error(`recall_step: step must be "N" or N with N >= 1, got ${describe(a.step)}`);
      return renderStep(sessionOf('recall_step', exec).events, turnArgument('recall_step', a.turn), step, spillStore(ctx), exec.signal);
    },
  };
}

/** expand_result({seq, formatVersion} | {turn, step, call?}, block?, grep?, lines?). */
export function expandResultTool(ctx: Context): ToolDefinition {
  const int = { oneOf: [{ type: 'integer' }, { type: 'string' }] };
  return {
    name: 'expand_result',
    description: `A logged tool result verbatim. A tape line [tool seq Q · …] (or [tool seq Q block B · …]) is returned by {"seq":Q,"formatVersion":${SESSION_FORMAT_VERSION}} (with "block":B); a seq without that formatVersion is refused. Also by {"turn":T,"step":S,"call":C}. A result over one page comes in pages: ask for every page its line names. Optional: lines ("a-b"), grep (regular expression). ` + ABSENCE_GUIDANCE,
    parameters: {
      type: 'object',
      properties: { seq: int, formatVersion: { type: 'integer' }, turn: int, step: int, call: int, block: int, lines: { type: 'string' }, grep: { type: 'string' }, page: int },
    },
    output: TEXT_OUTPUT,
    async execute(args, exec) {
      const a = (args !== null && typeof args === 'object' ? args : {}) as ExpandArgs;
      return expandResult(sessionOf('expand_result', exec).events, a, spillStore(ctx), exec.signal);
    },
  };
}

/** recall_search({query, scope?, kinds?, limit?}). */
export function recallSearchTool(ops: TextOps): ToolDefinition {
  return {
    name: 'recall_search',
    description: `Search this session's history for something said or done earlier: user and assistant text, generated context, tool inputs and errors, and with scope "auto" (default) at most ${TOOL_OUTPUT_SLOTS} tool-output hits of ${TOOL_SNIPPET_CHARS} characters; scope "dialogue" skips tool output, kinds override scope. Each hit ends with the call that returns it.`,
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string' },
        scope: { type: 'string', enum: ['auto', 'dialogue'] },
        kinds: { type: 'array', items: { type: 'string', enum: [...SEARCH_KINDS] } },
        limit: { type: 'integer', description: `1-${MAX_SEARCH_LIMIT}, default ${DEFAULT_SEARCH_LIMIT}` },
      },
      required: ['query'],
    },
    output: TEXT_OUTPUT,
    async execute(args, exec) {
      const a = (args ?? {}) as { query?: unknown; scope?: unknown; kinds?: unknown; limit?: unknown };
      if (typeof a.query !== 'string' || a.query.trim() === '') throw new Error(`recall_search: query must be a non-empty string, got ${describe(a.query)}`);
      const scope = a.scope ?? 'auto';
      if (scope !== 'auto' && scope !== 'dialogue') throw new Error(`recall_search: scope must be "auto" or "dialogue", got ${describe(scope)}`);
      if (a.kinds !== undefined && !(Array.isArray(a.kinds) && a.kinds.every((k) => SEARCH_KINDS.includes(k as SearchKind)))) {
        throw new Error(`recall_search: kinds must be a list of ${SEARCH_KINDS.join(', ')}, got ${describe(a.kinds)}`);
      }
      const limit = a.limit ?? DEFAULT_SEARCH_LIMIT;
      if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SEARCH_LIMIT) throw new Error(`recall_search: limit must be an integer from 1 to ${MAX_SEARCH_LIMIT}, got ${describe(limit)}`);
      const kinds = a.kinds as SearchKind[] | undefined;
      const outcome = search(sessionOf('recall_search', exec).events, a.query, scope as SearchScope, kinds, limit, ops);
      return renderHits(a.query, outcome, searchKinds(scope as SearchScope, kinds), ops);
    },
  };
}
