// One tool execution through the offline host's pipeline (contract §7.2–7.3, §12.5): argument
// snapshot → `tools/pre-execute` → guards → `tools/execute` around the body → `tools/post-execute` →
// `finalizeContent` → abort check → frozen `tools/result`, for every execution.

import { assertLosslessJson, deepFreeze, type ContentBlock, type JsonValue, type UserMessage } from '../host/message.js';
import { HostEvent } from '../host/names.js';
import type {
  PostToolDecision, PreToolDecision, ToolDefinition, ToolErrorInfo, ToolExecution, ToolExecutionInput, ToolExecutionResult, ToolRunContext,
} from '../host/tools.js';
import type { EventBus } from './events.js';
import { assertUserMessage } from './session.js';
import type { ToolRegistry } from './tool-registry.js';

/** What the pipeline needs from the host. */
export interface PipelineHost {
  readonly bus: EventBus;
  readonly registry: ToolRegistry;
  /** A fresh, unique token (the host counts executions). */
  mintToken(name: string): symbol;
}

type Result = ToolExecutionResult;

/** Runs one execution and returns its final, frozen result; never throws for what a tool or listener does. */
export async function executeTool(host: PipelineHost, input: ToolExecutionInput): Promise<Result> {
  const scope = input.agent;
  // Shallow freeze: the execution must not freeze the live agent it points to.
  const exec: ToolExecution = Object.freeze({
    callId: input.callId,
    rootCallId: input.rootCallId ?? input.callId,
    name: input.name,
    arguments: deepFreeze(structuredClone(input.arguments === '' ? {} : input.arguments)),
    ...(input.agent !== undefined ? { agent: input.agent } : {}),
    ...(input.parent !== undefined ? { parent: input.parent } : {}),
    signal: input.signal,
    token: host.mintToken(input.name),
  });
  const def = host.registry.get(exec.name, scope);
  let result: Result;
  if (def === undefined) {
    // Materialization failure: skips post-execute, straight to tools/result.
    result = errorResult(`unknown tool "${exec.name}"`, { name: 'ToolError', code: 'UNKNOWN_TOOL' });
  } else {
    let bodyStarted = false;
    result = await decide(host, exec, def, () => {
      bodyStarted = true;
    });
    result = await postExecute(host, exec, def, result);
    const finalized = def.finalizeContent?.(exec, result);
    if (finalized !== undefined) result = { ...result, content: finalized };
    if (!result.isError && exec.signal.aborted) {
      result = errorResult('aborted', { name: 'AbortError', code: bodyStarted ? 'ABORTED' : 'ABORTED_BEFORE_DISPATCH' });
    }
  }
  const frozen = deepFreeze(result);
  host.bus.notify(HostEvent.toolsResult, scope, [exec, frozen]);
  return frozen;
}

async function decide(host: PipelineHost, exec: ToolExecution, def: ToolDefinition, onBody: () => void): Promise<Result> {
  let pre: PreToolDecision;
  try {
    pre = await host.bus.waterfall<Promise<PreToolDecision>>(HostEvent.toolsPreExecute, exec.agent, [exec], async () => ({ kind: 'allow' }));
  } catch (error) {
    return errorResult(messageOf(error));
  }
  if (pre.kind === 'deny') return errorResult(pre.reason, { name: 'ToolDenied', code: 'DENIED' });
  // No approval service in the offline host: `ask` is a denial, as in DSH without one.
  if (pre.kind === 'ask') return errorResult(pre.reason ?? 'approval required', { name: 'ToolDenied', code: 'DENIED' });
  for (const guard of host.registry.guards) {
    const reason = guard(exec);
    if (reason !== undefined) return errorResult(reason, { name: 'ToolDenied', code: 'DENIED' });
  }
  if (exec.signal.aborted) return errorResult('aborted', { name: 'AbortError', code: 'ABORTED_BEFORE_DISPATCH' });
  try {
    return await host.bus.waterfall<Promise<Result>>(HostEvent.toolsExecute, exec.agent, [exec], () => runBody(exec, def, onBody));
  } catch (error) {
    return errorResult(messageOf(error));
  }
}

async function runBody(exec: ToolExecution, def: ToolDefinition, onBody: () => void): Promise<Result> {
  const deferred: UserMessage[] = [];
  let concludes = false;
  const run: ToolRunContext = Object.freeze({
    ...exec,
    deferContext(message: UserMessage) {
      assertUserMessage(message, 'deferContext');
      deferred.push(message);
    },
    concludeTurn() {
      concludes = true;
    },
  });
  onBody();
  let value: unknown;
  try {
    value = await def.execute(exec.arguments, run);
    assertLosslessJson(value, `tool "${exec.name}" value`);
  } catch (error) {
    return { ...errorResult(messageOf(error)), ...(deferred.length > 0 ? { additionalContexts: deferred } : {}) };
  }
  const json = value as JsonValue;
  const meta = def.output.presentationMeta?.(exec.arguments, json);
  return {
    isError: false,
    value: json,
    content: def.output.render(exec.arguments, json),
    ...(meta !== undefined ? { meta } : {}),
    ...(deferred.length > 0 ? { additionalContexts: deferred } : {}),
    ...(concludes ? { concludesTurn: true as const } : {}),
  };
}

async function postExecute(host: PipelineHost, exec: ToolExecution, def: ToolDefinition, result: Result): Promise<Result> {
  let decision: PostToolDecision;
  try {
    decision = await host.bus.waterfall<Promise<PostToolDecision>>(HostEvent.toolsPostExecute, exec.agent, [exec, deepFreeze(result)], async () => ({ kind: 'accept' }));
  } catch (error) {
    return errorResult(messageOf(error));
  }
  const added = decision.additionalContexts ?? [];
  for (const message of added) assertUserMessage(message, 'tools/post-execute additionalContexts');
  if (decision.kind === 'block') {
    // A block keeps only the contexts the blocking decision supplied.
    return {
      isError: true,
      error: { message: textOf(decision.feedback) },
      content: decision.feedback,
      ...(added.length > 0 ? { additionalContexts: added } : {}),
    };
  }
  const contexts = [...(result.additionalContexts ?? []), ...added];
  let next: Result = result;
  if (!result.isError && 'value' in decision) {
    next = { ...result, value: decision.value, content: def.output.render(exec.arguments, decision.value) };
  } else if (!result.isError && 'content' in decision && decision.content !== undefined) {
    next = { ...result, content: decision.content };
  }
  const { additionalContexts: _dropped, ...rest } = next;
  return contexts.length > 0 ? { ...rest, additionalContexts: contexts } : rest;
}

/** An error result as DSH materializes it: content `Error: <message>`. */
export function errorResult(message: string, info?: ToolErrorInfo): Extract<Result, { isError: true }> {
  return { isError: true, error: { message, ...(info !== undefined ? { info } : {}) }, content: [{ type: 'text', text: `Error: ${message}` }] };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function textOf(blocks: readonly ContentBlock[]): string {
  return blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
}
