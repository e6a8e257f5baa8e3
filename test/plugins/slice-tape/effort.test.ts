// defaultReasoningEffort (ST-10): injected only when nobody chose and the model declares the level.

import { describe, expect, it } from 'vitest';
import type { LlmCallConfig } from '../../../src/host/index.js';
import { tapeHost } from './support.js';

const models = { 'ds/reasoner': ['off', 'low', 'high'], 'ds/fast': ['high'], 'ds/plain': null };
const run = async (config: object, model: string, options: { models?: typeof models; explicit?: string } = { models }) => {
  const host = tapeHost(config, { agentOptions: { provider: 'ds', model }, ...(options.models !== undefined ? { models: options.models } : {}) });
  if (options.explicit !== undefined) {
    // Registered after the plugin, so it runs inside it: the choice comes from the host side.
    host.ctx.on('agent/request', async (_e: unknown, next: () => Promise<LlmCallConfig>) => ({ ...(await next()), reasoningEffort: options.explicit }));
  }
  await host.run('q1', [{ text: 'a' }]);
  await host.run('q2', [{ text: 'b' }]);
  return { calls: host.requests.map((r) => r.call), warnings: host.logs.filter((l) => l.level === 'warn').map((l) => l.message) };
};

describe('defaultReasoningEffort', () => {
  it('ST-10 the default (low) is injected when the resolved model declares it', async () => {
    expect(await run({}, 'reasoner')).toEqual({ calls: Array(2).fill({ provider: 'ds', model: 'reasoner', reasoningEffort: 'low' }), warnings: [] });
    expect((await run({ defaultReasoningEffort: 'off' }, 'reasoner')).calls[0]).toEqual({ provider: 'ds', model: 'reasoner', reasoningEffort: 'off' });
  });

  it('ST-10 an explicit host or model choice always wins', async () => {
    expect((await run({}, 'reasoner', { models, explicit: 'high' })).calls).toEqual(Array(2).fill({ provider: 'ds', model: 'reasoner', reasoningEffort: 'high' }));
  });

  it('ST-10 unknown capability keeps the adapter default, silently', async () => {
    expect(await run({}, 'unregistered')).toEqual({ calls: Array(2).fill({ provider: 'ds', model: 'unregistered' }), warnings: [] });
    expect(await run({}, 'reasoner', {})).toEqual({ calls: Array(2).fill({ provider: 'ds', model: 'reasoner' }), warnings: [] });
  });

  it('ST-10 declared levels without the requested one: one warning per route, nothing injected', async () => {
    expect(await run({}, 'fast')).toEqual({
      calls: Array(2).fill({ provider: 'ds', model: 'fast' }),
      warnings: ['slice tape: defaultReasoningEffort=low is not declared by ds/fast (declared: high); keeping the adapter default'],
    });
    expect((await run({ defaultReasoningEffort: 'max' }, 'plain')).warnings).toEqual(['slice tape: defaultReasoningEffort=max is not declared by ds/plain (declared: none); keeping the adapter default']);
  });

  it('ST-10 [R] inherit injects nothing even when declared', async () => {
    expect(await run({ defaultReasoningEffort: 'inherit' }, 'reasoner')).toEqual({ calls: Array(2).fill({ provider: 'ds', model: 'reasoner' }), warnings: [] });
  });
});
