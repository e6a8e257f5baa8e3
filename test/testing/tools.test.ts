// Contract §7 / §12.5: the tool registry, the execution pipeline, and the Code-Mode-like composite.

import { editResult, readMissing, readResult, writeResult } from '../support/file-tools.js';
import { describe, expect, it } from 'vitest';
import type { Agent, CodeDispatch, Context, ToolDefinition, ToolExecution, ToolExecutionResult, UserMessage } from '../../src/host/index.js';
import { createTestHost } from '../../src/testing/index.js';

const ctxMsg = (id: string): UserMessage => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind: 'plugin', plugin: 'p' } });
const echo = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
  name,
  description: `${name} tool`,
  parameters: { type: 'object' },
  output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: String(v) }] },
  execute: async (args) => `${name}:${JSON.stringify(args)}`,
  ...extra,
});
const signal = () => new AbortController().signal;
/** The message `fn` throws. */
function thrown(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('did not throw');
}
/** DSH's duplicate-registration error for the global layer. */
const DUPLICATE = (name: string): string => `tool "${name}" is already registered (for a per-agent variant, register through that agent's \`agent.ctx\` instead)`;

describe('registry', () => {
  it('ST-02 a duplicate name in the same layer fails with DSH\'s tool "<name>" is already registered …', () => {
    const host = createTestHost();
    host.ctx.tools.register(echo('expand_result'));
    expect(() => host.ctx.tools.register(echo('expand_result'))).toThrow(new Error(`${DUPLICATE('expand_result')}`));
    expect(() => host.ctx.tools.register(echo('read'))).toThrow(new Error(DUPLICATE('read')));
  });

  it('§7.1 correction 1: refuses, in DSH\'s words, run_code, a missing output, a render that is not a function, schemas outside the subset and a bad timeout', () => {
    const { tools } = createTestHost().ctx;
    const output = (schema: unknown) => ({ ...echo('a'), output: { schema: schema as Record<string, unknown>, render: () => [] } });
    expect(thrown(() => tools.register(echo('run_code')))).toBe('tool name "run_code" is reserved for the Code Mode presentation transport and cannot be registered or shadowed');
    expect(thrown(() => tools.register({ ...echo('a'), output: undefined as never }))).toBe('tool "a" must declare output { schema, render, presentationMeta? }');
    expect(thrown(() => tools.register({ ...echo('a'), output: { schema: {}, render: 1 as never } }))).toBe('tool "a" must declare output { schema, render, presentationMeta? }');
    expect(thrown(() => tools.register(output({ type: 'object', properties: { x: { anyOf: [] } } })))).toBe('unsupported JSON schema: schema.properties.x.anyOf is not a supported keyword (subset: type/oneOf/properties/required/additionalProperties/items/enum/const + annotations)');
    expect(thrown(() => tools.register(output({ type: ['string', 'null'] })))).toBe('unsupported JSON schema: schema.type must be a single type string (type arrays are not supported)');
    // The schema that kept DSH from booting: a const with no type, inside oneOf.
    expect(thrown(() => tools.register(output({ oneOf: [{ type: 'object', properties: { ok: { const: false } } }, { type: 'object', properties: { ok: { const: true } } }] })))).toBe('unsupported JSON schema: schema.oneOf[0].properties.ok.const requires type or oneOf; schema.oneOf[1].properties.ok.const requires type or oneOf');
    expect(thrown(() => tools.register(output({ type: 'string', oneOf: [{ type: 'string' }, { type: 'null' }] })))).toBe('unsupported JSON schema: schema cannot declare both type and oneOf');
    expect(thrown(() => tools.register(output({ oneOf: [{ type: 'string' }, { type: 'null' }], enum: ['x'] })))).toBe('unsupported JSON schema: schema.enum is not supported beside oneOf');
    expect(thrown(() => tools.register(output({ type: 'object', properties: {}, required: ['x'] })))).toBe('unsupported JSON schema: schema.required names "x" which is not in properties');
    expect(thrown(() => tools.register(output({ type: 'string', items: { type: 'string' }, const: 1 })))).toBe('unsupported JSON schema: schema.items is not supported on type "string"; schema.const must be a string value');
    expect(thrown(() => tools.register(echo('a', { timeoutMs: 0 })))).toBe('tool "a" timeoutMs must be a positive finite number');
    expect(() => tools.register(output({ description: 'any JSON value' }))).not.toThrow();
  });

  it('§7.1 CP-09 an agent-scoped definition shadows the global one for that agent only; tools/change fires on each change', async () => {
    const host = createTestHost({ cwd: '/w' });
    let changes = 0;
    host.ctx.on('tools/change', () => changes++);
    host.ctx.tools.register(echo('lookup'));
    const agent = await host.start();
    const unregister = agent.ctx.tools.register(echo('lookup', { description: 'slim', execute: async () => 'shadow' }));
    expect(changes).toBe(2);
    expect(agent.ctx.tools.schemas(agent).find((s) => s.name === 'lookup')!.description).toBe('slim');
    // As in DSH, an omitted scope is the global view, even through agent.ctx.
    expect(agent.ctx.tools.schemas().find((s) => s.name === 'lookup')!.description).toBe('lookup tool');
    expect(host.ctx.tools.schemas().find((s) => s.name === 'lookup')!.description).toBe('lookup tool');
    expect(host.ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['read', 'write', 'edit', 'run_code', 'lookup']);
    const viaAgent = await host.ctx.tools.execute({ callId: 'c1', name: 'lookup', arguments: {}, agent, signal: signal() });
    expect(viaAgent).toMatchObject({ isError: false, value: 'shadow' });
    unregister();
    expect(changes).toBe(3);
    expect(agent.ctx.tools.get('lookup', agent)!.description).toBe('lookup tool');
  });

  it('§7.1 CP-08 restrict({ deny }) hides a tool from schemas and execution; removing the restriction restores it', async () => {
    const host = createTestHost({ cwd: '/w' });
    const agent = await host.start();
    let changes = 0;
    host.ctx.on('tools/change', () => changes++);
    const lift = agent.ctx.tools.restrict({ deny: ['edit'] });
    expect(agent.ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['read', 'write', 'run_code']);
    expect(host.ctx.tools.schemas().map((s) => s.name)).toEqual(['read', 'write', 'edit', 'run_code']);
    const denied = await host.ctx.tools.execute({ callId: 'c', name: 'edit', arguments: {}, agent, signal: signal() });
    expect(denied).toEqual({ isError: true, error: { message: 'unknown tool "edit"', info: { name: 'ToolError', code: 'UNKNOWN_TOOL' } }, content: [{ type: 'text', text: 'Error: unknown tool "edit"' }] });
    agent.ctx.tools.restrict({ allow: ['read'] });
    expect(agent.ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['read']);
    lift();
    expect(changes).toBe(3);
  });

  it('§7.1 restrict refuses what DSH refuses, in its words: no agent scope, an empty filter, run_code, a name the agent does not inherit', async () => {
    const host = createTestHost({ cwd: '/w' });
    const agent = await host.start();
    agent.ctx.tools.register(echo('own'));
    expect(() => host.ctx.tools.restrict({ deny: ['edit'] })).toThrow('tools.restrict() requires a scoped context (agent.ctx): a context-global restriction would mask every agent — deny the tool for the intended agent instead');
    expect(() => agent.ctx.tools.restrict({})).toThrow('tools.restrict({}) is a no-op: pass `allow` and/or `deny` (an empty filter is almost always a materialized-empty-config bug)');
    expect(() => agent.ctx.tools.restrict({ deny: ['run_code'] })).toThrow('tools.restrict() cannot name reserved Code Mode presentation transport "run_code"; restrict end-capability tools instead');
    expect(() => agent.ctx.tools.restrict({ deny: ['own', 'ghost'] })).toThrow('tools.restrict() names unknown global tools "own", "ghost"; known global tools: edit, read, write');
  });

  it('§7.1 agent-scoped registrations go away when the agent is disposed (resume)', async () => {
    const host = createTestHost({ cwd: '/w' });
    const agent = await host.start();
    agent.ctx.tools.register(echo('per-agent'));
    expect(agent.ctx.tools.get('per-agent', agent)).toBeDefined();
    const next = await host.resume();
    expect(next.ctx.tools.get('per-agent', next)).toBeUndefined();
  });
});

