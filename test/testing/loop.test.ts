// Contract §6 / §12.4: the agent loop's step machine.

import { readMissing } from '../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import type { Agent, Context, PreStepDecision, PreStepEvent, Session, SessionEvent, ToolExecution, ToolExecutionResult, UserMessage } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';

const ctxMsg = (id: string, text = id): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin: 'p' } });
type Next = () => Promise<PreStepDecision>;

/** A plugin that records the Cordis events and session events it sees, in one sequence. */
const tracer = (trace: string[]) => ({
  name: 'tracer',
  apply(ctx: Context) {
    ctx.on('agent/inbox/claimed', ({ message, turn }: { message: UserMessage; turn: number }) => trace.push(`claimed ${message.id} t${turn}`));
    ctx.on('agent/pre-step', async (e: PreStepEvent, next: Next) => {
      trace.push(`pre-step t${e.turn}s${e.step} [${e.messages.map((m) => m.id)}]`);
      return next();
    });
    ctx.on('tools/post-execute', async (exec: ToolExecution, _r: ToolExecutionResult, next: () => Promise<unknown>) => (trace.push(`post-execute ${exec.callId}`), next()));
    ctx.on('tools/result', (exec: ToolExecution, r: ToolExecutionResult) => trace.push(`tools/result ${exec.callId} ${r.isError ? 'error' : 'ok'}`));
    ctx.on('session/event', (_s: Session, e: SessionEvent) => {
      if (e.type !== 'agent/inbox/spliced') trace.push(`log ${e.type}`);
    });
  },
});

