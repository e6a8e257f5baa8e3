// The system prompt and runtime contexts of a profile (CP-12, CP-17..CP-27) on the simulated host.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HostEvent, type Context } from '../../../src/host/index.js';
import { builtinProfiles, StateStore, type Baseline, type Profile } from '../../../src/plugins/context-profiles/index.js';
import { ADDITIONAL_RULES, RULE_TEXTS } from '../../../src/plugins/context-profiles/model.js';
import { createTestHost, type TestHost } from '../../../src/testing/index.js';
import { contextProfiles, hostTools, mountHost, reply, tool } from '../../support/context-profiles.js';

type Edit = (lean: Profile) => void;
function homeWith(edit: Edit, baseline?: Partial<Baseline>, lastUsedId = 'lean'): string {
  const dir = mkdtempSync(join(tmpdir(), 'cp-'));
  const profiles = builtinProfiles();
  edit(profiles.find((p) => p.id === 'lean')!);
  writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({
    version: 4, lastUsedId, profiles, sessions: {},
    ...(baseline ? { baseline: { contract: true, cardReceipt: true, untrustedDownload: true, custom: { enabled: false, text: '' }, ...baseline } } : {}),
  }));
  return dir;
}

/** What a deployment registers: sections (some guidance) and runtime contexts. */
function deployment(host: TestHost, persona = true): void {
  const prompt = host.ctx.systemPrompt;
  prompt.section({ name: 'harness:identity', order: -1000, text: 'IDENTITY' });
  if (persona) prompt.section({ name: 'deployment:persona-prefix', order: 0, text: 'DEPLOY PREFIX' });
  prompt.section({ name: 'tool:grep', order: 150, text: 'GREP GUIDE' });
  prompt.section({ name: 'tool:todo_write', order: 151, text: 'PLAN GUIDE' });
  prompt.section({ name: 'tool:third_party_widget', order: 152, text: 'WIDGET GUIDE' });
  prompt.section({ name: 'harness:source', order: 500, text: 'SOURCE' });
  prompt.section({ name: 'brand-new:section', order: 600, text: 'NEW' });
  if (persona) prompt.section({ name: 'deployment:persona-suffix', order: 10200, text: 'DEPLOY SUFFIX' });
  prompt.context({ name: 'working-directory:current', order: 10, text: 'cwd: /repo', required: true });
  prompt.context({ name: 'harness:source', order: 20, text: 'checkout: /src/dsh' });
  prompt.context({ name: 'custom:unknown', order: 30, text: 'UNKNOWN CTX' });
}

async function run(dir: string, options: { subagent?: boolean; persona?: boolean } = {}) {
  const { host, profiles } = mountHost(dir, { tools: hostTools(), subagent: options.subagent });
  deployment(host, options.persona ?? true);
  await host.run('hi', reply);
  const assembly = await host.agent.ctx.systemPrompt.assemble({ agent: host.agent, scope: host.agent });
  return { host, profiles, system: host.requests[0]!.system, assembly, sections: assembly.sections.map((s) => s.name), contexts: assembly.contexts.map((c) => c.name) };
}

/** The facts for the session cwd /repo, which does not exist here: git fails, so every git fact is unknown. */
const FACTS = 'Environment facts (sampled once at session start):\n- working directory: /repo\n- git branch: unknown\n- working tree: unknown';
const RULES = [RULE_TEXTS.contract, RULE_TEXTS.cardReceipt, RULE_TEXTS.untrustedDownload];

