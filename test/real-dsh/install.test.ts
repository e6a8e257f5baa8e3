// The install routes README "Use it in DSH" gives, as a user runs them: the packed tarball and a
// built checkout's path through `dsh plugin --profile <p> add`, and the CLI through `npm i -g`.
// (The package is not on npm under its bare name.)

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { baselineText, section } from '../support/workspace-context.js';
import { dshHost, realDsh, stderrOf } from './support.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const files = { 'AGENTS.md': '# Root\nUse pnpm.\n' };
const instructions = (texts: readonly (string | null)[]) => texts.filter((t) => t?.startsWith('<system-reminder>\nThe following workspace'));

describe('README "Use it in DSH": the routes real DSH accepts', () => {
  it('X-12 the packed tarball: `dsh plugin --profile headless add <tarball>` adds the bundle; the first request has our baseline', async () => {
    const host = dshHost({ files });
    await host.run('hello', [{ text: 'hi' }]);
    const manifest = JSON.parse(readFileSync(join(host.profileDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; dsh: { profile: { bundles: string[] } } };
    expect(manifest.dependencies['dsh-context-engine']).toBe(`file:${realDsh().tarball}`);
    expect(manifest.dsh.profile.bundles.at(-1)).toBe('dsh-context-engine');
    expect(instructions(host.requests[0]!.messages.map((m) => m.content))).toEqual([baselineText(section('AGENTS.md', '# Root\nUse pnpm.\n'))]);
    expect(stderrOf(host)).toBe('');
  });

  it('X-12 a built checkout’s path: `dsh plugin --profile headless add <dir>` links it', async () => {
    const host = dshHost({ files, packages: [ROOT] });
    await host.run('hello', [{ text: 'hi' }]);
    const manifest = JSON.parse(readFileSync(join(host.profileDir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies['dsh-context-engine']).toBe(`link:${ROOT.replace(/\/$/, '')}`);
    expect(instructions(host.requests[0]!.messages.map((m) => m.content))).toEqual([baselineText(section('AGENTS.md', '# Root\nUse pnpm.\n'))]);
    expect(stderrOf(host)).toBe('');
  });

  it('the CLI: `npm i -g <tarball>` puts dsh-context on PATH, and it inspects a repository', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'dsh-cli-global-'));
    try {
      const install = spawnSync('npm', ['install', '-g', '--prefix', prefix, '--no-audit', '--no-fund', '--loglevel=error', realDsh().tarball], { encoding: 'utf8' });
      expect(install.stderr).toBe('');
      expect(install.status).toBe(0);
      const inspect = spawnSync(join(prefix, 'bin', 'dsh-context'), ['inspect', '--sample', '--json'], { encoding: 'utf8' });
      expect(inspect.stderr).toBe('');
      expect(inspect.status).toBe(0);
      const report = JSON.parse(inspect.stdout) as { messages?: unknown[] };
      expect(Array.isArray(report.messages) && report.messages.length > 0).toBe(true);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});
