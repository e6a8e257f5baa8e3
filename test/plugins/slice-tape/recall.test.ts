// Recall and expansion tools (ST-02, ST-03, ST-14, ST-29..ST-36): exact pages, locators and errors.

import { readMissing, readResult } from '../../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import { spillNotice, type PluginModule, type UserMessage } from '../../../src/host/index.js';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { createTestHost, type TestHost } from '../../../src/testing/index.js';
import { catTool } from '../../support/cat-tool.js';
import { callTool, tapeHost } from './support.js';

const SNAPSHOT = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\nenv';
const BIG = `L1\n${'数'.repeat(100)}`;

/**
 * Turn 1: a read (seq 8), a failed read (seq 10), a spilled cat (seq 15) and a reply; turn 2: a
 * short exchange. Log: 4 user, 5 snapshot, 6 assistant step 1, 7/9 tool calls, 13 assistant step 2,
 * 14 tool call, 18 assistant step 3.
 */
/** What DSH's `read` logged for a.ts, and for the missing file. */
const A_READ = readResult('/repo/a.ts', 'one\ntwo');
const NOPE = readMissing('/repo/nope');

async function session(spill: { store?: boolean } = {}): Promise<TestHost> {
  const host = tapeHost({}, { files: { '/repo/a.ts': 'one\ntwo', '/repo/big.txt': BIG }, spill: { overBytes: 64, previewBytes: 8, ...spill } });
  host.ctx.tools!.register(catTool(host, '/repo'));
  host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: 'env' });
  await host.run('What is in a.ts?', [
    { text: 'Reading.', reasoning: 'think', tools: [{ name: 'read', id: 'c1', input: { file_path: 'a.ts' } }, { name: 'read', id: 'c2', input: { file_path: 'nope' } }] },
    { tools: [{ name: 'cat', id: 'c3', input: { file_path: 'big.txt' } }] },
    { text: 'It has two lines.' },
  ]);
  await host.run('thanks', [{ text: 'welcome' }]);
  return host;
}

const ok = (text: string) => ({ isError: false, text });
const err = (message: string) => ({ isError: true, text: `Error: ${message}` });
const PREVIEW = `L1\n数\n\n${spillNotice(297, '/spill/session-1/c3.txt')}`;