describe('a step', () => {
  it('§6 claim → pre-step → step/start → entered messages → model → tool pipeline → tools/result before tool/result → step/end', async () => {
    const trace: string[] = [];
    const host = createTestHost({ cwd: '/w', files: { '/w/a.txt': 'A' } });
    host.use(tracer(trace));
    await host.run('go', [{ text: 'looking', tools: [{ name: 'read', input: { file_path: 'a.txt' } }, { name: 'read', input: { file_path: 'nope' } }] }, { text: 'done' }]);
    expect(trace).toEqual([
      'log turn/start', 'claimed msg-1 t1', 'pre-step t1s1 [msg-1]', 'log step/start', 'log user/message', 'log assistant/message',
      'log tool/call', 'post-execute call-1', 'tools/result call-1 ok', 'log tool/result',
      'log tool/call', 'post-execute call-2', 'tools/result call-2 error', 'log tool/result', 'log step/end',
      'pre-step t1s2 []', 'log step/start', 'log assistant/message', 'log step/end', 'log turn/end',
    ]);
    expect(host.requests.map((r) => r.messages.length)).toEqual([1, 4]);
    expect(host.requests[1]!.messages[3]).toEqual({
      id: 'msg-4', role: 'user', source: { kind: 'tool', callId: 'call-2' },
      content: [{ type: 'tool-result', toolCallId: 'call-2', isError: true, content: [{ type: 'text', text: readMissing('/w/nope') }] }],
    });
  });

  it('§6 5 additionalContexts go to the end of nextStep and enter the next step after the claimed items', async () => {
    const host = createTestHost({ cwd: '/w', files: { '/w/a.txt': 'A' } });
    host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('tools/post-execute', async (exec: ToolExecution, _r: unknown, next: () => Promise<object>) => ({ ...(await next()), additionalContexts: [ctxMsg(`ctx-for-${exec.callId}`)] }));
        ctx.on('tools/result', (exec: ToolExecution) => {
          if (exec.callId === 'call-1') (exec.agent as Agent).inject(ctxMsg('injected'));
        });
      },
    });
    await host.run('go', [{ tools: [{ name: 'read', input: { file_path: 'a.txt' } }] }, { text: 'ok' }]);
    const entered = host.session.events.filter((e) => e.type === 'user/message').map((e) => (e.data as UserMessage).id);
    expect(entered).toEqual(['msg-1', 'injected', 'ctx-for-call-1']);
  });

  it('§6 3 a reject decision ends the turn blocked with no step; the claimed prompt is gone', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('agent/pre-step', async () => ({ kind: 'reject' })) });
    await host.run('go', []);
    expect(host.session.events.map((e) => [e.type, e.data])).toEqual([
      ['agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [{ id: 'msg-1', role: 'user', content: [{ type: 'text', text: 'go' }], source: { kind: 'user' } }] }],
      ['turn/start', { turn: 1 }],
      ['agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] }],
      ['turn/end', { turn: 1, reason: { kind: 'blocked' } }],
    ]);
    expect(host.requests).toEqual([]);
  });

  it('§6 3 an enter decision with no messages on step 1 closes the turn completed without a step or model call', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('agent/pre-step', async () => ({ kind: 'enter', messages: [] })) });
    await host.run('go', []);
    expect(host.session.events.map((e) => e.type)).toEqual(['agent/inbox/spliced', 'turn/start', 'agent/inbox/spliced', 'turn/end']);
    expect(host.session.events[3]!.data).toEqual({ turn: 1, reason: { kind: 'completed' } });
  });

  it('§6 4 entered messages are appended in decision order; a listener may fold its context after the claimed ones', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({
      name: 'p',
      apply: (ctx: Context) => void ctx.on('agent/pre-step', async (e: PreStepEvent, next: Next) => {
        const d = await next();
        return d.kind === 'enter' && e.step === 1 ? { kind: 'enter', messages: [ctxMsg('before'), ...d.messages, ctxMsg('after')] } : d;
      }),
    });
    await host.run('go', [{ text: 'ok' }]);
    expect(host.requests[0]!.messages.map((m) => m.id)).toEqual(['before', 'msg-1', 'after']);
  });

  it('§6 6 step/end is appended in a finally: a failing model call still closes the step, the turn ends with error, and agent/error names that step', async () => {
    const host = createTestHost({ cwd: '/w' });
    const errors: unknown[] = [];
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('agent/error', ({ error, turn, step }: { error: Error; turn: number; step: number }) => errors.push([turn, step, error.message])) });
    await expect(host.run('go', [{ tools: [{ name: 'read', input: { file_path: 'x' } }] }])).rejects.toThrow('scripted model: no answer left for turn 1 step 2');
    expect(host.session.events.slice(-3).map((e) => [e.type, e.data])).toEqual([
      ['step/start', { turn: 1, step: 2 }],
      ['step/end', { turn: 1, step: 2 }],
      ['turn/end', { turn: 1, reason: { kind: 'error', message: 'scripted model: no answer left for turn 1 step 2' } }],
    ]);
    expect(errors).toEqual([[1, 2, 'scripted model: no answer left for turn 1 step 2']]);
    await expect(host.run('again', [{ text: 'a' }, { text: 'b' }])).rejects.toThrow('scripted model: 1 answer(s) left unused');
  });
});

