// The agent loop's step machine (contract §6, §12.4): claim → assemble → runtime snapshot →
// `agent/pre-step` decision → `step/start` → entered `user/message`s → model request → assistant
// message → each tool call through the pipeline (`tools/result` before the `tool/result` event,
// `additionalContexts` to the end of `nextStep`) → `step/end` in a finally → turn-stopping → turn/end.

import type { PreStepDecision, PreStepEvent } from '../host/agent.js';
import { deepFreeze, type ContentBlock, type Message, type UserMessage } from '../host/message.js';
import { HostEvent, RUNTIME_CONTEXT_INTRO, RUNTIME_CONTEXT_PLUGIN, SessionEventType, SourceKind } from '../host/names.js';
import type { LlmCallConfig } from '../host/model.js';
import type { PromptAssembly } from '../host/prompt.js';
import type { TurnEndReason } from '../host/session.js';
import type { ToolExecutionResult } from '../host/tools.js';
import { isPluginSource, visibleUserMessages } from '../host/visibility.js';
import type { OfflineAgent } from './agent.js';
import type { ModelRequest, ScriptedModel } from './model.js';
import { systemText } from './prompt.js';
import { assertUserMessage } from './session.js';

/** What the loop needs from the host. */
export interface LoopHost {
  readonly model: ScriptedModel;
  readonly requests: ModelRequest[];
  readonly maxStepsPerTurn: number;
  newId(prefix: string): string;
  /** The host's spill policy: the content to log for a result (a preview when it is too large). */
  readonly spill?: (callId: string, name: string, content: readonly ContentBlock[]) => readonly ContentBlock[];
}

const APPEND = { surfaceOp: 'append' } as const;

/** Runs turns while the agent has been woken and work is pending; rethrows a turn's failure after logging it. */
export async function drive(host: LoopHost, agent: OfflineAgent): Promise<void> {
  while (agent.woken) {
    agent.woken = false;
    if (!agent.inbox.hasPending) break;
    await runTurn(host, agent);
    if (agent.inbox.nextTurn.length > 0) agent.woken = true;
  }
}

async function runTurn(host: LoopHost, agent: OfflineAgent): Promise<void> {
  const { session, inbox } = agent;
  const turn = lastTurn(agent) + 1;
  agent.controller = new AbortController();
  const signal = agent.controller.signal;
  session.append(SessionEventType.turnStart, { turn });
  agent.setStatus('running');
  let reason: TurnEndReason = { kind: 'completed' };
  let failure: unknown;
  // Outside the loop so agent/error can name the step that failed (runStep clears agent.position).
  let step = 0;
  try {
    for (step = 1; ; step++) {
      // A cancel (agent.cancel) takes effect at the next step boundary; the open step still ends.
      if (signal.aborted) {
        reason = { kind: 'aborted' };
        break;
      }
      if (step > host.maxStepsPerTurn) throw new Error(`offline loop: turn ${turn} exceeded ${host.maxStepsPerTurn} steps`);
      const claimed = inbox.claim(step === 1 ? 'next-turn' : 'next-step', turn);
      const assembly = await agent.core.prompt.assemble({ agent, scope: agent, signal });
      const snapshot = runtimeSnapshot(host, agent, assembly);
      const proposed: PreStepDecision = { kind: 'enter', messages: snapshot ? [...claimed, snapshot] : claimed };
      const event: PreStepEvent = { agent, messages: claimed, turn, step, signal };
      const decision = await agent.core.bus.waterfall<Promise<PreStepDecision>>(HostEvent.agentPreStep, agent, [event], async () => proposed);
      if (decision.kind === 'reject') {
        reason = { kind: 'blocked' };
        break;
      }
      if (decision.kind !== 'enter' || !Array.isArray(decision.messages)) throw new TypeError(`agent/pre-step returned an invalid decision: ${JSON.stringify(decision)}`);
      decision.messages.forEach((m) => assertUserMessage(m, 'agent/pre-step decision'));
      if (step === 1 && decision.messages.length === 0) break;
      const outcome = await runStep(host, agent, turn, step, decision.messages, assembly, signal);
      if (outcome === 'max-tokens') reason = { kind: 'max-tokens' };
      if (outcome !== 'continue' && inbox.nextStep.length === 0) {
        await agent.core.bus.serial(HostEvent.agentTurnStopping, agent, [{ agent, turn, signal }]);
        if (inbox.nextStep.length === 0) break;
      }
    }
  } catch (error) {
    failure = error;
    reason = signal.aborted ? { kind: 'aborted' } : { kind: 'error', message: error instanceof Error ? error.message : String(error) };
    agent.notify(HostEvent.agentError, { turn, step, error });
  } finally {
    agent.position = undefined;
    session.append(SessionEventType.turnEnd, { turn, reason });
    agent.setStatus('idle');
  }
  if (failure !== undefined) throw failure;
}

