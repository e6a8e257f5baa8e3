// A Code-Mode-like composite tool (contract §7.4): its "program" is a list of calls, each dispatched
// through the full pipeline with `parent` = the composite's token, the same `rootCallId` and agent,
// and a run-scoped signal that DSH aborts as soon as the program settles — before the outer result
// is emitted (contract correction 6) — so each nested call gets its own `tools/result` before the
// outer one, and a listener that kept a nested call's signal sees it aborted by then. Nested
// `additionalContexts` are re-attached to the outer result with `deferContext`, and each nested call
// is logged as DSH rc.8 logs it: a `tool/code-dispatch-start` record when it starts and a
// `tool/code-dispatch` record when it settles, `{ rootCallId, parentCallId, subCallId, name,
// arguments[, isError, content] }` with `subCallId` = `<outer callId>:code:<n>` (no turn or step:
// the outer call's `tool/call` has them), never as `tool/call`.

import type { ContentBlock } from '../host/message.js';
import { CODE_MODE_TOOL, HostEvent, SessionEventType } from '../host/names.js';
import type { CodeDispatch, ToolDefinition, ToolExecutionInput, ToolExecutionResult, ToolRunContext } from '../host/tools.js';
import type { OfflineAgent } from './agent.js';
import type { EventBus } from './events.js';

/** What the composite needs from the host. */
export interface CodeModeHost {
  readonly bus: EventBus;
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>;
  /**
   * How nested calls are logged: rc.8's `tool/code-dispatch-start` + `tool/code-dispatch` pair
   * (default), or session format 3's single `tool/ptc-dispatch` record.
   */
  readonly dispatchRecords?: 'code-dispatch' | 'ptc-dispatch';
}

/** The reason DSH gives when it aborts a program's nested signals. */
export const RUN_SETTLED = 'run_code settled';

/** One nested call of the program. */
export interface CodeCall {
  readonly name: string;
  readonly input?: unknown;
}

/** Builds the composite `run_code` definition. Its arguments are `{ calls: [{ name, input }] }`. */
export function codeModeTool(host: CodeModeHost): ToolDefinition {
  return {
    name: CODE_MODE_TOOL,
    description: 'Run a program of tool calls, in order; returns each call\'s text.',
    parameters: {
      type: 'object',
      properties: { calls: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, input: {} }, required: ['name'] } } },
      required: ['calls'],
    },
    output: {
      schema: {
        type: 'object',
        properties: { results: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, isError: { type: 'boolean' }, text: { type: 'string' } } } } },
        required: ['results'],
      },
      render: (_args, value) => [{ type: 'text', text: (value as { results: { name: string; isError: boolean; text: string }[] }).results.map((r) => `[${r.name}${r.isError ? ' error' : ''}] ${r.text}`).join('\n') }],
    },
    async execute(args, run) {
      const calls = (args as { calls?: unknown } | null)?.calls;
      if (!Array.isArray(calls)) throw new TypeError(`${CODE_MODE_TOOL}: calls must be an array`);
      const program = new AbortController();
      try {
        return { results: await runProgram(host, run, calls as CodeCall[], AbortSignal.any([run.signal, program.signal])) };
      } finally {
        program.abort(RUN_SETTLED);
      }
    },
  };
}

/** Dispatches the program's calls in order, each with the run-scoped `signal`, and logs each as DSH does. */
async function runProgram(host: CodeModeHost, run: ToolRunContext, calls: readonly CodeCall[], signal: AbortSignal): Promise<{ name: string; isError: boolean; text: string }[]> {
  const agent = run.agent as OfflineAgent | undefined;
  const results: { name: string; isError: boolean; text: string }[] = [];
  for (const [i, call] of calls.entries()) {
    const subCallId = `${run.callId}:code:${i + 1}`;
    const args = call.input ?? {};
    const record = { rootCallId: run.rootCallId, parentCallId: run.callId, subCallId, name: call.name, arguments: args };
    const ptc = host.dispatchRecords === 'ptc-dispatch';
    if (!ptc) agent?.session.append(SessionEventType.toolCodeDispatchStart, record);
    const result = await host.execute({
      callId: subCallId, rootCallId: run.rootCallId, name: call.name, arguments: args,
      ...(run.agent !== undefined ? { agent: run.agent } : {}), parent: run.token, signal,
    });
    for (const context of result.additionalContexts ?? []) run.deferContext(context);
    const dispatch: CodeDispatch = { exec: run, ...(agent !== undefined ? { agent } : {}), subCallId, name: call.name, isError: result.isError, content: result.content };
    const logged = await host.bus.waterfall<Promise<readonly ContentBlock[]>>(HostEvent.toolsCodeDispatchLog, run.agent, [dispatch], async () => result.content);
    if (ptc) {
      agent?.session.append(SessionEventType.toolPtcDispatch, {
        ...(agent?.position ?? {}), rootCallId: run.rootCallId, callId: subCallId, name: call.name, arguments: JSON.stringify(args), isError: result.isError, content: logged,
      });
    } else agent?.session.append(SessionEventType.toolCodeDispatch, { ...record, isError: result.isError, content: logged });
    results.push({ name: call.name, isError: result.isError, text: logged.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('') });
  }
  return results;
}
