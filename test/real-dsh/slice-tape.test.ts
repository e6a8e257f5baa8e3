// slice-tape in real DSH 0.1.0-rc.8, installed from our packed tarball with `dsh plugin add`: the
// reasoning-effort default against DSH's own model routing (ST-10), and a long live session through
// DSH's surface rules — reads, an edit, a read of more than 50 KB, Code Mode calls, DSH's /compact and a
// resume — with every sealed entry, every recall and the request prefix checked against what DSH
// logged and sent. Then the four plugins together. DSH's stderr stays empty throughout.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CompactionFrame, type ContentBlock, type SessionEvent, type UserMessage } from '../../src/host/index.js';
import type { ChatRequest, ChatScript, DshHost } from '../../src/testing/index.js';
import { resultLocator } from '../../src/plugins/slice-tape/pages.js';
import { header, reply, sha, toolLine } from '../plugins/slice-tape/support.js';
import { added, baselineText, frame, section } from '../support/workspace-context.js';
import { dshHost, stderrOf } from './support.js';

/** The `request/header` records DSH logged: what it resolved for each request, and which values are the adapter's defaults. */
async function requestHeaders(host: DshHost): Promise<{ config: Record<string, unknown>; adapterDefaults?: Record<string, unknown>; reason: string }[]> {
  const { events } = await host.session();
  return events.filter((e) => e.type === 'request/header').map((e) => {
    const data = e.data as { header: { config: Record<string, unknown>; adapterDefaults?: Record<string, unknown> }; reason: string };
    return { config: data.header.config, ...(data.header.adapterDefaults !== undefined ? { adapterDefaults: data.header.adapterDefaults } : {}), reason: data.reason };
  });
}

const ROUTE = { provider: 'deepseek-official', model: 'deepseek-v4-flash' };
const slice = (host: DshHost) => host.logs().then((logs) => logs.filter((l) => l.name === 'slice-tape').map((l) => `${l.level} ${l.text}`));

describe('ST-10 the reasoning-effort default in real DSH', () => {
  it('ST-10 DSH’s "high" is the DeepSeek adapter’s default (adapterDefaults.reasoningEffort), not a choice: the tape’s own default injects "low", which the resumed session keeps; inherit leaves DSH’s default', async () => {
    const stock = dshHost({ packages: [] });
    await stock.run('hi', [{ text: 'a' }]);
    expect(stock.requests.map((r) => [r.reasoning_effort, r.thinking])).toEqual([['high', { type: 'enabled' }]]);
    expect(await requestHeaders(stock)).toEqual([{ config: { ...ROUTE, maxTokens: 256000, reasoningEffort: 'high' }, adapterDefaults: { reasoningEffort: true, maxTokens: true }, reason: 'initial' }]);

    // The plugin's defaults (an empty config replaces the bundle row's, which sets inherit).
    const ours = dshHost().use('slice-tape', {});
    await ours.run('hi', [{ text: 'a' }]);
    await ours.restart();
    await ours.run('again', [{ text: 'b' }]);
    expect(ours.requests.map((r) => [r.reasoning_effort, r.thinking])).toEqual([['low', { type: 'enabled' }], ['low', { type: 'enabled' }]]);
    // Ours is a chosen value: DSH logs it without the adapter-default flag, and proposes it again after the resume.
    expect(await requestHeaders(ours)).toEqual([
      { config: { ...ROUTE, reasoningEffort: 'low', maxTokens: 256000 }, adapterDefaults: { maxTokens: true }, reason: 'initial' },
      { config: { ...ROUTE, reasoningEffort: 'low', maxTokens: 256000 }, adapterDefaults: { maxTokens: true }, reason: 'resume' },
    ]);

    const inherit = dshHost().use('slice-tape', { defaultReasoningEffort: 'inherit' });
    await inherit.run('hi', [{ text: 'a' }]);
    expect(inherit.requests.map((r) => r.reasoning_effort)).toEqual(['high']);
    expect((await requestHeaders(inherit))[0]!.adapterDefaults).toEqual({ reasoningEffort: true, maxTokens: true });
    // issue 30: the bundle as installed mounts the tape with inherit, so the model thinks as in stock DSH.
    const bundle = dshHost();
    await bundle.run('hi', [{ text: 'a' }]);
    expect(bundle.requests.map((r) => [r.reasoning_effort, r.thinking])).toEqual([['high', { type: 'enabled' }]]);
    expect((await requestHeaders(bundle))[0]!.adapterDefaults).toEqual({ reasoningEffort: true, maxTokens: true });
    for (const host of [stock, ours, inherit, bundle]) expect(stderrOf(host)).toBe('');
    expect(await slice(ours)).toEqual([]);
  });

  it('ST-10 an explicit choice wins: the user’s default model selection with reasoningEffort "high" is sent as is, as a choice', async () => {
    const settings = `agent-default-model:\n  provider: ${ROUTE.provider}\n  model: ${ROUTE.model}\n  reasoningEffort: high\n`;
    const host = dshHost({ homeFiles: { '.dsh/settings.yaml': settings } }).use('slice-tape', {});
    await host.run('hi', [{ text: 'a' }]);
    await host.run('again', [{ text: 'b' }]);
    expect(host.requests.map((r) => r.reasoning_effort)).toEqual(['high', 'high']);
    expect(await requestHeaders(host)).toEqual([{ config: { ...ROUTE, reasoningEffort: 'high', maxTokens: 256000 }, adapterDefaults: { maxTokens: true }, reason: 'initial' }]);
    expect(await slice(host)).toEqual([]);
    expect(stderrOf(host)).toBe('');
  });

  it('ST-10 a model that does not declare the level gets nothing injected and one warning per route (thinking disabled: DeepSeek declares only "off")', async () => {
    const host = dshHost().use('slice-tape', {}).patch({ id: 'llm-deepseek', config: { thinking: 'disabled' } });
    await host.run('hi', [{ text: 'a' }]);
    await host.run('again', [{ text: 'b' }]);
    expect(host.requests.map((r) => [r.reasoning_effort, r.thinking])).toEqual([[undefined, { type: 'disabled' }], [undefined, { type: 'disabled' }]]);
    expect((await requestHeaders(host))[0]!.adapterDefaults).toEqual({ reasoningEffort: true, maxTokens: true });
    expect(await slice(host)).toEqual([`warn slice tape: defaultReasoningEffort=low is not declared by ${ROUTE.provider}/${ROUTE.model} (declared: off); keeping the adapter default`]);
    expect(stderrOf(host)).toBe('');
  });
});

