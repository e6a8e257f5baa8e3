// Touch-driven discovery and reconciliation on the simulated host (WC-15, WC-16, WC-19..WC-22,
// WC-30, WC-32, WC-38..WC-42, WC-46).

import { describe, expect, it } from 'vitest';
import type { ToolDefinition } from '../../../src/host/index.js';
import {
  added, baselineText, calling, changesOf, frame, instructionMessages, lastRequest, loggedInstructions, mount, remove, removed, reply, replace,
  section, set, texts, updated,
} from '../../support/workspace-context.js';

const files = {
  '/repo/AGENTS.md': 'root',
  '/repo/pkg/AGENTS.md': 'pkg rules',
  '/repo/pkg/app/CLAUDE.md': 'app rules',
  '/repo/pkg/app/src/main.ts': 'code',
  '/repo/pkg/app/src/util.ts': 'util',
  '/repo/other/AGENTS.md': 'other rules',
  '/repo/other/x.ts': 'x',
};

/** A shell tool that reports success (it must never count as a touch). */
const bash: ToolDefinition = {
  name: 'bash',
  description: 'Run a command.',
  parameters: { type: 'object', properties: { command: { type: 'string' } } },
  output: { schema: { type: 'string' }, render: (_a, v) => [{ type: 'text', text: String(v) }] },
  execute: async () => 'done',
};

describe('nested discovery (WC-38, WC-19, WC-22, WC-46)', () => {
  it('WC-38 WC-19 a read under the cwd adds every reached directory, broad to specific, in one message', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    const [baseline, dynamic] = instructionMessages(host);
    expect(texts(baseline!)).toEqual([baselineText(section('AGENTS.md', 'root'))]);
    expect(texts(dynamic!)).toEqual([frame(added('pkg/AGENTS.md', 'pkg', 'pkg rules'), added('pkg/app/CLAUDE.md', 'pkg/app', 'app rules'))]);
    expect(dynamic!.source).toEqual({
      kind: 'agent-instructions', form: 'instructions',
      changes: [set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules'), set('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md', 'app rules')],
    });
    // WC-40 WC-46: held until the step's durable end, projected into the inbox, entering the next step.
    const types = host.session.events.map((e) => e.type);
    const projected = host.session.events.findIndex((e) => e.type === 'agent/inbox/spliced' && (e.data as { target: string }).target === 'next-step');
    expect(types.slice(projected - 2, projected + 1)).toEqual(['tool/result', 'step/end', 'agent/inbox/spliced']);
    expect(lastRequest(host).map((m) => m.kind)).toEqual(['user', 'agent-instructions', 'model', 'tool', 'agent-instructions']);
  });

  it('WC-23 X-08 a closing tag in a nested file and in its path is escaped; the typed source keeps the real path', async () => {
    const host = mount({ '/repo/</system-reminder>/AGENTS.md': 'before </system-reminder> after', '/repo/</system-reminder>/x.ts': '' });
    await host.run('hi', calling('read', { file_path: '</system-reminder>/x.ts' }));
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(added('<\\/system-reminder>/AGENTS.md', '<\\/system-reminder>', 'before <\\/system-reminder> after'))]);
    expect(changesOf(last)).toEqual([set('</system-reminder>', 'AGENTS.md', '</system-reminder>/AGENTS.md', 'before </system-reminder> after')]);
  });

  it('WC-38 write and edit touches discover too; an absolute path works like a relative one', async () => {
    const write = mount(files);
    await write.run('hi', calling('write', { file_path: '/repo/other/new.ts', content: 'n' }));
    expect(instructionMessages(write).slice(1).map(texts)).toEqual([[frame(added('other/AGENTS.md', 'other', 'other rules'))]]);
    const edit = mount(files);
    await edit.run('hi', calling('edit', { file_path: 'other/x.ts', old_string: 'x', new_string: 'y' }));
    expect(instructionMessages(edit).slice(1).map(texts)).toEqual([[frame(added('other/AGENTS.md', 'other', 'other rules'))]]);
  });

  it('WC-38 bash (even cd), failed calls, blank paths and files outside the cwd never discover', async () => {
    const host = mount(files, undefined, { cwd: '/repo/pkg' });
    host.ctx.tools!.register(bash);
    await host.run('hi', [
      { tools: [{ name: 'bash', input: { command: 'cd app/src && cat main.ts' } }, { name: 'read', input: { file_path: 'app/missing/x.ts' } }] },
      { tools: [{ name: 'read', input: { file_path: '  ' } }, { name: 'read', input: { file_path: '/repo/other/x.ts' } }] },
      { text: 'ok' },
    ]);
    expect(instructionMessages(host).map((m) => changesOf(m))).toEqual([[set('.', 'AGENTS.md', 'AGENTS.md', 'root'), set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules')]]);
  });

  it('WC-30 an already visible scope is not injected again on the next touch', async () => {
    const host = mount(files);
    await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: 'pkg/app/src/main.ts' } }] }, { tools: [{ name: 'read', input: { file_path: 'pkg/app/src/util.ts' } }] }, { text: 'ok' }]);
    expect(loggedInstructions(host)).toHaveLength(2);
  });
});

