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

describe('insertion point beside the instruction loader (AM-27, WC contract §10.1)', () => {
  const wc = (id: string, kind = 'agent-instructions'): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind } });

  it('AM-27 later steps: after workspace instructions the loader placed right after the claimed messages, whichever listener ran first', () => {
    const claimed = msg('claimed', 'plugin');
    const snapshot = msg('snapshot', 'plugin');
    // The loader ran inside us: its message is already in the decision; we go after it.
    expect(insertionPoint([claimed, wc('instructions'), snapshot], [claimed], 2)).toBe(2);
    expect(insertionPoint([wc('instructions'), wc('legacy', 'workspace-instructions'), snapshot], [], 3)).toBe(2);
    // A claimed instruction message counts as claimed, not as the loader's addition.
    const pending = wc('pending');
    expect(insertionPoint([pending, snapshot], [pending], 2)).toBe(1);
    // The loader's message elsewhere (not right after the claimed ones) does not move us.
    expect(insertionPoint([claimed, snapshot, wc('late')], [claimed], 2)).toBe(1);
  });

  it('AM-27 first step: still before the user’s new message, whatever the loader did', () => {
    const prompt = msg('prompt');
    expect(insertionPoint([prompt, wc('baseline'), msg('snapshot', 'plugin')], [prompt], 1)).toBe(0);
  });
});