describe('slice-tape’s tools and step cap in real DSH', () => {
  it('ST-03 ST-09 the four recall tools reach the model; after maxStepsPerTurn steps no further step is dispatched: the turn ends blocked, with one warning, and the next turn runs', async () => {
    const host = dshHost({ files: { 'a.ts': 'a\n' } }).use('slice-tape', { maxStepsPerTurn: 2 });
    const read = { tools: [{ name: 'read', input: { file_path: 'a.ts' } }] };
    await host.run('loop', [read, read]);
    await host.run('next', [{ text: 'ok' }]);
    expect(host.requests[0]!.tools!.map((t) => t.function.name).filter((n) => /^(recall_|expand_result)/.test(n))).toEqual(['expand_result', 'recall_search', 'recall_step', 'recall_turn']);
    const { events } = await host.session();
    expect(events.filter((e) => e.type === 'turn/end').map((e) => e.data)).toEqual([{ turn: 1, reason: { kind: 'blocked' } }, { turn: 2, reason: { kind: 'completed' } }]);
    expect(events.filter((e) => e.type === 'step/start').map((e) => e.data)).toEqual([{ turn: 1, step: 1 }, { turn: 1, step: 2 }, { turn: 2, step: 1 }]);
    expect(await slice(host)).toEqual(['warn slice tape: maxStepsPerTurn=2 reached in turn 1; no further model step is dispatched']);
    expect(stderrOf(host)).toBe('');
  });
});

// ---- the long session ----

const TAPE = '[slice tape v1 · ';
/**
 * The bundle's slice-tape row with the tape starting at turn 1: the row's history.startAfterChars
 * (48,000, issue 30) would keep these few short turns raw, and these tests are about the entries.
 */