describe('recall_turn', () => {
  it('ST-29 view "dialogue" gives each user and assistant text once and tool results as locators', async () => {
    const host = await session();
    expect(await callTool(host, 'recall_turn', { turn: '1', view: 'dialogue' })).toEqual(ok([
      '[recall_turn slice-turn-1 · status completed · view dialogue · each text once, tool results as locators; full records: recall_turn({"turn":"1","view":"full"}) · historical record: what was said and done then, not current state]',
      '## User', 'What is in a.ts?',
      '## Assistant', '[step 1]', 'Reading.',
      `[tool step 1 seq 8 · read · ${[...A_READ].length} chars · expand_result({"seq":8,"formatVersion":3})]`,
      `[tool step 1 seq 10 · read · ${[...NOPE].length} chars · expand_result({"seq":10,"formatVersion":3})]`,
      `[tool step 2 seq 15 · cat · ${Array.from(PREVIEW).length} chars · expand_result({"seq":15,"formatVersion":3})]`,
      '[step 3]', 'It has two lines.',
      '## Generated context', '[@deepseek-ai/dsh-system-prompt]', SNAPSHOT,
    ].join('\n')));
  });

  it('ST-29 view "full" (the default) adds every original record of the turn with tool metadata', async () => {
    const host = await session();
    const records = [4, 5, 6, 7, 8, 9, 10, 13, 14, 15, 18].map((seq) => {
      const e = host.session.events[seq]!;
      return JSON.stringify({ seq, type: e.type, data: e.data });
    });
    const page = await callTool(host, 'recall_turn', { turn: 1 });
    expect(page).toEqual(ok([
      '[recall_turn slice-turn-1 · status completed · view full · texts, then every original record of the turn · historical record: what was said and done then, not current state]',
      '## User', 'What is in a.ts?', '## Assistant', '[step 1]', 'Reading.', '[step 3]', 'It has two lines.',
      '## Generated context', '[@deepseek-ai/dsh-system-prompt]', SNAPSHOT,
      '## Records', ...records,
    ].join('\n')));
    expect(page.text).toContain('"type":"reasoning","text":"think"');
    expect(page.text).toContain('"isError":true');
  });

  it('ST-29 the turn may be "N", N or "slice-turn-N"; anything else is an error naming the value', async () => {
    const host = await session();
    const page = await callTool(host, 'recall_turn', { turn: '2', view: 'dialogue' });
    expect(await callTool(host, 'recall_turn', { turn: 2, view: 'dialogue' })).toEqual(page);
    expect(await callTool(host, 'recall_turn', { turn: 'slice-turn-2', view: 'dialogue' })).toEqual(page);
    expect(await callTool(host, 'recall_turn', { turn: 'turn-2' })).toEqual(err('recall_turn: turn must be "N", N or "slice-turn-N" with N >= 1, got "turn-2"'));
    expect(await callTool(host, 'recall_turn', { turn: 0 })).toEqual(err('recall_turn: turn must be "N", N or "slice-turn-N" with N >= 1, got 0'));
    expect(await callTool(host, 'recall_turn', { turn: '1', view: 'raw' })).toEqual(err('recall_turn: view must be "full" or "dialogue", got "raw"'));
  });

  it('ST-29 an unknown turn is an error listing the sealed turns', async () => {
    const host = await session();
    expect(await callTool(host, 'recall_turn', { turn: 9 })).toEqual(err('recall_turn: no recorded turn 9 in this session (sealed turns: 1, 2)'));
    expect(await callTool(tapeHost(), 'recall_turn', { turn: 1 })).toEqual(err('recall_turn: no recorded turn 1 in this session (no sealed turns yet)'));
  });

  it('ST-14 sealed turns stay recallable from the raw log, also after resume', async () => {
    const host = await session();
    const before = await callTool(host, 'recall_turn', { turn: 1, view: 'dialogue' });
    expect(host.session.deriveMessages().map((m) => m.content[0]).some((b) => b?.type === 'text' && b.text.startsWith('[slice tape v1 · turn 1]'))).toBe(true);
    await host.resume();
    expect(await callTool(host, 'recall_turn', { turn: 1, view: 'dialogue' })).toEqual(before);
  });
});

describe('recall_step', () => {
  const head = '[recall_step turn 1 step 2 · 1 call(s) · ';
  const calls = ['## Calls', '→ cat({"file_path":"big.txt"})', '## Results', '[result · cat · seq 15 · expand_result({"seq":15,"formatVersion":3})]'];

  it('ST-30 with the spill store available the spilled original is restored', async () => {
    const host = await session();
    expect(await callTool(host, 'recall_step', { turn: '1', step: '2' })).toEqual(ok([`${head}verbatim tool record · what was executed then, not current state]`, ...calls, BIG].join('\n')));
  });

  it('ST-30 without a store the result is labelled a preview and names the exact expand_result locator', async () => {
    const host = await session({ store: false });
    expect(await callTool(host, 'recall_step', { turn: 1, step: 2 })).toEqual(ok([
      `${head}logged tool record; 1 result part(s) below are previews · what was executed then, not current state]`, ...calls,
      '[preview, NOT the full output: 297 more bytes are stored at /spill/session-1/c3.txt and no spill store is available; full text: expand_result({"seq":15,"formatVersion":3})]',
      PREVIEW,
    ].join('\n')));
  });

  it('ST-30 a store that cannot serve the spill says why, and the rest of the step is still returned', async () => {
    const host = await session();
    host.spillStore.delete('/spill/session-1/c3.txt');
    expect((await callTool(host, 'recall_step', { turn: 1, step: 2 })).text).toContain('and the spill store could not read it (spill store: nothing stored at /spill/session-1/c3.txt); full text: expand_result({"seq":15,"formatVersion":3})]');
  });

  it('ST-30 every call and result of the step, errors marked', async () => {
    const host = await session();
    expect(await callTool(host, 'recall_step', { turn: 1, step: 1 })).toEqual(ok([
      '[recall_step turn 1 step 1 · 2 call(s) · verbatim tool record · what was executed then, not current state]',
      '## Calls', '→ read({"file_path":"a.ts"})', '→ read({"file_path":"nope"})',
      '## Results', '[result · read · seq 8 · expand_result({"seq":8,"formatVersion":3})]', A_READ,
      '[error result · read · seq 10 · expand_result({"seq":10,"formatVersion":3})]', NOPE,
    ].join('\n')));
    expect(await callTool(host, 'recall_step', { turn: 1, step: 3 })).toEqual(err('recall_step: no recorded tool calls for turn 1 step 3'));
    expect(await callTool(host, 'recall_step', { turn: 7, step: 1 })).toEqual(err('recall_step: no recorded turn 7 in this session (sealed turns: 1, 2)'));
  });
});