describe('sections and guidance (CP-12, CP-19, CP-20, CP-21)', () => {
  it('CP-12 CP-20 lean: guidance only for injected tools, host order kept, rules last, unknown sections by raw name', async () => {
    const { system, sections } = await run(homeWith(() => {}));
    expect(sections).toEqual([
      'harness:identity', 'deployment:persona-prefix', 'tool:grep', 'harness:source', 'brand-new:section', 'deployment:persona-suffix',
      ...ADDITIONAL_RULES.slice(0, 3).map((r) => r.section),
    ]);
    expect(system).toBe(['IDENTITY', 'DEPLOY PREFIX', 'GREP GUIDE', 'SOURCE', 'NEW', 'DEPLOY SUFFIX', ...RULES].join('\n\n'));
  });

  it('CP-19 disabled sections are dropped; persona slots and rules are protected from the sections map', async () => {
    const dir = homeWith((p) => {
      p.sections = { 'harness:identity': false, 'brand-new:section': false };
    });
    const { sections } = await run(dir);
    expect(sections).toEqual(['deployment:persona-prefix', 'tool:grep', 'harness:source', 'deployment:persona-suffix', ...ADDITIONAL_RULES.slice(0, 3).map((r) => r.section)]);
    // Entries for protected names and tool:* never survive normalization (CP-32), so they cannot filter.
    const { sections: again } = await run(homeWith((p) => {
      p.sections = { 'deployment:persona-prefix': false, 'tool:grep': false, 'session-context-config:contract': false };
    }));
    expect(again).toContain('deployment:persona-prefix');
    expect(again).toContain('tool:grep');
    expect(again).toContain('session-context-config:contract');
  });

  it('CP-19 the assemble listener is registered global and outermost', () => {
    const seen: [string, unknown][] = [];
    const host = createTestHost({ dshHome: mkdtempSync(join(tmpdir(), 'cp-')) });
    const ctx = host.ctx;
    const on = (name: string, fn: (...a: any[]) => any, options?: unknown) => {
      seen.push([name, options]);
      return ctx.on(name, fn, options as never);
    };
    const spy = new Proxy(ctx, { get: (target, key) => (key === 'on' ? on : Reflect.get(target, key, target)) }) as Context;
    contextProfiles.apply(spy, {});
    expect(seen.find(([n]) => n === HostEvent.systemPromptAssemble)![1]).toEqual({ global: true, prepend: true });
  });

  it('CP-21 sccFullSections lists every section unfiltered and changes nothing on the request path', async () => {
    const { host, profiles, sections } = await run(homeWith((p) => {
      p.sections = { 'harness:identity': false };
    }));
    expect(await profiles.fullSections('session-1')).toEqual([
      'harness:identity', 'deployment:persona-prefix', 'tool:grep', 'tool:todo_write', 'tool:third_party_widget', 'harness:source', 'brand-new:section', 'deployment:persona-suffix',
      ...ADDITIONAL_RULES.slice(0, 3).map((r) => r.section),
    ]);
    const after = await host.agent.ctx.systemPrompt.assemble({ agent: host.agent, scope: host.agent });
    expect(after.sections.map((s) => s.name)).toEqual(sections);
  });
});

describe('persona slots (CP-18)', () => {
  const cases: [string, Profile['prompt']['prefix'], string | undefined][] = [
    ['enabled:false is not sent', { enabled: false, override: false, text: 'x' }, undefined],
    ['enabled, no override uses the deployment text', { enabled: true, override: false, text: 'ignored' }, 'DEPLOY PREFIX'],
    ['override with text replaces the slot', { enabled: true, override: true, text: 'MY {{persona}}' }, 'MY {{persona}}'],
    ['override with empty text is not sent', { enabled: true, override: true, text: '' }, undefined],
  ];
  for (const [label, prefix, want] of cases) {
    it(`CP-18 prefix ${label}; the suffix is independent`, async () => {
      const { assembly } = await run(homeWith((p) => {
        p.prompt.prefix = prefix;
      }));
      expect(assembly.sections.find((s) => s.name === 'deployment:persona-prefix')?.text).toBe(want);
      expect(assembly.sections.find((s) => s.name === 'deployment:persona-suffix')?.text).toBe('DEPLOY SUFFIX');
    });
  }

  it('CP-18 an override lands at its order even when the deployment has no persona', async () => {
    const { sections, assembly } = await run(homeWith((p) => {
      p.prompt.prefix = { enabled: true, override: true, text: 'PRE' };
      p.prompt.suffix = { enabled: true, override: true, text: 'POST' };
    }), { persona: false });
    expect(sections.slice(0, 3)).toEqual(['harness:identity', 'deployment:persona-prefix', 'tool:grep']);
    expect(sections.slice(-5, -3)).toEqual(['brand-new:section', 'deployment:persona-suffix']);
    expect(assembly.sections.filter((s) => s.name.startsWith('deployment:')).map((s) => s.text)).toEqual(['PRE', 'POST']);
  });
});

