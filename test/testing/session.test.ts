// Contract §5 / §12.2: the append-only session log and its visible surface.

import { describe, expect, it } from 'vitest';
import type { Agent, Context, Session, SessionEvent } from '../../src/host/index.js';
import { createTestHost, TestSession } from '../../src/testing/index.js';

const user = (id: string, text = id) => ({ content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id });
const fresh = (onAppend?: (s: TestSession, e: SessionEvent) => void) => {
  let t = 100;
  return new TestSession({ header: { version: 0, id: 's1', createdAt: 0, cwd: '/w' }, clock: () => t++, onAppend });
};

describe('the log', () => {
  it('seq equals the index, time comes from the clock, events and their data are deep-frozen copies', () => {
    const s = fresh();
    const data = { turn: 1 };
    const e0 = s.append('turn/start', data);
    const e1 = s.append('user/message', user('m1'), { surfaceOp: 'append' });
    expect(s.events).toEqual([
      { type: 'turn/start', seq: 0, time: 100, data: { turn: 1 } },
      { type: 'user/message', seq: 1, time: 101, data: user('m1'), surfaceOp: 'append' },
    ]);
    expect(s.seq).toBe(2);
    expect(s.events[0]).toBe(e0);
    expect(e1.data).not.toBe(data);
    expect(Object.isFrozen(e1) && Object.isFrozen(e1.data) && Object.isFrozen(s.events)).toBe(true);
    data.turn = 9;
    expect(s.events[0]!.data).toEqual({ turn: 1 });
  });

  it('refuses data that is not lossless JSON, malformed user messages, and misplaced surface ops (in DSH\'s words)', () => {
    const s = fresh();
    expect(() => s.append('x/y', { n: Number.POSITIVE_INFINITY })).toThrow('session.append x/y data: $.n is Infinity, which is not lossless JSON');
    expect(() => s.append('user/message', { ...user('m'), role: 'assistant' }, { surfaceOp: 'append' })).toThrow("session.append user/message: role must be 'user'");
    expect(() => s.append('user/message', { ...user('m'), source: {} }, { surfaceOp: 'append' })).toThrow('session.append user/message: source.kind must be a non-empty string');
    expect(() => s.append('user/message', user('m'))).toThrow(new Error('session event "user/message" is surface-eligible and requires a surfaceOp marker'));
    expect(() => s.append('step/start', {}, { surfaceOp: 'append' })).toThrow(new Error('session event "step/start" is not surface-eligible and cannot carry surfaceOp'));
    expect(() => s.append('step/start', {}, { sourceEventSeqs: [0] } as never)).toThrow(new Error('session event "step/start" is not surface-eligible and cannot carry sourceEventSeqs'));
    expect(s.seq).toBe(0);
  });
});

