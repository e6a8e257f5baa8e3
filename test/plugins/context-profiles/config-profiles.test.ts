// Issue 30: the config's own profiles (`profiles`) and a `defaultProfile` naming one of them, as the
// bundle ships `frugal`: validated at load (CP-32's normalization, strict, the STATE_LIMITS caps), held
// by a fresh state and used for new sessions, never injected into an existing state file; and the
// guidance sections DSH names after a tool family follow their tools (CP-12).

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configProfiles, Config } from '../../../src/plugins/context-profiles/config.js';
import { builtinProfiles, GROUP_IDS, type Profile } from '../../../src/plugins/context-profiles/index.js';
import { defaultState } from '../../../src/plugins/context-profiles/model.js';
import { TOOL_SEARCH } from '../../../src/plugins/context-profiles/placeholders.js';
import { effectiveState } from '../../../src/plugins/context-profiles/resolve.js';
import { validateConfig } from '../../../src/testing/index.js';
import { mountHost, reply, tool } from '../../support/context-profiles.js';

const STATE = 'session-context-config.json';
const home = () => mkdtempSync(join(tmpdir(), 'cp-'));
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
const byName = (list: readonly string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
/** Tool names by the state `profile` gives each, in the list's order (every state present, possibly empty). */
function resolveAll(profile: Profile, list: readonly string[]): Record<'inject' | 'defer' | 'hidden', string[]> {
  const out: Record<'inject' | 'defer' | 'hidden', string[]> = { inject: [], defer: [], hidden: [] };
  for (const name of list) out[effectiveState(profile, { name, description: '', parameters: {} })].push(name);
  return out;
}

/** The bundle's context-profiles row config, as cordis.patch.yml ships it. */
function bundleRow(): { defaultProfile: string; profiles: unknown[] } {
  const patch = parse(readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'cordis.patch.yml'), 'utf8')) as { insert?: { id: string; config?: unknown }[] }[];
  return patch.flatMap((op) => op.insert ?? []).find((row) => row.id === 'context-profiles')!.config as { defaultProfile: string; profiles: unknown[] };
}

