// Our bundle in each stock DSH profile (contract §11, correction 8): installed with
// `dsh plugin --profile <p> add <tarball>`, no profile ends up with two instruction loaders. The
// headless and tui profiles get the loader at the host level, where our patch swaps DSH's row for
// ours; the web profile mounts DSH's loader inside its agent presets, where no bundle patch
// reaches, so workspace-context stands aside for agents of such a preset.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { mountsBuiltinLoader } from '../../src/plugins/workspace-context/presets.js';
import type { DshHost } from '../../src/testing/index.js';
import { dshHost, normalizedRequests, realDsh, stderrOf } from './support.js';

interface Row { id: string; name: string; disabled?: boolean; config?: unknown }

/** The composed rows of a profile, as `dsh --dump-config` prints them. */
async function rows(host: DshHost): Promise<Map<string, Row>> {
  const tree = parse(await host.dumpConfig(), { logLevel: 'error', strict: false }) as Row[];
  return new Map(tree.map((row) => [row.id, row]));
}

/** The enabled instruction loaders of a composed tree (host level). */
function hostLoaders(tree: Map<string, Row>): string[] {
  return [...tree.values()].filter((row) => row.disabled !== true && ['@deepseek-ai/dsh-agent-instructions', 'dsh-context-engine/workspace-context'].includes(row.name)).map((row) => row.id);
}

const files = { 'AGENTS.md': '# Root\nUse pnpm.\n', 'lib/AGENTS.md': '# Lib\nLib rules.\n', 'lib/x.ts': 'x\n' };

describe('one instruction loader in every stock profile (WC-29, contract correction 8)', () => {
  it('headless: our patch disables DSH’s agent-instructions row and mounts workspace-context; no preset roster', async () => {
    const tree = await rows(dshHost({ profile: 'headless' }));
    expect(tree.get('agent-instructions')).toMatchObject({ name: '@deepseek-ai/dsh-agent-instructions', disabled: true });
    expect(hostLoaders(tree)).toEqual(['workspace-context']);
    expect(tree.has('agent-presets')).toBe(false);
  });

  it('tui (a profile with no template: dsh-base only): the same swap', async () => {
    const host = dshHost({ profile: 'tui' });
    const tree = await rows(host);
    expect(JSON.parse(readFileSync(join(host.profileDir, 'package.json'), 'utf8')).dsh.profile.bundles).toEqual(['@deepseek-ai/dsh-base', 'dsh-context-engine']);
    expect(hostLoaders(tree)).toEqual(['workspace-context']);
    expect(tree.has('agent-presets')).toBe(false);
    expect(stderrOf(host)).toBe('');
  });

  it('web: the host row stays off, the default preset mounts DSH’s loader, and workspace-context stands aside for its agents', async () => {
    const web = { profile: 'web', args: ['--no-open', '--port', '0'], files };
    const ours = dshHost(web).use('workspace-context', { maxBytes: 32768 });
    const tree = await rows(ours);
    expect(hostLoaders(tree)).toEqual(['workspace-context']);
    expect(tree.get('agent-presets')?.config).toEqual({ default: 'standard' });
    const preset = readFileSync(join(realDsh().dsh.dir, 'node_modules/@deepseek-ai/dsh/config/agent-presets/standard/agent.cordis.yml'), 'utf8');
    expect(mountsBuiltinLoader(preset)).toBe(true);
    // Our loader, configured differently, would add a second baseline (its own identity) beside
    // DSH's: with it standing aside the model gets exactly what stock web DSH sends.
    const stock = dshHost({ ...web, packages: [] });
    const script = () => [{ tools: [{ name: 'read', input: { file_path: 'lib/x.ts' } }] }, { text: 'done' }];
    await stock.run('read it', script());
    await ours.run('read it', script());
    expect(normalizedRequests(ours)).toEqual(normalizedRequests(stock));
    const baselines = ours.requests.at(-1)!.messages.filter((m) => m.role === 'user' && m.content?.startsWith('<system-reminder>\nThe following workspace instructions'));
    expect(baselines).toHaveLength(1);
    expect(stderrOf(ours)).toBe('');
  });

  it('WC-29 mountsBuiltinLoader reads a preset composition: enabled rows at any group depth; disabled: true does not count', () => {
    const row = "name: '@deepseek-ai/dsh-agent-instructions'";
    expect(mountsBuiltinLoader(`- id: a\n  ${row}\n`)).toBe(true);
    expect(mountsBuiltinLoader(`- id: a\n  ${row}\n  disabled: true\n`)).toBe(false);
    expect(mountsBuiltinLoader(`- id: g\n  name: group\n  group: true\n  config:\n    - id: a\n      ${row}\n`)).toBe(true);
    expect(mountsBuiltinLoader(`- id: a\n  ${row}\n  disabled: !!js process.platform === 'win32'\n`)).toBe(true);
    expect(mountsBuiltinLoader('- id: p\n  name: \'@deepseek-ai/dsh-persona\'\n')).toBe(false);
    expect(mountsBuiltinLoader('not: [a, list')).toBe(false);
  });
});
