// The model-call seam (spec X-12): the `agent/request` waterfall that chooses the provider/model
// call configuration of a step, and the model capability lookup (`declaredEfforts`) a plugin must
// consult before it proposes a reasoning effort, because the host refuses an effort the resolved
// model does not declare.

import type { Agent } from './agent.js';
import type { Message } from './message.js';

/** The call configuration `agent/request` listeners pass along; it cannot change the messages. */
export interface LlmCallConfig {
  readonly provider: string;
  readonly model: string;
  /** An effort level id the model declares; absent = the adapter's default. */
  readonly reasoningEffort?: string;
  readonly [key: string]: unknown;
}

/** `agent/request` payload; listeners also get `next: () => Promise<LlmCallConfig>`. */
export interface AgentRequestEvent {
  readonly agent: Agent;
  readonly turn: number;
  readonly step: number;
  readonly signal: AbortSignal;
}

/** What the host knows about a resolved model. */
export interface ModelInfo {
  /** Absent: the model declares no reasoning levels. */
  readonly reasoning?: { readonly efforts: readonly { readonly id: string }[] };
}

/** One model call through `ctx.llm.stream` (rc.8's `GenerateOptions`, the fields plugins set). */
export interface LlmStreamOptions {
  readonly provider: string;
  readonly model: string;
  readonly reasoningEffort?: string;
  readonly messages: readonly Message[];
  readonly system?: string;
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
}

/** How a model call ended (rc.8's `FinishReason`; merge-extensible, so read `kind` and treat unknowns as failures). */
export type LlmFinishReason =
  | { readonly kind: 'stop' | 'tool-calls' | 'max-tokens' }
  | { readonly kind: 'aborted' | 'error'; readonly failure: { readonly message: string; readonly code: string } };

/**
 * The chunks of a model call (rc.8's `StreamChunk`): blocks open, stream deltas and close, usage
 * comes before the terminal `finish`, and nothing follows it. DSH turns an adapter's throw into a
 * `finish` with an `error` (or `aborted`) reason, so a failed call still ends in a `finish`.
 */
export type LlmStreamChunk =
  | { readonly type: 'block-start'; readonly index: number; readonly blockType: string }
  | { readonly type: 'text-delta' | 'reasoning-delta'; readonly index: number; readonly text: string }
  | { readonly type: 'tool-call-delta'; readonly index: number; readonly id: string; readonly name?: string; readonly argumentsDelta: string }
  | { readonly type: 'block-end'; readonly index: number; readonly block: unknown }
  | { readonly type: 'usage'; readonly usage: { readonly inputTokens: number; readonly outputTokens: number } }
  | { readonly type: 'finish'; readonly reason: LlmFinishReason };

/** `ctx.llm` (the part plugins use). */
export interface LlmService {
  /** Rejects when the route is not registered or the adapter cannot say. */
  resolveModelInfo(provider: string, model: string, signal?: AbortSignal): Promise<ModelInfo>;
  /** One model call, streamed; failures end in a `finish` chunk rather than a throw. Absent on hosts that only describe models. */
  stream?(options: LlmStreamOptions): AsyncIterable<LlmStreamChunk>;
}

/** `ctx.agentDefaultModel`: the route the agent's own steps use unless a session chose another. */
export interface AgentDefaultModel {
  currentSelection(): { readonly provider: string; readonly model: string; readonly reasoningEffort?: string };
}

/**
 * The effort ids the resolved model declares: `[]` when it declares none, `undefined` when its
 * capability is unknown (no llm service, unregistered route, failed lookup).
 */
export async function declaredEfforts(llm: LlmService | undefined, provider: string, model: string, signal?: AbortSignal): Promise<string[] | undefined> {
  if (llm === undefined) return undefined;
  try {
    const info = await llm.resolveModelInfo(provider, model, signal);
    return (info.reasoning?.efforts ?? []).map((e) => String(e.id));
  } catch {
    signal?.throwIfAborted();
    return undefined;
  }
}
