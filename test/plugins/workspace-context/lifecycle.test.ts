// Lifecycle on the simulated host: the single pending copy, compaction, resume, hot remount,
// superseding baselines and sessions started by other loaders (WC-31, WC-34..WC-37, WC-44, WC-47).

import { describe, expect, it } from 'vitest';
import type { UserMessage } from '../../../src/host/index.js';
import {
  added, baselineText, calling, changesOf, frame, identity, INTRO, instructionMessages, lastRequest, loggedInstructions, mount, remove, REPLACING,
  replace, reply, section, set, texts, updated, workspaceContext,
} from '../../support/workspace-context.js';

const files = {
  '/repo/AGENTS.md': 'root',
  '/repo/CLAUDE.md': 'claude',
  '/repo/pkg/AGENTS.md': 'pkg rules',
  '/repo/pkg/main.ts': 'code',
};
const mdReads = (host: ReturnType<typeof mount>) => host.fs.calls.filter((c) => c.op === 'streamText' && c.path.endsWith('.md')).length;

describe('one pending copy (WC-34)', () => {
  it('WC-34 touches projected between steps replace the pending copy instead of adding one (the pending scopes first, as DSH)', async () => {
    const host = mount({ ...files, '/repo/lib/AGENTS.md': 'lib rules', '/repo/lib/x.ts': '' });
    await host.run('hi', reply);
    const agent = host.agent;
    const touch = (path: string, callId: string) => host.ctx.tools!.execute({ callId, name: 'read', arguments: { file_path: path }, agent, signal: new AbortController().signal });
    await touch('pkg/main.ts', 't1');
    await host.settle();
    await touch('lib/x.ts', 't2');
    await host.settle();
    const pending = agent.inbox.nextStep;
    expect(pending.map((m) => changesOf(m))).toEqual([[set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules'), set('lib', 'AGENTS.md', 'lib/AGENTS.md', 'lib rules')]]);
    await host.run('next', reply);
    // The loop claims next-step items before the turn's prompt (contract §6 step 2a).
    expect(lastRequest(host).slice(-2).map((m) => m.text)).toEqual([frame(added('pkg/AGENTS.md', 'pkg', 'pkg rules'), added('lib/AGENTS.md', 'lib', 'lib rules')), 'next']);
    expect(agent.inbox.nextStep).toEqual([]);
  });
});

describe('confirmation (WC-35)', () => {
  it('WC-35 a claimed context that a listener rewrites away is recomposed at a later boundary', async () => {
    const host = mount(files);
    let mode: 'reject' | 'strip' | 'pass' = 'reject';
    host.ctx.on('agent/pre-step', async (_e: unknown, next: () => Promise<{ kind: string; messages?: UserMessage[] }>) => {
      if (mode === 'reject') return { kind: 'reject' };
      const d = await next();
      return mode === 'strip' ? { kind: 'enter', messages: d.messages!.filter((m) => m.source.kind !== 'agent-instructions') } : d;
    });
    await host.run('queued', []);
    mode = 'strip';
    await host.run('stripped', reply);
    expect(instructionMessages(host)).toEqual([]);
    mode = 'pass';
    await host.run('later', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'root'), section('CLAUDE.md', 'claude'))]]);
  });
});

describe('compaction (WC-30, WC-31)', () => {
  it('WC-31 a compacted-away baseline is recomposed at the next step; the old event is never rewritten', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    const first = loggedInstructions(host)[0]!;
    host.compact();
    await host.run('after', reply);
    const [again] = instructionMessages(host);
    expect(again!.id).not.toBe(first.id);
    expect([texts(again!), again!.source]).toEqual([texts(first), first.source]);
    expect(loggedInstructions(host)[0]).toEqual(first);
  });

  it('WC-30 WC-31 a compacted nested scope is re-added by the next touch even though its version is unchanged', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/main.ts' }));
    host.compact({ keep: 0 });
    await host.run('again', calling('read', { file_path: 'pkg/main.ts' }));
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules')]);
  });
});

describe('resume (WC-32, WC-36)', () => {
  it('WC-36 a resumed loop keeps a matching visible baseline and pays one confirming read per scope', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/main.ts' }));
    const logged = loggedInstructions(host).length;
    await host.resume();
    const before = mdReads(host);
    await host.run('resumed', reply);
    expect(loggedInstructions(host)).toHaveLength(logged);
    expect(mdReads(host) - before).toBe(3); // AGENTS.md, CLAUDE.md, pkg/AGENTS.md
  });

  it('WC-36 changes made while offline are appended before the first resumed request', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/main.ts' }));
    await host.resume();
    host.fs.write('/repo/pkg/AGENTS.md', 'pkg rules v2');
    host.fs.remove('/repo/CLAUDE.md');
    await host.run('resumed', reply);
    expect(lastRequest(host).at(-1)).toEqual({ role: 'user', kind: 'agent-instructions', text: frame(removed_('CLAUDE.md'), updated('pkg/AGENTS.md', 'pkg rules v2')) });
    expect(host.requests).toHaveLength(3);
  });
});
const removed_ = (path: string) => `Instructions removed: ${path}\n\nThe previously loaded instructions from this file no longer apply.`;