/** Appends, outside any turn, a tool/result event with two sibling results (calls named `first`/`second`). */
function appendTwoBlockResult(host: TestHost, first: string, second: string, texts: [string, string]): number {
  const s = host.session;
  s.append('tool/call', { turn: 2, step: 1, callId: 'm1', name: first, arguments: '{}' });
  s.append('tool/call', { turn: 2, step: 1, callId: 'm2', name: second, arguments: '{}' });
  const block = (id: string, text: string) => ({ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text }] });
  return s.append('tool/result', { turn: 2, step: 1, message: { id: 'multi', role: 'user', content: [block('m1', texts[0]), block('m2', texts[1])], source: { kind: 'tool', callId: 'm1' } } }, { surfaceOp: 'append' }).seq;
}

describe('expand_result', () => {
  it('ST-31 by seq with formatVersion 3, or by turn/step/call ordinals (call defaults to 1), verbatim', async () => {
    const host = await session();
    expect(await callTool(host, 'expand_result', { seq: 8, formatVersion: 3 })).toEqual(ok(A_READ));
    expect(await callTool(host, 'expand_result', { turn: 1, step: 1 })).toEqual(ok(A_READ));
    expect(await callTool(host, 'expand_result', { turn: '1', step: '1', call: 2 })).toEqual(ok(NOPE));
    expect(await callTool(host, 'expand_result', { seq: 15, formatVersion: 3 })).toEqual(ok(BIG));
    expect(await callTool(host, 'expand_result', { turn: 1, step: 1, call: 3 })).toEqual(err('expand_result: no tool result recorded at turn 1 step 1 call 3 (that step has 2)'));
    expect(await callTool(host, 'expand_result', { seq: 6, formatVersion: 3 })).toEqual(err('expand_result: seq 6 is a assistant/message record, not a tool result'));
    expect(await callTool(host, 'expand_result', { seq: 999, formatVersion: 3 })).toEqual(err(`expand_result: no session event at seq 999 (the log has ${host.session.events.length})`));
    expect(await callTool(host, 'expand_result', {})).toEqual(err('expand_result needs {"seq":Q,"formatVersion":3} or {"turn":T,"step":S,"call":C} (call defaults to 1), got {}'));
  });

  it('ST-31 lines ("a-b", 1-based inclusive) and grep filter; malformed or empty filters return the full result', async () => {
    const host = await session();
    const at = { seq: 15, formatVersion: 3 };
    expect(await callTool(host, 'expand_result', { ...at, lines: '1-1' })).toEqual(ok('L1'));
    expect(await callTool(host, 'expand_result', { ...at, grep: '^数' })).toEqual(ok('数'.repeat(100)));
    expect(await callTool(host, 'expand_result', { ...at, lines: '1-2', grep: 'L' })).toEqual(ok('L1'));
    for (const filter of [{ lines: '2-1' }, { lines: 'x' }, { lines: '' }, { grep: '(' }, { grep: '' }, { lines: 3 }]) {
      expect(await callTool(host, 'expand_result', { ...at, ...filter })).toEqual(ok(BIG));
    }
  });

  it('ST-31 a multi-result event: block selects one (1-based); without it all siblings, each spill restored separately', async () => {
    const host = await session();
    host.spillStore.put('/spill/other.txt', 'SECOND IN FULL');
    const seq = appendTwoBlockResult(host, 'read', 'grep', ['first block', `sec\n\n${spillNotice(11, '/spill/other.txt')}`]);
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3 })).toEqual(ok('[block 1 of 2 · read]\nfirst block\n[block 2 of 2 · grep]\nSECOND IN FULL'));
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3, block: 2 })).toEqual(ok('SECOND IN FULL'));
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3, block: 3 })).toEqual(err(`expand_result: no result block 3 at seq ${seq} (it has 2)`));
    host.spillStore.delete('/spill/other.txt');
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3, block: 1 })).toEqual(ok('first block'));
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3 })).toEqual(err(`expand_result: the full text of seq ${seq} block 2 (11 bytes beyond the logged preview) is stored at /spill/other.txt, and the spill store could not read it (spill store: nothing stored at /spill/other.txt); read that path with the file tools instead`));
  });

  it('ST-14 ST-31 a folded replacement resolves to its original tool/result', async () => {
    const host = await session();
    const s = host.session;
    await host.run('again', [{ tools: [{ name: 'read', id: 'c9', input: { file_path: 'a.ts' } }] }, { text: 'ok' }]);
    const original = s.events.find((e) => e.type === 'tool/result' && (e.data as { message: { source: { callId: string } } }).message.source.callId === 'c9')!.seq;
    // A rewrite keeps everything but the result's content (contract correction 3).
    const data = s.events[original]!.data as { message: { content: [Record<string, unknown>] } };
    const folded = { ...data, message: { ...data.message, content: [{ ...data.message.content[0], content: [{ type: 'text', text: `[folded · expand_result({"seq":${original},"formatVersion":3})]` }] }] } };
    const fold = s.append('tool/result', folded, { surfaceOp: { op: 'replace', start: original, end: original }, sourceEventSeqs: [original] });
    expect(await callTool(host, 'expand_result', { seq: fold.seq, formatVersion: 3 })).toEqual(ok(A_READ));
  });

  it.each([
    [{ seq: 8 }], [{ seq: 8, formatVersion: 2 }], [{ seq: '8' }], [{ seq: 8, formatVersion: '4' }], [{ seq: 123456 }], [{ seq: 123456, formatVersion: 1 }],
  ])('ST-32 %j is refused before any lookup', async (args) => {
    const host = await session();
    expect(await callTool(host, 'expand_result', args)).toEqual(err('expand_result: numeric seq requires formatVersion 3 from a fresh locator'));
  });
});

