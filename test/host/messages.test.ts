// messages with typed sources, and the visibility helpers plugins build state on.

import { describe, expect, it } from 'vitest';
import {
  assertLosslessJson, createUserMessage, fileTouchPath, hasSourceKind, HOST_RUNTIME_SERVICE, hostRuntime, isPluginSource, isStepOpen, isVisible,
  messageText, visibleEvents, visibleUserMessages, type ToolExecution, type ToolExecutionResult,
} from '../../src/host/index.js';
import { TestSession } from '../../src/testing/index.js';

const runtime = { env: {}, homedir: '/h', processCwd: '/', newId: () => 'id-1', now: () => 0 };
const ctx = { get: (name: string) => (name === HOST_RUNTIME_SERVICE ? runtime : undefined) };

describe('createUserMessage', () => {
  it('X-11 builds a frozen { id, role, content, source } with the host runtime id', () => {
    const m = createUserMessage(ctx, 'hello', { kind: 'auto-memory', channel: 'index', digest: 'ab' });
    expect(m).toEqual({ id: 'id-1', role: 'user', content: [{ type: 'text', text: 'hello' }], source: { kind: 'auto-memory', channel: 'index', digest: 'ab' } });
    expect(Object.isFrozen(m) && Object.isFrozen(m.content[0]) && Object.isFrozen(m.source)).toBe(true);
    expect(messageText(m)).toBe('hello');
  });

  it('X-11 refuses a source without a kind and values that are not lossless JSON', () => {
    expect(() => createUserMessage(ctx, 'x', { kind: '' })).toThrow('createUserMessage: source.kind must be a non-empty string');
    expect(() => createUserMessage(ctx, 'x', { kind: 'k', n: -0 })).toThrow('createUserMessage: $.source.n is -0, which is not lossless JSON');
    expect(() => createUserMessage(ctx, 'x', { kind: 'k', u: undefined })).toThrow('createUserMessage: $.source.u is undefined, which is not lossless JSON');
  });

  it('X-15 without a host runtime (under DSH) ids are random UUIDs', () => {
    const m = createUserMessage({ get: () => undefined }, 'x', { kind: 'k' });
    expect(m.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(hostRuntime({ get: () => undefined }).env).toBe(process.env);
  });

  it('assertLosslessJson names the path of the offending value', () => {
    expect(() => assertLosslessJson({ a: [1, Number.NaN] }, 'w')).toThrow('w: $.a[1] is NaN, which is not lossless JSON');
    expect(() => assertLosslessJson({ d: new Date(0) }, 'w')).toThrow('w: $.d is a class instance, which is not lossless JSON');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => assertLosslessJson(cyclic, 'w')).toThrow('w: $.self is a cycle, which is not lossless JSON');
  });
});

describe('visibility', () => {
  const session = () => {
    let t = 0;
    const s = new TestSession({ header: { version: 0, id: 's', createdAt: 0 }, clock: () => t++ });
    const user = (id: string, kind: string) => ({ id, role: 'user', content: [{ type: 'text', text: id }], source: { kind, plugin: 'p' } });
    s.append('user/message', user('a', 'agent-instructions'), { surfaceOp: 'append' });
    s.append('step/start', { turn: 1, step: 1 });
    s.append('user/message', user('b', 'plugin'), { surfaceOp: 'append' });
    s.append('user/message', user('c', 'workspace-instructions'), { surfaceOp: 'append' });
    return s;
  };

  it('X-13 visible means on the current surface; a replacement hides what it shadows', () => {
    const s = session();
    expect(visibleEvents(s).map((e) => e.seq)).toEqual([0, 2, 3]);
    s.append('user/message', { content: [], source: { kind: 'plugin', plugin: 'compact' }, role: 'user', id: 'sum' }, { surfaceOp: { op: 'replace', start: 0, end: 2 }, sourceEventSeqs: [0, 2] });
    expect(isVisible(s, 0)).toBe(false);
    expect(isVisible(s, 3)).toBe(true);
    expect(visibleUserMessages(s).map((v) => [v.seq, v.message.id])).toEqual([[4, 'sum'], [3, 'c']]);
  });

  it('X-11 visibleUserMessages filters by source kind; both instruction kinds can be asked for', () => {
    const s = session();
    expect(visibleUserMessages(s, ['agent-instructions', 'workspace-instructions']).map((v) => v.message.id)).toEqual(['a', 'c']);
    expect(hasSourceKind(s.deriveMessages()[0]!, ['agent-instructions'])).toBe(true);
    expect(isPluginSource({ kind: 'plugin', plugin: 'p' }, 'p')).toBe(true);
    expect(isPluginSource({ kind: 'other', plugin: 'p' }, 'p')).toBe(false);
  });

  it('isStepOpen follows step/start, step/end and turn/end', () => {
    const s = session();
    expect(isStepOpen(s)).toBe(true);
    s.append('step/end', { turn: 1, step: 1 });
    expect(isStepOpen(s)).toBe(false);
    s.append('step/start', { turn: 1, step: 2 });
    s.append('turn/end', { turn: 1, reason: { kind: 'aborted' } });
    expect(isStepOpen(s)).toBe(false);
  });
});

describe('fileTouchPath', () => {
  const signal = new AbortController().signal;
  const ok: ToolExecutionResult = { isError: false, value: null, content: [] };
  const exec = (name: string, args: unknown, extra: Partial<ToolExecution> = {}): ToolExecution =>
    ({ callId: 'c', rootCallId: 'c', name, arguments: args, agent: {} as never, signal, token: Symbol('t'), ...extra });

  it('WC-38 successful first-party read/write/edit with a non-blank file_path touch it (trimmed)', () => {
    for (const name of ['read', 'write', 'edit']) expect(fileTouchPath(exec(name, { file_path: ' a/b.ts ' }), ok)).toBe('a/b.ts');
  });

  it('WC-38 other tools, failures, aborted or agent-less executions and blank paths touch nothing', () => {
    const aborted = new AbortController();
    aborted.abort();
    expect(fileTouchPath(exec('bash', { file_path: 'a' }), ok)).toBeUndefined();
    expect(fileTouchPath(exec('read', { file_path: 'a' }), { isError: true, error: { message: 'x' }, content: [] })).toBeUndefined();
    expect(fileTouchPath(exec('read', { file_path: 'a' }, { signal: aborted.signal }), ok)).toBeUndefined();
    expect(fileTouchPath(exec('read', { file_path: 'a' }, { agent: undefined }), ok)).toBeUndefined();
    expect(fileTouchPath(exec('read', { file_path: '  ' }), ok)).toBeUndefined();
    expect(fileTouchPath(exec('read', 'raw'), ok)).toBeUndefined();
  });
});
