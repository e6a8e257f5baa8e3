// Sealing (ST-12..ST-19, ST-37, ST-09): when and what is sealed, in place, frozen, and what stays raw.

import { readResult } from '../../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import { CompactionFrame, createUserMessage, type UserMessage } from '../../../src/host/index.js';
import { entryEvents, header, reply, serializedPrefix, sha, surfaceTexts, tapeHost, text, toolLine, visibleEntries } from './support.js';

const files = { '/repo/a.ts': 'export const a = 1;\n' };

describe('trigger and placement', () => {
  it('ST-13 ST-14 at the first step of turn 2, turn 1 becomes one frozen user/message replacing its run in place', async () => {
    const host = tapeHost({}, { files });
    await host.run('What is a?', [{ text: 'Reading.', tools: [{ name: 'read', id: 'c1', input: { file_path: 'a.ts' } }] }, { text: 'a is 1.' }]);
    const before = host.session.events.length;
    await host.run('Thanks', [{ text: 'You are welcome.' }]);
    const [entry] = entryEvents(host);
    expect(entry!.seq).toBeGreaterThan(before);
    expect(entry!.data).toEqual({
      id: expect.any(String), role: 'user',
      content: [{ type: 'text', text: [
        header(1, 1, 1),
        reply('a is 1.'),
        // Fingerprint and size are those of what DSH's read logged (its envelope); the lines are the
        // file's the window shows; the read's facts ride on its line (issue 30).
        toolLine(7, 'read', [...readResult('/repo/a.ts', 'export const a = 1;\n')].length, 'a.ts', '1 lines'),
      ].join('\n') }],
      source: { kind: 'plugin', plugin: 'slice:history' },
    });
    // Turn 1's user message is pinned (pinFirstTurn); the rest of turn 1 is replaced at its position.
    expect(entry!.surfaceOp).toEqual({ op: 'replace', start: 5, end: 10 });
    expect(entry!.sourceEventSeqs).toEqual([5, 7, 10]);
    expect(surfaceTexts(host)).toEqual(['What is a?', text((entry!.data as UserMessage).content), 'Thanks', 'You are welcome.']);
    // The raw events stay in the log.
    expect(host.session.events[7]!.type).toBe('tool/result');
  });
});

/** A plugin that adds a framed note after every tool call (an instruction-like plugin message). */
const notes = {
  name: 'notes',
  apply(ctx: import('../../../src/host/index.js').Context) {
    ctx.on('tools/post-execute', async (exec: { name: string }, _result: unknown, next: () => Promise<object>) => {
      const decision = await next();
      const note = createUserMessage(ctx, `<system-reminder>\nnote after ${exec.name}\n</system-reminder>`, { kind: 'notes' });
      return { ...decision, additionalContexts: [note] };
    });
  },
};

const userText = (id: string, body: string): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text: body }], source: { kind: 'user' } });