describe('recall_search', () => {
  /** One turn with every kind of text mentioning "alpha", then a second turn. */
  async function corpus(): Promise<TestHost> {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`/repo/f${i}.txt`, `${'字'.repeat(1000)} alpha ${i} ${'字'.repeat(1000)}`]));
    const host = tapeHost({}, { files });
    host.ctx.systemPrompt!.context({ name: 'env', order: 0, text: 'env alpha context' });
    await host.run('tell me about alpha', [
      { text: 'alpha is the first letter', tools: [{ name: 'read', id: 'in', input: { file_path: 'alpha-missing.txt' } }, ...Array.from({ length: 5 }, (_, i) => ({ name: 'read', id: `o${i}`, input: { file_path: `f${i}.txt` } }))] },
      { text: 'done' },
    ]);
    await host.run('bye', [{ text: 'bye' }]);
    return host;
  }
  const resultSeq = (host: TestHost, callId: string) => host.session.events.find((e) => e.type === 'tool/result' && (e.data as { message: { source: { callId: string } } }).message.source.callId === callId)!.seq;
  const lines = (page: { text: string }) => page.text.split('\n');

  it('ST-33 ST-34 default scope "auto": the dialogue kinds plus at most 3 tool-output hits of at most 600 chars; each hit names its follow-up', async () => {
    const host = await corpus();
    const page = await callTool(host, 'recall_search', { query: 'alpha', limit: 10 });
    const hits = lines(page).slice(1);
    expect(lines(page)[0]).toBe('[recall_search "alpha" · 8 hit(s) over kinds user, assistant, context, tool_input, tool_error, tool_output · historical record; each hit ends with the call that returns its original]');
    expect(hits.filter((h) => h.includes('[tool_output]')).length).toBe(3);
    expect(hits.filter((h) => !h.includes('[tool_output]')).map((h) => h.replace(/\] .* → /, '] … → '))).toEqual([
      `- turn 1 step 1 seq ${resultSeq(host, 'in')} [tool_error] … → expand_result({"seq":${resultSeq(host, 'in')},"formatVersion":3})`,
      '- turn 1 step 1 [assistant] … → recall_turn({"turn":"1","view":"dialogue"})',
      '- turn 1 step 1 [tool_input] … → recall_turn({"turn":"1","view":"full"})',
      '- turn 1 [context] … → recall_turn({"turn":"1","view":"dialogue"})',
      '- turn 1 [user] … → recall_turn({"turn":"1","view":"dialogue"})',
    ]);
    for (const hit of hits.filter((h) => h.includes('[tool_output]'))) {
      const snippet = hit.slice(hit.indexOf('] ') + 2, hit.lastIndexOf(' → '));
      expect(Array.from(snippet.replace(/^…|…$/g, '')).length).toBeLessThanOrEqual(600);
      expect(snippet).toContain('alpha');
      expect(hit).toMatch(/→ expand_result\(\{"seq":\d+,"formatVersion":3\}\)$/);
    }
  });

  it('ST-33 scope "dialogue" skips tool output; explicit kinds override scope; kinds ["tool_output"] has no slot bound', async () => {
    const host = await corpus();
    const kinds = async (input: object) => lines(await callTool(host, 'recall_search', { query: 'alpha', limit: 20, ...input })).slice(1).map((h) => /\[(\w+)\]/.exec(h)![1]);
    expect(await kinds({ scope: 'dialogue' })).toEqual(['tool_error', 'assistant', 'tool_input', 'context', 'user']);
    expect(await kinds({ kinds: ['tool_output'] })).toEqual(Array(5).fill('tool_output'));
    expect(await kinds({ scope: 'dialogue', kinds: ['context', 'user'] })).toEqual(['context', 'user']);
  });

  it('ST-33 no hits says what was searched and that absence is not proof', async () => {
    const host = await corpus();
    expect(await callTool(host, 'recall_search', { query: 'zebra', scope: 'dialogue' })).toEqual(ok('[recall_search "zebra" · 0 hits over kinds user, assistant, context, tool_input, tool_error · not found by this search, which does not mean it never happened; broaden the query, try other kinds, or read a turn with recall_turn]'));
    expect(await callTool(host, 'recall_search', { query: ' ' })).toEqual(err('recall_search: query must be a non-empty string, got " "'));
    expect(await callTool(host, 'recall_search', { query: 'a', kinds: ['files'] })).toEqual(err('recall_search: kinds must be a list of user, assistant, context, tool_input, tool_error, tool_output, got ["files"]'));
    expect(await callTool(host, 'recall_search', { query: 'a', scope: 'all' })).toEqual(err('recall_search: scope must be "auto" or "dialogue", got "all"'));
  });

  it('ST-33 issue 30: a phrase copied from a result finds that result first, before newer ones holding its words apart; a hit on a result over one page names every page', async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `${i} retry limit of the queue consumer ${'x'.repeat(20)}`).join('\n');
    const files = { '/repo/exact.txt': 'const limit = retryLimitOf(queue, 3);', '/repo/apart.txt': 'queue: 3 retryLimitOf limit const; limit limit queue queue', '/repo/big.txt': big };
    const host = tapeHost({ fold: { enabled: false } }, { files });
    host.ctx.tools!.register(catTool(host, '/repo'));
    await host.run('one', [{ tools: [{ name: 'cat', id: 'e', input: { file_path: 'exact.txt' } }] }, { text: 'ok' }]);
    await host.run('two', [{ tools: [{ name: 'cat', id: 'a', input: { file_path: 'apart.txt' } }, { name: 'cat', id: 'b', input: { file_path: 'big.txt' } }] }, { text: 'ok' }]);
    const seq = resultSeq(host, 'b');
    const pages = `3 pages: ${[1, 2, 3].map((p) => `expand_result({"seq":${seq},"formatVersion":3,"page":${p}})`).join(' ')}`;
    const hits = lines(await callTool(host, 'recall_search', { query: 'const limit = retryLimitOf(queue, 3)' })).slice(1);
    expect(hits.map((h) => h.replace(/\] .* → /, '] … → '))).toEqual([
      `- turn 1 step 1 seq ${resultSeq(host, 'e')} [tool_output] … → expand_result({"seq":${resultSeq(host, 'e')},"formatVersion":3})`,
      `- turn 2 step 1 seq ${resultSeq(host, 'a')} [tool_output] … → expand_result({"seq":${resultSeq(host, 'a')},"formatVersion":3})`,
      `- turn 2 step 1 seq ${seq} [tool_output] … → ${pages}`,
    ]);
  });

  it('ST-34 the recall tools\' own inputs and outputs are not indexed; ordinary sibling results in the same event are', async () => {
    const host = tapeHost();
    await host.run('hello', [{ tools: [{ name: 'recall_search', input: { query: 'zebra' } }, { name: 'recall_turn', input: { turn: 'zebra' } }] }, { text: 'ok' }]);
    const seq = appendTwoBlockResult(host, 'recall_turn', 'read', ['zebra from a recall page', 'zebra in a file']);
    const page = await callTool(host, 'recall_search', { query: 'zebra', kinds: ['tool_input', 'tool_output', 'tool_error'] });
    expect(page).toEqual(ok([
      '[recall_search "zebra" · 1 hit(s) over kinds tool_input, tool_output, tool_error · historical record; each hit ends with the call that returns its original]',
      `- turn 2 step 1 seq ${seq} block 2 [tool_output] zebra in a file → expand_result({"seq":${seq},"formatVersion":3,"block":2})`,
    ].join('\n')));
  });
});