describe('pipeline', () => {
  it('§7.3 order: pre-execute → guards → execute → body → post-execute → finalizeContent → tools/result', async () => {
    const host = createTestHost();
    const trace: string[] = [];
    host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('tools/pre-execute', async (_e: ToolExecution, next: () => Promise<unknown>) => (trace.push('pre-execute'), next()));
        ctx.tools!.guard(() => (trace.push('guard'), undefined));
        ctx.on('tools/execute', async (_e: ToolExecution, next: () => Promise<unknown>) => {
          trace.push('execute in');
          const r = await next();
          trace.push('execute out');
          return r;
        });
        ctx.on('tools/post-execute', async (_e: ToolExecution, _r: unknown, next: () => Promise<unknown>) => (trace.push('post-execute'), next()));
        ctx.on('tools/result', () => trace.push('tools/result'));
      },
    });
    host.ctx.tools.register(echo('t', {
      execute: async () => (trace.push('body'), 'v'),
      finalizeContent: () => (trace.push('finalize'), [{ type: 'text', text: 'final' }]),
    }));
    const result = await host.ctx.tools.execute({ callId: 'c', name: 't', arguments: { a: 1 }, signal: signal() });
    expect(trace).toEqual(['pre-execute', 'guard', 'execute in', 'body', 'execute out', 'post-execute', 'finalize', 'tools/result']);
    expect(result).toEqual({ isError: false, value: 'v', content: [{ type: 'text', text: 'final' }] });
  });

  it('§7.2 executions are frozen with a unique token, rootCallId defaulting to callId, and frozen arguments', async () => {
    const host = createTestHost();
    const seen: ToolExecution[] = [];
    const frozen: boolean[][] = [];
    // Recorded, not asserted, in the listener: tools/result is contained, so a throw there would only be logged.
    host.ctx.on('tools/result', (exec: ToolExecution, result: ToolExecutionResult) => {
      seen.push(exec);
      frozen.push([exec, exec.arguments, result, result.content, result.content[0]].map((v) => Object.isFrozen(v)));
    });
    host.ctx.tools.register(echo('t'));
    await host.ctx.tools.execute({ callId: 'c1', name: 't', arguments: { a: [1] }, signal: signal() });
    await host.ctx.tools.execute({ callId: 'c2', rootCallId: 'root', name: 't', arguments: '', signal: signal() });
    expect(seen.map((e) => [e.callId, e.rootCallId, e.arguments])).toEqual([['c1', 'c1', { a: [1] }], ['c2', 'root', {}]]);
    expect(frozen).toEqual([[true, true, true, true, true], [true, true, true, true, true]]);
    expect(typeof seen[0]!.token).toBe('symbol');
    expect(seen[0]!.token).not.toBe(seen[1]!.token);
  });

  it('§7.3 a denial or a body failure still passes post-execute and reaches tools/result as an error', async () => {
    const host = createTestHost();
    const post: string[] = [];
    host.ctx.on('tools/pre-execute', async (exec: ToolExecution, next: () => Promise<unknown>) => (exec.name === 'denied' ? { kind: 'deny', reason: 'not here' } : next()));
    host.ctx.on('tools/post-execute', async (exec: ToolExecution, r: ToolExecutionResult, next: () => Promise<unknown>) => (post.push(`${exec.name} ${r.isError}`), next()));
    host.ctx.tools.register(echo('denied'));
    host.ctx.tools.register(echo('broken', { execute: async () => { throw new Error('exploded'); } }));
    host.ctx.tools.register(echo('bad-value', { execute: async () => ({ x: undefined }) }));
    expect(await host.ctx.tools.execute({ callId: 'c', name: 'denied', arguments: {}, signal: signal() })).toEqual({
      isError: true, error: { message: 'not here', info: { name: 'ToolDenied', code: 'DENIED' } }, content: [{ type: 'text', text: 'Error: not here' }],
    });
    expect(await host.ctx.tools.execute({ callId: 'c', name: 'broken', arguments: {}, signal: signal() })).toEqual({
      isError: true, error: { message: 'exploded' }, content: [{ type: 'text', text: 'Error: exploded' }],
    });
    expect(await host.ctx.tools.execute({ callId: 'c', name: 'bad-value', arguments: {}, signal: signal() })).toMatchObject({
      isError: true, error: { message: 'tool "bad-value" value: $.x is undefined, which is not lossless JSON' },
    });
    expect(post).toEqual(['denied true', 'broken true', 'bad-value true']);
  });

  it('§7.3 post-execute: contexts concatenate (result first); accept may replace value or content; block keeps only its own contexts', async () => {
    const host = createTestHost();
    host.ctx.tools.register(echo('t', { execute: async (_a, run) => (run.deferContext(ctxMsg('deferred')), 'v') }));
    const run = (decide: (r: ToolExecutionResult) => object) => {
      const handle = host.use({ name: 'p', apply: (ctx: Context) => void ctx.on('tools/post-execute', async (_e: unknown, r: ToolExecutionResult) => decide(r)) });
      return host.ctx.tools.execute({ callId: 'c', name: 't', arguments: {}, signal: signal() }).finally(() => handle.dispose());
    };
    expect(await run(() => ({ kind: 'accept', additionalContexts: [ctxMsg('added')] }))).toEqual({
      isError: false, value: 'v', content: [{ type: 'text', text: 'v' }], additionalContexts: [ctxMsg('deferred'), ctxMsg('added')],
    });
    expect(await run(() => ({ kind: 'accept', value: 'w' }))).toMatchObject({ value: 'w', content: [{ type: 'text', text: 'w' }] });
    expect(await run(() => ({ kind: 'accept', content: [{ type: 'text', text: 'shown' }] }))).toMatchObject({ value: 'v', content: [{ type: 'text', text: 'shown' }] });
    expect(await run(() => ({ kind: 'block', feedback: [{ type: 'text', text: 'blocked' }], additionalContexts: [ctxMsg('why')] }))).toEqual({
      isError: true, error: { message: 'blocked' }, content: [{ type: 'text', text: 'blocked' }], additionalContexts: [ctxMsg('why')],
    });
    expect(await run(() => { throw new Error('listener broke'); })).toEqual({ isError: true, error: { message: 'listener broke' }, content: [{ type: 'text', text: 'Error: listener broke' }] });
  });

  it('§7.3 an aborted caller signal turns success into ABORTED_BEFORE_DISPATCH or ABORTED', async () => {
    const host = createTestHost();
    const controller = new AbortController();
    host.ctx.tools.register(echo('t', { execute: async () => (controller.abort(), 'v') }));
    const before = new AbortController();
    before.abort();
    expect(await host.ctx.tools.execute({ callId: 'c', name: 't', arguments: {}, signal: before.signal })).toMatchObject({ isError: true, error: { info: { code: 'ABORTED_BEFORE_DISPATCH' } } });
    expect(await host.ctx.tools.execute({ callId: 'c', name: 't', arguments: {}, signal: controller.signal })).toEqual({
      isError: true, error: { message: 'aborted', info: { name: 'AbortError', code: 'ABORTED' } }, content: [{ type: 'text', text: 'Error: aborted' }],
    });
  });
});

