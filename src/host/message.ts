// Message shapes (contract §4) and the helpers that build them. Messages are identified, deep-frozen,
// lossless-JSON values; DSH's session refuses anything else, so we check the same properties here
// and fail early in our own code rather than at persistence time.

import type { Context } from './cordis.js';
import { hostRuntime } from './runtime.js';

export type SessionId = string & { readonly __brand?: 'SessionId' };
export type MessageId = string & { readonly __brand?: 'MessageId' };

export type ContentBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'reasoning'; readonly text: string }
  | { readonly type: 'image'; readonly attachment: unknown }
  | { readonly type: 'tool-call'; readonly id: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'tool-result'; readonly toolCallId: string; readonly content: readonly ContentBlock[]; readonly isError?: boolean };

export type TextBlock = Extract<ContentBlock, { type: 'text' }>;

/** Semantic forms of plugin context (contract §4). */
export type ContextForm = 'instructions' | 'catalog' | 'snapshot' | 'notice' | 'relay' | 'recall';

/** An open union keyed by `kind`: any JSON object with a non-empty string `kind`. */
export type MessageSource =
  | { readonly kind: 'user' }
  | { readonly kind: 'plugin'; readonly plugin: string; readonly form?: ContextForm; readonly [key: string]: unknown }
  | { readonly kind: 'model'; readonly provider: string; readonly model: string; readonly replayState?: unknown }
  | { readonly kind: 'tool'; readonly callId: string }
  | { readonly kind: string; readonly [key: string]: unknown };

export interface Message {
  readonly id: MessageId;
  readonly role: 'system' | 'user' | 'assistant';
  readonly content: readonly ContentBlock[];
  readonly source: MessageSource;
}
export interface UserMessage extends Message {
  readonly role: 'user';
}

/** JSON values as DSH stores them (no undefined, no -0, no non-finite numbers). */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * Deep-freezes a plain value in place and returns it. Used for messages, events, arguments and
 * results, which DSH freezes so listeners cannot mutate what others see.
 */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * Throws a TypeError naming the first path whose value is not lossless JSON: `undefined`, `-0`,
 * non-finite numbers, functions, symbols, bigints, class instances, or cycles. `where` prefixes the
 * message (e.g. `user/message data`). DSH's session applies the same rule at append time.
 */
export function assertLosslessJson(value: unknown, where: string): void {
  const seen = new Set<object>();
  const visit = (v: unknown, path: string): void => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) throw new TypeError(`${where}: ${path} is ${Object.is(v, -0) ? '-0' : String(v)}, which is not lossless JSON`);
      return;
    }
    if (typeof v !== 'object') throw new TypeError(`${where}: ${path} is ${v === undefined ? 'undefined' : typeof v}, which is not lossless JSON`);
    if (seen.has(v)) throw new TypeError(`${where}: ${path} is a cycle, which is not lossless JSON`);
    const proto = Object.getPrototypeOf(v);
    if (!Array.isArray(v) && proto !== Object.prototype && proto !== null) {
      throw new TypeError(`${where}: ${path} is a class instance, which is not lossless JSON`);
    }
    seen.add(v);
    if (Array.isArray(v)) v.forEach((item, i) => visit(item, `${path}[${i}]`));
    else for (const [key, item] of Object.entries(v)) visit(item, `${path}.${key}`);
    seen.delete(v);
  };
  visit(value, '$');
}

/**
 * Builds a frozen user-role message as DSH's `createUserMessage` does: `{ content, source, role:
 * 'user', id }`, in that key order (DSH compares session logs as text; contract correction 5). The id comes from the host runtime (`hostRuntime(ctx).newId()`): a random UUID under DSH, a
 * deterministic counter under the simulated host, so tests can assert exact logs (spec X-15).
 * `content` may be a string (one text block) or blocks.
 */
export function createUserMessage(ctx: Pick<Context, 'get'>, content: string | readonly ContentBlock[], source: MessageSource): UserMessage {
  const blocks = typeof content === 'string' ? [{ type: 'text' as const, text: content }] : content.map((b) => ({ ...b }));
  if (typeof source?.kind !== 'string' || source.kind === '') throw new TypeError('createUserMessage: source.kind must be a non-empty string');
  const message = { content: blocks, source: structuredClone(source), role: 'user' as const, id: hostRuntime(ctx).newId() };
  assertLosslessJson(message, 'createUserMessage');
  return deepFreeze(message);
}

/** Concatenates the text blocks of a message's content (other block types are skipped). */
export function messageText(message: Pick<Message, 'content'>): string {
  return message.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
}
