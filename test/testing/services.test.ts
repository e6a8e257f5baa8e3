// The simulated host's services as DSH rc.8 has them (contract correction 4): services provided
// while plugins run and `ctx.inject` children that follow them, the `webServer` route table, and
// `llm.stream`'s chunk protocol.

import { describe, expect, it } from 'vitest';
import type { Context, LlmStreamChunk } from '../../src/host/index.js';
import { createMemoryFileSystem, createTestHost, TestLlm, TestWebServer } from '../../src/testing/index.js';

describe('services and ctx.inject (Cordis)', () => {
  it('ctx.inject runs its child when the service appears, reloads it when the service is replaced, unloads it when the service or the plugin goes', () => {
    const host = createTestHost();
    const seen: string[] = [];
    const handle = host.use({
      name: 'watcher',
      apply(ctx: Context) {
        ctx.inject(['thing'], (child) => {
          seen.push(`load ${String(child.get('thing'))}`);
          child.effect(() => () => void seen.push(`unload ${String(child.get('thing'))}`));
        });
      },
    });
    expect(seen).toEqual([]);
    const removeA = host.provide('thing', 'A');
    removeA();
    const removeB = host.provide('thing', 'B');
    expect(() => host.provide('thing', 'C')).toThrow('service "thing" is already provided');
    handle.dispose();
    removeB();
    expect(seen).toEqual(['load A', 'unload undefined', 'load B', 'unload B']);
  });

  it('ctx.inject on fs keeps its child while another service comes and goes: every lookup hands out a new proxy, the provider behind it is the same', () => {
    const host = createTestHost({ fs: createMemoryFileSystem() });
    let loads = 0;
    host.use({ name: 'fs-watcher', apply: (ctx: Context) => void ctx.inject(['fs'], () => void loads++) });
    const remove = host.provide('thing', 'A');
    remove();
    expect(loads).toBe(1);
  });
});

describe('TestWebServer (DSH\'s webServer)', () => {
  it('exact routes win over prefixes, the longest prefix wins, nothing matching is an empty 404, a throw is a 400 and is logged', async () => {
    const warned: unknown[][] = [];
    const web = new TestWebServer({ warn: (...args) => void warned.push(args) });
    const text = (body: string) => (_req: unknown, res: import('node:http').ServerResponse) => void res.end(body);
    web.register({ kind: 'prefix', path: '/a', handler: text('prefix a') });
    web.register({ kind: 'prefix', path: '/a/b', handler: text('prefix a/b') });
    web.register({ kind: 'exact', path: '/a/b/c', handler: text('exact') });
    const undo = web.register({ kind: 'exact', path: '/boom', handler: () => { throw new Error('kaput'); } });
    expect(() => web.register({ kind: 'prefix', path: '/a', handler: text('again') })).toThrow('webserver: duplicate prefix route "/a"');
    const { url, close } = await web.listen();
    try {
      const get = async (path: string) => {
        const response = await fetch(url + path);
        return [response.status, await response.text()];
      };
      expect(await get('/a')).toEqual([200, 'prefix a']);
      expect(await get('/a/x?y=1')).toEqual([200, 'prefix a']);
      expect(await get('/a/b/d')).toEqual([200, 'prefix a/b']);
      expect(await get('/a/b/c')).toEqual([200, 'exact']);
      expect(await get('/ab')).toEqual([404, '']);
      expect(await get('/boom')).toEqual([400, '']);
      expect(String(warned[0]?.[1])).toContain('kaput');
      undo();
      expect(await get('/boom')).toEqual([404, '']);
    } finally {
      await close();
    }
  });
});

describe('TestLlm (DSH\'s llm.stream)', () => {
  it('a call streams a text block, usage and a stop finish; an unknown provider or a failed answer ends in an error finish, never a throw', async () => {
    const llm = new TestLlm({ 'deepseek/chat': null }, (o) => (o.system === 'fail' ? Promise.reject(new Error('down')) : `echo ${o.system}`));
    const collect = async (options: Parameters<NonNullable<TestLlm['stream']>>[0]) => {
      const chunks: LlmStreamChunk[] = [];
      for await (const chunk of llm.stream(options)) chunks.push(chunk);
      return chunks;
    };
    expect(await collect({ provider: 'deepseek', model: 'chat', system: 'hi', messages: [] })).toEqual([
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'text-delta', index: 0, text: 'echo hi' },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'echo hi' } },
      { type: 'usage', usage: { inputTokens: 1, outputTokens: 1 } },
      { type: 'finish', reason: { kind: 'stop' } },
    ]);
    expect(await collect({ provider: 'other', model: 'x', messages: [] })).toEqual([{ type: 'finish', reason: { kind: 'error', failure: { code: 'NO_ADAPTER', message: 'no adapter registered for provider "other"' } } }]);
    expect(await collect({ provider: 'deepseek', model: 'chat', system: 'fail', messages: [] })).toEqual([{ type: 'finish', reason: { kind: 'error', failure: { code: 'UNKNOWN', message: 'down' } } }]);
    expect(llm.calls).toHaveLength(3);
  });
});
