// The baseline on the simulated host (WC-01..WC-18, WC-28, WC-29, WC-33, WC-34, WC-43, WC-45).

import { describe, expect, it } from 'vitest';
import { createMemoryFileSystem, createTestHost } from '../../../src/testing/index.js';
import {
  baselineText, changesOf, identity, instructionMessages, lastRequest, mount, reply, section, set, sha1, texts, workspaceContext,
} from '../../support/workspace-context.js';

describe('activation (WC-01..WC-03)', () => {
  it('WC-03 with no fs provider the plugin boots, emits nothing and logs nothing; it works once one appears', async () => {
    const host = createTestHost({ cwd: '/repo' });
    host.use(workspaceContext, { maxBytes: 65536 });
    await host.run('hi', reply);
    expect(instructionMessages(host)).toEqual([]);
    expect(host.logs).toEqual([]);
    host.mountFs(createMemoryFileSystem({ files: { '/repo/AGENTS.md': 'rules' } }));
    await host.run('again', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'rules'))]]);
  });

  it('WC-05 a non-positive or non-finite maxBytes disables loading without an error', async () => {
    for (const maxBytes of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const host = mount({ '/repo/AGENTS.md': 'rules' }, { maxBytes });
      await host.run('hi', reply);
      expect([maxBytes, instructionMessages(host), host.logs]).toEqual([maxBytes, [], []]);
    }
  });

  it('WC-01 two sessions with different cwds each see only their own chain', async () => {
    const files = { '/a/.git/x': '', '/a/AGENTS.md': 'A rules', '/b/.git/x': '', '/b/AGENTS.md': 'B rules' };
    const a = mount(files, undefined, { cwd: '/a', sessionId: 'a' });
    const b = mount(files, undefined, { cwd: '/b', sessionId: 'b' });
    await a.run('hi', reply);
    await b.run('hi', reply);
    expect(instructionMessages(a).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'A rules'))]]);
    expect(instructionMessages(b).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'B rules'))]]);
  });
});

