// The agent inbox of the offline host (contract §3, §12.3): two lists with ids unique across both,
// every mutation logged as `agent/inbox/spliced` before the list changes, replayed from the log on
// construction so pending items survive a resume, and `claim` for the loop.

import type { Inbox, InboxSplicedData, InboxTarget } from '../host/agent.js';
import { assertLosslessJson, deepFreeze, type MessageId, type UserMessage } from '../host/message.js';
import { HostEvent, SessionEventType } from '../host/names.js';
import type { Session } from '../host/session.js';
import { assertUserMessage } from './session.js';

/** What the inbox needs from its agent: its session and a contained notification. */
export interface InboxOwner {
  readonly session: Session;
  notify(name: string, payload: object): void;
}

/** A durable inbox over its owner's session. */
export class OfflineInbox implements Inbox {
  readonly #lists: Record<InboxTarget, UserMessage[]> = { 'next-turn': [], 'next-step': [] };
  readonly #owner: InboxOwner;

  constructor(owner: InboxOwner) {
    this.#owner = owner;
    const { events, header } = owner.session;
    for (const event of events.slice(header.seedLength ?? 0)) {
      if (event.type !== SessionEventType.inboxSpliced) continue;
      const data = event.data as InboxSplicedData;
      this.#lists[data.target].splice(data.start, data.removedCount ?? 0, ...data.inserted);
    }
  }

  get nextTurn(): readonly UserMessage[] {
    return this.#lists['next-turn'].slice();
  }

  get nextStep(): readonly UserMessage[] {
    return this.#lists['next-step'].slice();
  }

  get hasPending(): boolean {
    return this.#lists['next-turn'].length + this.#lists['next-step'].length > 0;
  }

  append(target: InboxTarget, message: UserMessage): void {
    this.splice(target, this.#lists[target].length, 0, [message]);
  }

  prepend(target: InboxTarget, message: UserMessage): void {
    this.splice(target, 0, 0, [message]);
  }

  replace(messageId: MessageId, message: UserMessage): boolean {
    const at = this.#find(messageId);
    if (at === undefined) return false;
    this.#splice(at.target, at.index, 1, [message], 'canceled');
    return true;
  }

  remove(messageId: MessageId): boolean {
    const at = this.#find(messageId);
    if (at === undefined) return false;
    this.#splice(at.target, at.index, 1, [], 'canceled');
    return true;
  }

  splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[]): UserMessage[] {
    return this.#splice(target, start, deleteCount, inserted, undefined);
  }

  clear(): void {
    for (const target of ['next-turn', 'next-step'] as const) {
      if (this.#lists[target].length > 0) this.#splice(target, 0, this.#lists[target].length, [], 'canceled');
    }
  }

  /**
   * Loop-internal, not a plugin API: removes every next-step item and, for `'next-turn'` (the first
   * step of a turn), one queued prompt after them; logs plain deletions and emits
   * `agent/inbox/claimed` per message.
   */
  claim(target: InboxTarget, turn: number): UserMessage[] {
    const claimed = this.#lists['next-step'].length > 0 ? this.#splice('next-step', 0, this.#lists['next-step'].length, [], undefined, false) : [];
    if (target === 'next-turn' && this.#lists['next-turn'].length > 0) claimed.push(...this.#splice('next-turn', 0, 1, [], undefined, false));
    for (const message of claimed) this.#owner.notify(HostEvent.agentInboxClaimed, { message, turn });
    return claimed;
  }

  #find(id: MessageId): { target: InboxTarget; index: number } | undefined {
    for (const target of ['next-step', 'next-turn'] as const) {
      const index = this.#lists[target].findIndex((m) => m.id === id);
      if (index >= 0) return { target, index };
    }
    return undefined;
  }

  #splice(target: InboxTarget, start: number, deleteCount: number, inserted: readonly UserMessage[], outcome: 'canceled' | undefined, discard = true): UserMessage[] {
    if (target !== 'next-turn' && target !== 'next-step') throw new TypeError(`inbox: unknown target ${String(target)}`);
    const list = this.#lists[target];
    if (!(Number.isInteger(start) && start >= 0 && start <= list.length)) throw new RangeError(`inbox.splice: start ${start} is outside 0..${list.length}`);
    const removedCount = Math.max(0, Math.min(deleteCount, list.length - start));
    const removing = new Set(list.slice(start, start + removedCount).map((m) => m.id));
    const pending = new Set([...this.#lists['next-turn'], ...this.#lists['next-step']].map((m) => m.id).filter((id) => !removing.has(id)));
    const frozen = inserted.map((m) => {
      assertUserMessage(m, 'inbox');
      assertLosslessJson(m, 'inbox message');
      if (pending.has(m.id)) throw new Error(`inbox: message id ${m.id} is already pending`);
      pending.add(m.id);
      return deepFreeze(structuredClone(m));
    });
    const data: InboxSplicedData = {
      target,
      start,
      ...(removedCount > 0 ? { removedCount } : {}),
      inserted: frozen,
      ...(outcome !== undefined ? { outcome } : {}),
    };
    // Durable first: the log records the splice before the live list changes.
    this.#owner.session.append(SessionEventType.inboxSpliced, data);
    const removed = list.splice(start, removedCount, ...frozen);
    if (discard) for (const message of removed) this.#owner.notify(HostEvent.agentInboxDiscarded, { message });
    for (const message of frozen) this.#owner.notify(HostEvent.agentInboxInserted, { message });
    return removed;
  }
}