describe('Code-Mode-like composite', () => {
  it('§7.4 nested calls carry parent = outer token and the root call id; their tools/result come first; contexts are re-attached', async () => {
    const host = createTestHost({ cwd: '/w', files: { '/w/a.md': 'A', '/w/b.md': 'B' } });
    const results: string[] = [];
    let outerToken: symbol | undefined;
    host.use({
      name: 'p',
      apply(ctx: Context) {
        ctx.on('tools/result', (exec: ToolExecution, r: ToolExecutionResult) => {
          results.push(`${exec.name} ${exec.callId} root=${exec.rootCallId} parent=${exec.parent === undefined ? '-' : exec.parent === outerToken ? 'outer' : '?'} ${r.isError ? 'error' : 'ok'} ctx=${(r.additionalContexts ?? []).map((m) => m.id)}`);
        });
        ctx.on('tools/pre-execute', async (exec: ToolExecution, next: () => Promise<unknown>) => {
          if (exec.name === 'run_code') outerToken = exec.token;
          return next();
        });
        ctx.on('tools/post-execute', async (exec: ToolExecution, _r: unknown, next: () => Promise<object>) =>
          exec.parent !== undefined && exec.name === 'read' ? { ...(await next()), additionalContexts: [ctxMsg(`ctx-${exec.callId}`)] } : next());
      },
    });
    await host.run('go', [
      { tools: [{ name: 'run_code', input: { calls: [{ name: 'read', input: { file_path: 'a.md' } }, { name: 'read', input: { file_path: 'zz.md' } }, { name: 'read', input: { file_path: 'b.md' } }] } }] },
      { text: 'ok' },
    ]);
    expect(results).toEqual([
      'read call-1:code:1 root=call-1 parent=outer ok ctx=ctx-call-1:code:1',
      'read call-1:code:2 root=call-1 parent=outer error ctx=ctx-call-1:code:2',
      'read call-1:code:3 root=call-1 parent=outer ok ctx=ctx-call-1:code:3',
      'run_code call-1 root=call-1 parent=- ok ctx=ctx-call-1:code:1,ctx-call-1:code:2,ctx-call-1:code:3',
    ]);
    const log = host.session.events.filter((e) => e.type.startsWith('tool/')).map((e) => [e.type, (e.data as { subCallId?: string }).subCallId ?? '']);
    expect(log).toEqual([
      ['tool/call', ''], ['tool/code-dispatch-start', 'call-1:code:1'], ['tool/code-dispatch', 'call-1:code:1'], ['tool/code-dispatch-start', 'call-1:code:2'],
      ['tool/code-dispatch', 'call-1:code:2'], ['tool/code-dispatch-start', 'call-1:code:3'], ['tool/code-dispatch', 'call-1:code:3'], ['tool/result', ''],
    ]);
    expect(host.requests[1]!.messages.find((m) => m.source.kind === 'tool')!.content).toEqual([{
      type: 'tool-result', toolCallId: 'call-1',
      content: [{ type: 'text', text: `[read] ${readResult('/w/a.md', 'A')}\n[read error] ${readMissing('/w/zz.md')}\n[read] ${readResult('/w/b.md', 'B')}` }], isError: false,
    }]);
    const entered = host.session.events.filter((e) => e.type === 'user/message').map((e) => (e.data as UserMessage).id);
    expect(entered).toEqual(['msg-1', 'ctx-call-1:code:1', 'ctx-call-1:code:2', 'ctx-call-1:code:3']);
  });

  it('§7.4 the code-dispatch-log waterfall sees DSH rc.8’s CodeDispatchLog and reshapes only the logged copy; records as rc.8 writes them', async () => {
    const host = createTestHost({ cwd: '/w', files: { '/w/a.md': 'secret' } });
    const seen: unknown[] = [];
    host.ctx.on('tools/code-dispatch-log', async (dispatch: CodeDispatch) => {
      seen.push({ exec: dispatch.exec.callId, agent: dispatch.agent === undefined ? undefined : 'agent', subCallId: dispatch.subCallId, name: dispatch.name, isError: dispatch.isError, content: dispatch.content });
      return [{ type: 'text', text: '[redacted]' }];
    });
    await host.run('go', [{ tools: [{ name: 'run_code', input: { calls: [{ name: 'read', input: { file_path: 'a.md' } }] } }] }, { text: 'ok' }]);
    expect(seen).toEqual([{ exec: 'call-1', agent: 'agent', subCallId: 'call-1:code:1', name: 'read', isError: false, content: [{ type: 'text', text: readResult('/w/a.md', 'secret') }] }]);
    const records = host.session.events.filter((e) => e.type.startsWith('tool/code-dispatch')).map((e) => [e.type, e.data]);
    expect(records).toEqual([
      ['tool/code-dispatch-start', { rootCallId: 'call-1', parentCallId: 'call-1', subCallId: 'call-1:code:1', name: 'read', arguments: { file_path: 'a.md' } }],
      ['tool/code-dispatch', { rootCallId: 'call-1', parentCallId: 'call-1', subCallId: 'call-1:code:1', name: 'read', arguments: { file_path: 'a.md' }, isError: false, content: [{ type: 'text', text: '[redacted]' }] }],
    ]);
  });
});