describe('additional rules (CP-17, CP-22..CP-24)', () => {
  it('CP-22 orders 20000..20030 after every host section; custom only when enabled and non-empty', async () => {
    const custom = 'Line one {{not_a_variable}}\nLine two';
    const { system, sections } = await run(homeWith(() => {}, { cardReceipt: false, custom: { enabled: true, text: custom } }));
    expect(sections.slice(-3)).toEqual(['session-context-config:contract', 'session-context-config:untrusted-download', 'session-context-config:custom']);
    expect(system.endsWith([RULE_TEXTS.contract, RULE_TEXTS.untrustedDownload, custom].join('\n\n'))).toBe(true);
    const { sections: off } = await run(homeWith(() => {}, { contract: false, cardReceipt: false, untrustedDownload: false, custom: { enabled: false, text: 'kept while disabled' } }));
    expect(off.filter((s) => s.startsWith('session-context-config:'))).toEqual([]);
    const { sections: empty } = await run(homeWith(() => {}, { custom: { enabled: true, text: '' } }));
    expect(empty).not.toContain('session-context-config:custom');
    expect(ADDITIONAL_RULES.map((r) => [r.section, r.order])).toEqual([
      ['session-context-config:contract', 20000], ['session-context-config:card-receipt', 20010], ['session-context-config:untrusted-download', 20020], ['session-context-config:custom', 20030],
    ]);
  });

  it('CP-23 the fixed texts cover every point the seed lists', () => {
    expect(RULE_TEXTS.contract).toMatch(/confirmation before any irreversible action[\s\S]*truthfully[\s\S]*act instead of asking[\s\S]*style[\s\S]*re-read a file you have just edited[\s\S]*<system-reminder>, say where it came from/);
    expect(RULE_TEXTS.cardReceipt).toMatch(/one sentence and do not restate its fields[\s\S]*error details/);
    expect(RULE_TEXTS.untrustedDownload).toMatch(/isolated, empty directory[\s\S]*as command arguments[\s\S]*python -I`; below Python 3\.11 also add `-P` or run from a safe cwd/);
  });

  it('CP-17 a sub-agent gets the rules but no section, slot, guidance or context filtering', async () => {
    const { sections, contexts, host } = await run(homeWith((p) => {
      p.sections = { 'harness:identity': false };
      p.contexts = { 'harness:source': false };
      p.prompt.prefix = { enabled: false, override: false, text: '' };
    }), { subagent: true });
    expect(sections).toEqual([
      'harness:identity', 'deployment:persona-prefix', 'tool:grep', 'tool:todo_write', 'tool:third_party_widget', 'harness:source', 'brand-new:section', 'deployment:persona-suffix',
      ...ADDITIONAL_RULES.slice(0, 3).map((r) => r.section),
    ]);
    expect(contexts).toEqual(['working-directory:current', 'harness:source', 'custom:unknown', 'session-context-config:environment']);
    expect(host.requests[0]!.tools.map((t) => t.name)).toContain('todo_write');
  });

  it('CP-24 a baseline change applies from the next new session only', async () => {
    const { host, profiles } = await run(homeWith(() => {}));
    profiles.store.save({ baseline: { contract: false, cardReceipt: true, untrustedDownload: true, custom: { enabled: false, text: '' } } });
    await host.run('again', reply);
    expect(host.requests[1]!.system).toContain(RULE_TEXTS.contract);
    const { system } = await run(profiles.store.home);
    expect(system).not.toContain(RULE_TEXTS.contract);
  });

  it('CP-24 CP-31 a baseline saved by another process (its own store) applies to this process\'s next session', async () => {
    const { host, profiles } = await run(homeWith(() => {}));
    const other = new StateStore(profiles.store.home, { warn: () => {} });
    other.load();
    other.save({ baseline: { contract: false, cardReceipt: true, untrustedDownload: true, custom: { enabled: false, text: '' } } });
    await host.run('again', reply);
    expect(host.requests[1]!.system).toContain(RULE_TEXTS.contract);
    other.save({ baseline: { contract: false, cardReceipt: false, untrustedDownload: true, custom: { enabled: false, text: '' } } });
    await host.resume();
    await host.run('new loop', reply);
    expect(host.requests[2]!.system).not.toContain(RULE_TEXTS.contract);
    expect(host.requests[2]!.system).not.toContain(RULE_TEXTS.cardReceipt);
  });
});

describe('runtime contexts (CP-25, CP-26)', () => {
  it('CP-25 only harness:source off: that context is gone, the rest stays; contexts outside the switch list stay', async () => {
    const { contexts, host } = await run(homeWith((p) => {
      p.contexts = { 'harness:source': false, 'custom:unknown': false };
    }));
    expect(contexts).toEqual(['working-directory:current', 'custom:unknown', 'session-context-config:environment']);
    const snapshot = host.requests[0]!.messages.find((m) => JSON.stringify(m.content).includes('Current runtime context'))!;
    expect((snapshot.content[0] as { text: string }).text).toBe('Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\ncwd: /repo\n\nUNKNOWN CTX\n\n' + FACTS);
  });

  it('CP-26 a disabled required context (the cwd) stays out after the refreshContext re-check; without the shadow it would come back', async () => {
    const { contexts } = await run(homeWith((p) => {
      p.contexts = { 'working-directory:current': false };
    }));
    expect(contexts).toEqual(['harness:source', 'custom:unknown', 'session-context-config:environment']);
    // A host with the newer DSH's refreshContext re-check (the seeds' host; rc.8 has none) re-adds a
    // required context a listener deleted: the shadow is what keeps it out there.
    const { host } = mountHost(mkdtempSync(join(tmpdir(), 'cp-')), { refreshContexts: true });
    deployment(host);
    host.ctx.on(HostEvent.systemPromptAssemble, async (_a: unknown, _c: unknown, next: () => Promise<{ contexts: { name: string }[] }>) => {
      const out = await next();
      return { ...out, contexts: out.contexts.filter((c) => c.name !== 'working-directory:current') };
    });
    const agent = await host.start();
    expect((await agent.ctx.systemPrompt.assemble({ agent, scope: agent })).contexts.map((c) => c.name)).toEqual(['working-directory:current', 'harness:source', 'custom:unknown', 'session-context-config:environment']);
  });
});

describe('tool guidance across a switch (CP-12, CP-15)', () => {
  it('CP-02 CP-15 an explicit switch recomputes tools and guidance; later config edits do not', async () => {
    const { host, profiles } = await run(homeWith(() => {}));
    profiles.store.save({ profiles: profiles.store.state.profiles.map((p) => (p.id === 'lean' ? { ...p, tools: { grep: 'off' } } : p)) });
    await host.run('edit does not apply', reply);
    expect(host.requests[1]!.tools.map((t) => t.name)).toContain('grep');
    profiles.choose('session-1', 'full');
    await host.run('switched', reply);
    expect(host.requests[2]!.system).not.toContain('PLAN GUIDE');
    expect(host.requests[2]!.tools.find((t) => t.name === 'todo_write')!.description).toBe('Record a plan of steps.');
    host.ctx.tools.register(tool('mcp__x__y', 'Y.'));
    expect(profiles.session('session-1').tools.mcp__x__y).toBe('defer');
  });
});