/** The message DSH's loader shows for a rejected row config (one issue). */
function loadError(config: unknown): string {
  try {
    validateConfig(Config, config);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
}

const quick = (over: Record<string, unknown> = {}): Record<string, unknown> => ({ id: 'quick', name: '快速', groups: { skills: 'defer' }, tools: { read_image: 'off' }, ...over });

describe('config profiles: validation at load (issue 30, CP-03, CP-32)', () => {
  it('issue 30 CP-32 each bad profile or default is a load error naming the key, the value and the limit', () => {
    const at = 'invalid config:\n  - ';
    const cases: [unknown, string][] = [
      [{ profiles: [quick()], defaultProfile: 'quik' }, 'defaultProfile "quik" names no profile; valid: none, full, lean, minimal, quick'],
      [{ defaultProfile: 'lena' }, 'defaultProfile "lena" names no profile; valid: none, full, lean, minimal'],
      [{ profiles: ['quick'] }, 'profiles[0] is "quick" (a string), not a profile object'],
      [{ profiles: [{ name: 'x' }] }, 'profiles[0].id is missing, not a non-empty string'],
      [{ profiles: [quick({ id: 7 })] }, 'profiles[0].id is 7 (a number), not a non-empty string'],
      [{ profiles: [quick({ id: 'none' })] }, 'profiles[0].id "none" is reserved (it means: leave sessions alone)'],
      [{ profiles: [quick({ id: 'full' })] }, 'profiles[0].id "full" is a built-in profile\'s id (full, lean, minimal); choose another id'],
      [{ profiles: [quick(), quick()] }, 'profiles[1].id "quick" is used twice'],
      [{ profiles: [quick({ tool: { read: 'off' } })] }, 'profiles[0] ("quick").tool is not a profile key; the keys are id, name, groups, servers, tools, prompt, contexts, sections, channels, summaries'],
      [{ profiles: [quick({ groups: { skill: 'defer' } })] }, `profiles[0] ("quick").groups has "skill", not a group; the groups are ${GROUP_IDS.join(', ')}`],
      [{ profiles: [quick({ groups: { skills: 'deferred' } })] }, 'profiles[0] ("quick").groups.skills is "deferred" (a string), not one of force/on/defer/off'],
      [{ profiles: [quick({ tools: { read: 'force' } })] }, 'profiles[0] ("quick").tools.read is "force" (a string), not one of on/defer/off'],
      [{ profiles: [quick({ tools: ['read'] })] }, 'profiles[0] ("quick").tools is a list, not an object of states'],
      [{ profiles: [quick({ name: 3 })] }, 'profiles[0] ("quick").name is 3 (a number), not a string'],
      [{ profiles: [quick({ name: '名'.repeat(101) })] }, 'profiles[0] ("quick").name is 101 characters; the limit is 100'],
      [{ profiles: [quick({ id: 'q'.repeat(65) })] }, `profiles[0] ("${'q'.repeat(65)}").id is 65 characters; the limit is 64`],
      [{ profiles: [quick({ summaries: { read: 's'.repeat(2001) } })] }, 'profiles[0] ("quick").summaries.read is 2001 characters; the limit is 2000'],
      [{ profiles: [quick({ tools: Object.fromEntries(Array.from({ length: 1025 }, (_, i) => [`t${i}`, 'off'])) })] }, 'profiles[0] ("quick").tools has 1025 entries; the limit is 1024'],
      [{ profiles: Array.from({ length: 62 }, (_, i) => quick({ id: `p${i}` })) }, 'profiles has 62 entries; the limit is 61 (64 profiles in the state file, 3 of them built-in)'],
    ];
    expect(cases.map(([config]) => loadError(config))).toEqual(cases.map(([, message]) => `${at}${message}`));
    // A wrong-typed `profiles` is the schema's error, naming the key.
    expect(loadError({ profiles: 42 })).toContain('profiles');
    expect(loadError({ profiles: [quick()], defaultProfile: 'quick' })).toBe('accepted');
    expect(loadError({ profiles: Array.from({ length: 61 }, (_, i) => quick({ id: `p${i}` })) })).toBe('accepted');
  });

  it('issue 30 CP-32 a config profile is normalized as a save is: the profile shape, defaults for what it leaves out', () => {
    expect(configProfiles([quick()])).toEqual([{
      id: 'quick', name: '快速', groups: { skills: 'defer' }, servers: {}, tools: { read_image: 'off' },
      prompt: { prefix: { enabled: true, override: false, text: '' }, suffix: { enabled: true, override: false, text: '' } }, contexts: {}, sections: {},
    }]);
    expect(configProfiles(undefined)).toEqual([]);
  });
});

describe('config profiles in the state (issue 30, CP-13, CP-14, CP-31)', () => {
  const hostTools = () => ['grep', 'bash', 'read_image', 'skill', 'todo_write'].map((n) => tool(n, `The ${n} tool. More about it.`, { type: 'object', properties: { x: { type: 'string', description: 'X.' } } }));

  it('issue 30 CP-31 CP-14 with no state file the config\'s profile is in the state beside the built-ins, new sessions start on it, and the first record writes it into the file', async () => {
    const dir = home();
    const { host, profiles } = mountHost(dir, { tools: hostTools(), config: { profiles: [quick()], defaultProfile: 'quick' } });
    expect([profiles.store.state.lastUsedId, profiles.store.state.profiles.map((p) => p.id)]).toEqual(['quick', ['full', 'lean', 'minimal', 'quick']]);
    await host.run('hi', reply);
    const sent = host.requests[0]!.tools;
    // quick: skills deferred (a placeholder), read_image hidden, the rest whole, and tool_search.
    expect(names(sent)).toEqual(byName(['read', 'write', 'edit', 'run_code', 'grep', 'bash', 'skill', 'todo_write', TOOL_SEARCH]));
    expect(sent.find((t) => t.name === 'skill')!.description).toBe('The skill tool.');
    expect(sent.find((t) => t.name === 'bash')!.description).toBe('The bash tool. More about it.');
    const saved = JSON.parse(readFileSync(join(dir, STATE), 'utf8')) as { lastUsedId: string; profiles: Profile[]; sessions: Record<string, string> };
    expect([saved.lastUsedId, saved.sessions, saved.profiles.map((p) => p.id)]).toEqual(['quick', { 'session-1': 'quick' }, ['full', 'lean', 'minimal', 'quick']]);
    expect(saved.profiles[3]).toEqual(configProfiles([quick()])[0]);
    // Once in the file the profile is the user's: a panel save may change it and a later mount keeps that.
    profiles.store.save({ profiles: saved.profiles.map((p) => (p.id === 'quick' ? { ...p, tools: {} } : p)) });
    const { profiles: again } = mountHost(dir, { tools: hostTools(), config: { profiles: [quick()], defaultProfile: 'quick' } });
    expect(again.store.state.profiles.find((p) => p.id === 'quick')!.tools).toEqual({});
  });

  it('issue 30 CP-31 an existing state file is not altered: the config\'s profiles are not injected, its lastUsedId decides', async () => {
    const dir = home();
    // A file in the current shape (as the store writes it), so loading it rewrites nothing.
    const bytes = `${JSON.stringify(defaultState('lean'), null, 2)}\n`;
    writeFileSync(join(dir, STATE), bytes);
    const { host, profiles } = mountHost(dir, { tools: hostTools(), config: { profiles: [quick()], defaultProfile: 'quick' } });
    expect(readFileSync(join(dir, STATE), 'utf8')).toBe(bytes);
    expect(profiles.store.state.profiles.map((p) => p.id)).toEqual(['full', 'lean', 'minimal']);
    await host.run('hi', reply);
    const saved = JSON.parse(readFileSync(join(dir, STATE), 'utf8')) as { lastUsedId: string; profiles: Profile[]; sessions: Record<string, string> };
    expect([saved.lastUsedId, saved.sessions, saved.profiles]).toEqual(['lean', { 'session-1': 'lean' }, builtinProfiles()]);
    // Choosing the config's profile for a session is refused: it is not in the file.
    expect(() => profiles.choose('session-1', 'quick')).toThrow('profile "quick" does not exist');
  });
});

describe('the bundle\'s frugal profile (issue 30, CP-05, CP-06, CP-10)', () => {
  /** Every tool DSH rc.8's headless profile registers (test/real-dsh/context-profiles.test.ts lists them) and this package's. */
  const RC8_HEADLESS = ['bash', 'create_goal', 'edit', 'exit_plan_mode', 'get_goal', 'glob', 'grep', 'interrupt_agent', 'job_kill', 'job_list', 'job_output', 'list_agents', 'ralph', 'read', 'read_image', 'send_message', 'skill', 'str_replace_editor', 'subagent', 'subagent_fork', 'todo_write', 'update_goal', 'web_search', 'workflow', 'write'];
  const OURS = ['memory', 'recall_turn', 'recall_step', 'recall_search', 'expand_result'];

  it('issue 30 CP-05 the bundle row ships frugal (节俭), the default for new sessions: full\'s groups plus skills and collaboration deferred, and five of DSH\'s tools deferred; the built-ins unchanged', () => {
    const row = bundleRow();
    const [frugal, ...rest] = configProfiles(row.profiles);
    expect([row.defaultProfile, rest]).toEqual(['frugal', []]);
    const full = builtinProfiles()[0]!;
    expect(frugal).toEqual({ ...full, id: 'frugal', name: '节俭', groups: { ...full.groups, skills: 'defer', collaboration: 'defer' }, tools: { str_replace_editor: 'defer', read_image: 'defer', job_list: 'defer', job_output: 'defer', job_kill: 'defer' } });
    expect(builtinProfiles().map((p) => [p.id, p.name])).toEqual([['full', '完整'], ['lean', '精简'], ['minimal', '极简']]);
  });

  it('issue 30 CP-06 CP-10 frugal over rc.8\'s headless tools: the file, search and shell tools and this package\'s sent whole, every other tool deferred (reachable through tool_search), none hidden', () => {
    const [frugal] = configProfiles(bundleRow().profiles);
    expect(resolveAll(frugal!, [...RC8_HEADLESS, ...OURS])).toEqual({
      inject: ['bash', 'edit', 'glob', 'grep', 'read', 'write', ...OURS],
      defer: ['create_goal', 'exit_plan_mode', 'get_goal', 'interrupt_agent', 'job_kill', 'job_list', 'job_output', 'list_agents', 'ralph', 'read_image', 'send_message', 'skill', 'str_replace_editor', 'subagent', 'subagent_fork', 'todo_write', 'update_goal', 'web_search', 'workflow'],
      hidden: [],
    });
    // Under full, only orchestration and goal are deferred of these.
    expect(resolveAll(builtinProfiles()[0]!, RC8_HEADLESS).defer).toEqual(['create_goal', 'exit_plan_mode', 'get_goal', 'ralph', 'todo_write', 'update_goal', 'workflow']);
  });
});

describe('guidance sections named after a tool family (CP-12, issue 30)', () => {
  const family = ['job_list', 'job_output', 'job_kill', 'create_goal', 'get_goal', 'update_goal', 'cordis_run', 'cordis_stop', 'bash'].map((n) => tool(n, `The ${n} tool.`));

  async function sections(profile: Profile): Promise<string[]> {
    const dir = home();
    writeFileSync(join(dir, STATE), JSON.stringify({ version: 4, lastUsedId: profile.id, profiles: [...builtinProfiles().filter((p) => p.id !== profile.id), profile], sessions: {} }));
    const { host } = mountHost(dir, { tools: family });
    const prompt = host.ctx.systemPrompt;
    prompt.section({ name: 'tool:bash', order: 100, text: 'BASH GUIDE' });
    prompt.section({ name: 'tool:jobs', order: 101, text: 'Track every background job id you start.' });
    prompt.section({ name: 'tool:goal', order: 102, text: 'Use goal tools for one long-running completion objective.' });
    prompt.section({ name: 'tool:cordis', order: 115, text: '# Dynamic Cordis Plugins' });
    await host.run('hi', reply);
    const assembly = await host.agent.ctx.systemPrompt.assemble({ agent: host.agent, scope: host.agent });
    return assembly.sections.map((s) => s.name).filter((n) => n.startsWith('tool:'));
  }

  it('CP-12 issue 30 tool:jobs, tool:goal and tool:cordis (DSH rc.8 names them after the family) go when none of their tools is injected, stay while one is', async () => {
    const full = builtinProfiles()[0]!;
    const [frugal] = configProfiles(bundleRow().profiles);
    expect(await sections(full)).toEqual(['tool:bash', 'tool:jobs']);
    expect(await sections(frugal!)).toEqual(['tool:bash']);
    // One job tool injected keeps the jobs guidance; a family tool on while its group is hidden does not.
    expect(await sections({ ...frugal!, tools: { ...frugal!.tools, job_output: 'on' } })).toEqual(['tool:bash', 'tool:jobs']);
    expect(await sections({ ...full, groups: { ...full.groups, goal: 'off' }, tools: { get_goal: 'on' } })).toEqual(['tool:bash', 'tool:jobs']);
    expect(await sections({ ...full, groups: { ...full.groups, goal: 'on', 'plugin-dev': 'on' } })).toEqual(['tool:bash', 'tool:jobs', 'tool:goal', 'tool:cordis']);
  });

  it('CP-12 a family section stays when the session has none of the family\'s tools (nothing tells it apart from another plugin\'s section)', async () => {
    const dir = home();
    writeFileSync(join(dir, STATE), JSON.stringify({ version: 4, lastUsedId: 'minimal', profiles: builtinProfiles(), sessions: {} }));
    const { host } = mountHost(dir, { tools: [tool('bash', 'Run.')] });
    host.ctx.systemPrompt.section({ name: 'tool:goal', order: 102, text: 'GOALS' });
    await host.run('hi', reply);
    expect(host.requests[0]!.system).toContain('GOALS');
  });
});
