// The read index (ST-24..ST-28): exact lines for direct and nested reads, canonical observations,
// fingerprints and comparisons across turns.

import { describe, expect, it } from 'vitest';
import type { SessionEvent, ToolDefinition } from '../../../src/host/index.js';
import type { FingerprintCache } from '../../../src/plugins/slice-tape/index.js';
import type { MemoryFileSystem, TestHost } from '../../../src/testing/index.js';
import { sha, tapeHost, visibleEntries } from './support.js';
import { readResult } from '../../support/file-tools.js';

/** A `read_file`/`read_section`-like tool over the host's files, taking `path` plus window arguments; `image: true` returns only an image. */
function windowTool(name: string, host: TestHost<MemoryFileSystem>): ToolDefinition {
  return {
    name, description: name, parameters: { type: 'object' },
    output: {
      schema: { type: 'object' },
      render: (_a, v) => ((v as { image?: boolean }).image ? [{ type: 'image', attachment: { ref: 'img' } }] : [{ type: 'text', text: (v as { text: string }).text }]),
    },
    execute: async (args) => {
      const a = args as { path: string; offset?: number; limit?: number; image?: boolean };
      if (a.image) return { image: true };
      const lines = (host.fs.read(`/repo/${a.path}`) ?? '').split('\n');
      const from = a.offset ?? 0;
      return { text: lines.slice(from, a.limit === undefined ? undefined : from + a.limit).join('\n') };
    },
  };
}

const resultSeqs = (host: TestHost): number[] => host.session.events.filter((e) => e.type === 'tool/result').map((e) => e.seq);
const dispatchSeqs = (host: TestHost, type: string): number[] => host.session.events.filter((e: SessionEvent) => e.type === type).map((e) => e.seq);
/** The entry sealing `turn` alone (its header names the turn: issue 30 writes no `[turn N]` line then). */
const entryOf = (host: TestHost, turn: number): string | undefined => visibleEntries(host).find((e) => e.startsWith(`[slice tape v1 · turn ${turn}]`));
/** The read-index line of the entry sealing `turn`: since issue 30, reads made from code only. */
const indexLine = (host: TestHost, turn: number): string | undefined => entryOf(host, turn)?.split('\n').find((l) => l.startsWith('[files read this turn: '));
/** The tool lines of the entry sealing `turn`. */
const toolLines = (host: TestHost, turn: number): string[] => entryOf(host, turn)?.split('\n').filter((l) => l.startsWith('[tool seq ')) ?? [];
const A = 'one\ntwo\nthree';
/**
 * `<lines> lines, <fingerprint>` of what DSH's `read` logged for a file: the fingerprint is the whole
 * result's, envelope included; the lines are the file's lines the window shows (issue 30).
 */
const seen = (path: string, content: string): string => {
  const text = readResult(`/repo/${path}`, content);
  const lines = content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
  return `${lines} lines, ${sha(text, 8)}`;
};
/** The file's lines a window of `content` shows. */
const linesOf = (content: string): string => `${content === '' ? 0 : content.replace(/\n$/, '').split('\n').length} lines`;
/**
 * The tape line of a `read` of `path` that returned `content` (its facts ride on it since issue 30:
 * the lines, no size and no fingerprint, which only the code log's index line keeps).
 */
const readLine = (seq: number, path: string, content: string, more = ''): string => `[tool seq ${seq} · read ${JSON.stringify(path)} · ${linesOf(content)}${more}]`;
const files = { '/repo/a.ts': A, '/repo/b.ts': 'b' };

