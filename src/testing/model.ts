// The scripted model: a test says what each step "answers" (text, reasoning, tool calls), in order,
// and the simulated host records every request it would have sent.

import type { Message } from '../host/message.js';
import type { LlmCallConfig, LlmService } from '../host/model.js';
import type { ToolSchema } from '../host/tools.js';

/** One tool call the model makes. `input` is serialized as JSON; a string is sent raw (invalid JSON tests). */
export interface ScriptedToolCall {
  readonly name: string;
  readonly input?: unknown;
  /** Default: `call-<n>`, counted per host. */
  readonly id?: string;
}

/** What the model answers at one step. A step without tool calls ends the turn. */
export interface StepAnswer {
  readonly text?: string;
  readonly reasoning?: string;
  readonly tools?: readonly ScriptedToolCall[];
  /** `'max-tokens'` ends the turn with that reason. */
  readonly stop?: 'max-tokens';
  /** Token counts the provider reports (logged on `assistant/message` as DSH logs them; real DSH's scripted endpoint reports 1 and 1 when omitted). */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
}

/** A fixed answer, or one computed from the request (to echo what the model was shown). */
export type StepScript = StepAnswer | ((request: ModelRequest) => StepAnswer);

/** One model request: the assembled system prompt, the tool schemas and the visible history. */
export interface ModelRequest {
  readonly system: string;
  /** The system prompt's sections, in order (`system` is their texts joined by a blank line). */
  readonly sections: readonly { readonly name: string; readonly text: string }[];
  readonly tools: readonly ToolSchema[];
  readonly messages: readonly Message[];
  /** The call configuration the `agent/request` waterfall chose for this step. */
  readonly call: LlmCallConfig;
}

/** A queue of step scripts. */
export class ScriptedModel {
  #queue: StepScript[] = [];

  /** Appends answers for the coming steps. */
  load(script: readonly StepScript[]): void {
    this.#queue.push(...script);
  }

  /** Answers left unused. */
  get remaining(): number {
    return this.#queue.length;
  }

  /** Drops unused answers (after a failed run). */
  reset(): void {
    this.#queue = [];
  }

  /** The next answer; throws naming the turn and step when the script has none. */
  answer(request: ModelRequest, turn: number, step: number): StepAnswer {
    const next = this.#queue.shift();
    if (next === undefined) throw new Error(`scripted model: no answer left for turn ${turn} step ${step}`);
    return typeof next === 'function' ? next(request) : next;
  }
}

/** A `ctx.llm` over fixed routes: `'<provider>/<model>'` → declared effort ids (`null`: none declared). */
export function modelRegistry(routes: Readonly<Record<string, readonly string[] | null>>): LlmService {
  return {
    async resolveModelInfo(provider, model, signal) {
      signal?.throwIfAborted();
      const efforts = routes[`${provider}/${model}`];
      if (efforts === undefined) throw new Error(`no adapter for ${provider}/${model}`);
      return efforts === null ? {} : { reasoning: { efforts: efforts.map((id) => ({ id })) } };
    },
  };
}
