// Tool shapes (contract §7): definitions, the runtime (`ctx.tools`), execution objects with their
// opaque tokens and parents, results with `additionalContexts`, and the pre/post-execute decisions.

import type { Agent } from './agent.js';
import type { ContentBlock, JsonValue, UserMessage } from './message.js';

export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  /** A JSON Schema object. */
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ToolOutputDefinition {
  /** JSON Schema in DSH's supported subset. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Pure: canonical value → model content. */
  render(args: unknown, value: JsonValue): ContentBlock[];
  presentationMeta?(args: unknown, value: JsonValue): JsonValue;
}

export interface ToolDefinition extends ToolSchema {
  readonly output: ToolOutputDefinition;
  /** Returns the canonical JSON value; a throw becomes an error result. */
  execute(args: unknown, exec: ToolRunContext): Promise<unknown>;
  finalizeContent?(exec: ToolExecution, result: ToolExecutionResult): ContentBlock[] | undefined;
  readonly timeoutMs?: number;
  isConcurrencySafe?(args: unknown): boolean;
}

/** Opaque, registry-minted, unique per execution. */
export type ToolExecutionToken = symbol;

export interface ToolExecutionInput {
  readonly callId: string;
  readonly rootCallId?: string;
  readonly name: string;
  /** Parsed JSON; invalid model JSON arrives as the raw string. */
  readonly arguments: unknown;
  readonly agent?: Agent;
  /** Set on Code Mode / composite sub-dispatches: the outer execution's token. */
  readonly parent?: ToolExecutionToken;
  readonly signal: AbortSignal;
}

export interface ToolExecution extends ToolExecutionInput {
  readonly rootCallId: string;
  readonly token: ToolExecutionToken;
}

export interface ToolRunContext extends ToolExecution {
  /** Attach context to this call's own result (as `additionalContexts`). */
  deferContext(message: UserMessage): void;
  concludeTurn(): void;
}

export interface ToolErrorInfo {
  readonly name: string;
  readonly code: string;
}

export type ToolExecutionResult =
  | {
      readonly isError: false;
      readonly value: JsonValue;
      readonly content: readonly ContentBlock[];
      readonly meta?: JsonValue;
      readonly additionalContexts?: readonly UserMessage[];
      readonly concludesTurn?: true;
    }
  | {
      readonly isError: true;
      readonly error: { readonly message: string; readonly info?: ToolErrorInfo };
      readonly content: readonly ContentBlock[];
      readonly meta?: JsonValue;
      readonly additionalContexts?: readonly UserMessage[];
    };

export type PreToolDecision = { readonly kind: 'allow' } | { readonly kind: 'deny'; readonly reason: string } | { readonly kind: 'ask'; readonly reason?: string };

export type PostToolDecision =
  | { readonly kind: 'accept'; readonly content?: readonly ContentBlock[]; readonly additionalContexts?: readonly UserMessage[] }
  | { readonly kind: 'accept'; readonly value: JsonValue; readonly additionalContexts?: readonly UserMessage[] }
  | { readonly kind: 'block'; readonly feedback: readonly ContentBlock[]; readonly additionalContexts?: readonly UserMessage[] };

export interface ToolRestriction {
  readonly allow?: readonly string[];
  readonly deny?: readonly string[];
}

/** `ctx.tools`. Registrations through `agent.ctx.tools` are agent-scoped and shadow global ones. */
export interface ToolRuntime {
  register(def: ToolDefinition): () => void;
  get(name: string, scope?: unknown): ToolDefinition | undefined;
  schemas(scope?: unknown): ToolSchema[];
  execute(input: ToolExecutionInput): Promise<ToolExecutionResult>;
  guard(fn: (exec: ToolExecution) => string | undefined): () => void;
  restrict(filter: ToolRestriction): () => void;
  executionMode(input: ToolExecutionInput): { readonly kind: 'parallel' } | { readonly kind: 'exclusive' };
  presentAs(mode: 'native' | 'code' | 'both'): () => void;
}

/**
 * One settled nested Code Mode call as the `tools/code-dispatch-log` waterfall sees it (rc.8's
 * `CodeDispatchLog`); listeners return the content DSH logs on its `tool/code-dispatch` record.
 */
export interface CodeDispatch {
  /** The outer `run_code` execution. */
  readonly exec: ToolExecution;
  readonly agent?: Agent;
  /** `<outer callId>:code:<n>`, numbered by submission. */
  readonly subCallId: string;
  readonly name: string;
  readonly isError: boolean;
  readonly content: readonly ContentBlock[];
}
