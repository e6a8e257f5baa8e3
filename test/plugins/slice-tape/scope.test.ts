// Scope and composition (ST-01, ST-02a): the tape is additive and writes only what DSH can reload.

import { describe, expect, it } from 'vitest';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { createTestHost } from '../../../src/testing/index.js';
import { tapeHost } from './support.js';

/** Session event types the host knows (contract §5.1); DSH refuses to reload any other. */
const KNOWN = ['turn/start', 'turn/end', 'step/start', 'step/end', 'user/message', 'assistant/message', 'tool/call', 'tool/result', 'tool/code-dispatch-start', 'tool/code-dispatch', 'agent/inbox/spliced'];

describe('composition', () => {
  it('ST-02a the plugin is named slice-tape and has DSH\'s module shape', () => {
    expect(tape.name).toBe('slice-tape');
    expect('default' in tape).toBe(false);
    expect(tape.inject).toEqual(['tools']);
  });

  it('ST-01 it adds only itself: no prompt sections or contexts, and sealing, folding and recall write only event types the host knows', async () => {
    const bare = createTestHost({ cwd: '/repo' });
    const host = tapeHost({ fold: { spillPreviewMinBytes: 100 } }, { files: { '/repo/big.txt': 'x'.repeat(500) } });
    await host.run('one', [{ tools: [{ name: 'read', input: { file_path: 'big.txt' } }, { name: 'run_code', input: { calls: [{ name: 'read', input: { file_path: 'big.txt' } }] } }] }, { tools: [{ name: 'recall_turn', input: { turn: 1 } }] }, { text: 'r1' }]);
    await host.run('two', [{ text: 'r2' }]);
    await host.run('three', [{ text: 'r3' }]);
    expect([...new Set(host.session.events.map((e) => e.type))].filter((t) => !KNOWN.includes(t))).toEqual([]);
    expect(host.session.events.filter((e) => e.surfaceOp !== undefined && e.surfaceOp !== 'append').length).toBeGreaterThan(2);
    expect(await host.core.prompt.assemble({})).toEqual({ ...(await bare.core.prompt.assemble({})), tools: expect.any(Array) });
  });
});

describe('unload', () => {
  it('ST-01 unloading the plugin removes its tools and its pre-step policy', async () => {
    const host = createTestHost({ cwd: '/repo' });
    const handle = host.use(tape, {});
    await host.run('one', [{ text: 'r1' }]);
    handle.dispose();
    expect(host.ctx.tools!.get('expand_result')).toBeUndefined();
    await host.run('two', [{ text: 'r2' }]);
    await host.run('three', [{ text: 'r3' }]);
    expect(host.session.events.some((e) => e.surfaceOp !== undefined && e.surfaceOp !== 'append')).toBe(false);
  });
});