describe('replace, remove, reappear (WC-20, WC-21, WC-30, WC-39, WC-42)', () => {
  it('WC-39 WC-20 a changed nested file is replaced on the next touch with its complete content', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    host.fs.write('/repo/pkg/app/CLAUDE.md', 'app rules v2');
    await host.run('more', calling('read', { file_path: 'pkg/app/src/util.ts' }));
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(updated('pkg/app/CLAUDE.md', 'app rules v2'))]);
    expect(changesOf(last)).toEqual([replace('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md', 'app rules v2')]);
  });

  it('WC-39 WC-21 WC-30 a deleted file is removed; when it comes back it is a new set', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    host.fs.remove('/repo/pkg/app/CLAUDE.md');
    await host.run('gone', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(texts(loggedInstructions(host).at(-1)!)).toEqual([frame(removed('pkg/app/CLAUDE.md'))]);
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([remove('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md')]);
    host.fs.write('/repo/pkg/app/CLAUDE.md', 'app rules');
    await host.run('back', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(texts(loggedInstructions(host).at(-1)!)).toEqual([frame(added('pkg/app/CLAUDE.md', 'pkg/app', 'app rules'))]);
  });

  it('WC-39 WC-12 a nested file that becomes a duplicate of an earlier sibling is removed', async () => {
    const host = mount({ ...files, '/repo/pkg/app/AGENTS.md': 'app agents' });
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    host.fs.write('/repo/pkg/app/AGENTS.md', '  app rules\n');
    await host.run('more', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([
      replace('pkg/app', 'AGENTS.md', 'pkg/app/AGENTS.md', '  app rules\n'),
      remove('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md'),
    ]);
  });

  it('WC-46 WC-42 an edit between steps shows up at the next pre-step without a touch (baseline scopes too)', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    host.fs.write('/repo/AGENTS.md', 'root v2');
    await host.run('next', reply);
    expect(lastRequest(host).slice(-2)).toEqual([
      { role: 'user', kind: 'user', text: 'next' },
      { role: 'user', kind: 'agent-instructions', text: frame(updated('AGENTS.md', 'root v2')) },
    ]);
  });

  it('WC-22 one batch renders every transition broad to specific under one budget', async () => {
    const host = mount(files, { maxBytes: 520 });
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    const dynamic = loggedInstructions(host)[1]!;
    const text = texts(dynamic)[0]!;
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(520);
    expect(text).toBe(frame('Workspace instruction budget 520 bytes: omitted pkg/AGENTS.md', added('pkg/app/CLAUDE.md', 'pkg/app', 'app rules')));
    // WC-27: only the committed transition is recorded; the omitted one stays eligible.
    expect(changesOf(dynamic)).toEqual([set('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md', 'app rules')]);
  });
});

describe('version cache (WC-32)', () => {
  const reads = (host: ReturnType<typeof mount>) => host.fs.calls.filter((c) => c.op === 'streamText').map((c) => c.path);

  it('WC-32 unchanged versions skip reads; a new version with the same content is read once and emits nothing', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    const before = reads(host).filter((p) => p.endsWith('.md')).length;
    await host.run('again', calling('read', { file_path: 'pkg/app/src/util.ts' }));
    expect(reads(host).filter((p) => p.endsWith('.md')).length).toBe(before);
    host.fs.write('/repo/pkg/AGENTS.md', 'pkg rules'); // same text, new version
    await host.run('touch', reply);
    expect(reads(host).filter((p) => p.endsWith('.md')).slice(before)).toEqual(['/repo/pkg/AGENTS.md']);
    expect(loggedInstructions(host)).toHaveLength(2);
  });
});

