// Environment facts (CP-27): one bounded git probe per session, cached per directory, unknown on
// failure, filtered for root sessions by the profile, kept for sub-agents.

import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinProfiles } from '../../../src/plugins/context-profiles/index.js';
import { EnvironmentProbe, parseStatus, PROBE_TIMEOUT_MS, renderFacts } from '../../../src/plugins/context-profiles/environment.js';
import { createTestHost } from '../../../src/testing/index.js';
import { contextProfiles, reply } from '../../support/context-profiles.js';

afterEach(() => vi.useRealTimers());

describe('the probe (CP-27)', () => {
  it('CP-27 porcelain output: branch, clean or modified, unborn branch, detached head, garbage', () => {
    expect([
      parseStatus('/r', '## main...origin/main [ahead 1]\n'),
      parseStatus('/r', '## feature\n M a.ts\n?? b.ts\n'),
      parseStatus('/r', '## No commits yet on trunk\n'),
      parseStatus('/r', '## HEAD (no branch)\n'),
      parseStatus('/r', 'fatal: not a git repository'),
    ]).toEqual([
      { cwd: '/r', gitBranch: 'main', workingTree: 'clean' },
      { cwd: '/r', gitBranch: 'feature', workingTree: 'modified' },
      { cwd: '/r', gitBranch: 'trunk', workingTree: 'clean' },
      { cwd: '/r', gitBranch: 'unknown', workingTree: 'clean' },
      { cwd: '/r', gitBranch: 'unknown', workingTree: 'unknown' },
    ]);
    expect(renderFacts({ cwd: '/r', gitBranch: 'main', workingTree: 'clean' })).toBe('Environment facts (sampled once at session start):\n- working directory: /r\n- git branch: main\n- working tree: clean');
  });

  it('CP-27 one git call per directory within 60 s, a new one after; a rejection or a throw gives unknown', async () => {
    let now = 0;
    const calls: string[] = [];
    const probe = new EnvironmentProbe(async (cwd, timeout) => {
      calls.push(`${cwd}@${timeout}`);
      return '## main\n';
    }, () => now);
    await probe.probe('/a');
    now = 59_999;
    await probe.probe('/a');
    await probe.probe('/b');
    now = 60_000;
    expect(await probe.probe('/a')).toEqual({ cwd: '/a', gitBranch: 'main', workingTree: 'clean' });
    expect(calls).toEqual([`/a@${PROBE_TIMEOUT_MS}`, `/b@${PROBE_TIMEOUT_MS}`, `/a@${PROBE_TIMEOUT_MS}`]);
    const failing = new EnvironmentProbe(() => Promise.reject(new Error('no git')));
    const throwing = new EnvironmentProbe(() => {
      throw new Error('spawn failed');
    });
    expect([await failing.probe('/x'), await throwing.probe('/x'), await failing.probe(undefined)]).toEqual([
      { cwd: '/x', gitBranch: 'unknown', workingTree: 'unknown' },
      { cwd: '/x', gitBranch: 'unknown', workingTree: 'unknown' },
      { cwd: 'unknown', gitBranch: 'unknown', workingTree: 'unknown' },
    ]);
  });

  it('CP-27 issue 30: a git that hangs (no answer within the limit) settles as unknown', async () => {
    vi.useFakeTimers();
    const probe = new EnvironmentProbe(() => new Promise<string>(() => {}));
    const facts = probe.probe('/slow');
    await vi.advanceTimersByTimeAsync(PROBE_TIMEOUT_MS);
    expect(await facts).toEqual({ cwd: '/slow', gitBranch: 'unknown', workingTree: 'unknown' });
  });
});

function repo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cp-repo-'));
  execFileSync('git', ['init', '-q', '-b', 'work'], { cwd: dir });
  return dir;
}

function home(contextsOff: boolean): string {
  const dir = mkdtempSync(join(tmpdir(), 'cp-'));
  const profiles = builtinProfiles().map((p) => (contextsOff ? { ...p, contexts: { 'session-context-config:environment': false as const } } : p));
  writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId: 'lean', profiles, sessions: {} }));
  return dir;
}

const snapshotText = (host: ReturnType<typeof createTestHost>, i: number) =>
  host.requests[i]!.messages.filter((m) => JSON.stringify(m.content).includes('Current runtime context')).map((m) => (m.content[0] as { text: string }).text);

/** A `git` that answers like the real one, `seconds` late (as under load): first on PATH while `run` runs. */
async function withSlowGit<T>(seconds: number, run: () => Promise<T>): Promise<T> {
  const bin = mkdtempSync(join(tmpdir(), 'slow-git-'));
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  writeFileSync(join(bin, 'git'), `#!/bin/sh\nsleep ${seconds}\nexec ${JSON.stringify(real)} "$@"\n`);
  chmodSync(join(bin, 'git'), 0o755);
  const path = process.env.PATH;
  process.env.PATH = `${bin}:${path ?? ''}`;
  try {
    return await run();
  } finally {
    process.env.PATH = path;
  }
}

describe('the context in sessions (CP-25, CP-27)', () => {
  it('CP-27 issue 30: equal repository state gives equal bytes when git is slow (a second late, as on a loaded machine)', async () => {
    const cwd = repo();
    writeFileSync(join(cwd, 'dirty.txt'), 'x');
    const session = async () => {
      const host = createTestHost({ dshHome: home(false), cwd });
      host.use(contextProfiles, {});
      await host.run('hi', reply);
      return snapshotText(host, 0);
    };
    const fast = await session();
    expect(fast[0]).toContain('- git branch: work\n- working tree: modified');
    expect(await withSlowGit(1, session)).toEqual(fast);
  });

  it('CP-27 a root session gets the facts of its cwd once; they stay fixed when the tree changes', async () => {
    const cwd = repo();
    const host = createTestHost({ dshHome: home(false), cwd });
    host.use(contextProfiles, {});
    await host.run('hi', reply);
    writeFileSync(join(cwd, 'dirty.txt'), 'x');
    await host.run('again', reply);
    const facts = `Environment facts (sampled once at session start):\n- working directory: ${cwd}\n- git branch: work\n- working tree: clean`;
    expect(snapshotText(host, 1)).toEqual([`Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n${facts}`]);
  });

  it('CP-27 a root session whose profile turns the facts off gets none; a sub-agent keeps them', async () => {
    const cwd = repo();
    const root = createTestHost({ dshHome: home(true), cwd });
    root.use(contextProfiles, {});
    await root.run('hi', reply);
    expect(snapshotText(root, 0)).toEqual([]);
    const sub = createTestHost({ dshHome: home(true), cwd, subagent: true });
    sub.use(contextProfiles, {});
    await sub.run('hi', reply);
    expect(snapshotText(sub, 0)[0]).toContain('- git branch: work');
  });
});