describe('first-party file tools', () => {
  it('§7.5 read, write and edit take file_path relative to the session cwd, act on the mounted provider and answer as DSH rc.8’s tools do', async () => {
    const host = createTestHost({ cwd: '/w', files: { '/w/a.md': 'one two' } });
    const agent: Agent = await host.start();
    const exec = (name: string, args: object) => host.ctx.tools.execute({ callId: name, name, arguments: args, agent, signal: signal() });
    expect(await exec('read', { file_path: 'a.md' })).toEqual({
      isError: false, value: { path: '/w/a.md', offset: 1, lines: [{ number: 1, text: 'one two' }], totalLines: 1 }, content: [{ type: 'text', text: readResult('/w/a.md', 'one two') }],
      meta: { path: '/w/a.md', offset: 1, lines: [{ number: 1, text: 'one two' }], totalLines: 1, lang: 'md' },
    });
    expect(await exec('write', { file_path: 'sub/b.md', content: 'new' })).toMatchObject({ value: { path: '/w/sub/b.md', operation: 'create' }, content: [{ type: 'text', text: writeResult('/w/sub/b.md', true) }] });
    expect(await exec('write', { file_path: 'sub/b.md', content: 'newer' })).toMatchObject({ content: [{ type: 'text', text: writeResult('/w/sub/b.md', false) }] });
    expect(await exec('edit', { file_path: '/w/a.md', old_string: 'two', new_string: '2' })).toMatchObject({ content: [{ type: 'text', text: editResult('/w/a.md') }] });
    expect(host.fs.read('/w/a.md')).toBe('one 2');
    expect(await exec('edit', { file_path: 'a.md', old_string: 'x', new_string: 'y' })).toMatchObject({ isError: true, error: { message: 'editText /w/a.md: oldString not found' } });
    expect(await exec('read', { file_path: ' ' })).toMatchObject({ isError: true, error: { message: 'file_path must be a non-empty string' } });
    // DSH's window: offset and limit, a line over 2,000 characters cut, the footer saying where to go on.
    host.fs.write('/w/long.md', ['a', 'b', 'c', 'd'].join('\n'));
    expect((await exec('read', { file_path: 'long.md', offset: 2, limit: 2 })).content).toEqual([{ type: 'text', text: '<path>/w/long.md</path>\n<type>file</type>\n<content>\n2: b\n3: c\n\n(Showing lines 2-3 of 4. Use offset=4 to continue.)\n</content>' }]);
    expect(await exec('read', { file_path: 'long.md', offset: 9 })).toMatchObject({ isError: true, error: { message: 'offset 9 is out of range for "/w/long.md" (4 lines)' } });
    host.fs.write('/w/wide.md', 'x'.repeat(2001));
    expect((await exec('read', { file_path: 'wide.md' })).content).toEqual([{ type: 'text', text: readResult('/w/wide.md', `${'x'.repeat(2000)}... (line truncated to 2000 chars)`) }]);
    host.fs.write('/w/big.md', Array.from({ length: 2000 }, () => 'y'.repeat(99)).join('\n'));
    const capped = (await exec('read', { file_path: 'big.md' })).content[0] as { text: string };
    expect(capped.text.endsWith('\n\n(Output capped. Showing lines 1-512. Use offset=513 to continue.)\n</content>')).toBe(true);
    host.unmountFs();
    expect(await exec('read', { file_path: 'a.md' })).toMatchObject({ isError: true, error: { message: 'read: no filesystem provider is mounted' } });
  });
});