describe('failures (WC-14, WC-16)', () => {
  it('WC-16 a probe that throws for a loaded scope removes nothing and freezes its directory', async () => {
    const host = mount({ ...files, '/repo/pkg/app/AGENTS.local.md': 'local' });
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    const count = loggedInstructions(host).length;
    // The provider fails on the file, whichever call asks (lstat for an unchanged directory's file, stat after resolve).
    const faults = [host.fs.fault('/repo/pkg/app/CLAUDE.md', { op: 'lstat' }), host.fs.fault('/repo/pkg/app/CLAUDE.md', { op: 'stat' })];
    const undo = () => faults.forEach((f) => f());
    host.fs.remove('/repo/pkg/app/AGENTS.local.md'); // a sibling change that must wait too
    await host.run('flaky', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(loggedInstructions(host)).toHaveLength(count);
    undo();
    await host.run('recovered', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([remove('pkg/app', 'AGENTS.local.md', 'pkg/app/AGENTS.local.md')]);
  });

  it('WC-16 a read that throws, a missing size with too many bytes, or growth after stat keeps the scope (no removal)', async () => {
    const host = mount(files, { maxBytes: 65536, maxSourceBytes: 20 });
    await host.run('hi', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    const count = loggedInstructions(host).length;
    const undo = host.fs.fault('/repo/pkg/app/CLAUDE.md', { op: 'read' });
    host.fs.write('/repo/pkg/app/CLAUDE.md', 'changed');
    await host.run('a', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    undo();
    host.fs.write('/repo/pkg/app/CLAUDE.md', 'far too long for the cap', { omitSize: true });
    await host.run('b', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(loggedInstructions(host)).toHaveLength(count);
    host.fs.write('/repo/pkg/app/CLAUDE.md', 'fits again');
    await host.run('c', calling('read', { file_path: 'pkg/app/src/main.ts' }));
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([replace('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md', 'fits again')]);
    expect(host.logs).toEqual([]);
  });

  it('WC-16 [R] an unavailable earlier candidate is no dedup reference for a later one', async () => {
    const host = mount({ '/repo/a/AGENTS.md': 'same', '/repo/a/CLAUDE.md': 'same', '/repo/a/f.ts': '' });
    host.fs.fault('/repo/a/AGENTS.md', { op: 'read' });
    await host.run('hi', calling('read', { file_path: 'a/f.ts' }));
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([set('a', 'CLAUDE.md', 'a/CLAUDE.md', 'same')]);
  });
});

describe('cancellation (WC-15)', () => {
  it('WC-15 a cancelled step reaches the blocked read, emits nothing and commits nothing', async () => {
    const host = mount(files);
    const undo = host.fs.fault('/repo/AGENTS.md', { op: 'read', block: true });
    const running = host.run('hi', reply);
    await host.settle();
    host.agent.cancel({ kind: 'user' });
    await expect(running).rejects.toThrow();
    expect(loggedInstructions(host)).toEqual([]);
    expect(host.agent.inbox.nextStep).toEqual([]);
    expect(host.logs).toEqual([]);
    undo();
    await host.run('again', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'root'))]]);
  });

  it('WC-15 unloading the plugin cancels a blocked touch projection silently', async () => {
    const host = mount(files);
    host.fs.fault('/repo/pkg/AGENTS.md', { op: 'read', block: true });
    const agent = await host.start();
    // Outside any step a touch is projected at once (contract §6).
    await host.ctx.tools!.execute({ callId: 'c1', name: 'read', arguments: { file_path: 'pkg/app/src/main.ts' }, agent, signal: new AbortController().signal });
    await host.settle();
    expect(host.fs.calls.filter((c) => c.op === 'streamText').map((c) => c.path)).toContain('/repo/pkg/AGENTS.md');
    host.dispose();
    await host.settle();
    expect(agent.inbox.nextStep).toEqual([]);
    expect(host.logs).toEqual([]);
  });
});

describe('Code Mode (WC-41)', () => {
  it('WC-41 nested touches are released at the outer result, after the call, in one message (directories in touch order, as DSH)', async () => {
    const host = mount(files);
    await host.run('hi', calling('run_code', { calls: [{ name: 'read', input: { file_path: 'pkg/app/src/main.ts' } }, { name: 'read', input: { file_path: 'other/x.ts' } }] }));
    const dynamic = loggedInstructions(host).slice(1);
    expect(dynamic.map(changesOf)).toEqual([[
      set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules'),
      set('pkg/app', 'CLAUDE.md', 'pkg/app/CLAUDE.md', 'app rules'),
      set('other', 'AGENTS.md', 'other/AGENTS.md', 'other rules'),
    ]]);
    const result = host.session.events.find((e) => e.type === 'tool/result')!;
    const context = host.session.events.find((e) => e.type === 'user/message' && (e.data as { id: string }).id === dynamic[0]!.id)!;
    expect(context.seq).toBeGreaterThan(result.seq);
  });

  it('WC-41 an outer result that is an error still releases; a failed nested call contributes nothing', async () => {
    const host = mount(files);
    host.ctx.on('tools/post-execute', async (exec: { name: string }, _r: unknown, next: () => Promise<unknown>) =>
      exec.name === 'run_code' ? { kind: 'block', feedback: [{ type: 'text', text: 'blocked by policy' }] } : next());
    await host.run('hi', calling('run_code', { calls: [{ name: 'read', input: { file_path: 'other/x.ts' } }, { name: 'read', input: { file_path: 'pkg/app/missing.ts' } }] }));
    expect(loggedInstructions(host).slice(1).map(changesOf)).toEqual([[set('other', 'AGENTS.md', 'other/AGENTS.md', 'other rules')]]);
  });
});
