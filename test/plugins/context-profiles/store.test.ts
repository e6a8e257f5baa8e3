// The state file (CP-14, CP-31..CP-35): defaults, normalization, migrations, atomic writes, a
// corrupt file kept aside, shape errors kept aside and reported, a non-regular path refused, and
// several writers (stores of different processes) that never erase each other's changes.

import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { builtinProfiles, StateStore, type Profile } from '../../../src/plugins/context-profiles/index.js';
import { CONTEXT_SWITCHES, defaultBaseline, defaultSlot, defaultState } from '../../../src/plugins/context-profiles/model.js';
import { StateError } from '../../../src/plugins/context-profiles/normalize.js';
import type { StoreIo } from '../../../src/plugins/context-profiles/store.js';
import { nodeFileOpsSync } from '../../../src/io/index.js';
import { createTestHost } from '../../../src/testing/index.js';
import { contextProfiles } from '../../support/context-profiles.js';
import { built, runScript } from '../../support/processes.js';

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
  it('CP-32 only false contexts/sections and off channels are kept; tool:*, persona and rule sections are pruned (normalization, not shape errors)', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({
      version: 4, lastUsedId: 'mine', sessions: { s: 'mine' },
      profiles: [custom({
        contexts: { a: false, b: true, c: 'no' },
        sections: { 'harness:identity': false, keep: true, 'tool:read': false, 'deployment:persona-prefix': false, 'deployment:persona-suffix': false, 'session-context-config:custom': false },
        channels: { workspaceInstructions: 'off', timeContext: 'on' },
        groups: { mcp: 'defer' }, tools: { y: 'off' },
      })],
    }));
    const store = new StateStore(dir, logger);
    expect(store.load()).toEqual({ kind: 'migrated', from: FILE });
    expect(store.state.profiles[0]).toEqual(custom({ contexts: { a: false }, sections: { 'harness:identity': false }, channels: { workspaceInstructions: 'off' }, groups: { mcp: 'defer' }, tools: { y: 'off' } }));
    expect(read(dir).profiles).toEqual(store.state.profiles);
    expect(readdirSync(dir)).toEqual([FILE]);
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

  it('CP-31 a file of the wrong shape, or nested past the depth limit, is kept aside too', () => {
    for (const [text, reason] of [['[1,2]', 'state must be a JSON object, got an array'], [`{"profiles":${'['.repeat(100)}${']'.repeat(100)}}`, 'it nests objects and arrays more than 64 levels deep; the limit is 64']]) {
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

describe('shape errors (CP-31): kept aside with the original bytes, reported, the rest in use', () => {
  const shapes: [string, unknown, string[], (s: StateStore) => unknown, unknown][] = [
    ['profiles written as an object', { version: 4, lastUsedId: 'mine', profiles: { mine: custom({}) }, sessions: { s: 'mine' } },
      ['profiles is an object, not a list; the built-in profiles are used'],
      (s) => [s.state.profiles.map((p) => p.id), s.state.sessions], [['full', 'lean', 'minimal'], { s: 'mine' }]],
    ['"version": "4" as a string, with an edited full', { version: '4', lastUsedId: 'full', profiles: [{ ...builtinProfiles()[0]!, groups: { ...builtinProfiles()[0]!.groups, mcp: 'off' } }], sessions: {} },
      ['version is "4" (a string), not a number; the file was read as version 4'],
      (s) => s.state.profiles[0]!.groups.mcp, 'off'],
    ['one profile with a numeric id', { version: 4, lastUsedId: 'none', profiles: [custom({ id: 7 }), custom({})], sessions: {} },
      ['profiles[0].id is 7 (a number), not a non-empty string; that profile was not read'],
      (s) => s.state.profiles.map((p) => p.id), ['mine']],
    ['wrong values inside a profile and the baseline', { version: 4, lastUsedId: 'none', profiles: [custom({ groups: { files: 'sideways' }, tools: { x: 'force' }, name: 5 })], sessions: { a: 1 }, baseline: { contract: 'yes' } },
      [
        'profiles[0] ("mine").name is 5 (a number), not a string; it was dropped',
        'profiles[0] ("mine").groups.files is "sideways" (a string), not one of force/on/defer/off; it was dropped',
        'profiles[0] ("mine").tools.x is "force" (a string), not one of on/defer/off; it was dropped',
        'sessions.a is 1 (a number), not a profile id; it was not read',
        'baseline.contract is "yes" (a string), not a boolean; true is used',
      ],
      (s) => [s.state.profiles[0]!.groups, s.state.profiles[0]!.tools, s.state.sessions, s.state.baseline.contract], [{}, {}, {}, true]],
  ];
  for (const [what, file, problems, pick, expected] of shapes) {
    it(`CP-31 ${what}: the original bytes are kept as .corrupt, the problems reported and logged, the rest read and written back`, () => {
      const dir = home();
      const original = JSON.stringify(file, null, 1);
      writeFileSync(join(dir, FILE), original);
      warnings.length = 0;
      const store = new StateStore(dir, logger);
      const keptAt = join(dir, `${FILE}.corrupt`);
      expect(store.load()).toEqual({ kind: 'set-aside', keptAt, problems });
      expect(readFileSync(keptAt, 'utf8')).toBe(original);
      expect(warnings).toEqual([['context-profiles: %s has shape errors: %s; the original was kept as %s and the rest is in use', join(dir, FILE), problems.join('; '), keptAt]]);
      expect(pick(store)).toEqual(expected);
      expect(read(dir)).toEqual(store.state);
      // Read again (this process or another): the file is clean now, nothing more is kept aside, the report stays.
      store.refresh();
      expect(new StateStore(dir, logger).load()).toEqual({ kind: 'current' });
      expect([readdirSync(dir).sort(), store.report.kind]).toEqual([[FILE, `${FILE}.corrupt`], 'set-aside']);
    });
  }

  it('CP-31 a file another process rewrote with a shape error is set aside at the next write, not silently normalized', () => {
    const dir = home();
    const store = new StateStore(dir, logger);
    store.load();
    store.recordFirst('s1', 'lean');
    const broken = JSON.stringify({ ...read(dir), profiles: { oops: true } });
    writeFileSync(join(dir, FILE), broken);
    store.recordFirst('s2', 'full');
    expect(readFileSync(join(dir, `${FILE}.corrupt`), 'utf8')).toBe(broken);
    expect([read(dir).sessions, (read(dir).profiles as { id: string }[]).map((p) => p.id)]).toEqual([{ s1: 'lean', s2: 'full' }, ['full', 'lean', 'minimal']]);
    expect(store.report).toEqual({ kind: 'set-aside', keptAt: join(dir, `${FILE}.corrupt`), problems: ['profiles is an object, not a list; the built-in profiles are used'] });
  });
});

describe('a path that is not a regular file (CP-31)', () => {
  it('CP-31 a FIFO at the state path is refused unopened: load finishes, the defaults are used, a save is 503 and nothing is written', async () => {
    const dir = home();
    expect(spawnSync('mkfifo', [join(dir, FILE)]).status).toBe(0);
    // In a child process with a deadline: opening a FIFO to read would block the thread for good.
    const result = await runScript(`
      const { StateStore } = await import(${JSON.stringify(built('plugins/context-profiles/store.js'))});
      const warnings = [];
      const store = new StateStore(process.argv[1], { warn: (...a) => warnings.push(a) });
      const report = store.load();
      let error;
      try { store.save({ lastUsedId: 'lean' }); } catch (e) { error = [e.message, e.status]; }
      store.recordFirst('s', 'lean'); // refused once, logged once: not tried again
      process.stdout.write(JSON.stringify({ report, error, warnings, lastUsedId: store.state.lastUsedId }));
    `, [dir], 30_000);
    expect(result.timedOut).toBe(false);
    const reason = 'is not a regular file (a FIFO, socket or device); context-profiles reads and replaces only a regular file';
    expect(JSON.parse(result.stdout)).toEqual({
      report: { kind: 'refused', reason },
      error: [`not saving: ${join(dir, FILE)} ${reason}`, 503],
      warnings: [['context-profiles: %s %s; the defaults are in use and nothing will be saved', join(dir, FILE), reason]],
      lastUsedId: 'none',
    });
    expect(readdirSync(dir)).toEqual([FILE]);
    expect(lstatSync(join(dir, FILE)).isFIFO()).toBe(true);
  });

  it('CP-31 a directory or a symbolic link at the state path is refused too, and nothing replaces it', () => {
    for (const make of [(p: string) => mkdirSync(p), (p: string) => symlinkSync(join(p, '..', 'elsewhere.json'), p)]) {
      const dir = home();
      make(join(dir, FILE));
      const store = new StateStore(dir, logger);
      expect(store.load().kind).toBe('refused');
      expect(() => store.save({ lastUsedId: 'lean' })).toThrow(/^not saving: .* is (a directory|a symbolic link); context-profiles reads and replaces only a regular file$/);
      expect(existsSync(join(dir, 'elsewhere.json'))).toBe(false);
    }
  });
});

describe('several writers on one home (CP-14, CP-31, CP-37)', () => {
  it('CP-14 CP-37 a DSH session record and a panel save in another process both survive, in either order', () => {
    const dir = home();
    writeFileSync(join(dir, FILE), JSON.stringify({ ...defaultState(), lastUsedId: 'lean' }));
    const dsh = new StateStore(dir, logger);
    const panel = new StateStore(dir, logger);
    dsh.load();
    panel.load();
    const { revision } = panel.snapshot();
    // DSH records session-1, then the panel (which loaded before) saves an edit of full.
    dsh.recordFirst('session-1', 'lean');
    const profiles = panel.state.profiles.map((p) => (p.id === 'full' ? { ...p, tools: { bash: 'defer' } } : p));
    panel.save({ profiles, lastUsedId: panel.state.lastUsedId, baseline: panel.state.baseline }, revision);
    expect([read(dir).sessions, (read(dir).profiles as Profile[])[0]!.tools]).toEqual([{ 'session-1': 'lean' }, { bash: 'defer' }]);
    // The user picks full in the panel; DSH (which read before) records session-2: lastUsedId stays full.
    panel.save({ lastUsedId: 'full' }, panel.snapshot().revision);
    dsh.recordFirst('session-2', dsh.profileIdFor('session-2'));
    expect([read(dir).lastUsedId, read(dir).sessions]).toEqual(['full', { 'session-1': 'lean', 'session-2': 'lean' }]);
    // A process that refreshes first records the current default.
    dsh.refresh();
    dsh.recordFirst('session-3', dsh.profileIdFor('session-3'));
    expect(read(dir).sessions).toEqual({ 'session-1': 'lean', 'session-2': 'lean', 'session-3': 'full' });
  });

  it('CP-37 two panels (two revisions) editing different profiles and rules both keep their edit; the same field: the later save wins', () => {
    const dir = home();
    const a = new StateStore(dir, logger);
    const b = new StateStore(dir, logger);
    a.load();
    b.load();
    const ra = a.snapshot().revision;
    const rb = b.snapshot().revision;
    const edit = (store: StateStore, id: string, tools: Record<string, string>) => store.state.profiles.map((p) => (p.id === id ? { ...p, tools } : p));
    a.save({ profiles: edit(a, 'lean', { grep: 'off' }), baseline: { ...a.state.baseline, contract: false } }, ra);
    b.save({ profiles: edit(b, 'minimal', { bash: 'defer' }), baseline: { ...b.state.baseline, custom: { enabled: true, text: 'B' } }, lastUsedId: 'minimal' }, rb);
    const file = read(dir) as unknown as { profiles: Profile[]; baseline: Record<string, unknown>; lastUsedId: string };
    expect([file.profiles.map((p) => p.tools), file.baseline, file.lastUsedId]).toEqual([
      [{}, { grep: 'off' }, { bash: 'defer' }],
      { contract: false, cardReceipt: true, untrustedDownload: true, custom: { enabled: true, text: 'B' } },
      'minimal',
    ]);
    // Both change lean's tools: the later save wins that profile.
    const r1 = a.snapshot().revision;
    a.refresh();
    b.refresh();
    const r2 = b.snapshot().revision;
    a.save({ profiles: edit(a, 'lean', { grep: 'defer' }) }, r1);
    b.save({ profiles: edit(b, 'lean', { read: 'off' }) }, r2);
    expect((read(dir).profiles as Profile[])[1]!.tools).toEqual({ read: 'off' });
  });

  it('CP-14 CP-31 four processes recording sessions and saving edits at once on one home lose nothing', async () => {
    const dir = home();
    new StateStore(dir, logger).load();
    const script = `
      const { StateStore } = await import(${JSON.stringify(built('plugins/context-profiles/store.js'))});
      const [dir, who] = process.argv.slice(1);
      const store = new StateStore(dir, { warn: () => {} });
      store.load();
      for (let i = 0; i < 10; i++) {
        store.recordFirst(\`\${who}-\${i}\`, 'lean');
        const { state, revision } = store.snapshot();
        const custom = { id: \`\${who}\`, groups: {}, servers: {}, tools: { ['t' + i]: 'off' }, prompt: { prefix: { enabled: true, override: false, text: '' }, suffix: { enabled: true, override: false, text: '' } }, contexts: {}, sections: {} };
        store.save({ profiles: [...state.profiles.filter((p) => p.id !== who), custom] }, revision);
      }
    `;
    const writers = ['w1', 'w2', 'w3', 'w4'];
    const results = await Promise.all(writers.map((who) => runScript(script, [dir, who], 60_000)));
    expect(results.map((r) => [r.status, r.stderr, r.timedOut])).toEqual(writers.map(() => [0, '', false]));
    const file = read(dir) as unknown as { profiles: Profile[]; sessions: Record<string, string> };
    expect(Object.keys(file.sessions).sort()).toEqual(writers.flatMap((w) => Array.from({ length: 10 }, (_, i) => `${w}-${i}`)).sort());
    expect(file.profiles.map((p) => p.id).sort()).toEqual(['full', 'lean', 'minimal', ...writers]);
    expect(file.profiles.filter((p) => writers.includes(p.id)).map((p) => p.tools)).toEqual(writers.map(() => ({ t9: 'off' })));
    expect(readdirSync(dir)).toEqual([FILE]);
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
