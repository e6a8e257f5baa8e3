// Contract §8: system-prompt sections, variables, scoping and the assemble waterfall.

import { describe, expect, it } from 'vitest';
import type { AssembleContext, Context, PromptAssembly } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';

describe('sections', () => {
  it('§8 sections render in ascending order (stable), functions are called, empty ones dropped, joined by a blank line', async () => {
    const host = createTestHost({ cwd: '/w' });
    const sp = host.ctx.systemPrompt;
    sp.section({ name: 'tool:read', order: 100, text: 'Use read.' });
    sp.section({ name: 'harness:identity', order: -100, text: 'You are an AI agent powered by DeepSeek Harness.' });
    sp.section({ name: 'empty', order: 5, text: () => '' });
    sp.section({ name: 'deployment:persona', order: 0, text: (ctx: AssembleContext) => `persona for ${ctx.agent?.id ?? 'nobody'}` });
    sp.section({ name: 'tool:write', order: 100, text: 'Use write.' });
    await host.run('go', [{ text: 'ok' }]);
    expect(host.requests[0]!.system).toBe('You are an AI agent powered by DeepSeek Harness.\n\npersona for session-1\n\nUse read.\n\nUse write.');
  });

  it('§8 {{variables}} interpolate strictly: an unknown or undefined variable throws', async () => {
    const host = createTestHost();
    const sp = host.ctx.systemPrompt;
    sp.variable('cwd', () => '/w');
    sp.variable('missing', () => undefined);
    const off = sp.section({ name: 's', order: 0, text: 'cwd is {{cwd}}' });
    expect((await sp.assemble()).sections).toEqual([{ name: 's', text: 'cwd is /w' }]);
    off();
    const off2 = sp.section({ name: 's', order: 0, text: '{{nope}}' });
    await expect(sp.assemble()).rejects.toThrow('system prompt section "s" references unknown variable "nope"');
    off2();
    const off3 = sp.section({ name: 's', order: 0, text: '{{missing}}' });
    await expect(sp.assemble()).rejects.toThrow('system prompt section "s" references undefined variable "missing"');
    off3();
    expect(() => sp.variable('Bad', () => '')).toThrow('system prompt variable name "Bad" must match /^[a-z][a-z0-9_]*$/');
    // Issue 32 item 13: as in DSH, only a registered variable counts, never a name Object.prototype answers.
    sp.section({ name: 's', order: 0, text: '{{constructor}}' });
    await expect(sp.assemble()).rejects.toThrow('system prompt section "s" references unknown variable "constructor"');
  });

  it('§8 an agent-scoped section shadows the global one of the same name; a duplicate in one layer throws', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'global' });
    expect(() => host.ctx.systemPrompt.section({ name: 'persona', order: 1, text: 'again' })).toThrow('system prompt section "persona" is already registered');
    const agent = await host.start();
    agent.ctx.systemPrompt.section({ name: 'persona', order: 0, text: 'scoped' });
    expect((await host.ctx.systemPrompt.assemble({ agent, scope: agent })).sections).toEqual([{ name: 'persona', text: 'scoped' }]);
    expect((await host.ctx.systemPrompt.assemble()).sections).toEqual([{ name: 'persona', text: 'global' }]);
  });

  it('§8 a complete section alone becomes the prompt and survives an assemble listener that drops it', async () => {
    const host = createTestHost();
    host.ctx.systemPrompt.section({ name: 'a', order: 0, text: 'A' });
    host.ctx.systemPrompt.section({ name: 'only', order: 1, text: 'ONLY', complete: true });
    host.ctx.on('system-prompt/assemble', async () => ({ sections: [], contexts: [], tools: [], variables: {} }));
    expect((await host.ctx.systemPrompt.assemble()).sections).toEqual([{ name: 'only', text: 'ONLY' }]);
  });
});

describe('system-prompt/assemble', () => {
  it('CP-19 a listener filters sections and tools; the model request uses the returned assembly', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.ctx.systemPrompt.section({ name: 'keep', order: 0, text: 'kept' });
    host.ctx.systemPrompt.section({ name: 'drop', order: 1, text: 'dropped' });
    host.use({
      name: 'p',
      apply: (ctx: Context) => void ctx.on('system-prompt/assemble', async (a: PromptAssembly, _c: AssembleContext, next: () => Promise<PromptAssembly>) => {
        const assembled = await next();
        return { ...assembled, sections: assembled.sections.filter((s) => s.name !== 'drop'), tools: assembled.tools.filter((t) => t.name === 'read') };
      }),
    });
    await host.run('go', [{ text: 'ok' }]);
    expect(host.requests[0]).toMatchObject({ system: 'kept', tools: [{ name: 'read', description: 'Read a UTF-8 text file and return line-numbered content.' }] });
  });

  it('§8 system-prompt/change fires on every registration change, unfiltered', () => {
    const host = createTestHost();
    let changes = 0;
    host.ctx.on('system-prompt/change', () => changes++);
    const off = host.ctx.systemPrompt.section({ name: 's', order: 0, text: 'x' });
    host.ctx.systemPrompt.context({ name: 'c', order: 0, text: 'y' });
    off();
    expect(changes).toBe(3);
  });

  it('§6 2c suppressRuntimeContext stops the runtime-context snapshot', async () => {
    const host = createTestHost({ cwd: '/w' });
    host.ctx.systemPrompt.context({ name: 'c', order: 0, text: 'ctx' });
    const lift = host.ctx.systemPrompt.suppressRuntimeContext();
    await host.run('a', [{ text: 'x' }]);
    lift();
    await host.run('b', [{ text: 'y' }]);
    expect(host.requests.map((r) => r.messages.filter((m) => m.source.kind === 'plugin').length)).toEqual([0, 1]);
  });
});
