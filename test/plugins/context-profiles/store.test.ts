// The state file (CP-14, CP-31..CP-35): defaults, normalization, migrations, atomic writes and a
// corrupt file kept aside.

import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfiles, StateStore } from '../../../src/plugins/context-profiles/index.js';
import { CONTEXT_SWITCHES, defaultBaseline, defaultSlot, defaultState } from '../../../src/plugins/context-profiles/model.js';
import { StateError } from '../../../src/plugins/context-profiles/normalize.js';
import type { StoreIo } from '../../../src/plugins/context-profiles/store.js';
import { nodeFileOpsSync } from '../../../src/io/index.js';
import { createTestHost } from '../../../src/testing/index.js';
import { contextProfiles } from '../../support/context-profiles.js';

const home = () => mkdtempSync(join(tmpdir(), 'cp-'));
const FILE = 'session-context-config.json';
const warnings: unknown[][] = [];
const logger = { warn: (...args: unknown[]) => void warnings.push(args) };
const read = (dir: string, name = FILE) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as Record<string, unknown>;
const custom = (over: Record<string, unknown>) => ({ id: 'mine', groups: {}, servers: {}, tools: {}, prompt: { prefix: defaultSlot(), suffix: defaultSlot() }, contexts: {}, sections: {}, ...over });

describe('defaults and location (CP-31)', () => {
  it('CP-31 a missing file gives the three built-ins, lastUsedId none, no sessions; nothing is written by reading', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    expect(store.load()).toEqual({ kind: 'missing' });
    expect(store.state).toEqual({ version: 4, lastUsedId: 'none', profiles: builtinProfiles(), sessions: {}, baseline: defaultBaseline() });
    expect(existsSync(join(dir, FILE))).toBe(false);
  });

  it('CP-31 X-10 the plugin reads $DSH_HOME/session-context-config.json, or ~/.dsh without DSH_HOME', async () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({ ...defaultState(), lastUsedId: 'minimal' }));
    const host = createTestHost({ dshHome: dir });
    const handle = host.use(contextProfiles, {});
    expect(contextProfiles.mounted.get(handle.ctx)!.store.path).toBe(join(dir, FILE));
    expect(contextProfiles.mounted.get(handle.ctx)!.store.state.lastUsedId).toBe('minimal');
    const fake = home();
    const other = createTestHost({ homedir: fake });
    const h2 = other.use(contextProfiles, {});
    expect(contextProfiles.mounted.get(h2.ctx)!.store.path).toBe(join(fake, '.dsh', FILE));
  });

  it('CP-31 writes are atomic: a failed rename leaves the old file intact, no temp file, and the memory state unchanged', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    store.load();
    store.save({ lastUsedId: 'lean' });
    const before = readFileSync(join(dir, FILE), 'utf8');
    const failing: StoreIo = { ...nodeFileOpsSync, rename: () => { throw new Error('disk full'); } };
    const broken = new StateStore(dir, logger, failing);
    broken.load();
    expect(() => broken.save({ lastUsedId: 'minimal' })).toThrow('disk full');
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(before);
    expect(readdirSync(dir)).toEqual([FILE]);
    expect(broken.state.lastUsedId).toBe('lean');
  });
});

describe('the shared atomic write and lock (CP-31, issue 18 item 3)', () => {
  it('CP-31 item 3: a save removes a temporary file a killed process left, and leaves no lock or temporary file of its own', () => {
    const dir = home();
    writeFileSync(join(dir, `.${FILE}.0123456789ab.tmp`), '{"half');
    const store = new StateStore(dir, logger);
    store.load();
    store.save({ lastUsedId: 'lean' });
    expect(readdirSync(dir)).toEqual([FILE]);
    expect(read(dir).lastUsedId).toBe('lean');
  });

  it('CP-31 item 3: while another process holds the file\'s lock, a save waits, then fails naming the holder; file and memory state unchanged', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    store.load();
    store.save({ lastUsedId: 'lean' });
    const before = readFileSync(join(dir, FILE), 'utf8');
    writeFileSync(join(dir, `.${FILE}.lock`), JSON.stringify({ pid: process.ppid, host: hostname(), since: Date.now(), token: 'other' }));
    expect(() => store.save({ lastUsedId: 'minimal' })).toThrow(new RegExp(`is held by process ${process.ppid} on `));
    expect([readFileSync(join(dir, FILE), 'utf8'), store.state.lastUsedId]).toEqual([before, 'lean']);
  });
});