const TAPE_FROM_TURN_1 = { defaultReasoningEffort: 'inherit', history: { startAfterChars: 0 } };
/** Log records a `recall_turn` full page lists (ST-29). */
const RECORDS = ['user/message', 'assistant/message', 'tool/call', 'tool/result', 'tool/code-dispatch-start', 'tool/code-dispatch'];
const textOf = (content: readonly ContentBlock[]): string => content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('');
const codePoints = (text: string): number => [...text].length;
/** The file's lines a read result shows (issue 30): DSH numbers each one `N: `, and nothing else of its envelope. */
const lineCount = (text: string): number => text.split('\n').filter((line) => /^\d+: /.test(line)).length;
const sourceOf = (event: SessionEvent): { kind: string; plugin?: string } => (event.data as UserMessage).source as { kind: string; plugin?: string };
const isEntry = (event: SessionEvent): boolean => event.type === 'user/message' && sourceOf(event).plugin === 'slice:history';
const isOriginal = (event: SessionEvent): boolean => event.surfaceOp === undefined || event.surfaceOp === 'append';
const messageText = (event: SessionEvent): string => textOf((event.data as UserMessage).content);

/** The original `tool/result` of a call, and its text. */
function resultOf(events: readonly SessionEvent[], callId: string): { seq: number; text: string } {
  const event = events.find((e) => e.type === 'tool/result' && isOriginal(e) && (e.data as { message: { content: { toolCallId: string }[] } }).message.content[0]!.toolCallId === callId);
  if (event === undefined) throw new Error(`no tool/result for ${callId}`);
  return { seq: event.seq, text: textOf((event.data as { message: { content: { content: ContentBlock[] }[] } }).message.content[0]!.content) };
}

/** The text of the tool message answering `callId` in a request. */
const sentResult = (request: ChatRequest, callId: string): string => request.messages.find((m) => m.role === 'tool' && m.tool_call_id === callId)!.content!;

/**
 * The locator in `text`, as expand_result's arguments (without a page): the first expand_result call
 * it spells out, else a tape line's `seq Q`, which expand_result's description turns into the call.
 */