describe('when sealing happens', () => {
  it('ST-13 only at step 1: a multi-step turn seals nothing at its later steps', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } }, { files });
    await host.run('one', [{ text: 'r1' }]);
    const counts: number[] = [];
    host.ctx.on('agent/pre-step', async (_e: unknown, next: () => Promise<unknown>) => {
      const d = await next();
      counts.push(entryEvents(host).length);
      return d;
    }, { prepend: true });
    await host.run('two', [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { text: 'r2' }]);
    expect(counts).toEqual([1, 1, 1]);
    expect(visibleEntries(host)).toEqual([[header(1, 1, 1), 'one', reply('r1')].join('\n')]);
  });

  it('ST-13 keepRecentTurns leaves the newest completed turns raw; sealing is unconditional beyond them', async () => {
    const host = tapeHost({ history: { keepRecentTurns: 2, pinFirstTurn: false } });
    for (const n of [1, 2, 3, 4]) await host.run(`q${n}`, [{ text: `a${n}` }]);
    // At turn 4's first step turns 1-3 are complete: 2 stay raw, turn 1 is sealed.
    expect(surfaceTexts(host)).toEqual([[header(1, 1, 1), 'q1', reply('a1')].join('\n'), 'q2', 'a2', 'q3', 'a3', 'q4', 'a4']);
  });

  it('issue 30 history.startAfterChars: turns stay raw until the completed turns show that many code points; the first entry then covers them all, and every later turn is sealed whatever its size', async () => {
    // 'q1' + 'a1' is 4 code points a turn; the read of a.ts adds its call's arguments and its result.
    const host = tapeHost({ history: { pinFirstTurn: false, startAfterChars: 13 } }, { files });
    await host.run('q1', [{ text: 'a1' }]);
    await host.run('q2', [{ text: 'a2' }]);
    await host.run('q3', [{ text: 'a3' }]);
    // At turn 3's first step turns 1-2 show 8 code points: still raw.
    expect(entryEvents(host)).toEqual([]);
    await host.run('q4', [{ text: 'a4' }]);
    // 12 code points at turn 4's first step: raw; 16 at turn 5's: turns 1-4 become one entry.
    expect(entryEvents(host)).toEqual([]);
    await host.run('q5', [{ text: 'a5' }]);
    expect(visibleEntries(host)).toEqual([[header(1, 4, 4), ...[1, 2, 3, 4].flatMap((n) => [`[turn ${n}]`, `q${n}`, reply(`a${n}`)])].join('\n')]);
    // Once the tape has an entry, the next turn is sealed at once, small as it is.
    await host.run('q6', [{ text: 'a6' }]);
    expect(visibleEntries(host).at(-1)).toBe([header(5, 5, 1), 'q5', reply('a5')].join('\n'));
  });

  it('issue 30 history.startAfterChars counts what the request shows: a tool call\'s arguments and its result\'s text', async () => {
    const result = readResult('/repo/a.ts', 'export const a = 1;\n');
    const call = JSON.stringify({ file_path: 'a.ts' });
    const shown = 2 + [...call].length + [...result].length + 2;
    for (const [threshold, sealed] of [[shown, 1], [shown + 1, 0]] as const) {
      const host = tapeHost({ history: { pinFirstTurn: false, startAfterChars: threshold } }, { files });
      await host.run('q1', [{ tools: [{ name: 'read', id: 'c1', input: { file_path: 'a.ts' } }] }, { text: 'a1' }]);
      await host.run('q2', [{ text: 'a2' }]);
      expect([threshold, entryEvents(host).length]).toEqual([threshold, sealed]);
    }
  });

  it('ST-12 there is no budget: a long session with large outputs seals every completed turn and refuses nothing', async () => {
    const big = 'x'.repeat(20000);
    const host = tapeHost({ history: { pinFirstTurn: false } }, { files: { '/repo/big.txt': big } });
    for (let n = 1; n <= 12; n++) await host.run(`q${n}`, [{ tools: [{ name: 'read', input: { file_path: 'big.txt' } }] }, { text: `a${n}` }]);
    expect(host.session.events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: { kind: string } }).reason.kind)).toEqual(Array(12).fill('completed'));
    expect(visibleEntries(host).length).toBe(11);
    expect(host.logs).toEqual([]);
  });
});

describe('frozen prefix', () => {
  it('ST-15 ST-37 the surface through the last entry keeps its exact bytes across later turns; entries are never re-rendered', async () => {
    const host = tapeHost({}, { files });
    await host.run('one', [{ text: 'r1', tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { text: 'done 1' }]);
    await host.run('two', [{ text: 'r2' }]);
    await host.run('three', [{ text: 'r3' }]);
    const entriesBefore = entryEvents(host).map((e) => JSON.stringify(e));
    const lastEntryAt = host.session.surface.nodes.indexOf(entryEvents(host).at(-1)!.seq);
    const prefix = serializedPrefix(host, lastEntryAt + 1);
    for (const n of [4, 5, 6]) await host.run(`q${n}`, [{ text: `a${n}` }]);
    expect(serializedPrefix(host, lastEntryAt + 1)).toBe(prefix);
    expect(entryEvents(host).slice(0, entriesBefore.length).map((e) => JSON.stringify(e))).toEqual(entriesBefore);
    // Each new entry lands after the existing ones; none nests an earlier entry.
    expect(entryEvents(host).every((e) => !(e.sourceEventSeqs ?? []).some((seq) => entryEvents(host).some((x) => x.seq === seq)))).toBe(true);
    expect(visibleEntries(host).length).toBe(5);
  });

  it('ST-15 ST-17 a snapshot superseded only after an entry was sealed behind it stays raw in place (no backfill)', async () => {
    const host = tapeHost();
    let env = 'env v1';
    host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: () => env });
    await host.run('one', [{ text: 'r1' }]);
    await host.run('two', [{ text: 'r2' }]);
    const before = surfaceTexts(host);
    env = 'env v2';
    await host.run('three', [{ text: 'r3' }]);
    const snapshot1 = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nenv v1';
    // Turn 1: pinned user, live snapshot (protected), then its reply sealed behind them.
    expect(before).toEqual(['one', snapshot1, [header(1, 1, 1), reply('r1')].join('\n'), 'two', 'r2']);
    expect(surfaceTexts(host)).toEqual([
      'one', snapshot1, [header(1, 1, 1), reply('r1')].join('\n'),
      [header(2, 2, 1), 'two', reply('r2')].join('\n'),
      'three', 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nenv v2', 'r3',
    ]);
  });
});