describe('turns', () => {
  it('§6 7 agent/turn-stopping may steer to continue the turn; turn numbers follow the log', async () => {
    const host = createTestHost({ cwd: '/w' });
    let steered = false;
    host.use({
      name: 'p',
      apply: (ctx: Context) => void ctx.on('agent/turn-stopping', ({ agent }: { agent: Agent }) => {
        if (!steered) agent.steer(ctxMsg('keep going'));
        steered = true;
      }),
    });
    await host.run('one', [{ text: 'first' }, { text: 'second' }]);
    await host.run('two', [{ text: 'third' }]);
    const marks = host.session.events.filter((e) => /^(turn|step)\//.test(e.type)).map((e) => `${e.type} ${JSON.stringify(e.data)}`);
    expect(marks).toEqual([
      'turn/start {"turn":1}', 'step/start {"turn":1,"step":1}', 'step/end {"turn":1,"step":1}', 'step/start {"turn":1,"step":2}', 'step/end {"turn":1,"step":2}',
      'turn/end {"turn":1,"reason":{"kind":"completed"}}',
      'turn/start {"turn":2}', 'step/start {"turn":2,"step":1}', 'step/end {"turn":2,"step":1}', 'turn/end {"turn":2,"reason":{"kind":"completed"}}',
    ]);
    expect(host.requests[1]!.messages.at(-1)!.id).toBe('keep going');
  });

  it('§6 7 a tool that concludes the turn ends it; stop max-tokens ends it with that reason', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.ctx.tools.register({ name: 'finish', description: '', parameters: {}, output: { schema: {}, render: () => [] }, execute: async (_a, run) => (run.concludeTurn(), null) });
    await host.run('a', [{ tools: [{ name: 'finish' }] }]);
    await host.run('b', [{ text: 'cut', stop: 'max-tokens' }]);
    expect(host.session.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([
      { turn: 1, reason: { kind: 'completed' } },
      { turn: 2, reason: { kind: 'max-tokens' } },
    ]);
  });

  it('§3 agent.cancel aborts the turn at the next step boundary and clears the inbox unless keepInbox', async () => {
    const host = createTestHost({ cwd: '/w', files: { '/w/a': 'A' } });
    host.ctx.on('tools/result', (exec: ToolExecution) => {
      (exec.agent as Agent).inject(ctxMsg('queued'));
      (exec.agent as Agent).cancel({ kind: 'user' });
    });
    await host.run('go', [{ tools: [{ name: 'read', input: { file_path: 'a' } }] }]);
    expect(host.session.events.slice(-5).map((e) => [e.type, e.type === 'tool/result' ? '…' : e.data])).toEqual([
      ['agent/inbox/spliced', { target: 'next-step', start: 0, inserted: [ctxMsg('queued')] }],
      ['agent/inbox/spliced', { target: 'next-step', start: 0, removedCount: 1, inserted: [], outcome: 'canceled' }],
      ['tool/result', '…'],
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'aborted' } }],
    ]);
    expect(host.agent.inbox.nextStep.map((m) => m.id)).toEqual([]);
  });

  it('§3.1 agent/created, agent/session-start and agent/status fire with payload objects; resume says resume', async () => {
    const host = createTestHost({ cwd: '/w' });
    const seen: string[] = [];
    host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('agent/created', ({ agent }: { agent: Agent }) => seen.push(`created ${agent.id}`));
        ctx.on('agent/session-start', ({ source }: { source: string }) => seen.push(`session-start ${source}`));
        ctx.on('agent/status', ({ status }: { status: string }) => seen.push(`status ${status}`));
        ctx.on('agent/disposed', ({ agent }: { agent: Agent }) => seen.push(`disposed ${agent.id}`));
      },
    });
    await host.run('a', [{ text: 'x' }]);
    await host.resume();
    expect(seen).toEqual(['created session-1', 'session-start startup', 'status running', 'status idle', 'disposed session-1', 'created session-1', 'session-start resume']);
  });

  it('§3.1 a synchronous throw in agent/created vetoes publication', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('agent/created', () => { throw new Error('no'); }) });
    await expect(host.start()).rejects.toThrow('no');
    expect(() => host.agent).toThrow('test host: no agent yet; call start() or run() first');
  });

  it('§6 2c the runtime-context snapshot enters after the claimed batch, and again only when it changes', async () => {
    const host = createTestHost({ cwd: '/w' });
    let cwdText = 'cwd: /w';
    host.ctx.systemPrompt.context({ name: 'working-directory:current', order: 1, text: () => cwdText });
    host.ctx.systemPrompt.section({ name: 'harness:identity', order: -100, text: 'You are an AI agent powered by DeepSeek Harness.' });
    await host.run('a', [{ text: 'x' }]);
    await host.run('b', [{ text: 'y' }]);
    cwdText = 'cwd: /w/sub';
    await host.run('c', [{ text: 'z' }]);
    const snapshots = host.session.events.filter((e) => e.type === 'user/message' && (e.data as UserMessage).source.kind === 'plugin');
    expect(snapshots.map((e) => [e.seq, (e.data as UserMessage).content])).toEqual([
      [5, [{ type: 'text', text: 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\ncwd: /w' }]],
      [22, [{ type: 'text', text: 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\ncwd: /w/sub' }]],
    ]);
    expect((snapshots[0]!.data as UserMessage).source).toEqual({
      kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot', sections: [{ name: 'working-directory:current', text: 'cwd: /w' }],
    });
    expect(host.requests[0]!.system).toBe('You are an AI agent powered by DeepSeek Harness.');
  });
});
