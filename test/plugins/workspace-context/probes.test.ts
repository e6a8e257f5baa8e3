// The probe memory (src/plugins/workspace-context/probes.ts; WC-13, WC-31, WC-32, WC-46): at every
// step an unchanged directory answers for its absent candidates with one lstat and a loaded file for
// itself with one more, yet every change on disk is seen at the next step, including a change made
// within the timestamp tick of the directory's previous one (git's "racy" entries), on the in-memory
// provider and on the local disk.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../../src/fs/index.js';
import { RACY_WINDOW_MS } from '../../../src/host/index.js';
import { createMemoryFileSystem, createTestHost, type MemoryFileSystem, type TestHost } from '../../../src/testing/index.js';
import {
  added, calling, changesOf, frame, loggedInstructions, mount, remove, removed, reply, replace, set, texts, updated, workspaceContext,
} from '../../support/workspace-context.js';

const files = {
  '/home/user/.dsh/settings.json': '{}',
  '/repo/AGENTS.md': 'root',
  '/repo/pkg/AGENTS.md': 'pkg rules',
  '/repo/pkg/src/main.ts': 'code',
};

/** A host whose runtime clock the test moves. */
function clocked(extra: Record<string, string> = {}) {
  const clock = { now: 0 };
  const host = mount({ ...files, ...extra }, undefined, { now: () => clock.now });
  return { host, clock };
}

/** The provider calls so far as `<op> <path>`, sorted. */
const calls = (host: TestHost<MemoryFileSystem>): string[] => host.fs.calls.map((c) => `${c.op} ${c.path}`).sort();

/** The last logged instruction message's texts and changes. */
const last = (host: TestHost) => {
  const m = loggedInstructions(host).at(-1)!;
  return { texts: texts(m), changes: changesOf(m) };
};

describe('probe memory (WC-46, racy directories)', () => {
  it('WC-46 once a directory version has been known for the racy window, a step costs one lstat per directory and one per loaded file', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    host.fs.calls.length = 0;
    await host.run('steady', reply);
    // (Directories are probed concurrently: the order of calls carries no meaning.)
    expect(calls(host)).toEqual([
      'lstat /home/user/.dsh', // user-global: the directory answers for its AGENTS.md
      'lstat /repo', 'lstat /repo/.git', 'lstat /repo/AGENTS.md', // project root; the root: one file loaded, three names absent
      'lstat /repo/pkg', 'lstat /repo/pkg/AGENTS.md',
    ]);
    expect(loggedInstructions(host)).toHaveLength(2);
  });

  it('WC-46 before the window has passed every name is looked at again, so an entry added within the same tick is seen at the next step', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS - 1;
    await host.run('seen again, not yet trusted', reply);
    // Same tick: the directory's version does not change.
    host.fs.write('/repo/pkg/CLAUDE.md', 'claude rules', { sameTick: true });
    await host.run('next', reply);
    expect(last(host)).toEqual({ texts: [frame(added('pkg/CLAUDE.md', 'pkg', 'claude rules'))], changes: [set('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md', 'claude rules')] });
    host.fs.remove('/repo/pkg/CLAUDE.md', { sameTick: true });
    await host.run('next', reply);
    expect(last(host)).toEqual({ texts: [frame(removed('pkg/CLAUDE.md'))], changes: [remove('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md')] });
  });

  it('WC-46 after the window, an added candidate, a rewritten one and a deleted one are each seen at the next step', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    host.fs.write('/repo/pkg/AGENTS.local.md', 'mine');
    await host.run('added', reply);
    expect(last(host).changes).toEqual([set('pkg', 'AGENTS.local.md', 'pkg/AGENTS.local.md', 'mine')]);
    host.fs.write('/repo/pkg/AGENTS.md', 'pkg rules v2'); // in place: the directory keeps its version
    await host.run('rewritten', reply);
    expect(last(host)).toEqual({ texts: [frame(updated('pkg/AGENTS.md', 'pkg rules v2'))], changes: [replace('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules v2')] });
    host.fs.remove('/repo/AGENTS.md');
    await host.run('deleted', reply);
    expect(last(host).changes).toEqual([remove('.', 'AGENTS.md', 'AGENTS.md')]);
    expect(loggedInstructions(host)).toHaveLength(5);
  });

  it('WC-13 a symlinked candidate is resolved and stat-ed at every step: its target changing, or appearing, is seen', async () => {
    const { host, clock } = clocked({ '/repo/shared/rules.md': 'shared v1' });
    host.fs.symlink('/repo/pkg/CLAUDE.md', '/repo/shared/rules.md');
    host.fs.symlink('/repo/pkg/AGENTS.local.md', '/repo/shared/later.md'); // dangling: absent
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    host.fs.write('/repo/shared/rules.md', 'shared v2');
    host.fs.write('/repo/shared/later.md', 'now here');
    host.fs.calls.length = 0;
    await host.run('next', reply);
    expect(last(host).changes).toEqual([replace('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md', 'shared v2'), set('pkg', 'AGENTS.local.md', 'pkg/AGENTS.local.md', 'now here')]);
    expect(calls(host).filter((c) => c.includes(' /repo/pkg/'))).toEqual([
      'lstat /repo/pkg/AGENTS.md',
      'resolve /repo/pkg/AGENTS.local.md', 'resolve /repo/pkg/CLAUDE.md',
      'stat /repo/pkg/AGENTS.local.md', 'stat /repo/pkg/CLAUDE.md',
      'streamText /repo/pkg/AGENTS.local.md', 'streamText /repo/pkg/CLAUDE.md',
    ]);
  });

  it('WC-16 a directory that went away is probed as DSH probes it: its loaded files are removed', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    host.fs.remove('/repo/pkg');
    host.fs.calls.length = 0;
    await host.run('gone', reply);
    expect(last(host).changes).toEqual([remove('pkg', 'AGENTS.md', 'pkg/AGENTS.md')]);
    expect(calls(host).filter((c) => c.includes(' /repo/pkg'))).toEqual([
      'lstat /repo/pkg', 'lstat /repo/pkg/AGENTS.md',
      ...['resolve', 'stat'].flatMap((op) => ['AGENTS.local.md', 'AGENTS.md', 'CLAUDE.local.md', 'CLAUDE.md'].map((n) => `${op} /repo/pkg/${n}`)),
    ]);
  });

  it('WC-16 a directory that became a file is probed as DSH probes it, inside the window too: unavailable, nothing removed', async () => {
    for (const wait of [1, RACY_WINDOW_MS]) {
      const { host, clock } = clocked();
      await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
      clock.now += wait;
      await host.run('again', reply);
      host.fs.remove('/repo/pkg');
      host.fs.write('/repo/pkg', 'now a file');
      await host.run('replaced', reply);
      expect(loggedInstructions(host)).toHaveLength(2);
      expect(host.logs).toEqual([]);
    }
  });

  it('WC-46 inside the window a directory with a name present is not asked itself: its names are', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += 1;
    host.fs.calls.length = 0;
    await host.run('again', reply);
    expect(calls(host).filter((c) => c.includes(' /repo/pkg'))).toEqual(['AGENTS.local.md', 'AGENTS.md', 'CLAUDE.local.md', 'CLAUDE.md'].map((n) => `lstat /repo/pkg/${n}`));
  });

  it('WC-46 another provider mounted mid-session starts with no memory', async () => {
    const { host, clock } = clocked();
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    const other = createMemoryFileSystem({ files: { ...files, '/repo/pkg/CLAUDE.md': 'elsewhere', '/repo/.git/HEAD': '' } });
    host.mountFs(other);
    await host.run('next', reply);
    expect(last(host).changes).toEqual([set('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md', 'elsewhere')]);
    expect(other.calls.filter((c) => c.path === '/repo/pkg/CLAUDE.md').map((c) => c.op)).toEqual(['lstat', 'resolve', 'stat', 'streamText']);
  });
});

