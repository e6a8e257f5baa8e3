// The createTestHost driver end to end: a scripted multi-turn session (prompt, tool calls that read
// and edit files, a plugin that reacts to file touches, compaction, resume) and the exact log it
// produced.

import { editResult, readResult } from '../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import { CompactionFrame, createUserMessage, fileTouchPath, systemReminder, type Context, type PluginModule, type ToolExecution, type ToolExecutionResult } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';

/** A small plugin: every file touch adds a framed note to the call's result, sourced by path. */
const touchNotes: PluginModule<{ label: string }> = {
  name: 'touch-notes',
  apply(ctx: Context, config) {
    ctx.systemPrompt!.section({ name: 'touch-notes:guide', order: 100, text: `Notes are labelled ${config.label}.` });
    ctx.on('tools/post-execute', async (exec: ToolExecution, result: ToolExecutionResult, next: () => Promise<object>) => {
      const decision = await next();
      const path = fileTouchPath(exec, result);
      if (path === undefined) return decision;
      const note = createUserMessage(ctx, systemReminder(`${config.label}: ${exec.name} ${path}`), { kind: 'touch-notes', path });
      return { ...decision, additionalContexts: [note] };
    });
  },
};

// Messages in DSH's key order (contract correction 5): user { content, source, role, id }, assistant
// { role, content, source, id }, tool result { source, content, role, id }.
const user = (id: string, text: string) => ({ content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id });
const note = (id: string, text: string, path: string) => ({ content: [{ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` }], source: { kind: 'touch-notes', path }, role: 'user', id });
const model = { kind: 'model', provider: 'scripted', model: 'scripted' };
const assistant = (turn: number, step: number, id: string, content: object[]) => ({ turn, step, message: { role: 'assistant', content, source: model, id } });
const toolResult = (turn: number, step: number, id: string, callId: string, text: string, meta?: object) => ({
  turn, step, message: { source: { kind: 'tool', callId }, content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text }], isError: false }], role: 'user', id },
  ...(meta !== undefined ? { meta } : {}),
});
/** DSH's read presentation meta for a one-line file. */
const readMeta = (path: string, line: string) => ({ path, offset: 1, lines: [{ number: 1, text: line }], totalLines: 1, lang: 'ts' });
const call = (id: string, name: string, args: object) => ({ type: 'tool-call', id, name, arguments: JSON.stringify(args) });

describe('createTestHost', () => {
  it('runs prompt → read → edit → answer, compaction, resume and a second turn, and logs exactly this session', async () => {
    const host = createTestHost({
      cwd: '/repo/packages/app',
      files: { '/repo/.git/HEAD': '', '/repo/AGENTS.md': 'root rules', '/repo/packages/app/x.ts': 'export const x = 1;\n' },
      dshHome: '/home/u/.dsh',
    });
    host.use(touchNotes, { label: 'touched' });
    const readX = { file_path: 'x.ts' };
    const editX = { file_path: '/repo/packages/app/x.ts', old_string: '1', new_string: '2' };
    await host.run('Fix x', [{ text: 'Reading.', tools: [{ name: 'read', input: readX }] }, { tools: [{ name: 'edit', input: editX }] }, { text: 'Fixed.' }]);
    host.compact({ summary: 'We fixed x.ts.' });
    await host.resume();
    await host.run('Check x', [{ tools: [{ name: 'read', input: readX }] }, { text: 'x is 2.' }]);

    expect(host.fs.read('/repo/packages/app/x.ts')).toBe('export const x = 2;\n');
    const expected = [
      { seq: 0, time: 1, type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [user('msg-1', 'Fix x')] } },
      { seq: 1, time: 2, type: 'turn/start', data: { turn: 1 } },
      { seq: 2, time: 3, type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, removedCount: 1, inserted: [] } },
      { seq: 3, time: 4, type: 'step/start', data: { turn: 1, step: 1 } },
      { seq: 4, time: 5, type: 'user/message', data: user('msg-1', 'Fix x'), surfaceOp: 'append' },
      { seq: 5, time: 6, type: 'assistant/message', data: assistant(1, 1, 'msg-2', [{ type: 'text', text: 'Reading.' }, call('call-1', 'read', readX)]), surfaceOp: 'append' },
      { seq: 6, time: 7, type: 'tool/call', data: { turn: 1, step: 1, callId: 'call-1', name: 'read', arguments: JSON.stringify(readX) } },
      { seq: 7, time: 8, type: 'tool/result', data: toolResult(1, 1, 'msg-4', 'call-1', readResult('/repo/packages/app/x.ts', 'export const x = 1;\n'), readMeta('/repo/packages/app/x.ts', 'export const x = 1;')), surfaceOp: 'append' },
      { seq: 8, time: 9, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [note('msg-3', 'touched: read x.ts', 'x.ts')] } },
      { seq: 9, time: 10, type: 'step/end', data: { turn: 1, step: 1 } },
      { seq: 10, time: 11, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, removedCount: 1, inserted: [] } },
      { seq: 11, time: 12, type: 'step/start', data: { turn: 1, step: 2 } },
      { seq: 12, time: 13, type: 'user/message', data: note('msg-3', 'touched: read x.ts', 'x.ts'), surfaceOp: 'append' },
      { seq: 13, time: 14, type: 'assistant/message', data: assistant(1, 2, 'msg-5', [call('call-2', 'edit', editX)]), surfaceOp: 'append' },
      { seq: 14, time: 15, type: 'tool/call', data: { turn: 1, step: 2, callId: 'call-2', name: 'edit', arguments: JSON.stringify(editX) } },
      { seq: 15, time: 16, type: 'tool/result', data: toolResult(1, 2, 'msg-7', 'call-2', editResult('/repo/packages/app/x.ts')), surfaceOp: 'append' },
      { seq: 16, time: 17, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [note('msg-6', 'touched: edit /repo/packages/app/x.ts', '/repo/packages/app/x.ts')] } },
      { seq: 17, time: 18, type: 'step/end', data: { turn: 1, step: 2 } },
      { seq: 18, time: 19, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, removedCount: 1, inserted: [] } },
      { seq: 19, time: 20, type: 'step/start', data: { turn: 1, step: 3 } },
      { seq: 20, time: 21, type: 'user/message', data: note('msg-6', 'touched: edit /repo/packages/app/x.ts', '/repo/packages/app/x.ts'), surfaceOp: 'append' },
      { seq: 21, time: 22, type: 'assistant/message', data: assistant(1, 3, 'msg-8', [{ type: 'text', text: 'Fixed.' }]), surfaceOp: 'append' },
      { seq: 22, time: 23, type: 'step/end', data: { turn: 1, step: 3 } },
      { seq: 23, time: 24, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
      { seq: 24, time: 25, type: 'compaction/start', data: { compactionId: 'compaction-1', turn: null } },
      {
        seq: 25, time: 26, type: 'compaction/summary',
        data: { compactionId: 'compaction-1', summary: [{ type: 'text', text: 'We fixed x.ts.' }], shadowedRange: { start: 4, end: 21 }, shadowedSeqs: [4, 5, 7, 12, 13, 15, 20, 21] },
      },
      {
        seq: 26, time: 27, type: 'user/message',
        data: {
          content: [{ type: 'text', text: `${CompactionFrame.preamble}\n\n<compacted-summary>` }, { type: 'text', text: 'We fixed x.ts.' }, { type: 'text', text: '</compacted-summary>' }],
          source: { kind: 'plugin', plugin: 'compact', compactionId: 'compaction-1' }, role: 'user', id: 'msg-9',
        },
        surfaceOp: { op: 'replace', start: 4, end: 21 }, sourceEventSeqs: [24, 25, 4, 5, 7, 12, 13, 15, 20, 21],
      },
      { seq: 27, time: 28, type: 'compaction/end', data: { compactionId: 'compaction-1', turn: null } },
      { seq: 28, time: 29, type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, inserted: [user('msg-10', 'Check x')] } },
      { seq: 29, time: 30, type: 'turn/start', data: { turn: 2 } },
      { seq: 30, time: 31, type: 'agent/inbox/spliced', data: { target: 'next-turn', start: 0, removedCount: 1, inserted: [] } },
      { seq: 31, time: 32, type: 'step/start', data: { turn: 2, step: 1 } },
      { seq: 32, time: 33, type: 'user/message', data: user('msg-10', 'Check x'), surfaceOp: 'append' },
      { seq: 33, time: 34, type: 'assistant/message', data: assistant(2, 1, 'msg-11', [call('call-3', 'read', readX)]), surfaceOp: 'append' },
      { seq: 34, time: 35, type: 'tool/call', data: { turn: 2, step: 1, callId: 'call-3', name: 'read', arguments: JSON.stringify(readX) } },
      { seq: 35, time: 36, type: 'tool/result', data: toolResult(2, 1, 'msg-13', 'call-3', readResult('/repo/packages/app/x.ts', 'export const x = 2;\n'), readMeta('/repo/packages/app/x.ts', 'export const x = 2;')), surfaceOp: 'append' },
      { seq: 36, time: 37, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, inserted: [note('msg-12', 'touched: read x.ts', 'x.ts')] } },
      { seq: 37, time: 38, type: 'step/end', data: { turn: 2, step: 1 } },
      { seq: 38, time: 39, type: 'agent/inbox/spliced', data: { target: 'next-step', start: 0, removedCount: 1, inserted: [] } },
      { seq: 39, time: 40, type: 'step/start', data: { turn: 2, step: 2 } },
      { seq: 40, time: 41, type: 'user/message', data: note('msg-12', 'touched: read x.ts', 'x.ts'), surfaceOp: 'append' },
      { seq: 41, time: 42, type: 'assistant/message', data: assistant(2, 2, 'msg-14', [{ type: 'text', text: 'x is 2.' }]), surfaceOp: 'append' },
      { seq: 42, time: 43, type: 'step/end', data: { turn: 2, step: 2 } },
      { seq: 43, time: 44, type: 'turn/end', data: { turn: 2, reason: { kind: 'completed' } } },
    ];
    expect(host.session.events.map(({ type, seq, time, data, surfaceOp, sourceEventSeqs }) => ({ seq, time, type, data, ...(surfaceOp ? { surfaceOp } : {}), ...(sourceEventSeqs ? { sourceEventSeqs } : {}) }))).toEqual(expected);
    // Key order too: DSH compares persisted logs as text.
    expect(host.session.events.map((e) => JSON.stringify(e.data))).toEqual(expected.map((e) => JSON.stringify(e.data)));
    expect(host.session.surface).toEqual({ nodes: [26, 32, 33, 35, 40, 41], replaceGeneration: 1 });
    expect(host.requests.map((r) => r.messages.map((m) => m.id))).toEqual([
      ['msg-1'],
      ['msg-1', 'msg-2', 'msg-4', 'msg-3'],
      ['msg-1', 'msg-2', 'msg-4', 'msg-3', 'msg-5', 'msg-7', 'msg-6'],
      ['msg-9', 'msg-10'],
      ['msg-9', 'msg-10', 'msg-11', 'msg-13', 'msg-12'],
    ]);
    expect(host.requests[0]!.system).toBe('Notes are labelled touched.');
    expect(host.requests[0]!.tools.map((t) => t.name)).toEqual(['edit', 'read', 'run_code', 'write']);
    expect(host.logs).toEqual([]);
  });

  it('compact keeps the last visible nodes when asked, and refuses when there is nothing to shadow', async () => {
    const host = createTestHost({ cwd: '/w' });
    await host.run('one', [{ text: 'a' }]);
    await host.run('two', [{ text: 'b' }]);
    const event = host.compact({ keep: 2 });
    expect(event).toMatchObject({ surfaceOp: { op: 'replace', start: 4, end: 5 }, sourceEventSeqs: [16, 17, 4, 5] });
    expect(host.session.deriveMessages().map((m) => m.id)).toEqual(['msg-5', 'msg-3', 'msg-4']);
    expect(() => host.compact({ keep: 3 })).toThrow('test host: nothing to compact (3 visible nodes, keep 3)');
  });

  it('a scripted answer may be computed from the request the model was sent', async () => {
    const host = createTestHost({ cwd: '/w' });
    await host.run('ping', [(request) => ({ text: `saw ${request.messages.length} message(s) and ${request.tools.length} tools` })]);
    expect(host.session.deriveMessages().at(-1)!.content).toEqual([{ type: 'text', text: 'saw 1 message(s) and 4 tools' }]);
  });

  it('the header carries cwd and id; a sub-agent session says so; the runtime sees dshHome, homedir and process cwd', async () => {
    const host = createTestHost({ cwd: '/w', dshHome: '~/alt', homedir: '/home/u', subagent: { parentSession: 'root-1' } });
    expect(host.session.header).toEqual({ version: 0, id: 'session-1', createdAt: 0, cwd: '/w', parentSession: 'root-1', origin: 'subagent', delegationDepth: 1 });
    let runtime: unknown;
    host.use({ name: 'p', apply: (ctx: Context) => void (runtime = ctx.get('dsh-context-engine:runtime')) });
    expect(runtime).toMatchObject({ env: { DSH_HOME: '~/alt' }, homedir: '/home/u', processCwd: '/' });
    expect(createTestHost().session.header).toEqual({ version: 0, id: 'session-1', createdAt: 0 });
  });
});
