// Entry content (ST-20..ST-23): exact text, user excerpts, reply frames, tool lines, and the
// code-point hard cap with its reduction order, on astral and CJK text.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/host/index.js';
import { engineText } from '../../../src/plugins/slice-tape/index.js';
import { compactEntry, renderEntry, type TurnItem } from '../../../src/plugins/slice-tape/render.js';
import { header, reply, sha, surfaceTexts, tapeHost, toolLine, visibleEntries } from './support.js';

const cp = (s: string) => Array.from(s).length;

/** A tool returning `text` as is, to control sizes exactly. */
const echo: ToolDefinition = {
  name: 'echo', description: 'echo', parameters: { type: 'object' },
  output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v as string }] },
  execute: async (args) => (args as { text: string }).text,
};
const mountEcho = (host: ReturnType<typeof tapeHost>) => host.ctx.tools!.register(echo);

describe('header and turns', () => {
  it('ST-20 one entry covering several turns names the span and the count', async () => {
    // Turns run before the tape is mounted are sealed together at its first turn.
    const { createTestHost } = await import('../../../src/testing/index.js');
    const tape = await import('../../../src/plugins/slice-tape/index.js');
    const host = createTestHost({ cwd: '/repo' });
    await host.run('one', [{ text: 'r1' }]);
    await host.run('two', [{ text: 'r2' }]);
    host.use(tape, { history: { pinFirstTurn: false } });
    await host.run('three', [{ text: 'r3' }]);
    expect(visibleEntries(host)).toEqual([[header(1, 2, 2), '[turn 1]', 'one', reply('r1'), '[turn 2]', 'two', reply('r2')].join('\n')]);
  });

  it('ST-20 issue 30: an entry of one turn is headed by that turn alone, with no [turn N] line', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run('one', [{ text: 'r1' }]);
    await host.run('two', [{ text: 'r2' }]);
    expect(visibleEntries(host)).toEqual([`[slice tape v1 · turn 1]\none\n${reply('r1')}`]);
  });
});