describe('turn ownership', () => {
  it('ST-35 a plugin message appended between turns belongs to the turn that just ended, for pages, search and sealing alike', async () => {
    const host = tapeHost({ history: { pinFirstTurn: false } });
    await host.run('one', [{ text: 'r1' }]);
    const between: UserMessage = { id: 'between', role: 'user', content: [{ type: 'text', text: 'projected quokka' }], source: { kind: 'plugin', plugin: 'notes' } };
    host.session.append('user/message', between, { surfaceOp: 'append' });
    host.session.append('user/message', { id: 'stray', role: 'user', content: [{ type: 'text', text: 'stray quokka' }], source: { kind: 'user' } }, { surfaceOp: 'append' });
    await host.run('two', [{ text: 'r2' }]);
    expect((await callTool(host, 'recall_turn', { turn: 1, view: 'dialogue' })).text.endsWith('## Generated context\n[notes]\nprojected quokka')).toBe(true);
    expect(await callTool(host, 'recall_search', { query: 'quokka' })).toEqual(ok([
      '[recall_search "quokka" · 1 hit(s) over kinds user, assistant, context, tool_input, tool_error, tool_output · historical record; each hit ends with the call that returns its original]',
      '- turn 1 [context] projected quokka → recall_turn({"turn":"1","view":"dialogue"})',
    ].join('\n')));
  });
});

