// The model-call seam (spec X-12): the `agent/request` waterfall that chooses the provider/model
// call configuration of a step, and the model capability lookup (`declaredEfforts`) a plugin must
// consult before it proposes a reasoning effort, because the host refuses an effort the resolved
// model does not declare.

import type { Agent } from './agent.js';

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

/** `ctx.llm` (the part plugins read). */
export interface LlmService {
  /** Rejects when the route is not registered or the adapter cannot say. */
  resolveModelInfo(provider: string, model: string, signal?: AbortSignal): Promise<ModelInfo>;
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
