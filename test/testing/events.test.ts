// Contract §1 / §12.1: Cordis-like dispatch, plugin loading and unloading, services.

import Schema from 'schemastery';
import { describe, expect, it } from 'vitest';
import { serviceIdentity, type Context, type FileSystem } from '../../src/host/index.js';
import { createTestHost, EventBus, Fiber, type LogEntry } from '../../src/testing/index.js';
import { createRecordingLogger } from '../../src/offline-host/logger.js';

const setup = () => {
  const logs: LogEntry[] = [];
  const bus = new EventBus();
  const fiber = new Fiber('t');
  const logger = createRecordingLogger('t', logs);
  const on = (name: string, fn: (...args: any[]) => any, prepend = false) => bus.on(name, fn, { fiber, logger, prepend });
  return { bus, fiber, logs, on };
};

describe('emit, serial, waterfall', () => {
  it('emit calls listeners synchronously in registration order; prepend goes first', () => {
    const { bus, on } = setup();
    const order: string[] = [];
    on('e', (x: number) => order.push(`a${x}`));
    on('e', (x: number) => order.push(`b${x}`));
    on('e', (x: number) => order.push(`p${x}`), true);
    bus.emit('e', null, [1]);
    expect(order).toEqual(['p1', 'a1', 'b1']);
  });

  it('raw emit lets a throw propagate; notify logs and contains sync throws and async rejections', async () => {
    const { bus, on, logs } = setup();
    const after: string[] = [];
    on('e', () => {
      throw new Error('sync boom');
    });
    on('e', async () => {
      throw new Error('async boom');
    });
    on('e', () => after.push('ran'));
    expect(() => bus.emit('e', null, [])).toThrow('sync boom');
    bus.notify('e', null, []);
    await new Promise((resolve) => setImmediate(resolve));
    expect(after).toEqual(['ran']);
    expect(logs).toEqual([
      { level: 'warn', name: 't', message: 'e listener failed: Error: sync boom' },
      { level: 'warn', name: 't', message: 'e listener failed: Error: async boom' },
    ]);
  });

  it('serial awaits in order and stops at the first value that is not null, undefined or false', async () => {
    const { bus, on } = setup();
    const seen: string[] = [];
    on('s', async () => (seen.push('a'), false));
    on('s', async () => (seen.push('b'), 'bail'));
    on('s', async () => (seen.push('c'), 'late'));
    expect(await bus.serial('s', null, [])).toBe('bail');
    expect(seen).toEqual(['a', 'b']);
  });

  it('waterfall: first registered is outermost, next() runs the rest and the innermost default', async () => {
    const { bus, on } = setup();
    const trace: string[] = [];
    on('w', async (x: number, next: () => Promise<number>) => (trace.push('outer in'), (await next()) * 10 + x));
    on('w', async (x: number, next: () => Promise<number>) => (trace.push('inner in'), (await next()) + x));
    const result = await bus.waterfall('w', null, [2], async () => (trace.push('default'), 1));
    expect(result).toBe(32);
    expect(trace).toEqual(['outer in', 'inner in', 'default']);
  });

  it('waterfall: not calling next() vetoes everything inside; calling it twice throws', async () => {
    const { bus, on } = setup();
    const trace: string[] = [];
    on('w', async () => 'veto');
    on('w', async (next: () => Promise<string>) => (trace.push('inner'), next()));
    expect(await bus.waterfall('w', null, [], async () => 'default')).toBe('veto');
    expect(trace).toEqual([]);
    const other = setup();
    other.on('w', async (next: () => Promise<string>) => (await next(), next()));
    await expect(other.bus.waterfall('w', null, [], async () => 'd')).rejects.toThrow('w: a listener called next() twice');
  });

  it('agent-scoped listeners hear only their agent; unscoped ones hear all; null scope reaches everyone', () => {
    const { bus, fiber, logs } = setup();
    const logger = createRecordingLogger('t', logs);
    const a = {};
    const b = {};
    const heard: string[] = [];
    bus.on('e', () => heard.push('global'), { fiber, logger });
    bus.on('e', () => heard.push('a'), { fiber, logger, scope: a });
    bus.emit('e', b, []);
    bus.emit('e', a, []);
    bus.emit('e', undefined, []);
    bus.emit('e', null, []);
    expect(heard).toEqual(['global', 'global', 'a', 'global', 'global', 'a']);
  });

  it('disposing a fiber removes its listeners; a disposer reports whether it removed one', () => {
    const { bus, fiber, on } = setup();
    const off = on('e', () => {});
    on('e', () => {});
    expect(bus.count('e')).toBe(2);
    expect(off()).toBe(true);
    expect(off()).toBe(false);
    fiber.dispose();
    expect(bus.count('e')).toBe(0);
  });
});

