// The built module as DSH loads it (issue 5): a plain ESM file by path or package name, importing
// no DSH package, with no `inject` (the fs provider is optional: WC-03), silent on stderr.

import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const built = join(root, 'lib', 'plugins', 'workspace-context');

/** A short session with the built plugin and the built simulated host, run in a fresh Node process. */
const script = (specifier: string) => `
  const plugin = await import(${JSON.stringify(specifier)});
  const { createTestHost } = await import('dsh-context-engine/testing');
  const host = createTestHost({ cwd: '/repo/app', files: { '/repo/.git/HEAD': 'x', '/repo/AGENTS.md': 'root rules', '/repo/app/src/AGENTS.md': 'src rules', '/repo/app/src/a.ts': '' } });
  host.use(plugin, { maxBytes: 65536 });
  await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: 'src/a.ts' } }] }, { text: 'ok' }]);
  const kinds = host.session.deriveMessages().map((m) => m.source.kind);
  console.log(JSON.stringify({ name: plugin.name, keys: Object.keys(plugin).sort(), kinds, logs: host.logs.length }));
`;

describe('built module', () => {
  for (const [label, specifier] of [
    ['by path', pathToFileURL(join(built, 'index.js')).href],
    ['by package name', 'dsh-context-engine/workspace-context'],
  ] as const) {
    it(`loads ${label}, runs a session, and writes nothing to stderr`, () => {
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script(specifier)], { cwd: root, encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(JSON.parse(run.stdout)).toEqual({
        name: 'workspace-context',
        keys: ['Config', 'apply', 'name'],
        kinds: ['user', 'agent-instructions', 'model', 'tool', 'agent-instructions', 'model'],
        logs: 0,
      });
    });
  }

  it('imports no DSH or Cordis package, only relative modules, node: built-ins, schemastery and yaml (agent-preset compositions)', () => {
    const specifiers = readdirSync(built).filter((f) => f.endsWith('.js')).flatMap((f) =>
      [...readFileSync(join(built, f), 'utf8').matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]!));
    expect(specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:'))).toEqual(specifiers.filter((s) => s === 'schemastery' || s === 'yaml'));
    expect(specifiers.filter((s) => s.includes('engine'))).toEqual(specifiers.filter((s) => s === '../../engine/index.js'));
  });

  it('the package entry and the engine resolve to one WASM instance', () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
      const a = await import('dsh-context-engine/engine');
      await import('dsh-context-engine/workspace-context');
      const b = await import(${JSON.stringify(pathToFileURL(join(root, 'lib', 'engine', 'index.js')).href)});
      console.log(a.sha1Hex === b.sha1Hex);
    `], { cwd: root, encoding: 'utf8' });
    expect(out.trim()).toBe('true');
  });
});
