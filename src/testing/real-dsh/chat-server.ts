// A scripted OpenAI-compatible chat endpoint on loopback for real DSH: DSH's own DeepSeek adapter
// reaches it through DEEPSEEK_BASE_URL and streams each answer as Server-Sent Events, exactly as it
// would from api.deepseek.com. Requests that carry `tools` are agent steps and are answered from the
// test's script, in order; other requests (session titles) get a fixed short answer. Every body is
// recorded as received: it is exactly what the model was shown.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StepAnswer } from '../../offline-host/model.js';

/** One message of a chat request, as DSH's DeepSeek adapter sends it. */
export interface ChatMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string | null;
  readonly reasoning_content?: string;
  readonly tool_calls?: readonly { readonly id: string; readonly type: 'function'; readonly function: { readonly name: string; readonly arguments: string } }[];
  readonly tool_call_id?: string;
}

/** One tool definition of a chat request. */
export interface ChatTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: unknown };
}

/** A request body as DSH sent it (only the fields tests read are typed). */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ChatTool[];
  readonly reasoning_effort?: string;
  readonly thinking?: { readonly type: string };
  readonly [key: string]: unknown;
}

/** A fixed answer, or one computed from the request (to echo what the model was shown). */
export type ChatScript = StepAnswer | ((request: ChatRequest) => StepAnswer);

/**
 * A model that decides every step from what it is shown: it answers each agent request of a turn,
 * however many there are (a step it adds to recall something, a compaction's summary request), and
 * the turn ends when it answers without tool calls.
 */
export type ChatResponder = (request: ChatRequest) => StepAnswer;

/** The answer given to requests that are not agent steps (session titles). */
export const AUXILIARY_ANSWER = 'Scripted session';

/** Options of `ScriptedChatServer`. */
export interface ScriptedChatServerOptions {
  /** Milliseconds to wait before answering an agent step, as a real model takes time to answer; default 0. */
  readonly latencyMs?: number;
}

/** The scripted endpoint; see the file comment. */
export class ScriptedChatServer {
  /** Agent-step request bodies, in arrival order. */
  readonly requests: ChatRequest[] = [];
  /** Other request bodies (session titles and the like). */
  readonly auxiliary: ChatRequest[] = [];
  /** What went wrong answering (a missing answer, a script that threw); `run` reports these. */
  readonly errors: string[] = [];
  readonly #queue: ChatScript[] = [];
  #responder: ChatResponder | undefined;
  readonly #server: Server;
  #calls = 0;
  #chunks = 0;
  readonly #latencyMs: number;

  /**
   * @param options - how the model answers (its latency).
   */
  constructor(options: ScriptedChatServerOptions = {}) {
    const latency = options.latencyMs ?? 0;
    if (!Number.isFinite(latency) || latency < 0) throw new Error(`scripted model: latencyMs is ${latency}; it must be a finite number of at least 0`);
    this.#latencyMs = latency;
    this.#server = createServer((request, response) => this.#handle(request, response));
  }

  /** Listens on 127.0.0.1 (port 0) and returns the base URL DSH's adapter takes (`…/v1`). */
  async listen(): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen(0, '127.0.0.1', resolve);
    });
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }

  /** Appends answers for the coming agent steps. */
  load(script: readonly ChatScript[]): void {
    this.#queue.push(...script);
  }

  /**
   * Answers agent steps with `responder` once the loaded answers are used up (or clears it).
   * @param responder - the model's step function; undefined: none.
   */
  respond(responder: ChatResponder | undefined): void {
    this.#responder = responder;
  }

  /** Answers not used yet. */
  get remaining(): number {
    return this.#queue.length;
  }

  /** Drops unused answers, the responder and recorded errors (after a turn). */
  reset(): void {
    this.#queue.length = 0;
    this.#responder = undefined;
    this.errors.length = 0;
  }

  /** Stops listening. */
  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: ChatRequest;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ChatRequest;
      } catch (error) {
        this.errors.push(`scripted model: a request body is not JSON: ${String(error)}`);
        response.writeHead(400).end();
        return;
      }
      const agentStep = Array.isArray(body.tools);
      let answer: StepAnswer;
      if (agentStep) {
        this.requests.push(body);
        const next = this.#queue.shift() ?? this.#responder;
        try {
          if (next === undefined) throw new Error(`no answer left for agent request ${this.requests.length}`);
          answer = typeof next === 'function' ? next(body) : next;
        } catch (error) {
          this.errors.push(`scripted model: ${error instanceof Error ? error.message : String(error)}`);
          answer = { text: 'scripted model: no answer' };
        }
      } else {
        this.auxiliary.push(body);
        answer = { text: AUXILIARY_ANSWER };
      }
      if (agentStep && this.#latencyMs > 0) setTimeout(() => this.#stream(response, body.model, answer), this.#latencyMs);
      else this.#stream(response, body.model, answer);
    });
  }

  /** Streams `answer` as the chat-completions SSE protocol: deltas, a finish chunk, usage, `[DONE]`. */
  #stream(response: ServerResponse, model: string, answer: StepAnswer): void {
    const id = `chatcmpl-${++this.#chunks}`;
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const write = (choices: unknown[], extra: Record<string, unknown> = {}): void => {
      response.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model, choices, ...extra })}\n\n`);
    };
    write([{ index: 0, delta: { role: 'assistant' } }]);
    if (answer.reasoning !== undefined) write([{ index: 0, delta: { reasoning_content: answer.reasoning } }]);
    if (answer.text !== undefined) write([{ index: 0, delta: { content: answer.text } }]);
    const calls = answer.tools ?? [];
    calls.forEach((call, index) => {
      const callId = call.id ?? `call-${++this.#calls}`;
      const args = typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {});
      write([{ index: 0, delta: { tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: args } }] } }]);
    });
    const finish = answer.stop === 'max-tokens' ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop';
    write([{ index: 0, delta: {}, finish_reason: finish }]);
    // DeepSeek's wire usage: prompt_tokens counts cache hits too (DSH's adapter subtracts them again).
    const usage = answer.usage ?? { inputTokens: 1, outputTokens: 1 };
    const hit = usage.cacheReadTokens;
    const prompt = usage.inputTokens + (hit ?? 0);
    const cache = hit !== undefined ? { prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: usage.inputTokens } : {};
    write([], { usage: { prompt_tokens: prompt, completion_tokens: usage.outputTokens, total_tokens: prompt + usage.outputTokens, ...cache } });
    response.end('data: [DONE]\n\n');
  }
}
