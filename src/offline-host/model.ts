// The scripted model: a test says what each step "answers" (text, reasoning, tool calls), in order,
// and the offline host records every request it would have sent.

import type { Message } from '../host/message.js';
import type { LlmCallConfig, LlmService, LlmStreamChunk, LlmStreamOptions, ModelInfo } from '../host/model.js';
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
  /**
   * Token counts the provider reports, as DSH logs them on `assistant/message` (disjoint: `inputTokens`
   * are the prompt tokens the cache missed, `cacheReadTokens` the ones it hit); real DSH's scripted
   * endpoint reports 1 and 1 when omitted.
   */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number; readonly cacheReadTokens?: number };
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

/** Answers one `llm.stream` call with its text (a throw ends the call in an `error` finish, as DSH reports an adapter failure). */
export type LlmAnswer = (options: LlmStreamOptions) => string | Promise<string>;

/**
 * A `ctx.llm` over fixed routes: `'<provider>/<model>'` → declared effort ids (`null`: none
 * declared). With `answer`, `stream` answers plugins' own model calls (DSH's adapters stream the
 * same chunk protocol: a text block, usage, then `finish`; a route without an adapter and a failed
 * answer end in an `error` finish, never a throw). Every stream call is recorded in `calls`.
 */
export class OfflineLlm implements LlmService {
  readonly calls: LlmStreamOptions[] = [];

  /**
   * @param routes - `'<provider>/<model>'` → declared effort ids (`null`: none declared).
   * @param answer - the text each `stream` call answers; absent: every call ends in an error finish.
   */
  constructor(readonly routes: Readonly<Record<string, readonly string[] | null>>, readonly answer?: LlmAnswer) {}

  /**
   * The declared efforts of a route, as DSH's `resolveModelInfo`.
   * @param provider - the provider route.
   * @param model - the model id.
   * @param signal - aborts the lookup.
   * @returns the model info.
   * @throws Error for a route this host does not know.
   */
  async resolveModelInfo(provider: string, model: string, signal?: AbortSignal): Promise<ModelInfo> {
    signal?.throwIfAborted();
    const efforts = this.routes[`${provider}/${model}`];
    if (efforts === undefined) throw new Error(`no adapter for ${provider}/${model}`);
    return efforts === null ? {} : { reasoning: { efforts: efforts.map((id) => ({ id })) } };
  }

  /**
   * One model call, recorded in `calls`, answered with DSH's chunk protocol.
   * @param options - the call (provider, model, messages, system, signal).
   * @returns the chunks: a text block, usage and a `stop` finish, or one `error` finish.
   */
  async *stream(options: LlmStreamOptions): AsyncIterable<LlmStreamChunk> {
    this.calls.push(options);
    const failure = (code: string, message: string): LlmStreamChunk => ({ type: 'finish', reason: { kind: options.signal?.aborted ? 'aborted' : 'error', failure: { code, message } } });
    if (!Object.keys(this.routes).some((route) => route.startsWith(`${options.provider}/`)) || this.answer === undefined) {
      yield failure('NO_ADAPTER', `no adapter registered for provider "${options.provider}"`);
      return;
    }
    let text: string;
    try {
      text = await this.answer(options);
    } catch (error) {
      yield failure('UNKNOWN', error instanceof Error ? error.message : String(error));
      return;
    }
    yield { type: 'block-start', index: 0, blockType: 'text' };
    yield { type: 'text-delta', index: 0, text };
    yield { type: 'block-end', index: 0, block: { type: 'text', text } };
    yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } };
    yield { type: 'finish', reason: { kind: 'stop' } };
  }
}

/** A `ctx.llm` over fixed routes that describes models only (see `OfflineLlm`). */
export function modelRegistry(routes: Readonly<Record<string, readonly string[] | null>>): LlmService {
  const llm = new OfflineLlm(routes);
  return { resolveModelInfo: (provider, model, signal) => llm.resolveModelInfo(provider, model, signal) };
}