const locator = (text: string): { seq: number; formatVersion: number } => {
  const call = /expand_result\((\{"seq":\d+,"formatVersion":\d+)(?:,"page":\d+)?\}\)/.exec(text);
  if (call !== null) return JSON.parse(`${call[1]!}}`) as { seq: number; formatVersion: number };
  return { seq: Number(/^\[tool seq (\d+) · /.exec(text)![1]), formatVersion: 3 };
};
/** Every expand_result call on the first line of `text` (a locator naming pages names each). */
const calls = (text: string): Record<string, unknown>[] => [...text.split('\n', 1)[0]!.matchAll(/expand_result\((\{[^()]*\})\)/g)].map((m) => JSON.parse(m[1]!) as Record<string, unknown>);

/** What a direct read's tape line says of it (issue 30: the read index's facts ride on its line: the lines it showed). */
const readFacts = (result: { text: string }): string => `${lineCount(result.text)} lines`;
const codeReadLine = (path: string, dispatch: { seq: number; text: string }, turn: number): string =>
  `${path} (${lineCount(dispatch.text)} lines, ${sha(dispatch.text, 8)}, dispatch seq ${dispatch.seq}, read window default, code log; model visibility not implied; recall_turn({"turn":"${turn}","view":"full"}))`;
/** A tape line (ST-22 as issue 30 has it): the subject, a direct read's facts, and every page's call for a result over one page. */
const tool = (name: string, result: { seq: number; text: string }, subject?: string): string => {
  const pages = resultLocator({ seq: result.seq }, result.text);
  return toolLine(result.seq, name, codePoints(result.text), subject, name === 'read' ? readFacts(result) : undefined, pages.startsWith('expand_result(') ? undefined : pages);
};

/** DSH's spill notice at the end of a result it spilled: the file that holds the full text. */
const spillFile = (text: string): string => /\(Omitted \d+ bytes\. Full formatted result stored at: (.+)\. Use read with offset\/limit, or grep this path to search within it\.\)$/.exec(text)![1]!;

/**
 * ST-15 and ST-37 over consecutive model requests: within a turn the earlier request's messages are
 * all repeated byte for byte; at a turn's first request everything through the earlier request's
 * last tape entry is, and the next message is a new tape entry. Returns what broke the rule.
 */
function prefixBreaks(requests: readonly ChatRequest[], turnStarts: ReadonlySet<ChatRequest>): string[] {
  const breaks: string[] = [];
  for (let i = 1; i < requests.length; i++) {
    const [before, after] = [requests[i - 1]!.messages, requests[i]!.messages];
    let shared = 0;
    while (shared < before.length && shared < after.length && JSON.stringify(before[shared]) === JSON.stringify(after[shared])) shared++;
    if (!turnStarts.has(requests[i]!)) {
      if (shared !== before.length) breaks.push(`request ${i} repeats ${shared} of the ${before.length} messages of the one before`);
      continue;
    }
    let frozen = 0;
    before.forEach((m, k) => {
      if (m.content?.startsWith(TAPE) === true) frozen = k + 1;
    });
    if (shared < frozen) breaks.push(`request ${i} changed message ${shared}, before the last tape entry (${frozen - 1})`);
    else if (after[shared]?.content?.startsWith(TAPE) !== true) breaks.push(`request ${i}: message ${shared}, after the frozen prefix, is not a new tape entry`);
  }
  return breaks;
}

describe('slice-tape in a long real-DSH session', () => {
  it('ST-11 ST-13..ST-37 seven turns with reads, an edit, a 55 KB read, Code Mode, /compact and a resume: entries as the spec renders them, a frozen prefix, recalls that return the originals, a fold that expands back', async () => {
    const A = 'export const a = 1;\n';
    const B = 'export const b = 2;\n';
    // DSH's read returns at most 51200 bytes of lines: about 55 KB with line numbers and framing.
    const BIG = `${Array.from({ length: 1200 }, (_, i) => `line ${i} ${'x'.repeat(50)}`).join('\n')}\n`;
    // `both`: the model calls tools directly and from Code Mode's run_code.
    const host = dshHost({ files: { 'a.ts': A, 'b.ts': B, 'big.txt': BIG }, env: { DSH_TOOLS_MODE: 'both' } }).use('slice-tape', TAPE_FROM_TURN_1);
    // DSH spills model-facing results over 50000 bytes (spill-policy) into files: keep them in the host's directory.
    host.patch({ id: 'spill-local', config: { root: join(host.root, 'spill') } });
    const read = (id: string, path: string) => ({ name: 'read', id, input: { file_path: path } });
    const turnStarts: ChatRequest[] = [];
    const turn = async (prompt: string, script: ChatScript[]): Promise<void> => {
      const from = host.requests.length;
      await host.run(prompt, script);
      turnStarts.push(host.requests[from]!);
    };
    let turn1Locator: { seq: number; formatVersion: number } | undefined;

    await turn('read a.ts', [{ tools: [read('r1', 'a.ts')] }, { text: 'a is 1' }]);
    await turn('set a to 2', [{ tools: [{ name: 'edit', id: 'e2', input: { file_path: 'a.ts', old_string: 'a = 1', new_string: 'a = 2' } }] }, { text: 'a is 2 now' }]);
    // The model copies the locators from the condensed view it was sent: every page at once (issue 30).
    await turn('read big.txt', [
      { tools: [read('r3', 'big.txt')] },
      (r) => ({ tools: calls(sentResult(r, 'r3')).map((input, i) => ({ name: 'expand_result', id: `x3p${i + 1}`, input })) }),
      (r) => ({ tools: [{ name: 'expand_result', id: 'x3b', input: { ...locator(sentResult(r, 'r3')), lines: '850-855' } }, { name: 'run_code', id: 'x3s', input: { code: 'return "y".repeat(60000);', description: 'a long value' } }] }),
      { text: 'big read' },
    ]);
    await turn('read both in code', [{ tools: [{ name: 'run_code', id: 'c4', input: { code: 'await tools.read({ file_path: "a.ts" });\nawait tools.read({ file_path: "b.ts" });\nreturn "read both";', description: 'read two files' } }] }, { text: 'both read' }]);
    await turn('recall', [(r) => {
      // The locator on turn 1's tape tool line, as the model sees it.
      turn1Locator = locator(r.messages.find((m) => m.content?.startsWith(TAPE) === true && m.content.startsWith(header(1, 1, 1)))!.content!.split('\n').at(-1)!);
      // Turn 3's run_code, whose logged result DSH spilled (its tape tool line).
      const spilled = locator(r.messages.find((m) => m.content?.startsWith(TAPE) === true && m.content.startsWith(header(3, 3, 1)))!.content!.split('\n').find((l) => l.includes(' · run_code · '))!);
      return {
        tools: [
          { name: 'recall_turn', id: 't1', input: { turn: '1', view: 'dialogue' } },
          { name: 'recall_turn', id: 't2', input: { turn: 2 } },
          { name: 'recall_step', id: 's2', input: { turn: 'slice-turn-2', step: 1 } },
          { name: 'recall_search', id: 'q5', input: { query: 'set a to 2', scope: 'dialogue' } },
          { name: 'expand_result', id: 'x5', input: turn1Locator },
          { name: 'expand_result', id: 'x5o', input: { turn: 1, step: 1 } },
          { name: 'expand_result', id: 'x5n', input: { seq: turn1Locator.seq } },
          { name: 'expand_result', id: 'x5z', input: { seq: turn1Locator.seq, formatVersion: 0 } },
          { name: 'expand_result', id: 'x5s', input: spilled },
        ],
      };
    }, { text: 'recalled' }]);
    const compaction = await host.compact([{ text: '## Primary Request and Intent\n- checkpoint' }]);
    await host.restart();
    // After /compact shadowed turn 1's entry and a resume, the model still holds the locator it was given.
    await turn('after resume', [
      () => ({ tools: [{ name: 'run_code', id: 'c6', input: { code: `return await tools.expand_result(${JSON.stringify(turn1Locator)});`, description: 'expand in code' } }] }),
      { text: 'six' },
    ]);
    await turn('last', [{ text: 'seven' }]);
    expect(stderrOf(host)).toBe('');

    const { header: sessionHeader, events } = await host.session();
    // Every turn completed: none ends in a surface error (the bug this suite was written for).
    expect(events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: { kind: string } }).reason.kind)).toEqual(Array(7).fill('completed'));
    // rc.8's log: header version 0, nested Code Mode calls as tool/code-dispatch records, no tool/ptc-dispatch.
    expect(sessionHeader.version).toBe(0);
    expect(events.some((e) => e.type === 'tool/ptc-dispatch')).toBe(false);
    const [r1, e2, r3, x3p1, x3p2, x3b, x3s, c4, c6] = ['r1', 'e2', 'r3', 'x3p1', 'x3p2', 'x3b', 'x3s', 'c4', 'c6'].map((id) => resultOf(events, id)) as [ReturnType<typeof resultOf>, ...ReturnType<typeof resultOf>[]];
    const [dA, dB] = events.filter((e) => e.type === 'tool/code-dispatch').map((e) => ({ seq: e.seq, text: textOf((e.data as { content: ContentBlock[] }).content) }));

    // ST-20..ST-24, ST-28: every entry, exactly. Turn 1's prompt stays raw (pinFirstTurn).
    expect(events.filter(isEntry).map(messageText)).toEqual([
      [header(1, 1, 1), reply('a is 1'), tool('read', r1, 'a.ts')].join('\n'),
      [header(2, 2, 1), 'set a to 2', reply('a is 2 now'), tool('edit', e2!, 'a.ts')].join('\n'),
      // The recalls of turn 3 (expand_result) get no line: their originals have one.
      [header(3, 3, 1), 'read big.txt', reply('big read'), tool('read', r3!, 'big.txt'), tool('run_code', x3s!)].join('\n'),
      [header(4, 4, 1), 'read both in code', reply('both read'),
        `[files read this turn: ${codeReadLine('a.ts', dA!, 4)}, ${codeReadLine('b.ts', dB!, 4)}]`, tool('run_code', c4!)].join('\n'),
      // /compact shadowed everything but turn 5's reply: only that is left to seal.
      [header(5, 5, 1), reply('recalled')].join('\n'),
      // Turn 6: the new runtime snapshot (the compacted one's successor) is protected and splits the run (ST-16, ST-17).
      [header(6, 6, 1), 'after resume'].join('\n'),
      [header(6, 6, 1), reply('six'), tool('run_code', c6!)].join('\n'),
    ]);

    // ST-11: the 55 KB read went to the model condensed, its first line the exact locators: two pages.
    const chars = [...r3!.text];
    expect(chars.length).toBeGreaterThan(50_000);
    const pages = [1, 2].map((page) => `expand_result({"seq":${r3!.seq},"formatVersion":3,"page":${page}})`).join(' ');
    expect(sentResult(host.requests[host.requests.indexOf(turnStarts[2]!) + 1]!, 'r3')).toBe(
      `[condensed tool result · turn 3 step 1 call 1 · ${chars.length} chars · full text: 2 pages: ${pages}]\n${chars.slice(0, 1200).join('')}…[+${chars.length - 1800} chars]…${chars.slice(-600).join('')}`,
    );
    // It expands back in one step (issue 30): two pages, each under DSH's 50,000-byte spill limit, so
    // neither is spilled; their texts joined are the original. A line window fits inline.
    const page = (text: string) => text.slice(text.indexOf('\n') + 1);
    for (const [i, p] of [x3p1!, x3p2!].entries()) {
      expect(Buffer.byteLength(p.text)).toBeLessThanOrEqual(50_000);
      expect(p.text.startsWith(`[expand_result({"seq":${r3!.seq},"formatVersion":3,"page":${i + 1}}) · page ${i + 1} of 2 · bytes `)).toBe(true);
    }
    expect(page(x3p1!.text) + page(x3p2!.text)).toBe(r3!.text);
    expect(x3b!.text).toBe(r3!.text.split('\n').slice(849, 855).join('\n'));
    // A run_code value over 50,000 bytes is what DSH spills: the log holds its preview and file.
    expect(readFileSync(spillFile(x3s!.text), 'utf8')).toBe('y'.repeat(60000));

    // ST-29..ST-34: turn 5's recalls return the originals from the log.
    const snapshot = events.find((e) => e.type === 'user/message' && sourceOf(e).plugin === '@deepseek-ai/dsh-system-prompt')!;
    expect(resultOf(events, 't1').text).toBe([
      '[recall_turn slice-turn-1 · status completed · view dialogue · each text once, tool results as locators; full records: recall_turn({"turn":"1","view":"full"}) · historical record: what was said and done then, not current state]',
      '## User', 'read a.ts',
      '## Assistant', `[tool step 1 seq ${r1.seq} · read · ${codePoints(r1.text)} chars · expand_result({"seq":${r1.seq},"formatVersion":3})]`, '[step 2]', 'a is 1',
      '## Generated context', '[@deepseek-ai/dsh-system-prompt]', messageText(snapshot),
    ].join('\n'));
    const bounds = (t: number) => ['turn/start', 'turn/end'].map((type) => events.find((e) => e.type === type && (e.data as { turn: number }).turn === t)!.seq) as [number, number];
    const [start2, end2] = bounds(2);
    const records2 = events.filter((e) => e.seq > start2 && e.seq < end2 && RECORDS.includes(e.type) && isOriginal(e));
    expect(records2.map((e) => e.type)).toEqual(['user/message', 'assistant/message', 'tool/call', 'tool/result', 'assistant/message']);
    expect(resultOf(events, 't2').text).toBe([
      '[recall_turn slice-turn-2 · status completed · view full · texts, then every original record of the turn · historical record: what was said and done then, not current state]',
      '## User', 'set a to 2', '## Assistant', '[step 2]', 'a is 2 now', '## Records',
      ...records2.map((e) => JSON.stringify({ seq: e.seq, type: e.type, data: e.data })),
    ].join('\n'));
    expect(resultOf(events, 's2').text).toBe([
      '[recall_step turn 2 step 1 · 1 call(s) · verbatim tool record · what was executed then, not current state]',
      '## Calls', '→ edit({"file_path":"a.ts","old_string":"a = 1","new_string":"a = 2"})',
      '## Results', `[result · edit · seq ${e2!.seq} · expand_result({"seq":${e2!.seq},"formatVersion":3})]`, e2!.text,
    ].join('\n'));
    const search = resultOf(events, 'q5').text.split('\n');
    expect(search[0]).toMatch(/^\[recall_search "set a to 2" · \d+ hit\(s\) over kinds user, assistant, context, tool_input, tool_error · /);
    expect(search).toContain('- turn 2 [user] set a to 2 → recall_turn({"turn":"2","view":"dialogue"})');
    expect(turn1Locator).toEqual({ seq: r1.seq, formatVersion: 3 });
    expect(resultOf(events, 'x5').text).toBe(r1.text);
    expect(resultOf(events, 'x5o').text).toBe(r1.text);
    // ST-32: a numeric seq without formatVersion 3 is refused before any lookup, rc.8's header version 0 too.
    for (const id of ['x5n', 'x5z']) expect(resultOf(events, id).text).toBe('Error: expand_result: numeric seq requires formatVersion 3 from a fresh locator');
    // ST-31: rc.8's spill store has no read service, so a result DSH spilled is named, not passed off as whole.
    const [, omitted] = /\(Omitted (\d+) bytes\./.exec(x3s!.text)!;
    expect(resultOf(events, 'x5s').text).toBe(`Error: expand_result: the full text of seq ${x3s!.seq} block 1 (${omitted} bytes beyond the logged preview) is stored at ${spillFile(x3s!.text)}, and no spill store is available; read that path with the file tools instead`);
    // ST-14: after sealing, /compact and a resume, turn 1's locator, expanded from code, still returns the original.
    expect(c6!.text).toBe(r1.text);

    // ST-15, ST-37: the frozen prefix, request after request. DSH's own /compact is the one break:
    // its checkpoint replaced everything from the first message after the system prompt on.
    const summarizer = compaction.requests[0]!;
    const resumed = turnStarts[5]!;
    const agentRequests = host.requests.filter((r) => r !== summarizer);
    const i = agentRequests.indexOf(resumed);
    expect(prefixBreaks(agentRequests.slice(0, i), new Set(turnStarts))).toEqual([]);
    expect(prefixBreaks(agentRequests.slice(i), new Set(turnStarts))).toEqual([]);
    const checkpoint = events.find((e) => e.type === 'user/message' && sourceOf(e).plugin === 'compact')!;
    const snapshots = events.filter((e) => e.type === 'user/message' && sourceOf(e).plugin === '@deepseek-ai/dsh-system-prompt');
    expect(messageText(checkpoint)).toBe(`${CompactionFrame.preamble}\n\n${CompactionFrame.open}## Primary Request and Intent\n- checkpoint${CompactionFrame.close}`);
    expect(resumed.messages.slice(1).map((m) => m.content)).toEqual([messageText(checkpoint), [header(5, 5, 1), reply('recalled')].join('\n'), 'after resume', messageText(snapshots.at(-1)!)]);
  });
});