describe('probe memory on the local disk (node:fs provider)', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('WC-46 after the window, a candidate added, deleted or rewritten on disk is seen at the next step', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wc-probes-'));
    made.push(root);
    const repo = join(root, 'repo');
    for (const dir of ['.git', 'pkg/src', 'shared']) mkdirSync(join(repo, dir), { recursive: true });
    writeFileSync(join(repo, 'AGENTS.md'), 'root');
    writeFileSync(join(repo, 'pkg/AGENTS.md'), 'pkg rules');
    writeFileSync(join(repo, 'pkg/src/main.ts'), 'code');
    const clock = { now: 0 };
    const host = createTestHost({ cwd: repo, homedir: join(root, 'home'), fs: createNodeFileSystem({ cwd: repo }), now: () => clock.now });
    host.use(workspaceContext, { maxBytes: 65536 });
    await host.run('hi', calling('read', { file_path: 'pkg/src/main.ts' }));
    clock.now += RACY_WINDOW_MS;
    await host.run('settle', reply);
    writeFileSync(join(repo, 'pkg/CLAUDE.md'), 'claude rules');
    await host.run('added', reply);
    expect(last(host).changes).toEqual([set('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md', 'claude rules')]);
    writeFileSync(join(repo, 'pkg/AGENTS.md'), 'pkg rules, longer now');
    await host.run('rewritten', reply);
    expect(last(host).changes).toEqual([replace('pkg', 'AGENTS.md', 'pkg/AGENTS.md', 'pkg rules, longer now')]);
    unlinkSync(join(repo, 'pkg/CLAUDE.md'));
    await host.run('deleted', reply);
    expect(last(host).changes).toEqual([remove('pkg', 'CLAUDE.md', 'pkg/CLAUDE.md')]);
    writeFileSync(join(repo, 'shared/x.md'), 'linked');
    symlinkSync(join(repo, 'shared/x.md'), join(repo, 'pkg/AGENTS.local.md'));
    await host.run('linked', reply);
    expect(last(host).changes).toEqual([set('pkg', 'AGENTS.local.md', 'pkg/AGENTS.local.md', 'linked')]);
  });
});