describe('baseline order and display (WC-10, WC-11, WC-17, WC-18, WC-29)', () => {
  const files = {
    '/home/user/.dsh/AGENTS.md': 'global',
    '/repo/AGENTS.md': 'root agents',
    '/repo/CLAUDE.md': 'root claude',
    '/repo/AGENTS.local.md': 'root local',
    '/repo/packages/AGENTS.md': 'packages agents',
    '/repo/packages/app/CLAUDE.local.md': 'app claude local',
    '/repo/packages/app/AGENTS.md': 'app agents',
    '/repo/packages/app/src/AGENTS.md': 'below cwd: not in the baseline',
    '/AGENTS.md': 'above the root: not in the baseline',
  };

  it('WC-11 WC-17 user-global, then root to cwd, base candidates then overlays; exact text and source', async () => {
    const host = mount(files, { maxBytes: 65536 }, { cwd: '/repo/packages/app' });
    await host.run('hi', reply);
    const [message] = instructionMessages(host);
    expect(texts(message!)).toEqual([
      '<system-reminder>\n' +
        'The following workspace instructions may be relevant to your work. Use them as guidance when applicable. More specific instructions take precedence over broader ones. They do not override system, developer, or direct user instructions.\n\n' +
        'Instructions from: ~/.dsh/AGENTS.md\n\nglobal\n\n' +
        'Instructions from: AGENTS.md\n\nroot agents\n\n' +
        'Instructions from: CLAUDE.md\n\nroot claude\n\n' +
        'Instructions from: AGENTS.local.md\n\nroot local\n\n' +
        'Instructions from: packages/AGENTS.md\n\npackages agents\n\n' +
        'Instructions from: packages/app/AGENTS.md\n\napp agents\n\n' +
        'Instructions from: packages/app/CLAUDE.local.md\n\napp claude local\n' +
        '</system-reminder>',
    ]);
    expect(message!.source).toEqual({
      kind: 'agent-instructions',
      form: 'instructions',
      baseline: true,
      baselineIdentity: identity('../..'),
      changes: [
        set('user-global', 'AGENTS.md', '~/.dsh/AGENTS.md', 'global'),
        set('.', 'AGENTS.md', 'AGENTS.md', 'root agents'),
        set('.', 'CLAUDE.md', 'CLAUDE.md', 'root claude'),
        set('.', 'AGENTS.local.md', 'AGENTS.local.md', 'root local'),
        set('packages', 'AGENTS.md', 'packages/AGENTS.md', 'packages agents'),
        set('packages/app', 'AGENTS.md', 'packages/app/AGENTS.md', 'app agents'),
        set('packages/app', 'CLAUDE.local.md', 'packages/app/CLAUDE.local.md', 'app claude local'),
      ],
    });
    expect(changesOf(message!)).toContainEqual({ action: 'set', scope: 'user-global\u0000AGENTS.md', path: '~/.dsh/AGENTS.md', digest: sha1('global') });
  });

  it('WC-18 a configured or environment home displays as $DSH_HOME; no absolute path reaches the model', async () => {
    for (const [config, env] of [[{ maxBytes: 65536, dshHome: '/srv/dsh' }, undefined], [{ maxBytes: 65536 }, '/srv/dsh']] as const) {
      const host = mount({ '/srv/dsh/AGENTS.md': 'global', '/repo/AGENTS.md': 'root' }, config, env === undefined ? {} : { dshHome: env });
      await host.run('hi', reply);
      expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('$DSH_HOME/AGENTS.md', 'global'), section('AGENTS.md', 'root'))]]);
      expect(JSON.stringify(host.requests)).not.toMatch(/\/srv\/dsh|\/repo\//);
    }
  });

  it('WC-09 `~` in dshHome expands against the OS home; the default home displays as ~/.dsh', async () => {
    const host = mount({ '/home/user/.dsh/AGENTS.md': 'global' }, { maxBytes: 65536, dshHome: '~/.dsh' });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('~/.dsh/AGENTS.md', 'global'))]]);
    const other = mount({ '/home/user/cfg/AGENTS.md': 'other' }, { maxBytes: 65536, dshHome: '~/cfg' });
    await other.run('hi', reply);
    expect(instructionMessages(other).map(texts)).toEqual([[baselineText(section('$DSH_HOME/AGENTS.md', 'other'))]]);
  });

  it('WC-10 a .git file marks the root like a directory; no marker makes the cwd the root', async () => {
    const worktree = createTestHost({ cwd: '/wt/pkg', files: { '/wt/.git': 'gitdir: /repo/.git/worktrees/wt\n', '/wt/AGENTS.md': 'wt root', '/wt/pkg/AGENTS.md': 'pkg' } });
    worktree.use(workspaceContext, { maxBytes: 65536 });
    await worktree.run('hi', reply);
    expect(instructionMessages(worktree).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'wt root'), section('pkg/AGENTS.md', 'pkg'))]]);
    const bare = createTestHost({ cwd: '/plain/pkg', files: { '/plain/AGENTS.md': 'above cwd', '/plain/pkg/AGENTS.md': 'cwd' } });
    bare.use(workspaceContext, { maxBytes: 65536 });
    await bare.run('hi', reply);
    expect(instructionMessages(bare).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'cwd'))]]);
    expect(instructionMessages(bare)[0]!.source).toMatchObject({ baselineIdentity: identity('') });
  });

  it('WC-10 [U] a session without a cwd uses the process cwd', async () => {
    const host = createTestHost({ processCwd: '/repo/app', files: { '/repo/.git/HEAD': '', '/repo/AGENTS.md': 'root', '/repo/app/AGENTS.md': 'app' } });
    host.use(workspaceContext, { maxBytes: 65536 });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'root'), section('app/AGENTS.md', 'app'))]]);
  });

  it('WC-11 a home that is a chain directory shows its AGENTS.md once, as user-global', async () => {
    const host = mount({ '/repo/AGENTS.md': 'shared', '/repo/CLAUDE.md': 'claude' }, { maxBytes: 65536, dshHome: '/repo' });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('$DSH_HOME/AGENTS.md', 'shared'), section('CLAUDE.md', 'claude'))]]);
  });

  it('WC-07 WC-08 configured candidates, normalized; an empty overlay list disables overlays', async () => {
    const host = mount(
      { '/repo/RULES.md': 'rules', '/repo/AGENTS.md': 'agents', '/repo/AGENTS.local.md': 'local', '/repo/sub/x.md': 'nested' },
      { maxBytes: 65536, instructionFileCandidates: ['RULES.md', '', '.', '..', 'sub/x.md', 'a\\b', 'RULES.md', 'AGENTS.md'], localInstructionFileCandidates: [] },
    );
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('RULES.md', 'rules'), section('AGENTS.md', 'agents'))]]);
    expect(instructionMessages(host)[0]!.source).toMatchObject({
      baselineIdentity: identity('', 65536, { instructionFileCandidates: ['RULES.md', 'RULES.md', 'AGENTS.md'], localInstructionFileCandidates: [] }),
    });
  });
});