describe('protected nodes and runs', () => {
  it('ST-16 ST-17 a superseded snapshot after the frozen prefix is sealed with its turn as a note; the live one stays', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    let env = 'env v1';
    host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: () => env });
    await host.run('one', [{ text: 'r1' }]);
    env = 'env v2';
    await host.run('two', [{ text: 'r2' }]);
    expect(surfaceTexts(host)).toEqual([
      [header(1, 1, 1), 'one', '[slice note · runtime-context snapshot superseded by a later one; not repeated here · verbatim: recall_turn({"turn":"1"})]', reply('r1')].join('\n'),
      'two', 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nenv v2', 'r2',
    ]);
  });

  it('ST-16 without a new snapshot the newest one on the surface is live and splits the run', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: 'env' });
    await host.run('one', [{ text: 'r1' }]);
    await host.run('two', [{ text: 'r2' }]);
    expect(surfaceTexts(host)).toEqual([
      [header(1, 1, 1), 'one'].join('\n'),
      'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nenv',
      [header(1, 1, 1), reply('r1')].join('\n'),
      'two', 'r2',
    ]);
  });

  it('ST-16 plugin (instruction) messages and multimodal user messages keep source and position and split one turn into several entries', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } }, { files });
    host.use(notes, {});
    const image: UserMessage = { id: 'img-1', role: 'user', content: [{ type: 'text', text: 'look' }, { type: 'image', attachment: { ref: 'shot.png' } }], source: { kind: 'user' } };
    await host.run(userText('u1', 'one'), [{ text: 'reading', tools: [{ name: 'read', id: 'c1', input: { file_path: 'a.ts' } }] }, { text: 'r1' }]);
    await host.run(image, [{ text: 'seen' }]);
    await host.run('three', [{ text: 'r3' }]);
    const [e1, e2, e3] = visibleEntries(host);
    expect(surfaceTexts(host)).toEqual([e1, '<system-reminder>\nnote after read\n</system-reminder>', e2, 'look<image>', e3, 'three', 'r3']);
    expect(e1!.split('\n').slice(0, 2)).toEqual([header(1, 1, 1), 'one']);
    expect(e2).toBe([header(1, 1, 1), reply('r1')].join('\n'));
    expect(e3).toBe([header(2, 2, 1), reply('seen')].join('\n'));
    const kept = host.session.deriveMessages().filter((m) => m.source.kind !== 'plugin');
    expect(kept.map((m) => m.source)).toEqual([{ kind: 'notes' }, { kind: 'user' }, { kind: 'user' }, { kind: 'model', provider: 'scripted', model: 'scripted' }]);
  });

  it('ST-16 pinFirstTurn keeps turn 1\'s user message raw while its assistant run is sealed; false seals it too', async () => {
    const pinned = tapeHost();
    await pinned.run('first', [{ text: 'r1' }]);
    await pinned.run('second', [{ text: 'r2' }]);
    expect(surfaceTexts(pinned)).toEqual(['first', [header(1, 1, 1), reply('r1')].join('\n'), 'second', 'r2']);
    const unpinned = tapeHost({ history: { pinFirstTurn: false } });
    await unpinned.run('first', [{ text: 'r1' }]);
    await unpinned.run('second', [{ text: 'r2' }]);
    expect(surfaceTexts(unpinned)).toEqual([[header(1, 1, 1), 'first', reply('r1')].join('\n'), 'second', 'r2']);
  });
});

