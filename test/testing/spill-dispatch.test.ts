// Host pieces the slice tape needs (spec X-12): the spill policy and store, session format 3's
// `tool/ptc-dispatch` records for nested Code Mode calls, the `agent/request` waterfall and the
// model capability lookup.

import { readResult } from '../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import { declaredEfforts, parseSpillNotice, spillNotice, type LlmCallConfig, type LlmService, type SpillStore } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';
import { catTool } from '../support/cat-tool.js';

describe('spill store', () => {
  it('X-12 a result over the limit is logged as head + notice, and the store returns the full text; a read is never spilled (DSH rc.8)', async () => {
    const big = 'x'.repeat(100) + '\n' + '数'.repeat(50);
    const host = createTestHost({ cwd: '/r', files: { '/r/big.txt': big }, spill: { overBytes: 64, previewBytes: 10 } });
    host.ctx.tools!.register(catTool(host, '/r'));
    await host.run('go', [{ tools: [{ name: 'cat', input: { file_path: 'big.txt' }, id: 'c1' }, { name: 'read', input: { file_path: 'big.txt' }, id: 'c2' }] }, { text: 'ok' }]);
    const [result, read] = host.session.events.filter((e) => e.type === 'tool/result').map((e) => e.data as { message: { content: { content: { text: string }[] }[] } });
    expect(read!.message.content[0]!.content).toEqual([{ type: 'text', text: readResult('/r/big.txt', big) }]);
    const text = result!.message.content[0]!.content[0]!.text;
    const omitted = Buffer.byteLength(big) - 10;
    expect(text).toBe(`xxxxxxxxxx\n\n${spillNotice(omitted, '/spill/session-1/c1.txt')}`);
    expect(parseSpillNotice(text)).toEqual({ omittedBytes: omitted, locator: '/spill/session-1/c1.txt' });
    const store = host.ctx.get('spill') as SpillStore;
    expect(await store.read('/spill/session-1/c1.txt')).toBe(big);
    expect(parseSpillNotice('plain text')).toBeUndefined();
  });

  it('X-12 without a store the preview is still logged and ctx.get("spill") is undefined', async () => {
    const host = createTestHost({ cwd: '/r', files: { '/r/big.txt': 'y'.repeat(100) }, spill: { overBytes: 64, store: false } });
    host.ctx.tools!.register(catTool(host, '/r'));
    await host.run('go', [{ tools: [{ name: 'cat', input: { file_path: 'big.txt' } }] }, { text: 'ok' }]);
    const logged = (host.session.events.find((e) => e.type === 'tool/result')!.data as { message: { content: { content: { text: string }[] }[] } }).message.content[0]!.content[0]!.text;
    expect(parseSpillNotice(logged)?.locator).toBe('/spill/session-1/call-1.txt');
    expect(host.ctx.get('spill')).toBeUndefined();
    expect(createTestHost().ctx.get('spill')).toBeUndefined();
  });
});

describe('tool/ptc-dispatch', () => {
  it('X-12 format-3 hosts log one tool/ptc-dispatch record per nested call', async () => {
    const host = createTestHost({ cwd: '/r', files: { '/r/a.txt': 'A' }, dispatchRecords: 'ptc-dispatch' });
    await host.run('go', [{ tools: [{ name: 'run_code', id: 'rc', input: { calls: [{ name: 'read', input: { file_path: 'a.txt' } }] } }] }, { text: 'ok' }]);
    const records = host.session.events.filter((e) => e.type.startsWith('tool/') && e.type.includes('dispatch')).map((e) => [e.type, e.data]);
    expect(records).toEqual([['tool/ptc-dispatch', { turn: 1, step: 1, rootCallId: 'rc', callId: 'rc:code:1', name: 'read', arguments: '{"file_path":"a.txt"}', isError: false, content: [{ type: 'text', text: readResult('/r/a.txt', 'A') }] }]]);
  });
});

describe('agent/request and model capabilities', () => {
  it('X-12 each step\'s call configuration goes through the agent/request waterfall and is recorded with the request', async () => {
    const host = createTestHost({ agentOptions: { provider: 'ds', model: 'chat' } });
    host.ctx.on('agent/request', async (_event: unknown, next: () => Promise<LlmCallConfig>) => ({ ...(await next()), reasoningEffort: 'high' }));
    await host.run('go', [{ text: 'ok' }]);
    expect(host.requests.map((r) => r.call)).toEqual([{ provider: 'ds', model: 'chat', reasoningEffort: 'high' }]);
  });

  it('X-12 ctx.llm resolves declared efforts for known routes; unknown routes and no service mean unknown', async () => {
    const host = createTestHost({ models: { 'ds/chat': ['low', 'high'], 'ds/plain': null } });
    const llm = host.ctx.get('llm') as LlmService;
    expect(await declaredEfforts(llm, 'ds', 'chat')).toEqual(['low', 'high']);
    expect(await declaredEfforts(llm, 'ds', 'plain')).toEqual([]);
    expect(await declaredEfforts(llm, 'ds', 'other')).toBeUndefined();
    expect(await declaredEfforts(createTestHost().ctx.get('llm') as LlmService | undefined, 'ds', 'chat')).toBeUndefined();
  });
});