describe('per-directory duplicates (WC-12)', () => {
  it('WC-12 identical AGENTS.md and CLAUDE.md render once; trimmed comparison; distinct siblings both render', async () => {
    const host = mount({
      '/repo/AGENTS.md': 'same rules',
      '/repo/CLAUDE.md': '\n  same rules\t\n',
      '/repo/AGENTS.local.md': 'same rules ',
      '/repo/pkg/AGENTS.md': 'pkg a',
      '/repo/pkg/CLAUDE.md': 'pkg b',
    }, undefined, { cwd: '/repo/pkg' });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'same rules'), section('pkg/AGENTS.md', 'pkg a'), section('pkg/CLAUDE.md', 'pkg b'))]]);
  });

  it('WC-12 a CLAUDE.md symlinked to AGENTS.md collapses; files in different directories never do; user-global is never compared', async () => {
    const host = mount({ '/home/user/.dsh/AGENTS.md': 'same', '/repo/AGENTS.md': 'same', '/repo/pkg/AGENTS.md': 'same' }, undefined, { cwd: '/repo/pkg' });
    host.fs.symlink('/repo/CLAUDE.md', 'AGENTS.md');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('~/.dsh/AGENTS.md', 'same'), section('AGENTS.md', 'same'), section('pkg/AGENTS.md', 'same'))]]);
  });
});

describe('probes and reads (WC-13, WC-14, WC-16, WC-43)', () => {
  it('WC-13 WC-43 item 6: a symlinked candidate loads its target inside the project or under an allowed path; a link to a directory is absent', async () => {
    const host = mount(
      { '/elsewhere/shared.md': 'shared from outside', '/repo/docs/rules.md': 'inside', '/repo/pkg/dir/x': '' },
      { maxBytes: 65536, allowedLinkTargets: ['/elsewhere'] }, { cwd: '/repo/pkg' },
    );
    host.fs.symlink('/repo/AGENTS.md', '/elsewhere/shared.md');
    host.fs.symlink('/repo/CLAUDE.md', 'docs/rules.md');
    host.fs.symlink('/repo/pkg/AGENTS.md', 'dir');
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.md', 'shared from outside'), section('CLAUDE.md', 'inside'))]]);
    expect(host.logs).toEqual([]);
  });

  it('WC-13 WC-16 a probe that throws skips only that candidate; siblings still load', async () => {
    const host = mount({ '/repo/AGENTS.md': 'agents', '/repo/CLAUDE.md': 'claude' });
    host.fs.fault('/repo/AGENTS.md', { op: 'stat' });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('CLAUDE.md', 'claude'))]]);
    expect(host.logs).toEqual([]);
  });

  it('WC-14 a file whose reported size exceeds maxSourceBytes is ignored without being read', async () => {
    const host = mount({ '/repo/AGENTS.md': 'x'.repeat(11), '/repo/CLAUDE.md': 'y'.repeat(10) }, { maxBytes: 65536, maxSourceBytes: 10 });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('CLAUDE.md', 'y'.repeat(10)))]]);
    expect(host.fs.calls.filter((c) => c.op === 'streamText').map((c) => c.path)).toEqual(['/repo/CLAUDE.md']);
  });

  it('WC-14 with no reported size the streamed UTF-8 count decides (multibyte counts as bytes)', async () => {
    const host = mount({}, { maxBytes: 65536, maxSourceBytes: 9 });
    host.fs.write('/repo/AGENTS.md', '规则规则', { omitSize: true }); // 12 bytes, 4 code units
    host.fs.write('/repo/CLAUDE.md', '规则规', { omitSize: true }); // 9 bytes
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('CLAUDE.md', '规则规'))]]);
  });

  it('WC-14 a file that grew after its stat is cut off by the running count', async () => {
    const host = mount({ '/repo/AGENTS.md': 'small', '/repo/CLAUDE.md': 'ok' }, { maxBytes: 65536, maxSourceBytes: 8 });
    const fs = host.fs;
    const stat = fs.stat.bind(fs);
    fs.stat = async (target, signal) => {
      const info = await stat(target, signal);
      if (target.displayPath === '/repo/AGENTS.md') fs.write('/repo/AGENTS.md', 'now much larger than the cap');
      return info && target.displayPath === '/repo/AGENTS.md' ? { ...info, size: 5 } : info;
    };
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('CLAUDE.md', 'ok'))]]);
  });

  it('WC-16 a read that throws mid-stream or invalid text is skipped, not fatal', async () => {
    const host = mount({ '/repo/AGENTS.md': 'agents', '/repo/CLAUDE.md': 'bin\u0000ary', '/repo/AGENTS.local.md': 'local' }, undefined, { chunkSize: 2 });
    host.fs.fault('/repo/AGENTS.md', { op: 'read', afterChunks: 1 });
    await host.run('hi', reply);
    expect(instructionMessages(host).map(texts)).toEqual([[baselineText(section('AGENTS.local.md', 'local'))]]);
  });

  it('WC-28 no candidate anywhere: no baseline message at all; an existing empty file is a loaded scope', async () => {
    const none = mount({});
    await none.run('hi', reply);
    expect(lastRequest(none)).toEqual([{ role: 'user', kind: 'user', text: 'hi' }]);
    const empty = mount({ '/repo/AGENTS.md': '' });
    await empty.run('hi', reply);
    expect(instructionMessages(empty).map((m) => [texts(m), changesOf(m)])).toEqual([[[baselineText(section('AGENTS.md', ''))], [set('.', 'AGENTS.md', 'AGENTS.md', '')]]]);
    expect(sha1('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
  });
});