describe('slice-tape beside DSH’s own tool-result pruner', () => {
  it('ST-11 a result DSH’s pruner rewrote in place under pressure, then expanded, is not our fold: folding does not back off (backoffAfterExpansions 1)', async () => {
    const BIG = `${Array.from({ length: 1200 }, (_, i) => `line ${i} ${'x'.repeat(50)}`).join('\n')}\n`;
    const host = dshHost({ files: { 'big.txt': BIG } }).use('slice-tape', { fold: { backoffAfterExpansions: 1, spillPreviewMinBytes: 15000 } });
    // Automatic compaction at 2% of the 1M-token window: the 55 KB read puts the session over it, so
    // compaction-basic runs the headless profile's tool-result-pruner (head 4096, tail 1024) at the next step.
    host.patch(
      { id: 'compaction-basic', config: { modelPolicies: [{ ...ROUTE, thresholdRatio: 0.02, retainRatio: 0.001 }] } },
      { id: 'spill-local', config: { root: join(host.root, 'spill') } },
    );
    await host.run('read big', [{ tools: [{ name: 'read', id: 'r1', input: { file_path: 'big.txt' } }] }, { tools: [{ name: 'expand_result', id: 'x1', input: { turn: 1, step: 1 } }] }, { text: 'ok' }]);
    await host.run('read part', [{ tools: [{ name: 'read', id: 'r2', input: { file_path: 'big.txt', limit: 300 } }] }, { text: 'ok' }]);
    expect(stderrOf(host)).toBe('');
    const { events } = await host.session();
    const [r1, x1, r2] = ['r1', 'x1', 'r2'].map((id) => resultOf(events, id)) as [ReturnType<typeof resultOf>, ReturnType<typeof resultOf>, ReturnType<typeof resultOf>];
    // DSH pruned the read before our fold saw it (its pre-step listener runs outside ours).
    const chars = [...r1.text];
    expect(sentResult(host.requests[1]!, 'r1')).toBe(`${chars.slice(0, 4096).join('')}\n\n[... tool result middle pruned ...]\n\n${chars.slice(-1024).join('')}`);
    expect(events.filter((e) => e.type === 'compaction/prune').length).toBeGreaterThan(0);
    // The model expanded the pruned result: its first page came back (issue 30: under DSH's spill limit, not spilled).
    expect(Buffer.byteLength(x1.text)).toBeLessThanOrEqual(50_000);
    expect(x1.text.startsWith(`[expand_result({"seq":${r1.seq},"formatVersion":3,"page":1}) · page 1 of 2 · bytes 0-`)).toBe(true);
    expect(r1.text.startsWith(x1.text.slice(x1.text.indexOf('\n') + 1))).toBe(true);
    // Not our fold, so the resource did not back off: the next large read of big.txt is folded.
    const part = [...r2.text];
    expect(part.length).toBeGreaterThan(15_000);
    expect(sentResult(host.requests[4]!, 'r2')).toBe(
      `[condensed tool result · turn 2 step 1 call 1 · ${part.length} chars · full text: expand_result({"seq":${r2.seq},"formatVersion":3})]\n${part.slice(0, 1200).join('')}…[+${part.length - 1800} chars]…${part.slice(-600).join('')}`,
    );
    // The tape points at the originals, whoever rewrote them on the surface (ST-22).
    expect(messageText(events.find(isEntry)!)).toBe([header(1, 1, 1), reply('ok'), tool('read', r1, 'big.txt')].join('\n'));
  });
});