describe('user text', () => {
  it('ST-21 a user message up to pinUserChars code points is verbatim', async () => {
    const body = '😀'.repeat(1200);
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run(body, [{ text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(visibleEntries(host)[0]).toBe([header(1, 1, 1), body, reply('ok')].join('\n'));
  });

  it('ST-21 a longer one keeps the first 600 and last 300 code points around …[+k chars, recall_turn]…', async () => {
    const body = '字'.repeat(600) + '😀'.repeat(301) + 'e'.repeat(300);
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run(body, [{ text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(visibleEntries(host)[0]).toBe([header(1, 1, 1), `${'字'.repeat(600)}…[+301 chars, recall_turn]…${'e'.repeat(300)}`, reply('ok')].join('\n'));
  });

  it('ST-21 pinUserChars sets the verbatim budget; text that fits head + tail is never cut', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false, pinUserChars: 10 } });
    const long = 'a'.repeat(600) + '🎉'.repeat(5) + 'z'.repeat(300);
    await host.run('b'.repeat(900), [{ text: 'ok' }]);
    await host.run(long, [{ text: 'ok' }]);
    await host.run('end', [{ text: 'ok' }]);
    expect(visibleEntries(host)).toEqual([
      [header(1, 1, 1), 'b'.repeat(900), reply('ok')].join('\n'),
      [header(2, 2, 1), `${'a'.repeat(600)}…[+5 chars, recall_turn]…${'z'.repeat(300)}`, reply('ok')].join('\n'),
    ]);
  });

  it('ST-21 a steered second user message in the turn renders under [user]', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    host.ctx.on('agent/turn-stopping', async ({ agent, turn }: { agent: import('../../../src/host/index.js').Agent; turn: number }) => {
      if (turn === 1 && agent.inbox.nextStep.length === 0 && !steered) {
        steered = true;
        agent.steer({ id: 'steer-1', role: 'user', content: [{ type: 'text', text: 'also this' }], source: { kind: 'user' } });
      }
    });
    let steered = false;
    await host.run('first', [{ text: 'r1' }, { text: 'r1b' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(visibleEntries(host)[0]).toBe([header(1, 1, 1), 'first', '[user]\nalso this', reply('r1b')].join('\n'));
  });
});

describe('reply frame', () => {
  it('ST-21 the reply is the turn\'s last assistant text, framed with 12 hex digits of SHA-256 of the rendered text on both markers', async () => {
    const text = '答案：x = 1 😀\n第二行';
    const host = tapeHost({ history: { pinFirstTurn: false } });
    mountEcho(host);
    await host.run('q', [{ text: 'first words', tools: [{ name: 'echo', input: { text: 'e' } }] }, { text }]);
    await host.run('next', [{ text: 'ok' }]);
    const h = sha(text, 12);
    const seq = host.session.events.find((e) => e.type === 'tool/result')!.seq;
    expect(visibleEntries(host)[0]).toBe(`${header(1, 1, 1)}\nq\n[reply @${h}]\n${text}\n[end reply @${h}]\n${toolLine(seq, 'echo', 1)}`);
  });
});

describe('pinReplyChars (issue 30)', () => {
  const run = async (pinReplyChars: number, answer: string): Promise<string> => {
    const host = tapeHost({ history: { pinFirstTurn: false, pinReplyChars } });
    await host.run('q', [{ text: answer }]);
    await host.run('next', [{ text: 'ok' }]);
    return visibleEntries(host)[0]!;
  };

  it('ST-21 issue 30: a reply up to pinReplyChars code points is verbatim, and 0 (the default) keeps every reply whole', async () => {
    const astral = '😀'.repeat(240);
    expect(await run(240, astral)).toBe([header(1, 1, 1), 'q', reply(astral)].join('\n'));
    const long = '字'.repeat(5000);
    expect(await run(0, long)).toBe([header(1, 1, 1), 'q', reply(long)].join('\n'));
  });

  it('ST-21 issue 30: a longer reply keeps two thirds of pinReplyChars from its head and a third from its tail around …[+k chars, recall_turn]…, counted in code points; the hash is of the rendered excerpt', async () => {
    const answer = '😀'.repeat(160) + 'm'.repeat(7) + '字'.repeat(80);
    const kept = `${'😀'.repeat(160)}…[+7 chars, recall_turn]…${'字'.repeat(80)}`;
    expect(await run(240, answer)).toBe([header(1, 1, 1), 'q', reply(kept)].join('\n'));
    // A pin of 10: 7 from the head, 3 from the tail.
    expect(await run(10, 'abcdefghijKLMNOPqrs')).toBe([header(1, 1, 1), 'q', reply('abcdefg…[+9 chars, recall_turn]…qrs')].join('\n'));
  });

  it('ST-23 issue 30: under entryMaxChars, a pinned reply narrows from its pinned excerpt, never back to the whole text', () => {
    const item: TurnItem = { turn: 1, users: ['u'], snapshots: [], reply: 'r'.repeat(3000), tools: [], reads: [] };
    const none = { reads: [], prior: new Map() } as const;
    const pinned = renderEntry(engineText, [item], none, { pinUserChars: 1200, pinReplyChars: 240, entryMaxChars: 8000 });
    expect(pinned).toBe([header(1, 1, 1), 'u', reply(`${'r'.repeat(160)}…[+2760 chars, recall_turn]…${'r'.repeat(80)}`)].join('\n'));
    const narrowed = renderEntry(engineText, [item], none, { pinUserChars: 1200, pinReplyChars: 240, entryMaxChars: cp(pinned) - 1 });
    expect(narrowed).toBe([header(1, 1, 1), 'u', reply(`${'r'.repeat(80)}…[+2880 chars, recall_turn]…${'r'.repeat(40)}`)].join('\n'));
  });
});

describe('tool lines', () => {
  it('ST-22 issue 30: one line per result, never dropped (no per-turn cap), each naming the original tool/result seq (its locator), the tool and the size in code points, no turn or step; bodies are never copied', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    mountEcho(host);
    const texts = ['短文本', '😀😀', 'x'.repeat(10), '', 'a\nb', '字😀a', 'seventh'];
    await host.run('q', [{ tools: texts.map((t, i) => ({ name: 'echo', id: `e${i}`, input: { text: t } })) }, { text: 'done' }]);
    await host.run('next', [{ text: 'ok' }]);
    const results = host.session.events.filter((e) => e.type === 'tool/result').map((e) => e.seq);
    const entry = visibleEntries(host)[0]!;
    expect(entry).toBe([header(1, 1, 1), 'q', reply('done'), ...texts.map((t, i) => toolLine(results[i]!, 'echo', cp(t)))].join('\n'));
    expect(entry.includes('"seventh"')).toBe(false);
  });

  it('ST-22 issue 30: a line names the call\'s subject (path, pattern and path of a grep, command, query), JSON-quoted, cut at 160 code points but never its locator', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    mountEcho(host);
    for (const name of ['grep', 'bash', 'search']) host.ctx.tools!.register({ ...echo, name });
    const long = `echo ${'字'.repeat(200)}\nexit 0`;
    await host.run('q', [{ tools: [
      { name: 'grep', id: 'g', input: { pattern: 'a(b', path: 'src', text: 'hit' } },
      { name: 'bash', id: 'b', input: { command: long, text: 'ran' } },
      { name: 'search', id: 's', input: { query: 'x "y"', text: 'found' } },
      { name: 'echo', id: 'e', input: { text: 'no subject' } },
    ] }, { text: 'done' }]);
    await host.run('next', [{ text: 'ok' }]);
    const [g, b, q, e] = host.session.events.filter((ev) => ev.type === 'tool/result').map((ev) => ev.seq);
    expect(visibleEntries(host)[0]!.split('\n').slice(-4)).toEqual([
      toolLine(g!, 'grep', 3, 'a(b in src'),
      toolLine(b!, 'bash', 3, `${Array.from(long).slice(0, 159).join('')}…`),
      toolLine(q!, 'search', 5, 'x "y"'),
      toolLine(e!, 'echo', 10),
    ]);
  });

  it('ST-22 issue 30: the recall tools\' own answers get no line (they are copies of results that have one)', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    mountEcho(host);
    await host.run('q', [{ tools: [{ name: 'echo', id: 'e', input: { text: 'x' } }] }, { text: 'a' }]);
    const seq = host.session.events.find((ev) => ev.type === 'tool/result')!.seq;
    await host.run('again', [{ tools: [{ name: 'expand_result', id: 'x', input: { seq, formatVersion: 3 } }, { name: 'recall_turn', id: 't', input: { turn: 1 } }] }, { text: 'b' }]);
    await host.run('end', [{ text: 'c' }]);
    expect(visibleEntries(host)[1]).toBe([header(2, 2, 1), 'again', reply('b')].join('\n'));
  });

  it('ST-22 an unknown call id is named "tool"', () => {
    const item: TurnItem = { turn: 3, users: [], snapshots: [], reply: '', tools: [{ seq: 40, name: 'tool', size: 1 }], reads: [] };
    expect(renderEntry(engineText, [item], { reads: [], prior: new Map() }, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: 8000 })).toBe([header(3, 3, 1), toolLine(40, 'tool', 1)].join('\n'));
  });
});