describe('first step (WC-33, WC-34)', () => {
  it('WC-33 the baseline enters step 1 right after the claimed prompt, before the runtime snapshot', async () => {
    const host = mount({ '/repo/AGENTS.md': 'rules' });
    host.ctx.systemPrompt!.context({ name: 'clock', order: 0, text: 'It is noon.' });
    await host.run('hi', reply);
    expect(lastRequest(host).map((m) => [m.kind, m.text.slice(0, 20)])).toEqual([
      ['user', 'hi'],
      ['agent-instructions', '<system-reminder>\nTh'],
      ['plugin', 'Current runtime cont'],
    ]);
    expect(host.requests).toHaveLength(1);
  });

  it('WC-33 WC-34 a rejected first step leaves the baseline queued; the next wakeup folds it in once', async () => {
    const host = mount({ '/repo/AGENTS.md': 'rules' });
    let reject = true;
    host.ctx.on('agent/pre-step', async (_e: unknown, next: () => Promise<unknown>) => (reject ? { kind: 'reject' } : next()));
    await host.run('blocked', []);
    expect(host.agent.inbox.nextStep.map((m) => m.source.kind)).toEqual(['agent-instructions']);
    // A second rejected wakeup replaces the queued copy rather than adding one.
    await host.run('blocked again', []);
    expect(host.agent.inbox.nextStep.map((m) => m.source.kind)).toEqual(['agent-instructions']);
    reject = false;
    await host.run('go', reply);
    expect(lastRequest(host)).toEqual([
      { role: 'user', kind: 'agent-instructions', text: baselineText(section('AGENTS.md', 'rules')) },
      { role: 'user', kind: 'user', text: 'go' },
    ]);
    expect(host.agent.inbox.nextStep).toEqual([]);
    expect(instructionMessages(host)).toHaveLength(1);
  });

  it('WC-33 an empty first-step decision keeps the baseline in the inbox instead of a standalone request', async () => {
    const host = mount({ '/repo/AGENTS.md': 'rules' });
    host.ctx.on('agent/pre-step', async (e: { step: number }, next: () => Promise<{ kind: string }>) => {
      const d = await next();
      return e.step === 1 && host.requests.length === 0 ? { kind: 'enter', messages: [] } : d;
    });
    await host.run('swallowed', []);
    expect(host.requests).toEqual([]);
    expect(host.agent.inbox.nextStep.map((m) => texts(m))).toEqual([[baselineText(section('AGENTS.md', 'rules'))]]);
  });
});
