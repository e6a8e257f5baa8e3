// Agent, inbox and agent-event payloads (contract §3). All rc.8 agent events take one payload object.

import type { Context } from './cordis.js';
import type { MessageId, UserMessage } from './message.js';
import type { Session } from './session.js';

export type InboxTarget = 'next-turn' | 'next-step';
export type AgentStatus = 'idle' | 'running';
export type SessionStartSource = 'startup' | 'resume' | 'clear' | 'compact';
export type AgentCancelCause =
  | { readonly kind: 'user' }
  | { readonly kind: 'parent' }
  | { readonly kind: 'hook'; readonly reason: string }
  | { readonly kind: 'disposed' };

export interface Inbox {
  readonly nextTurn: readonly UserMessage[];
  readonly nextStep: readonly UserMessage[];
  readonly hasPending: boolean;
  append(target: InboxTarget, message: UserMessage): void;
  prepend(target: InboxTarget, message: UserMessage): void;
  /** False when the message is no longer pending. */
  replace(messageId: MessageId, message: UserMessage): boolean;
  /** False when the message is no longer pending. */
  remove(messageId: MessageId): boolean;
  splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[]): UserMessage[];
  clear(): void;
}

export interface Agent {
  readonly id: Session['id'];
  readonly options: { readonly provider?: string; readonly model?: string; readonly maxTokens?: number };
  readonly session: Session;
  readonly inbox: Inbox;
  readonly status: AgentStatus;
  /** Agent-scoped context: listeners and registrations made through it concern this agent only. */
  readonly ctx: Context;
  cancel(cause: AgentCancelCause, options?: { keepInbox?: boolean }): void;
  whenIdle(): Promise<void>;
  send(message: UserMessage, target: InboxTarget, wakeup: boolean): void;
  followup(message: UserMessage): void;
  steer(message: UserMessage): void;
  inject(message: UserMessage): void;
}

/** The `agent/pre-step` decision. */
export type PreStepDecision = { readonly kind: 'reject' } | { readonly kind: 'enter'; readonly messages: readonly UserMessage[] };

/** `agent/pre-step` payload; listeners also get `next: () => Promise<PreStepDecision>`. */
export interface PreStepEvent {
  readonly agent: Agent;
  /** The claimed batch. */
  readonly messages: readonly UserMessage[];
  readonly turn: number;
  readonly step: number;
  readonly signal: AbortSignal;
}
export type PreStepListener = (event: PreStepEvent, next: () => Promise<PreStepDecision>) => Promise<PreStepDecision> | PreStepDecision;

export interface AgentEvent {
  readonly agent: Agent;
}
export interface SessionStartEvent extends AgentEvent {
  readonly source: SessionStartSource;
}
export interface InboxMessageEvent extends AgentEvent {
  readonly message: UserMessage;
}
export interface InboxClaimedEvent extends InboxMessageEvent {
  readonly turn: number;
}
export interface TurnStoppingEvent extends AgentEvent {
  readonly turn: number;
  readonly signal: AbortSignal;
}
export interface AgentErrorEvent extends AgentEvent {
  readonly turn: number;
  readonly step: number;
  readonly error: unknown;
}

/** Data of the `agent/inbox/spliced` session event. */
export interface InboxSplicedData {
  readonly target: InboxTarget;
  readonly start: number;
  readonly removedCount?: number;
  readonly inserted: readonly UserMessage[];
  readonly outcome?: 'canceled';
}
