// project-root detection by markers, through the fs provider.

import { describe, expect, it } from 'vitest';
import { FsError, findProjectRoot } from '../../src/host/index.js';
import { createMemoryFileSystem } from '../../src/testing/index.js';

describe('findProjectRoot', () => {
  it('X-09 the nearest directory with a .git directory is the root', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/repo/packages/app/x.ts': '' } });
    expect(await findProjectRoot('/repo/packages/app', ['.git'], fs)).toBe('/repo');
  });

  it('X-09 a .git file counts as a marker (linked worktrees, submodules)', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/repo/sub/.git': 'gitdir: ../.git/modules/sub', '/repo/sub/src/a': '' } });
    expect(await findProjectRoot('/repo/sub/src', ['.git'], fs)).toBe('/repo/sub');
  });

  it('X-09 any listed marker counts; the cwd itself can be the root', async () => {
    const fs = createMemoryFileSystem({ files: { '/w/p/package.json': '{}' } });
    expect(await findProjectRoot('/w/p', ['.git', 'package.json'], fs)).toBe('/w/p');
  });

  it('X-09 no marker anywhere, or no markers, gives the cwd', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '' } });
    expect(await findProjectRoot('/other/dir', ['.git'], fs)).toBe('/other/dir');
    expect(await findProjectRoot('/repo/a', [], fs)).toBe('/repo/a');
  });

  it('X-09 [R] a probe that throws means "not here" and the walk continues', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/repo/a/.git': '', '/store/git/HEAD': '', '/repo/b/x': '' } });
    fs.fault('/repo/a/.git', { op: 'lstat' });
    expect(await findProjectRoot('/repo/a', ['.git'], fs)).toBe('/repo');
    // A symlinked marker is followed with resolve + stat, and a failure there counts the same.
    fs.symlink('/repo/b/.git', '/store/git');
    fs.fault('/store/git', { op: 'stat' });
    expect(await findProjectRoot('/repo/b', ['.git'], fs)).toBe('/repo');
  });

  it('X-09 a marker that is no link costs one lstat; a link, resolve + stat as DSH probes it', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/store/git/HEAD': '', '/p/q/x': '' } });
    fs.symlink('/p/.git', '/store/git');
    await findProjectRoot('/repo/a/b', ['.git'], fs);
    expect(fs.calls).toEqual([
      { op: 'lstat', path: '/repo/a/b/.git' }, { op: 'lstat', path: '/repo/a/.git' }, { op: 'lstat', path: '/repo/.git' },
    ]);
    fs.calls.length = 0;
    expect(await findProjectRoot('/p/q', ['.git'], fs)).toBe('/p');
    expect(fs.calls.map((c) => c.op)).toEqual(['lstat', 'lstat', 'resolve', 'stat']);
  });

  it('X-09 a symlinked marker counts when its target exists, not when it dangles', async () => {
    const fs = createMemoryFileSystem({ files: { '/store/git/HEAD': '', '/p/q/r/s': '' } });
    fs.symlink('/p/q/.git', '/store/git');
    fs.symlink('/p/.git', '/nowhere');
    expect(await findProjectRoot('/p/q/r', ['.git'], fs)).toBe('/p/q');
    fs.remove('/p/q/.git');
    expect(await findProjectRoot('/p/q/r', ['.git'], fs)).toBe('/p/q/r');
  });

  it('WC-15 an aborted signal rejects instead of reporting a root', async () => {
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '' } });
    const controller = new AbortController();
    controller.abort();
    await expect(findProjectRoot('/repo/a', ['.git'], fs, controller.signal)).rejects.toBeDefined();
    const mid = new AbortController();
    const aborting = { resolve: fs.resolve.bind(fs), stat: fs.stat.bind(fs), lstat: async (...args: Parameters<typeof fs.lstat>) => { mid.abort(); return fs.lstat(...args); } };
    await expect(findProjectRoot('/repo/a', ['.git'], aborting, mid.signal)).rejects.toBeInstanceOf(FsError);
  });
});

describe('locateProjectRoot', () => {
  it('X-09 names the marker that decided, or none when the root fell back to the cwd', async () => {
    const { locateProjectRoot } = await import('../../src/host/index.js');
    const fs = createMemoryFileSystem({ files: { '/repo/.git/HEAD': '', '/repo/a/package.json': '{}', '/loose/x': '' } });
    expect(await locateProjectRoot('/repo/a', ['.git', 'package.json'], fs)).toEqual({ root: '/repo/a', marker: 'package.json' });
    expect(await locateProjectRoot('/repo/a', ['.git'], fs)).toEqual({ root: '/repo', marker: '.git' });
    expect(await locateProjectRoot('/loose', ['.git'], fs)).toEqual({ root: '/loose', marker: undefined });
    expect(await locateProjectRoot('/repo/a', [], fs)).toEqual({ root: '/repo/a', marker: undefined });
  });
});
