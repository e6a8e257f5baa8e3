// The offline agent (contract §3): session, durable inbox, agent-scoped context, status, cancel,
// and `send` with DSH's three shorthands. The loop that runs it is in loop.ts.

import type { Agent, AgentCancelCause, AgentStatus, InboxTarget } from '../host/agent.js';
import type { Logger } from '../host/cordis.js';
import type { UserMessage } from '../host/message.js';
import { HostEvent } from '../host/names.js';
import type { HostCore } from './context.js';
import { Fiber } from './events.js';
import { OfflineContext } from './context.js';
import { OfflineInbox } from './inbox.js';
import type { OfflineSession } from './session.js';

/** An offline agent; `agent.ctx` registrations are disposed with the agent (resume, dispose). */
export class OfflineAgent implements Agent {
  readonly inbox: OfflineInbox;
  readonly ctx: OfflineContext;
  readonly fiber: Fiber;
  status: AgentStatus = 'idle';
  /** The turn and step the loop is in (for Code Mode dispatch records); undefined between steps. */
  position: { turn: number; step: number } | undefined;
  /** Set by `send(..., wakeup = true)`; the driver reads and clears it. */
  woken = false;
  controller = new AbortController();
  idle: Promise<void> = Promise.resolve();

  constructor(
    readonly core: HostCore,
    readonly session: OfflineSession,
    readonly options: Agent['options'],
    logger: Logger,
  ) {
    this.fiber = new Fiber(`agent ${session.id}`);
    this.ctx = new OfflineContext(core, this.fiber, logger, this);
    this.fiber.add(() => core.tools.dropScope(this));
    this.inbox = new OfflineInbox({ session, notify: (name, payload) => this.notify(name, payload) });
  }

  get id() {
    return this.session.id;
  }

  /** Emits an agent event `{ agent, ...payload }` to listeners scoped to this agent and global ones, contained. */
  notify(name: string, payload: object): void {
    this.core.bus.notify(name, this, [{ agent: this, ...payload }]);
  }

  setStatus(status: AgentStatus): void {
    if (this.status === status) return;
    this.status = status;
    this.notify(HostEvent.agentStatus, { status });
  }

  /** Aborts the running turn; clears the inbox unless `keepInbox`. */
  cancel(_cause: AgentCancelCause, options: { keepInbox?: boolean } = {}): void {
    this.controller.abort();
    if (!options.keepInbox) this.inbox.clear();
  }

  whenIdle(): Promise<void> {
    return this.idle;
  }

  send(message: UserMessage, target: InboxTarget, wakeup: boolean): void {
    this.inbox.append(target, message);
    if (wakeup) this.woken = true;
  }

  followup(message: UserMessage): void {
    this.send(message, 'next-turn', true);
  }

  steer(message: UserMessage): void {
    this.send(message, 'next-step', true);
  }

  inject(message: UserMessage): void {
    this.send(message, 'next-step', false);
  }
}