describe('entryMaxChars', () => {
  const item = (turn: number, user: string, replyText: string, tools = 0): TurnItem => ({
    turn, users: [user], snapshots: [], reply: replyText, reads: [],
    tools: Array.from({ length: tools }, (_, i) => ({ seq: 100 * turn + i, name: 'read', subject: `packages/app/src/module-${i}.ts`, size: 12345 })),
  });
  const none = { reads: [], prior: new Map() } as const;

  it('ST-23 issue 30: tool lines are never dropped: subjects narrow with the excerpts, and the locators stay whole', () => {
    const items = [item(1, 'u', 'r', 6)];
    const full = renderEntry(engineText, items, none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: 8000 });
    const narrowed = renderEntry(engineText, items, none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: cp(full) - 1 });
    // Nothing else can narrow here, so the ladder goes down to subjects of 160 / 8 = 20 code points.
    expect(narrowed).toBe([header(1, 1, 1), 'u', reply('r'), ...items[0]!.tools.map((t) => toolLine(t.seq, 'read', 12345, `${t.subject!.slice(0, 19)}…`))].join('\n'));
    expect(narrowed.match(/^\[tool seq \d+ · read "/gm)).toHaveLength(6);
    expect(renderEntry(engineText, items, none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: cp(full) })).toBe(full);
  });

  it('ST-23 step 2: user and reply excerpts narrow, counted in code points, keeping the recall marker', () => {
    const user = '字'.repeat(1000);
    const answer = '😀'.repeat(2000);
    const three = item(1, user, answer, 3);
    const text = renderEntry(engineText, [three], none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: 2000 });
    // Half of 600/300 for the user and of 1400/500 for the reply; the tool lines stay (issue 30).
    const expectedReply = `${'😀'.repeat(700)}…[+1050 chars, recall_turn]…${'😀'.repeat(250)}`;
    expect(text).toBe([header(1, 1, 1), `${'字'.repeat(300)}…[+550 chars, recall_turn]…${'字'.repeat(150)}`, reply(expectedReply), ...three.tools.map((t) => toolLine(t.seq, 'read', 12345, t.subject))].join('\n'));
    expect(cp(text)).toBeLessThanOrEqual(2000);
    expect(text.length).toBeGreaterThan(2000); // UTF-16 length would have refused it: the cap is in code points
  });

  it('ST-23 step 3: when the backlog still does not fit, the compact per-turn recall guidance replaces the body', () => {
    const items = Array.from({ length: 40 }, (_, i) => item(i + 1, `question ${i + 1} ${'q'.repeat(50)}`, `answer ${'a'.repeat(50)}`));
    const text = renderEntry(engineText, items, none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: 256 });
    expect(text).toBe('[slice tape v1 · turns 1-40 · 40 turn(s) sealed · details: recall_turn({"turn":"1"}); repeat for each turn through 40]');
    expect(text).toBe(compactEntry(1, 40, 40));
  });

  it('ST-23 property: every entry is at most entryMaxChars code points, and every locator in it is whole', () => {
    const unit = fc.constantFrom('a', ' ', '\n', '字', '😀', '\u{20000}', 'é');
    const str = (max: number) => fc.array(unit, { maxLength: max }).map((a) => a.join(''));
    const turnItem = fc.record({ user: str(1500), reply: str(3000), tools: fc.integer({ min: 0, max: 8 }) });
    fc.assert(fc.property(fc.array(turnItem, { minLength: 1, maxLength: 6 }), fc.integer({ min: 256, max: 9000 }), (specs, cap) => {
      const items = specs.map((s, i) => item(i + 1, s.user, s.reply, s.tools));
      const text = renderEntry(engineText, items, none, { pinUserChars: 1200, pinReplyChars: 0, entryMaxChars: cap });
      expect(cp(text)).toBeLessThanOrEqual(cap);
      for (const match of text.matchAll(/expand_result\(([^)]*)\)/g)) expect(match[1]).toMatch(/^\{"seq":\d+,"formatVersion":3\}$/);
      // Every tool line (issue 30: never dropped) unless the compact form replaced the body.
      if (!text.includes(' · details: ')) {
        expect(text.match(/^\[tool seq /gm)?.length ?? 0).toBe(specs.reduce((n, x) => n + x.tools, 0));
        // Each line's locator, its seq, is whole.
        expect([...text.matchAll(/^\[tool seq (\d+) · /gm)].map((m) => Number(m[1]))).toEqual(items.flatMap((i) => i.tools.map((t) => t.seq)));
      }
      for (const match of text.matchAll(/recall_turn\(([^)]*)\)/g)) expect(match[1]).toMatch(/^\{"turn":"(\d+|<n>)"(,"view":"dialogue")?\}$/);
      for (const match of text.matchAll(/\[reply @([0-9a-f]{12})\]\n([\s\S]*?)\n\[end reply @([0-9a-f]{12})\]/g)) {
        expect(match[1]).toBe(match[3]);
        expect(match[1]).toBe(sha(match[2]!, 12));
      }
    }), { numRuns: 60 });
  });

  it('ST-23 in a session: a CJK/astral-heavy turn under a small cap seals within the cap and old entries keep their bytes', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false, entryMaxChars: 300 } });
    mountEcho(host);
    await host.run('说明'.repeat(400), [{ tools: [{ name: 'echo', input: { text: '😀'.repeat(5000) } }] }, { text: '回答😀'.repeat(500) }]);
    await host.run('next', [{ text: 'ok' }]);
    const first = visibleEntries(host)[0]!;
    await host.run('more', [{ text: 'ok' }]);
    expect(visibleEntries(host)[0]).toBe(first);
    for (const entry of visibleEntries(host)) expect(cp(entry)).toBeLessThanOrEqual(300);
    expect(surfaceTexts(host).slice(-2)).toEqual(['more', 'ok']);
  });
});