describe('hot remount and superseding baselines (WC-37, WC-44)', () => {
  it('WC-37 a remounted loader keeps the visible baseline and rebuilds tracking from the files', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    // mount() used the plugin once; unload every plugin and mount a fresh instance mid-session.
    host.dispose();
    host.use(workspaceContext, { maxBytes: 65536 });
    const before = mdReads(host);
    await host.run('after remount', reply);
    expect(loggedInstructions(host)).toHaveLength(1);
    expect(mdReads(host) - before).toBe(2);
  });

  it('WC-37 a remounted loader with no visible baseline sends one at the next step', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    host.compact();
    host.dispose();
    host.use(workspaceContext, { maxBytes: 65536 });
    await host.run('after remount', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'root'), section('CLAUDE.md', 'claude'))]]);
  });

  it('WC-44 WC-45 a baseline whose identity changed is replaced: removals first, then the new set', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    host.dispose();
    host.use(workspaceContext, { maxBytes: 65536, instructionFileCandidates: ['AGENTS.md'] });
    await host.run('narrower', reply);
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(`${REPLACING} ${INTRO}`, section('AGENTS.md', 'root'))]);
    expect(last.source).toEqual({
      kind: 'agent-instructions', form: 'instructions', baseline: true,
      baselineIdentity: identity('', 65536, { instructionFileCandidates: ['AGENTS.md'] }),
      changes: [remove('.', 'CLAUDE.md', 'CLAUDE.md'), set('.', 'AGENTS.md', 'AGENTS.md', 'root')],
    });
  });

  it('WC-44 a superseding baseline with no file left says so', async () => {
    const host = mount(files);
    await host.run('hi', reply);
    host.dispose();
    host.use(workspaceContext, { maxBytes: 65536, instructionFileCandidates: ['NONE.md'], localInstructionFileCandidates: [] });
    await host.run('nothing', reply);
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(`${REPLACING} No workspace instructions are currently active.`)]);
    expect(changesOf(last)).toEqual([remove('.', 'AGENTS.md', 'AGENTS.md'), remove('.', 'CLAUDE.md', 'CLAUDE.md')]);
  });

  it('WC-46 a message with a new baseline and dynamic changes has two separately framed blocks', async () => {
    const host = mount(files);
    await host.run('hi', calling('read', { file_path: 'pkg/main.ts' }));
    host.fs.write('/repo/pkg/AGENTS.md', 'pkg v2');
    host.dispose();
    host.use(workspaceContext, { maxBytes: 70000 });
    await host.run('changed budget', reply);
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(`${REPLACING} ${INTRO}`, section('AGENTS.md', 'root'), section('CLAUDE.md', 'claude')), frame(updated('pkg/AGENTS.md', 'pkg v2'))]);
    expect(changesOf(last)).toEqual([set('.', 'AGENTS.md', 'AGENTS.md', 'root'), set('.', 'CLAUDE.md', 'CLAUDE.md', 'claude'), replace('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg v2')]);
  });
});

describe('sessions started by other loaders (WC-29, WC-47)', () => {
  const seed = (host: ReturnType<typeof mount>, source: Record<string, unknown>, text = 'earlier text') => {
    host.session.append('user/message', { id: 'old-1', role: 'user', content: [{ type: 'text', text }], source }, { surfaceOp: 'append' });
  };
  const legacyChanges = [set('.', 'AGENTS.md', 'AGENTS.md', 'root'), set('.', 'CLAUDE.md', 'CLAUDE.md', 'claude')];

  it('WC-47 a legacy workspace-instructions baseline that matches is kept; later changes append as agent-instructions', async () => {
    const host = mount(files);
    seed(host, { kind: 'workspace-instructions', form: 'instructions', baseline: true, changes: legacyChanges });
    await host.run('hi', reply);
    expect(loggedInstructions(host).map((m) => m.id)).toEqual(['old-1']);
    host.fs.write('/repo/AGENTS.md', 'root v2');
    await host.run('edit', reply);
    const last = loggedInstructions(host).at(-1)!;
    expect([texts(last), last.source]).toEqual([[frame(updated('AGENTS.md', 'root v2'))], { kind: 'agent-instructions', form: 'instructions', changes: [replace('.', 'AGENTS.md', 'AGENTS.md', 'root v2')] }]);
    // After a restart the legacy baseline plus the later update still match: nothing is repeated.
    const count = loggedInstructions(host).length;
    await host.resume();
    await host.run('resumed', reply);
    expect(loggedInstructions(host)).toHaveLength(count);
  });

  it('WC-47 a legacy baseline that does not match is replaced', async () => {
    const host = mount(files);
    seed(host, { kind: 'workspace-instructions', form: 'instructions', baseline: true, changes: [set('.', 'AGENTS.md', 'AGENTS.md', 'older root')] });
    await host.run('hi', reply);
    const last = loggedInstructions(host).at(-1)!;
    expect(texts(last)).toEqual([frame(`${REPLACING} ${INTRO}`, section('AGENTS.md', 'root'), section('CLAUDE.md', 'claude'))]);
    expect(changesOf(last)).toEqual(legacyChanges);
  });

  it('WC-29 WC-47 a baseline DSH\'s built-in loader wrote continues without repeats; its nested scopes reconcile', async () => {
    const host = mount(files);
    seed(host, { kind: 'agent-instructions', form: 'instructions', baseline: true, baselineIdentity: identity(''), changes: legacyChanges });
    host.session.append('user/message', {
      id: 'old-2', role: 'user', content: [{ type: 'text', text: 'nested' }],
      source: { kind: 'agent-instructions', form: 'instructions', changes: [set('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules')] },
    }, { surfaceOp: 'append' });
    await host.run('hi', reply);
    expect(loggedInstructions(host).map((m) => m.id)).toEqual(['old-1', 'old-2']);
    host.fs.remove('/repo/pkg/AGENTS.md');
    await host.run('gone', reply);
    expect(changesOf(loggedInstructions(host).at(-1)!)).toEqual([remove('pkg', 'AGENTS.md', 'pkg/AGENTS.md')]);
  });
});