describe('line format', () => {
  it('ST-24 ST-28 issue 30: a direct read\'s lines and 8-hex fingerprint ride on its own tool line (its seq is the locator; default window, no step); no index line is written for it', async () => {
    const host = tapeHost({}, { files });
    await host.run('q', [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(toolLines(host, 1)).toEqual([readLine(resultSeqs(host)[0]!, 'a.ts', A)]);
    expect(indexLine(host, 1)).toBeUndefined();
  });

  it('ST-24 the window is the JSON of the non-path arguments, keys sorted, named when not the default; an empty text has 0 lines', async () => {
    const host = tapeHost({}, { files: { ...files, '/repo/empty.txt': '' } });
    host.ctx.tools!.register(windowTool('read_file', host));
    await host.run('q', [{ tools: [{ name: 'read_file', input: { path: 'a.ts', offset: 1, limit: 1 } }, { name: 'read', input: { file_path: 'empty.txt' } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    const [r1, r2] = resultSeqs(host);
    expect(toolLines(host, 1)).toEqual([`[tool seq ${r1} · read_file "a.ts" · 1 lines, window {"limit":1,"offset":1}]`, readLine(r2!, 'empty.txt', '')]);
  });

  it.each(['ptc-dispatch', 'code-dispatch'] as const)('ST-24 ST-28 a nested read (%s records) points to the dispatch and says the model may not have seen it', async (records) => {
    const host = tapeHost({}, { files, dispatchRecords: records });
    await host.run('q', [{ tools: [{ name: 'run_code', input: { calls: [{ name: 'read', input: { file_path: 'a.ts' } }] } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    const dispatch = dispatchSeqs(host, `tool/${records}`)[0];
    expect(indexLine(host, 1)).toBe(`[files read this turn: a.ts (${seen('a.ts', A)}, dispatch seq ${dispatch}, read window default, code log; model visibility not implied; recall_turn({"turn":"1","view":"full"}))]`);
  });
});

describe('what is indexed', () => {
  it('ST-25 a failed read carries no facts on its line; the successful retry does', async () => {
    const host = tapeHost({}, { files });
    await host.run('q', [{ tools: [{ name: 'read', input: { file_path: 'missing.ts' } }] }, { tools: [{ name: 'read', input: { file_path: 'a.ts' } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    const [failed, retry] = toolLines(host, 1);
    expect(failed).toMatch(/^\[tool seq \d+ · read "missing\.ts" · \d+ chars\]$/);
    expect(retry).toBe(readLine(resultSeqs(host)[1]!, 'a.ts', A));
  });

  it('ST-25 issue 30: every successful direct read shows what it returned on its own line, whatever came later (an edit between two reads, a window, a failed re-read)', async () => {
    const host = tapeHost({}, { files });
    host.ctx.tools!.register({
      name: 'rm', description: 'rm', parameters: { type: 'object' }, output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: v as string }] },
      execute: async (args) => (host.fs.remove((args as { path: string }).path), 'removed'),
    });
    const read = (path: string) => ({ name: 'read', input: { file_path: path } });
    await host.run('q', [
      { tools: [read('a.ts'), read('b.ts')] },
      { tools: [{ name: 'write', input: { file_path: 'a.ts', content: 'new' } }] },
      { tools: [read('a.ts')] },
      { tools: [{ name: 'read', input: { file_path: 'a.ts', bogus: 'not a window the tool accepts' } }] },
      { tools: [{ name: 'rm', input: { path: '/repo/b.ts' } }, read('b.ts')] },
      { text: 'ok' },
    ]);
    await host.run('next', [{ text: 'ok' }]);
    const seqs = resultSeqs(host);
    const lines = toolLines(host, 1);
    expect([lines[0], lines[1], lines[3], lines[4]]).toEqual([
      readLine(seqs[0]!, 'a.ts', A), readLine(seqs[1]!, 'b.ts', 'b'), readLine(seqs[3]!, 'a.ts', 'new'),
      readLine(seqs[4]!, 'a.ts', 'new', ', window {"bogus":"not a window the tool accepts"}'),
    ]);
    expect(lines[6]).toMatch(/^\[tool seq \d+ · read "b\.ts" · \d+ chars\]$/);
    expect(indexLine(host, 1)).toBeUndefined();
  });

  it('ST-25 an image-only success is not indexed', async () => {
    const host = tapeHost({}, { files });
    host.ctx.tools!.register(windowTool('read_section', host));
    await host.run('q', [{ tools: [{ name: 'read_section', input: { path: 'a.ts', image: true } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    expect(indexLine(host, 1)).toBeUndefined();
    expect(toolLines(host, 1)).toEqual([`[tool seq ${resultSeqs(host)[0]} · read_section "a.ts" · 0 chars]`]);
  });

  it('ST-26 reads made from code: the last success per key, at most 10 entries, then +N more', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/repo/f${i}.ts`, `${i}`]));
    const host = tapeHost({}, { files: many, dispatchRecords: 'code-dispatch' });
    const calls = Array.from({ length: 12 }, (_, i) => ({ name: 'read', input: { file_path: `f${i}.ts` } }));
    await host.run('q', [{ tools: [{ name: 'run_code', input: { calls: [calls[0], ...calls] } }] }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    const dispatches = dispatchSeqs(host, 'tool/code-dispatch');
    // f0 was read twice: its canonical observation is the second read, shown where f0 was first seen.
    const shown = Array.from({ length: 10 }, (_, i) => `f${i}.ts (${seen(`f${i}.ts`, `${i}`)}, dispatch seq ${dispatches[i + 1]}, read window default, code log; model visibility not implied; recall_turn({"turn":"1","view":"full"}))`);
    expect(indexLine(host, 1)).toBe(`[files read this turn: ${shown.join(', ')}, +2 more]`);
  });

  it('ST-26 issue 30: direct reads are never capped: every one keeps its line and its facts', async () => {
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`/repo/f${i}.ts`, `${i}`]));
    const host = tapeHost({}, { files: many });
    await host.run('q', [{ tools: Array.from({ length: 12 }, (_, i) => ({ name: 'read', input: { file_path: `f${i}.ts` } })) }, { text: 'ok' }]);
    await host.run('next', [{ text: 'ok' }]);
    const seqs = resultSeqs(host);
    expect(toolLines(host, 1)).toEqual(Array.from({ length: 12 }, (_, i) => readLine(seqs[i]!, `f${i}.ts`, `${i}`)));
  });
});

describe('comparison with earlier turns', () => {
  it('ST-27 the same key in a later turn says = or ≠ and names the earlier turn and seq (its block when not the first)', async () => {
    const host = tapeHost({}, { files });
    const read = { tools: [{ name: 'read', input: { file_path: 'a.ts' } }] };
    await host.run('one', [read, { text: 'ok' }]);
    await host.run('two', [read, { text: 'ok' }]);
    await host.run('three', [{ tools: [{ name: 'write', input: { file_path: 'a.ts', content: 'changed' } }] }, read, { text: 'ok' }]);
    await host.run('four', [{ text: 'ok' }]);
    const seqs = resultSeqs(host);
    expect(toolLines(host, 2)).toEqual([readLine(seqs[1]!, 'a.ts', A, `, = turn 1 seq ${seqs[0]}`)]);
    expect(toolLines(host, 3)[1]).toBe(readLine(seqs[3]!, 'a.ts', 'changed', `, ≠ turn 2 seq ${seqs[1]}`));
  });

  it('ST-27 different windows or channels are never compared; failed earlier reads are not history', async () => {
    const host = tapeHost({}, { files, dispatchRecords: 'ptc-dispatch' });
    host.ctx.tools!.register(windowTool('read_file', host));
    await host.run('one', [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }, { name: 'read', input: { file_path: 'gone.ts' } }] }, { text: 'ok' }]);
    host.fs.write('/repo/gone.ts', 'now here');
    await host.run('two', [{
      tools: [
        { name: 'run_code', input: { calls: [{ name: 'read', input: { file_path: 'a.ts' } }] } },
        { name: 'read_file', input: { path: 'a.ts', offset: 0 } },
        { name: 'read', input: { file_path: 'gone.ts' } },
      ],
    }, { text: 'ok' }]);
    await host.run('three', [{ text: 'ok' }]);
    const entry = entryOf(host, 2)!;
    expect(entry).not.toContain('= turn');
    expect(entry).not.toContain('≠ turn');
    // The nested read in the index, the windowed and the direct read on their lines, each with its facts.
    expect(indexLine(host, 2)!.split('), ').length).toBe(1);
    expect(toolLines(host, 2).filter((l) => / · \d+ lines[,\]]/.test(l))).toHaveLength(2);
  });
});

describe('fingerprint cache', () => {
  it('ST-27 with a session cache each read record is hashed once, and the plan is the same', async () => {
    const { engineText, planSeal } = await import('../../../src/plugins/slice-tape/index.js');
    const { createTestHost } = await import('../../../src/testing/index.js');
    const host = createTestHost({ cwd: '/repo', files });
    for (const q of ['one', 'two']) await host.run(q, [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }, { name: 'read', input: { file_path: 'b.ts' } }] }, { text: 'ok' }]);
    const hashed: string[] = [];
    const ops = { ...engineText, sha256Hex: (t: string) => (hashed.push(t), engineText.sha256Hex(t)) };
    const history = { keepRecentTurns: 0, pinFirstTurn: true, pinUserChars: 1200, entryMaxChars: 8000, pinReplyChars: 0, startAfterChars: 0 };
    const fingerprints: FingerprintCache = new Map();
    const plan = () => planSeal(host.session, [], { history, ops, warn: () => {}, warned: new Set(), fingerprints });
    const logged = [readResult('/repo/a.ts', A), readResult('/repo/b.ts', 'b')];
    const first = plan();
    const readsHashed = hashed.filter((t) => logged.includes(t)).length;
    expect(readsHashed).toBe(4);
    expect(plan()).toEqual(first);
    expect(hashed.filter((t) => logged.includes(t)).length).toBe(4);
  });
});