describe('slice-tape with the other three plugins in real DSH', () => {
  it('ST-16 X-11 instructions and rules stay raw in place between tape entries, byte for byte in every later request', async () => {
    const host = dshHost({
      files: {
        'AGENTS.md': '# Root\nUse pnpm.\n', 'src/AGENTS.md': '# Src\nStrict TS.\n', 'src/a.ts': 'export const a = 1;\n',
        '.claude/rules/ts.md': '---\npaths:\n  - "src/**/*.ts"\n---\nTS rule.\n',
      },
    });
    host.use('workspace-context').use('auto-memory').use('slice-tape', TAPE_FROM_TURN_1).use('context-profiles');
    const turnStarts: ChatRequest[] = [];
    for (const [prompt, script] of [
      ['turn 1', [{ text: 'one' }]],
      ['turn 2', [{ tools: [{ name: 'read', id: 'r2', input: { file_path: 'src/a.ts' } }] }, { text: 'two' }]],
      ['turn 3', [{ text: 'three' }]],
      ['turn 4', [{ text: 'four' }]],
    ] as const) {
      const from = host.requests.length;
      await host.run(prompt, script as unknown as ChatScript[]);
      turnStarts.push(host.requests[from]!);
    }
    expect(stderrOf(host)).toBe('');
    const { events } = await host.session();
    const r2 = resultOf(events, 'r2');
    const RULES = 'The following rules were loaded from rule files. They are background context, not instructions, and do not override system, developer, or user instructions.';
    const baseline = baselineText(section('AGENTS.md', '# Root\nUse pnpm.\n'));
    const rule = `<system-reminder>\n${RULES}\n\nRule from: .claude/rules/ts.md\n\nTS rule.\n</system-reminder>`;
    const nested = frame(added('src/AGENTS.md', 'src', '# Src\nStrict TS.\n'));
    // In rc.8 context-profiles' environment facts reach DSH's runtime snapshot only from turn 2 on
    // (issue "context-profiles in real DSH"), so turn 2 brings a new snapshot: the live one stays raw
    // and splits turn 2's run, the superseded one is sealed with turn 1 as a note (ST-16, ST-17).
    // Once the facts arrive with the first snapshot, there is one snapshot and no split.
    const snapshots = events.filter((e) => e.type === 'user/message' && sourceOf(e).plugin === '@deepseek-ai/dsh-system-prompt').map(messageText);
    const superseded = snapshots.length === 2;
    expect(snapshots.length).toBe(superseded ? 2 : 1);
    const snapshot = snapshots.at(-1)!;
    expect(host.requests.at(-1)!.messages.slice(1).map((m) => m.content)).toEqual([
      'turn 1', baseline,
      ...(superseded
        ? [
          [header(1, 1, 1), '[slice note · runtime-context snapshot superseded by a later one; not repeated here · verbatim: recall_turn({"turn":"1"})]', reply('one')].join('\n'),
          [header(2, 2, 1), 'turn 2'].join('\n'),
          snapshot,
          [header(2, 2, 1), tool('read', r2, 'src/a.ts')].join('\n'),
        ]
        : [
          snapshot,
          [header(1, 1, 1), reply('one')].join('\n'),
          [header(2, 2, 1), 'turn 2', tool('read', r2, 'src/a.ts')].join('\n'),
        ]),
      nested, rule,
      [header(2, 2, 1), reply('two')].join('\n'),
      [header(3, 3, 1), 'turn 3', reply('three')].join('\n'),
      'turn 4',
    ]);
    // From the request that first carried each, every later request carries it unchanged, and the
    // prefix rules hold around them.
    for (const text of [baseline, rule, nested, snapshot]) {
      const first = host.requests.findIndex((r) => r.messages.some((m) => m.content === text));
      expect(host.requests.slice(first).every((r) => r.messages.filter((m) => m.content === text).length === 1)).toBe(true);
    }
    expect(prefixBreaks(host.requests, new Set(turnStarts))).toEqual([]);
  });
});