describe('registration', () => {
  it('ST-03 the plugin contributes exactly recall_turn, recall_search, recall_step and expand_result', async () => {
    const base = createTestHost().ctx.tools!.schemas().map((s) => s.name);
    const host = tapeHost();
    expect(host.ctx.tools!.schemas().map((s) => s.name).filter((n) => !base.includes(n))).toEqual(['recall_turn', 'recall_search', 'recall_step', 'expand_result']);
  });

  it('ST-02 a second expand_result in the same context fails at load with the registry\'s exact error', () => {
    const host = tapeHost();
    const fold: PluginModule = {
      name: 'dsh-tool-result-fold',
      apply(ctx) {
        ctx.tools!.register({ name: 'expand_result', description: 'x', parameters: { type: 'object' }, output: { schema: { type: 'string' }, render: () => [] }, execute: async () => '' });
      },
    };
    expect(() => host.use(fold)).toThrow(new Error(`tool "expand_result" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`));
    expect(() => host.use(tape as unknown as PluginModule, {})).toThrow(new Error(`tool "recall_turn" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`));
  });

  it('ST-36 issue 30: the recall tools tell the model once (in expand_result, sent with the other three) that absence is unknown, not false, and to recall before denying', () => {
    const host = tapeHost();
    const guidance = 'Absence from the visible history means "unknown" or "not selected", never false and never "it did not happen": recall before denying that something was said.';
    const carrying = ['expand_result', 'recall_search', 'recall_step', 'recall_turn'].filter((name) => host.ctx.tools!.get(name)!.description.includes(guidance));
    expect(carrying).toEqual(['expand_result']);
    expect(host.ctx.tools!.get('expand_result')!.description.split(guidance).length).toBe(2);
  });

  it('ST-29 the recall tools need an agent', async () => {
    const host = tapeHost();
    const result = await host.ctx.tools!.execute({ callId: 'x', name: 'recall_turn', arguments: { turn: 1 }, signal: new AbortController().signal });
    expect(result.content).toEqual([{ type: 'text', text: 'Error: recall_turn runs only inside an agent loop (this execution has no agent)' }]);
  });
});