/** One step; returns whether the turn may end here (no tool calls, max tokens, concluded) or continues. */
async function runStep(
  host: LoopHost, agent: OfflineAgent, turn: number, step: number, entered: readonly UserMessage[], assembly: PromptAssembly, signal: AbortSignal,
): Promise<'continue' | 'end' | 'max-tokens'> {
  const { session, inbox } = agent;
  agent.position = { turn, step };
  session.append(SessionEventType.stepStart, { turn, step });
  try {
    for (const message of entered) session.append(SessionEventType.userMessage, message, APPEND);
    const proposed: LlmCallConfig = { provider: agent.options.provider ?? 'scripted', model: agent.options.model ?? 'scripted' };
    const call = await agent.core.bus.waterfall<Promise<LlmCallConfig>>(HostEvent.agentRequest, agent, [{ agent, turn, step, signal }], async () => proposed);
    const request: ModelRequest = deepFreeze({ system: systemText(assembly), sections: assembly.sections.map((s) => ({ name: s.name, text: s.text })), tools: structuredClone(assembly.tools), messages: structuredClone(session.deriveMessages()), call: structuredClone(call) });
    host.requests.push(request);
    const answer = host.model.answer(request, turn, step);
    const calls = (answer.tools ?? []).map((call) => ({
      id: call.id ?? host.newId('call'),
      name: call.name,
      text: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
    }));
    const content: ContentBlock[] = [
      ...(answer.reasoning !== undefined ? [{ type: 'reasoning' as const, text: answer.reasoning }] : []),
      ...(answer.text !== undefined ? [{ type: 'text' as const, text: answer.text }] : []),
      ...calls.map((c) => ({ type: 'tool-call' as const, id: c.id, name: c.name, arguments: c.text })),
    ];
    // DSH's createAssistantMessage: { role, content, source, id }, the source naming the call's route.
    const message: Message = { role: 'assistant', content, source: { kind: SourceKind.model, provider: call.provider, model: call.model }, id: host.newId('msg') };
    session.append(SessionEventType.assistantMessage, { turn, step, message, ...(answer.usage !== undefined ? { usage: answer.usage } : {}) }, APPEND);
    let concluded = false;
    for (const call of calls) {
      session.append(SessionEventType.toolCall, { turn, step, callId: call.id, name: call.name, arguments: call.text });
      const result = await agent.core.execute({ callId: call.id, name: call.name, arguments: parseArguments(call.text), agent, signal });
      session.append(SessionEventType.toolResult, toolResultData(host, turn, step, call, result), APPEND);
      for (const context of result.additionalContexts ?? []) inbox.append('next-step', context);
      if (!result.isError && result.concludesTurn) concluded = true;
    }
    if (answer.stop === 'max-tokens') return 'max-tokens';
    return calls.length === 0 || concluded ? 'end' : 'continue';
  } finally {
    session.append(SessionEventType.stepEnd, { turn, step });
    agent.position = undefined;
  }
}

function toolResultData(host: LoopHost, turn: number, step: number, call: { readonly id: string; readonly name: string }, result: ToolExecutionResult) {
  // DSH's createToolResultMessage: { source, content, role, id }, the block's isError always present.
  const callId = call.id;
  const message = {
    source: { kind: SourceKind.tool, callId },
    content: [{ type: 'tool-result' as const, toolCallId: callId, content: host.spill?.(callId, call.name, result.content) ?? result.content, isError: result.isError }],
    role: 'user' as const,
    id: host.newId('msg'),
  };
  const info = result.isError ? result.error.info : undefined;
  return { turn, step, message, ...(info !== undefined ? { error: info } : {}), ...(result.meta !== undefined ? { meta: result.meta } : {}) };
}

/** Model JSON as DSH hands it to tools: parsed, `''` as `{}`, invalid JSON as the raw string. */
function parseArguments(text: string): unknown {
  if (text === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function lastTurn(agent: OfflineAgent): number {
  let last = 0;
  for (const event of agent.session.events) if (event.type === SessionEventType.turnStart) last = Math.max(last, (event.data as { turn: number }).turn);
  return last;
}

/**
 * The runtime-context snapshot the loop proposes when the rendered contexts differ from the last
 * visible snapshot (contract §6 step 2c); none when suppressed or when there are no contexts.
 */
function runtimeSnapshot(host: LoopHost, agent: OfflineAgent, assembly: PromptAssembly): UserMessage | undefined {
  // As DSH renders the snapshot: the contexts with text, none at all when every one is empty.
  const sections = assembly.contexts.filter((c) => c.text !== '').map((c) => ({ name: c.name, text: c.text }));
  if (agent.core.prompt.runtimeContextSuppressed || sections.length === 0) return undefined;
  const previous = visibleUserMessages(agent.session).filter((v) => isPluginSource(v.message.source, RUNTIME_CONTEXT_PLUGIN)).at(-1);
  if (previous !== undefined && JSON.stringify((previous.message.source as { sections?: unknown }).sections) === JSON.stringify(sections)) return undefined;
  const text = [RUNTIME_CONTEXT_INTRO, ...sections.map((s) => s.text)].join('\n\n');
  return deepFreeze({
    content: [{ type: 'text', text }],
    source: { kind: SourceKind.plugin, plugin: RUNTIME_CONTEXT_PLUGIN, form: 'snapshot', sections },
    role: 'user',
    id: host.newId('msg'),
  });
}