describe('the surface (contract corrections 2 and 3)', () => {
  const three = () => {
    const s = fresh();
    for (const id of ['a', 'b', 'c']) s.append('user/message', user(id), { surfaceOp: 'append' });
    return s;
  };
  const result = (id: string, text: string, meta?: unknown) => ({
    turn: 1, step: 1, message: { source: { kind: 'tool', callId: 'c1' }, content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text }], isError: false }], role: 'user', id },
    ...(meta !== undefined ? { meta } : {}),
  });

  it('append adds a node; deriveMessages projects visible nodes in order; an assistant message with no content projects none', () => {
    const s = three();
    s.append('assistant/message', { turn: 1, step: 1, message: { role: 'assistant', content: [{ type: 'text', text: 'r' }], source: { kind: 'model', provider: 'p', model: 'm' }, id: 'r' } }, { surfaceOp: 'append' });
    s.append('assistant/message', { turn: 1, step: 2, message: { role: 'assistant', content: [], source: { kind: 'model', provider: 'p', model: 'm' }, id: 'usage-only' } }, { surfaceOp: 'append' });
    expect(s.surface).toEqual({ nodes: [0, 1, 2, 3, 4], replaceGeneration: 0 });
    expect(s.deriveMessages().map((m) => m.id)).toEqual(['a', 'b', 'c', 'r']);
  });

  it('replace names the first and last shadowed node by seq (end included) and takes their position', () => {
    const s = three();
    s.append('user/message', user('sum'), { surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1] });
    expect(s.surface).toEqual({ nodes: [3, 2], replaceGeneration: 1 });
    expect(s.events[3]).toMatchObject({ surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1] });
    expect(s.deriveMessages().map((m) => m.id)).toEqual(['sum', 'c']);
    // Seqs, not positions: seq 2 now sits at index 1.
    s.append('user/message', user('one'), { surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [2] });
    expect(s.surface).toEqual({ nodes: [3, 4], replaceGeneration: 2 });
  });

  it('a replace whose seqs are not on the surface, are reversed, or leave a shadowed node out of sourceEventSeqs is refused', () => {
    const s = three();
    s.append('user/message', user('sum'), { surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] });
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1] })).toThrow(new Error('surface replace: start seq 0 not found in surface'));
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 1, end: 9 }, sourceEventSeqs: [1] })).toThrow(new Error('surface replace: end seq 9 not found in surface'));
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 2, end: 1 }, sourceEventSeqs: [1, 2] })).toThrow(new Error('surface replace: start seq 2 (index 2) is after end seq 1 (index 1)'));
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 1, end: 2 }, sourceEventSeqs: [1] })).toThrow(new Error('surface replace: sourceEventSeqs must include every shadowed surface node; missing 2'));
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1, 1] })).toThrow(new Error('sourceEventSeqs must not contain duplicates'));
    expect(() => s.append('user/message', user('x'), { surfaceOp: { op: 'replace', start: 1, end: 1, extra: 1 } as never, sourceEventSeqs: [1] })).toThrow(new Error('session event "user/message" carries an invalid replace surfaceOp'));
    expect(s.seq).toBe(4);
  });

  it('a tool/result replacement rewrites one tool/result and may change only its content', () => {
    const s = fresh();
    s.append('tool/result', result('t1', 'long output', { path: '/w/a' }), { surfaceOp: 'append' });
    s.append('user/message', user('u'), { surfaceOp: 'append' });
    expect(() => s.append('tool/result', { ...result('t2', 'short', { path: '/w/a' }) }, { surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] })).toThrow(new Error('tool/result surface replacement may change only content'));
    expect(() => s.append('tool/result', result('t1', 'short'), { surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] })).toThrow(new Error('tool/result surface replacement may change only content'));
    expect(() => s.append('tool/result', result('t1', 'short', { path: '/w/a' }), { surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1] })).toThrow(new Error('tool/result surface replacement must rewrite exactly one current node'));
    expect(() => s.append('tool/result', result('t1', 'short', { path: '/w/a' }), { surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1] })).toThrow(new Error('tool/result surface replacement must target a current tool/result'));
    s.append('tool/result', result('t1', 'short', { path: '/w/a' }), { surfaceOp: { op: 'replace', start: 0, end: 0 }, sourceEventSeqs: [0] });
    expect(s.surface.nodes).toEqual([2, 1]);
  });

  it('a seeded session (resume) rebuilds the surface from the log, through the same checks, and does not re-publish it', () => {
    const s = three();
    s.append('user/message', user('sum'), { surfaceOp: { op: 'replace', start: 0, end: 2 }, sourceEventSeqs: [0, 1, 2] });
    const published: number[] = [];
    const resumed = new TestSession({ header: s.header, seed: s.events, clock: () => 0, onAppend: (_s, e) => published.push(e.seq) });
    expect(resumed.surface).toEqual({ nodes: [3], replaceGeneration: 1 });
    expect(resumed.firstLiveSeq).toBe(4);
    expect(published).toEqual([]);
    resumed.append('turn/start', { turn: 1 });
    expect(published).toEqual([4]);
    const broken = [...s.events.slice(0, 3), { ...s.events[3]!, sourceEventSeqs: [0, 1] }];
    expect(() => new TestSession({ header: s.header, seed: broken, clock: () => 0 })).toThrow(new Error('surface replace: sourceEventSeqs must include every shadowed surface node; missing 2'));
  });
});

describe('session/event', () => {
  it('§5.1 fires after every append with (session, event), in order', async () => {
    const host = createTestHost({ cwd: '/w' });
    const seen: string[] = [];
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('session/event', (session: Session, event: SessionEvent) => seen.push(`${session.id}:${event.seq}:${event.type}`)) });
    await host.run('hi', [{ text: 'yo' }]);
    expect(seen).toEqual([
      'session-1:0:agent/inbox/spliced', 'session-1:1:turn/start', 'session-1:2:agent/inbox/spliced', 'session-1:3:step/start',
      'session-1:4:user/message', 'session-1:5:assistant/message', 'session-1:6:step/end', 'session-1:7:turn/end',
    ]);
  });

  it('§1.4 session/event reaches the owning agent\'s agent.ctx listeners from publication on, including appends during agent/created', async () => {
    const host = createTestHost({ cwd: '/w' });
    const heard: string[] = [];
    let n = 0;
    host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('agent/created', ({ agent }: { agent: Agent }) => void agent.ctx.on('session/event', (_s: Session, e: SessionEvent) => heard.push(`${e.seq} ${e.type} ${n}`)));
        ctx.on('agent/created', ({ agent }: { agent: Agent }) => agent.inbox.prepend('next-step', { id: `pending-${++n}`, role: 'user', content: [], source: { kind: 'p' } }));
      },
    });
    await host.start();
    await host.resume();
    expect(heard).toEqual(['0 agent/inbox/spliced 1', '1 agent/inbox/spliced 2']);
  });

  it('§5.1 a re-entrant append from a session/event listener throws, and the throw is contained and logged', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({
      name: 'p',
      apply: (ctx: Context) => void ctx.on('session/event', (session: Session, event: SessionEvent) => {
        if (event.type === 'turn/start') session.append('step/start', {});
      }),
    });
    await host.run('hi', [{ text: 'yo' }]);
    expect(host.logs).toEqual([{ level: 'warn', name: 'p', message: 'session/event listener failed: Error: session session-1: append of step/start while event 1 is being published' }]);
    expect(host.session.events.map((e) => e.type)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'step/start', 'user/message', 'assistant/message', 'step/end', 'turn/end']);
  });
});