describe('plugins on the test host', () => {
  const Config = Schema.object({ maxBytes: Schema.number().required(), markers: Schema.array(String).default(['.git']) });

  it('§1.1 apply gets the validated config with defaults filled', () => {
    const host = createTestHost();
    let seen: unknown;
    host.use({ name: 'p', Config, apply: (_ctx: Context, config: unknown) => void (seen = config) }, { maxBytes: 5 });
    expect(seen).toEqual({ maxBytes: 5, markers: ['.git'] });
  });

  it('§1.1 X-16 rejected config throws DSH\'s message naming the key; apply does not run', () => {
    const host = createTestHost();
    let applied = false;
    const plugin = { name: 'p', Config, apply: () => void (applied = true) };
    expect(() => host.use(plugin, {})).toThrow('invalid config:\n  - $.maxBytes missing required value (at maxBytes)');
    expect(() => host.use(plugin, { maxBytes: 1, markers: 'x' })).toThrow('invalid config:\n  - $.markers expected array but got x (at markers)');
    expect(applied).toBe(false);
  });

  it('§1.1 a module with a default export, without apply, or injecting a missing service is refused', () => {
    const host = createTestHost();
    expect(() => host.use({ name: 'p', apply: () => {}, default: {} } as never)).toThrow(
      "plugin module p has a default export; DSH's loader would load it instead of the namespace",
    );
    expect(() => host.use({ name: 'p' } as never)).toThrow('plugin module p must export an `apply` function');
    expect(() => host.use({ name: 'p', inject: ['fs'], apply: () => {} })).toThrow('plugin p injects "fs", which this host does not provide');
  });

  it('§1.2 ctx.get(\'fs\') is undefined until a provider is mounted, and follows mount/unmount', async () => {
    const host = createTestHost();
    const { ctx } = host.use({ name: 'p', apply: () => {} });
    expect(ctx.get('fs')).toBeUndefined();
    expect(() => host.fs).toThrow('test host: no fs provider is mounted');
    const withFiles = createTestHost({ files: { '/a': 'x' } });
    host.mountFs(withFiles.fs);
    // As Cordis: a new proxy at every lookup, the provider itself behind each.
    const fs = ctx.get('fs') as FileSystem;
    expect(fs).not.toBe(withFiles.fs);
    expect(ctx.get('fs')).not.toBe(fs);
    expect(serviceIdentity(fs)).toBe(withFiles.fs);
    expect(serviceIdentity(ctx.fs!)).toBe(withFiles.fs);
    expect(await fs.readText(await fs.resolve('/a'))).toBe('x');
    host.unmountFs();
    expect(ctx.get('fs')).toBeUndefined();
    expect(ctx.get('tools')).toBe(ctx.tools);
    expect(ctx.get('no-such-service')).toBeUndefined();
  });

  it('§1.2 unloading a plugin removes its listeners, registrations and effects, and runs apply\'s teardown', async () => {
    const host = createTestHost({ cwd: '/w', files: {} });
    const trace: string[] = [];
    const handle = host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('agent/pre-step', async (_e: unknown, next: () => Promise<unknown>) => (trace.push('pre-step'), next()));
        ctx.on('tools/result', () => trace.push('tools/result'));
        ctx.effect(() => () => trace.push('effect teardown'));
        ctx.tools!.register({ name: 'mine', description: '', parameters: {}, output: { schema: {}, render: () => [] }, execute: async () => null });
        ctx.systemPrompt!.section({ name: 'p:s', order: 1, text: 'from p' });
        return () => trace.push('apply teardown');
      },
    });
    await handle.ready;
    await host.run('go', [{ tools: [{ name: 'mine' }] }, { text: 'ok' }]);
    expect(trace).toEqual(['pre-step', 'tools/result', 'pre-step']);
    expect(host.requests[0]!.system).toBe('from p');
    handle.dispose();
    expect(trace.slice(3)).toEqual(['apply teardown', 'effect teardown']);
    await host.run('again', [{ tools: [{ name: 'mine' }] }, { text: 'ok' }]);
    expect(trace.length).toBe(5);
    expect(host.requests[2]!.system).toBe('');
    expect(host.requests[2]!.tools.map((t) => t.name)).not.toContain('mine');
    expect(host.session.events.filter((e) => e.type === 'tool/result').at(-1)!.data).toMatchObject({ message: { content: [{ content: [{ text: 'Error: unknown tool "mine"' }] }] } });
  });

  it('§1.1 an apply that throws or rejects leaves nothing registered; the rejection reaches start()', async () => {
    const host = createTestHost({ cwd: '/w' });
    const registering = (fail: () => void) => ({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('tools/result', () => {});
        ctx.tools!.register({ name: 'half', description: '', parameters: {}, output: { schema: {}, render: () => [] }, execute: async () => null });
        return fail();
      },
    });
    expect(() => host.use(registering(() => { throw new Error('sync apply failure'); }))).toThrow('sync apply failure');
    expect([host.core.bus.count('tools/result'), host.ctx.tools.get('half')]).toEqual([0, undefined]);
    const handle = host.use({ ...registering(() => {}), apply: async (ctx: Context) => registering(() => Promise.reject(new Error('async apply failure'))).apply(ctx) });
    await expect(handle.ready).rejects.toThrow('async apply failure');
    expect([host.core.bus.count('tools/result'), host.ctx.tools.get('half')]).toEqual([0, undefined]);
    await expect(host.start()).rejects.toThrow('async apply failure');
  });

  it('§1.1 an async apply is awaited before the agent starts', async () => {
    const host = createTestHost({ cwd: '/w' });
    const seen: string[] = [];
    host.use({
      name: 'p',
      async apply(ctx: Context) {
        await new Promise((resolve) => setImmediate(resolve));
        ctx.on('agent/created', () => seen.push('created'));
      },
    });
    await host.run('go', [{ text: 'ok' }]);
    expect(seen).toEqual(['created']);
  });

  it('§1.4 listeners registered through agent.ctx hear their agent and go away with it at resume', async () => {
    const host = createTestHost({ cwd: '/w' });
    const agent = await host.start();
    const heard: string[] = [];
    agent.ctx.on('session/event', (_s: unknown, e: { type: string }) => heard.push(e.type));
    await host.run('go', [{ text: 'ok' }]);
    expect(heard).toContain('turn/end');
    await host.resume();
    heard.length = 0;
    await host.run('again', [{ text: 'ok' }]);
    expect(heard).toEqual([]);
  });

  it('§1.2 the logger formats %o, %s, %d and records the plugin name', () => {
    const host = createTestHost();
    host.use({ name: 'p', apply: (ctx: Context) => ctx.logger.warn('refresh failed: %o (%s, %d%%)', new TypeError('bad'), 'x', 3.7) });
    expect(host.logs).toEqual([{ level: 'warn', name: 'p', message: 'refresh failed: TypeError: bad (x, 3%)' }]);
  });
});
