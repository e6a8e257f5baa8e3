// Where injected messages go (AM-27 step 7), without a host.

import { describe, expect, it } from 'vitest';
import { insertionPoint } from '../../../src/plugins/auto-memory/inject.js';
import type { UserMessage } from '../../../src/host/index.js';

const msg = (id: string, kind = 'user'): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind } });

describe('insertion point', () => {
  it('AM-27 first step: before this turn\'s new user message, after claimed next-step items', () => {
    const steer = msg('ctx', 'plugin');
    const prompt = msg('prompt');
    const snapshot = msg('snapshot', 'plugin');
    expect(insertionPoint([steer, prompt, snapshot], [steer, prompt], 1)).toBe(1);
    expect(insertionPoint([prompt], [prompt], 1)).toBe(0);
  });

  it('AM-27 later steps: right after the last claimed message, before the runtime snapshot and other additions', () => {
    const a = msg('a', 'plugin');
    const b = msg('b', 'user');
    const snapshot = msg('snapshot', 'plugin');
    expect(insertionPoint([a, b, snapshot], [a, b], 2)).toBe(2);
    expect(insertionPoint([snapshot], [], 2)).toBe(0);
    expect(insertionPoint([], [], 3)).toBe(0);
  });

  it('AM-27 a claimed prompt another listener removed: after the last claimed message still present', () => {
    const a = msg('a', 'plugin');
    const prompt = msg('prompt');
    expect(insertionPoint([a, msg('other', 'plugin')], [a, prompt], 1)).toBe(1);
  });
});
