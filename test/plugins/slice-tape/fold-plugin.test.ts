// The standalone fold (ST-02, ST-11): mountable without the slice policy; its expand_result
// collides with the tape's at load, as the seed says the standalone fold's does.

import { describe, expect, it } from 'vitest';
import type { PluginModule } from '../../../src/host/index.js';
import * as fold from '../../../src/plugins/slice-tape/fold-plugin.js';
import * as tape from '../../../src/plugins/slice-tape/index.js';
import { ConfigValidationError, createTestHost, validateConfig } from '../../../src/testing/index.js';
import { callTool } from './support.js';
import { catTool } from '../../support/cat-tool.js';

describe('slice-tape/fold', () => {
  it('ST-11 defaults, flat keys, and exact errors', () => {
    expect(validateConfig(fold.Config, undefined)).toEqual({ enabled: true, pinSteps: 0, pinMaxChars: 8000, spillPreviewMinBytes: 50000, backoffAfterExpansions: 2, digest: {} });
    expect(() => validateConfig(fold.Config, { history: {} })).toThrow(new ConfigValidationError([{ message: 'Unknown fold configuration history; valid keys: enabled, pinSteps, pinMaxChars, spillPreviewMinBytes, backoffAfterExpansions, digest', path: ['history'] }]));
    expect(() => validateConfig(fold.Config, { pinSteps: -1 })).toThrow('invalid config:\n  - pinSteps must be a safe integer >= 0, got -1 (at pinSteps)');
  });

  it('ST-02 ST-11 without the slice policy it folds unsent large results and serves expand_result; nothing is sealed', async () => {
    const big = 'x'.repeat(3000);
    const host = createTestHost({ cwd: '/repo', files: { '/repo/big.txt': big } });
    host.ctx.tools!.register(catTool(host, '/repo'));
    host.use(fold as unknown as PluginModule, { spillPreviewMinBytes: 1000 });
    await host.run('q', [{ tools: [{ name: 'cat', id: 'c1', input: { file_path: 'big.txt' } }] }, { text: 'ok' }]);
    await host.run('q2', [{ text: 'ok' }]);
    const seq = host.session.events.find((e) => e.type === 'tool/result')!.seq;
    const sent = host.requests[1]!.messages.find((m) => m.source.kind === 'tool')!.content[0];
    expect(sent).toEqual({ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: `[condensed tool result · turn 1 step 1 call 1 · 3000 chars · full text: expand_result({"seq":${seq},"formatVersion":3})]\n${'x'.repeat(1200)}…[+1200 chars]…${'x'.repeat(600)}` }], isError: false });
    expect(await callTool(host, 'expand_result', { seq, formatVersion: 3 })).toEqual({ isError: false, text: big });
    expect(host.ctx.tools!.get('recall_turn')).toBeUndefined();
    expect(host.session.deriveMessages().map((m) => m.source.kind)).toEqual(['user', 'model', 'tool', 'model', 'user', 'model']);
  });

  it('ST-02 mounted beside the tape, the second expand_result fails at load with the registry\'s error', () => {
    const host = createTestHost();
    host.use(tape as unknown as PluginModule, {});
    expect(() => host.use(fold as unknown as PluginModule, {})).toThrow(new Error(`tool "expand_result" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`));
  });
});