describe('recall_step and nested calls', () => {
  it('ST-30 calls made from code are listed with their dispatch records', async () => {
    const host = tapeHost({}, { files: { '/repo/a.ts': 'A' }, dispatchRecords: 'ptc-dispatch' });
    await host.run('q', [{ tools: [{ name: 'run_code', id: 'rc', input: { calls: [{ name: 'read', input: { file_path: 'a.ts' } }, { name: 'read', input: { file_path: 'none' } }] } }] }, { text: 'ok' }]);
    const [d1, d2] = host.session.events.filter((e) => e.type === 'tool/ptc-dispatch').map((e) => e.seq);
    const result = host.session.events.find((e) => e.type === 'tool/result')!.seq;
    expect(await callTool(host, 'recall_step', { turn: 1, step: 1 })).toEqual(ok([
      '[recall_step turn 1 step 1 · 1 call(s) · verbatim tool record · what was executed then, not current state]',
      '## Calls', '→ run_code({"calls":[{"name":"read","input":{"file_path":"a.ts"}},{"name":"read","input":{"file_path":"none"}}]})',
      '## Calls made from code (code log; model visibility not implied)',
      `→ read({"file_path":"a.ts"}) · dispatch seq ${d1}`, `→ read({"file_path":"none"}) failed · dispatch seq ${d2}`,
      '## Results', `[result · run_code · seq ${result} · expand_result({"seq":${result},"formatVersion":3})]`,
      `[read] ${readResult('/repo/a.ts', 'A')}\n[read error] ${readMissing('/repo/none')}`,
    ].join('\n')));
  });
});