describe('normalization (CP-03, CP-32)', () => {
  it('CP-32 only false contexts/sections and off channels are kept; tool:*, persona and rule sections are pruned', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({
      version: 4, lastUsedId: 'mine', sessions: { s: 'mine' },
      profiles: [custom({
        contexts: { a: false, b: true, c: 'no' },
        sections: { 'harness:identity': false, keep: true, 'tool:read': false, 'deployment:persona-prefix': false, 'deployment:persona-suffix': false, 'session-context-config:custom': false },
        channels: { workspaceInstructions: 'off', timeContext: 'on' },
        groups: { mcp: 'defer', files: 'sideways' }, tools: { x: 'force', y: 'off' },
      })],
    }));
    const store = new StateStore(dir, logger);
    expect(store.load()).toEqual({ kind: 'migrated', from: FILE });
    expect(store.state.profiles[0]).toEqual(custom({ contexts: { a: false }, sections: { 'harness:identity': false }, channels: { workspaceInstructions: 'off' }, groups: { mcp: 'defer' }, tools: { y: 'off' } }));
    expect(read(dir).profiles).toEqual(store.state.profiles);
  });

  it('CP-32 a custom text over 20000 characters (code points) is cut on read and rejected on save with nothing written', () => {
    const dir = home();
    const long = '😀'.repeat(20001);
    writeFileSync(join(dir, FILE), JSON.stringify({ ...defaultState(), baseline: { ...defaultBaseline(), custom: { enabled: true, text: long } } }));
    const store = new StateStore(dir, logger);
    store.load();
    expect(store.state.baseline.custom.text).toBe('😀'.repeat(20000));
    const saved = readFileSync(join(dir, FILE), 'utf8');
    expect(() => store.save({ baseline: { ...defaultBaseline(), custom: { enabled: true, text: long } } })).toThrow(new StateError('baseline.custom.text is 20001 characters; the limit is 20000'));
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe(saved);
    store.save({ baseline: { ...defaultBaseline(), custom: { enabled: false, text: '😀'.repeat(20000) } } });
    expect(store.state.baseline.custom.text.length).toBe(40000);
  });

  it('CP-03 a save with a duplicate id or the reserved id none is rejected', () => {
    const store = new StateStore(home(), logger);
    store.load();
    expect(() => store.save({ profiles: [custom({}), custom({})] })).toThrow('profile id "mine" is used twice');
    expect(() => store.save({ profiles: [custom({ id: 'none' })] })).toThrow('profile id "none" is reserved');
    expect(() => store.save({ profiles: [custom({ id: 7 })] })).toThrow('profile id must be a non-empty string, got 7');
    expect(() => store.save({ lastUsedId: 'ghost' })).toThrow('lastUsedId "ghost" names no profile');
    expect(store.state).toEqual(defaultState());
  });
});

describe('migrations (CP-33..CP-35)', () => {
  const v3 = {
    version: 3, lastUsedId: 'mine', sessions: { 'session-a': 'lean', 'session-b': 'mine' },
    baseline: { contract: false, cardReceipt: true, untrustedDownload: true, custom: { enabled: true, text: 'x' }, inCompletePrompt: true },
    profiles: [
      { id: 'lean', groups: { files: 'off' }, servers: {}, tools: { bash: 'off' }, prompt: { mode: 'inherit', text: '' }, contexts: {} },
      { id: 'mine', groups: { mcp: 'off' }, servers: { gh: 'defer' }, tools: { bash: 'defer' }, prompt: { mode: 'complete', enabled: true, text: 'ONLY ME' }, contexts: { 'harness:source': false } },
      { id: 'other', groups: {}, servers: {}, tools: {}, prompt: { mode: 'replace', text: 'R' }, contexts: {} },
      { id: 'flat', groups: {}, servers: {}, tools: {}, prompt: { mode: 'inherit', enabled: false, text: 'kept' }, contexts: {} },
    ],
  };

  it('CP-33 v3 → v4: prompt modes to slots, sections default, built-ins replaced in place, missing built-ins not added', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify(v3));
    const store = new StateStore(dir, logger);
    expect(store.load()).toEqual({ kind: 'migrated', from: FILE });
    const lean = builtinProfiles()[1]!;
    expect(store.state).toEqual({
      version: 4, lastUsedId: 'mine', sessions: { 'session-a': 'lean', 'session-b': 'mine' },
      baseline: { contract: false, cardReceipt: true, untrustedDownload: true, custom: { enabled: true, text: 'x' } },
      profiles: [
        lean,
        custom({ groups: { mcp: 'off' }, servers: { gh: 'defer' }, tools: { bash: 'defer' }, prompt: { prefix: { enabled: true, override: true, text: 'ONLY ME' }, suffix: defaultSlot() }, contexts: { 'harness:source': false } }),
        custom({ id: 'other', prompt: { prefix: { enabled: true, override: true, text: 'R' }, suffix: defaultSlot() } }),
        custom({ id: 'flat', prompt: { prefix: { enabled: false, override: false, text: 'kept' }, suffix: defaultSlot() } }),
      ],
    });
    expect(read(dir)).toEqual(store.state);
  });

  it('CP-33 a v2 file (no version) migrates the same way', () => {
    const dir = home();
    const { version: _v, ...v2 } = v3;
    writeFileSync(join(dir, FILE), JSON.stringify({ ...v2, profiles: [v3.profiles[2]] }));
    const store = new StateStore(dir, logger);
    store.load();
    expect(store.state.profiles).toEqual([custom({ id: 'other', prompt: { prefix: { enabled: true, override: true, text: 'R' }, suffix: defaultSlot() } })]);
  });

  it('CP-34 runtimeContext:false, workingDirectory:false and baseline.environmentFacts:false migrate once into contexts', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({
      version: 3, lastUsedId: 'none', sessions: {}, baseline: { environmentFacts: false },
      profiles: [
        { id: 'a', runtimeContext: false, prompt: { mode: 'inherit' } },
        { id: 'b', workingDirectory: false, prompt: { mode: 'inherit' } },
        { id: 'c', prompt: { mode: 'inherit' } },
      ],
    }));
    const store = new StateStore(dir, logger);
    store.load();
    const all = Object.fromEntries(CONTEXT_SWITCHES.map((c) => [c.name, false]));
    expect(store.state.profiles.map((p) => p.contexts)).toEqual([
      all,
      { 'working-directory:current': false, 'session-context-config:environment': false },
      { 'session-context-config:environment': false },
    ]);
    expect(JSON.stringify(read(dir))).not.toMatch(/runtimeContext|workingDirectory|environmentFacts/);
  });

  it('CP-35 the legacy context-profile.json is migrated, renamed to .migrated, and loses no profile or session', () => {
    const dir = home();
    writeFileSync(join(dir, 'context-profile.json'), JSON.stringify(v3));
    const store = new StateStore(dir, logger);
    expect(store.load()).toEqual({ kind: 'migrated', from: 'context-profile.json' });
    expect(readdirSync(dir).sort()).toEqual(['context-profile.json.migrated', FILE]);
    expect(read(dir).sessions).toEqual(v3.sessions);
    expect((read(dir).profiles as { id: string }[]).map((p) => p.id)).toEqual(['lean', 'mine', 'other', 'flat']);
    expect(read(dir, 'context-profile.json.migrated')).toEqual(v3);
  });

  it('CP-35 an existing new file wins; the legacy file is left alone', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify(defaultState()));
    writeFileSync(join(dir, 'context-profile.json'), JSON.stringify(v3));
    new StateStore(dir, logger).load();
    expect(readdirSync(dir).sort()).toEqual(['context-profile.json', FILE]);
  });
});

