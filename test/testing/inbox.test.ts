// Contract §3 / §12.3: the durable inbox.

import { describe, expect, it } from 'vitest';
import type { Context, UserMessage } from '../../src/host/index.js';
import { createTestHost, TestInbox, TestSession } from '../../src/testing/index.js';

const msg = (id: string): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'test' } });
const make = () => {
  const session = new TestSession({ header: { version: 0, id: 's', createdAt: 0 }, clock: () => 0 });
  const notes: string[] = [];
  const inbox = new TestInbox({ session, notify: (name, payload) => notes.push(`${name} ${(payload as { message: UserMessage }).message.id}`) });
  return { session, inbox, notes };
};

describe('mutations', () => {
  it('§3 each mutation is logged as agent/inbox/spliced before the list changes, then notified', () => {
    const { session, inbox, notes } = make();
    inbox.append('next-step', msg('a'));
    inbox.prepend('next-step', msg('b'));
    inbox.append('next-turn', msg('t'));
    expect(inbox.replace('a', msg('a2'))).toBe(true);
    expect(inbox.remove('b')).toBe(true);
    expect(inbox.remove('b')).toBe(false);
    expect(inbox.replace('zz', msg('q'))).toBe(false);
    expect(inbox.nextStep.map((m) => m.id)).toEqual(['a2']);
    expect(inbox.nextTurn.map((m) => m.id)).toEqual(['t']);
    expect(session.events.map((e) => e.data)).toEqual([
      { target: 'next-step', start: 0, inserted: [msg('a')] },
      { target: 'next-step', start: 0, inserted: [msg('b')] },
      { target: 'next-turn', start: 0, inserted: [msg('t')] },
      { target: 'next-step', start: 1, removedCount: 1, inserted: [msg('a2')], outcome: 'canceled' },
      { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' },
    ]);
    expect(notes).toEqual([
      'agent/inbox/inserted a', 'agent/inbox/inserted b', 'agent/inbox/inserted t', 'agent/inbox/discarded a', 'agent/inbox/inserted a2', 'agent/inbox/discarded b',
    ]);
  });

  it('§3 ids are unique across both lists; a duplicate throws and logs nothing', () => {
    const { session, inbox } = make();
    inbox.append('next-turn', msg('a'));
    expect(() => inbox.append('next-step', msg('a'))).toThrow('inbox: message id a is already pending');
    expect(session.seq).toBe(1);
    expect(inbox.replace('a', msg('a'))).toBe(true);
  });

  it('§3 clear cancels everything; splice validates its range', () => {
    const { session, inbox } = make();
    inbox.append('next-turn', msg('a'));
    inbox.append('next-step', msg('b'));
    inbox.clear();
    expect(inbox.hasPending).toBe(false);
    expect(session.events.slice(2).map((e) => e.data)).toEqual([
      { target: 'next-turn', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' },
      { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' },
    ]);
    expect(() => inbox.splice('next-step', 1, 0, [])).toThrow('inbox.splice: start 1 is outside 0..0');
  });
});

describe('claim and replay', () => {
  it('§6 2a claim takes every next-step item, then one prompt on the first step; plain deletions', () => {
    const { session, inbox, notes } = make();
    inbox.append('next-turn', msg('p1'));
    inbox.append('next-turn', msg('p2'));
    inbox.append('next-step', msg('s1'));
    notes.length = 0;
    expect(inbox.claim('next-turn', 1).map((m) => m.id)).toEqual(['s1', 'p1']);
    expect(inbox.claim('next-step', 1)).toEqual([]);
    expect(inbox.nextTurn.map((m) => m.id)).toEqual(['p2']);
    expect(session.events.slice(3).map((e) => e.data)).toEqual([
      { target: 'next-step', start: 0, removedCount: 1, inserted: [] },
      { target: 'next-turn', start: 0, removedCount: 1, inserted: [] },
    ]);
    expect(notes).toEqual(['agent/inbox/claimed s1', 'agent/inbox/claimed p1']);
  });

  it('§3 a new inbox on the same log replays the splices after seedLength: pending items survive a resume', () => {
    const { session, inbox } = make();
    inbox.append('next-turn', msg('p1'));
    inbox.append('next-step', msg('s1'));
    inbox.prepend('next-step', msg('s0'));
    inbox.remove('s1');
    const replayed = new TestInbox({ session: new TestSession({ header: session.header, seed: session.events, clock: () => 0 }), notify: () => {} });
    expect(replayed.nextStep.map((m) => m.id)).toEqual(['s0']);
    expect(replayed.nextTurn.map((m) => m.id)).toEqual(['p1']);
    const seeded = new TestSession({ header: { ...session.header, seedLength: 2 }, seed: session.events, clock: () => 0 });
    expect(new TestInbox({ session: seeded, notify: () => {} }).nextStep.map((m) => m.id)).toEqual(['s0']);
  });

  it('§3 a plugin\'s pending message is still pending in nextStep after host.resume()', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('agent/created', ({ agent }: { agent: { inbox: TestInbox } }) => {
      if (agent.inbox.nextStep.length === 0) agent.inbox.prepend('next-step', msg('pending-context'));
    }) });
    const first = await host.start();
    const second = await host.resume();
    expect(second).not.toBe(first);
    expect(second.inbox.nextStep.map((m) => m.id)).toEqual(['pending-context']);
    expect(host.session.events.map((e) => e.type)).toEqual(['agent/inbox/spliced']);
  });
});