describe('unpaired tool segments', () => {
  it('ST-18 a segment with unpaired calls stays raw, cuts the span, and warns once per segment per Session instance', async () => {
    const session = async (resumeBeforeTurn3: boolean) => {
      const host = tapeHost({ history: { pinFirstTurn: false } }, { files });
      await host.run('one', [{ tools: [{ name: 'read', id: 'c1', input: { file_path: 'a.ts' } }] }, { text: 'r1' }]);
      // Compaction that shadows the call but keeps its result leaves the result unpaired on the surface.
      host.compact({ summary: 'S', keep: 2 });
      await host.run('two', [{ text: 'r2' }]);
      if (resumeBeforeTurn3) await host.resume();
      await host.run('three', [{ text: 'r3' }]);
      return host;
    };
    const warning = 'slice tape: turn 1 (seq 7..10) kept raw and cut the sealed span: unpaired tool call/result c1';
    const once = await session(false);
    expect(once.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([warning]);
    const checkpoint = `${CompactionFrame.preamble}\n\n${CompactionFrame.open}S${CompactionFrame.close}`;
    expect(surfaceTexts(once)).toEqual([checkpoint, '<result c1>', 'r1', [header(2, 2, 1), 'two', reply('r2')].join('\n'), 'three', 'r3']);
    const resumed = await session(true);
    expect(resumed.logs.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([warning, warning]);
  });
});

describe('legacy entries', () => {
  it.each([
    ['[slice checkpoint v1 · turns 1-1 · 1 turn(s) archived]\n[turn 1]\none'],
    ['# SESSION TAPE\n[turn 1] one'],
    ['[slice tape v1 · turns 1-1 · 1 turn(s) sealed · written by an older build]'],
  ])('ST-19 a retired replacement (%j) with a foreign source is a frozen entry: nothing before it is sealed, it is never rewritten', async (legacy) => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run('one', [{ text: 'r1' }]);
    const nodes = host.session.surface.nodes;
    host.session.append('user/message', { content: [{ type: 'text', text: legacy }], source: { kind: 'plugin', plugin: 'slice-agent-loop' }, role: 'user', id: 'legacy-1' }, { surfaceOp: { op: 'replace', start: nodes[1]!, end: nodes[1]! }, sourceEventSeqs: [nodes[1]!] });
    await host.run('two', [{ text: 'r2' }]);
    await host.run('three', [{ text: 'r3' }]);
    expect(surfaceTexts(host)).toEqual(['one', legacy, [header(2, 2, 1), 'two', reply('r2')].join('\n'), 'three', 'r3']);
  });
});

describe('step cap', () => {
  it('ST-09 after maxStepsPerTurn steps no further model step is dispatched in the turn', async () => {
    const host = tapeHost({ maxStepsPerTurn: 2 }, { files });
    const read = { tools: [{ name: 'read', input: { file_path: 'a.ts' } }] };
    await host.run('loop', [read, read]);
    expect(host.requests.length).toBe(2);
    expect(host.session.events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([{ turn: 1, reason: { kind: 'blocked' } }]);
    expect(host.logs.map((l) => l.message)).toEqual(['slice tape: maxStepsPerTurn=2 reached in turn 1; no further model step is dispatched']);
  });
});

describe('more sealing cases', () => {
  it('ST-13 a rejected first step seals nothing', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run('one', [{ text: 'r1' }]);
    // Registered after the tape, so it runs inside it: the decision the tape sees is a reject.
    host.ctx.on('agent/pre-step', async () => ({ kind: 'reject' }));
    await host.run('two', []);
    expect(entryEvents(host)).toEqual([]);
    expect(host.session.events.at(-1)!.data).toEqual({ turn: 2, reason: { kind: 'blocked' } });
  });

  it('ST-22 issue 30: a result event answering several calls gets one line per block, each with its block and locator; ST-20 K counts the turns of a multi-turn entry', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run('one', [{ text: 'r1' }]);
    const s = host.session;
    const call = (id: string, name: string) => ({ type: 'tool-call', id, name, arguments: '{}' });
    const block = (id: string, text: string) => ({ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text }] });
    s.append('assistant/message', { turn: 1, step: 2, message: { id: 'a-multi', role: 'assistant', content: [call('m1', 'read'), call('m2', 'grep'), call('m3', 'read')], source: { kind: 'model', provider: 'p', model: 'm' } } }, { surfaceOp: 'append' });
    for (const [id, name] of [['m1', 'read'], ['m2', 'grep'], ['m3', 'read']]) s.append('tool/call', { turn: 1, step: 2, callId: id, name, arguments: '{}' });
    const multi = s.append('tool/result', { turn: 1, step: 2, message: { id: 'r-multi', role: 'user', content: [block('m1', 'ab'), block('m2', '字'), block('m3', '😀')], source: { kind: 'tool', callId: 'm1' } } }, { surfaceOp: 'append' }).seq;
    await host.run('two', [{ text: 'r2' }]);
    await host.run('three', [{ text: 'r3' }]);
    // Turn 1's first nodes were sealed at turn 2's first step; the records logged after turn 1 ended
    // were still "open" then, and are sealed with turn 2 into an entry spanning both turns.
    expect(visibleEntries(host)).toEqual([
      [header(1, 1, 1), 'one', reply('r1')].join('\n'),
      [header(1, 2, 2), '[turn 1]', ...[['read', 2], ['grep', 1], ['read', 1]].map(([name, size], i) => `[tool seq ${multi} block ${i + 1} · ${name} · ${size} chars]`), '[turn 2]', 'two', reply('r2')].join('\n'),
    ]);
  });
});

describe('several snapshots', () => {
  it('ST-17 several superseded snapshots of one turn are one note naming their count', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } }, { files });
    let env = 'v1';
    host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: () => env });
    host.ctx.on('tools/result', () => {
      env = 'v2';
    });
    await host.run('one', [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { text: 'r1' }]);
    env = 'v3';
    await host.run('two', [{ text: 'r2' }]);
    const entry = visibleEntries(host)[0]!.split('\n');
    expect(entry.slice(0, 3)).toEqual([header(1, 1, 1), 'one', '[slice note · 2 runtime-context snapshots superseded by a later one; not repeated here · verbatim: recall_turn({"turn":"1"})]']);
    expect(surfaceTexts(host).slice(1)).toEqual(['two', 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nv3', 'r2']);
  });
});