describe('a corrupt state file (CP-31)', () => {
  it('CP-31 unparsable JSON is kept aside under a new name, reported, and never overwritten', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), '{"version": 4, "profiles": [');
    warnings.length = 0;
    const store = new StateStore(dir, logger);
    const report = store.load();
    expect(report).toEqual({ kind: 'corrupt', keptAt: join(dir, `${FILE}.corrupt`), reason: expect.stringContaining('JSON') });
    expect(readFileSync(join(dir, `${FILE}.corrupt`), 'utf8')).toBe('{"version": 4, "profiles": [');
    expect(warnings).toEqual([['context-profiles: %s could not be read (%s); it was kept as %s and the defaults are in use', join(dir, FILE), (report as { reason: string }).reason, join(dir, `${FILE}.corrupt`)]]);
    expect(store.state).toEqual(defaultState());
    // A second corrupt file does not replace the first one kept aside.
    writeFileSync(join(dir, FILE), 'not json');
    new StateStore(dir, logger).load();
    expect(readdirSync(dir).sort()).toEqual([`${FILE}.corrupt`, `${FILE}.corrupt.1`]);
    expect(readFileSync(join(dir, `${FILE}.corrupt.1`), 'utf8')).toBe('not json');
  });

  it('CP-31 a file of the wrong shape or a newer version is kept aside too', () => {
    for (const [text, reason] of [['[1,2]', 'state must be a JSON object, got an array'], ['{"version": 5}', 'state version 5 is newer than this package\'s 4']]) {
      const dir = home();
      writeFileSync(join(dir, FILE), text!);
      expect(new StateStore(dir, logger).load()).toEqual({ kind: 'corrupt', keptAt: join(dir, `${FILE}.corrupt`), reason });
    }
  });

  it('CP-31 a corrupt file that cannot be moved aside is never written over', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), 'not json');
    const stuck: StoreIo = { ...nodeFileOpsSync, rename: () => { throw new Error('read-only'); } };
    const store = new StateStore(dir, logger, stuck);
    expect(store.load()).toMatchObject({ kind: 'corrupt', keptAt: join(dir, FILE) });
    expect(() => store.save({ lastUsedId: 'lean' })).toThrow(`not saving: ${join(dir, FILE)} could not be read (`);
    expect(() => store.recordFirst('s', 'lean')).toThrow('not saving');
    expect(readFileSync(join(dir, FILE), 'utf8')).toBe('not json');
  });
});

describe('session records (CP-14)', () => {
  it('CP-14 the first application writes the record once; an explicit switch overwrites it and sets lastUsedId', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    store.load();
    store.recordFirst('s1', 'lean');
    store.recordFirst('s1', 'full');
    expect(read(dir).sessions).toEqual({ s1: 'lean' });
    store.choose('s1', 'minimal');
    expect([read(dir).sessions, read(dir).lastUsedId]).toEqual([{ s1: 'minimal' }, 'minimal']);
    expect(() => store.choose('s1', 'ghost')).toThrow('profile "ghost" does not exist');
  });
});
