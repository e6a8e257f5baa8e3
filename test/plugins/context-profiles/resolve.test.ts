// The profile model and resolution (CP-03..CP-07, CP-11).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinProfiles, GROUP_IDS, type GroupState, type Profile, type ToolState } from '../../../src/plugins/context-profiles/index.js';
import { defaultSlot } from '../../../src/plugins/context-profiles/model.js';
import { deferralSummary, effectiveState, firstSentence, groupOf, resolveAll, serverOf } from '../../../src/plugins/context-profiles/resolve.js';

const profile = (over: Partial<Profile> = {}): Profile => ({
  id: 'p', groups: {}, servers: {}, tools: {}, prompt: { prefix: defaultSlot(), suffix: defaultSlot() }, contexts: {}, sections: {}, ...over,
});
const t = (name: string, description = 'Does a thing.') => ({ name, description, parameters: {} });

describe('groups (CP-04)', () => {
  it('CP-04 thirteen group ids; the table, cordis_*, MCP attribution and the other fallback', () => {
    expect(GROUP_IDS).toEqual(['files', 'search', 'terminal', 'platform', 'interaction', 'skills', 'collaboration', 'orchestration', 'schedule', 'goal', 'mcp', 'other', 'plugin-dev']);
    expect(['read', 'grep', 'bash', 'lsp', 'ask_user_question', 'web_fetch', 'subagent', 'todo_write', 'schedule_create', 'create_goal', 'plugin_manager', 'cordis_x', 'mcp__gh__get', 'widget'].map((n) => groupOf(t(n))))
      .toEqual(['files', 'search', 'terminal', 'platform', 'interaction', 'skills', 'collaboration', 'orchestration', 'schedule', 'goal', 'plugin-dev', 'plugin-dev', 'mcp', 'other']);
    expect([serverOf(t('mcp__legal-db__query')), serverOf(t('query')), serverOf({ ...t('query'), mcp: { server: 'db' } }), groupOf({ ...t('query'), mcp: { server: 'db' } })])
      .toEqual(['legal-db', undefined, 'db', 'mcp']);
  });
});

describe('built-in profiles (CP-05)', () => {
  it('CP-05 full, lean and minimal are exactly the seed table', () => {
    const rows = builtinProfiles().map((p) => [p.id, p.name, GROUP_IDS.map((g) => p.groups[g])]);
    expect(rows).toEqual([
      ['full', '完整', ['on', 'on', 'on', 'on', 'on', 'on', 'on', 'defer', 'defer', 'defer', 'defer', 'defer', 'defer']],
      ['lean', '精简', ['on', 'on', 'on', 'on', 'on', 'on', 'on', 'off', 'off', 'off', 'defer', 'defer', 'off']],
      ['minimal', '极简', ['on', 'on', 'on', 'on', 'off', 'off', 'off', 'off', 'off', 'off', 'off', 'off', 'off']],
    ]);
    for (const p of builtinProfiles()) expect([p.servers, p.tools, p.contexts, p.sections, p.prompt]).toEqual([{}, {}, {}, {}, { prefix: defaultSlot(), suffix: defaultSlot() }]);
  });
});

describe('resolution (CP-06, CP-07)', () => {
  const mcp = t('mcp__gh__get_issue');
  const cases: [string, Partial<Profile>, ReturnType<typeof t>, string][] = [
    ['1 group force beats tool off', { groups: { mcp: 'force' }, tools: { mcp__gh__get_issue: 'off' }, servers: { gh: 'off' } }, mcp, 'inject'],
    ['2 group off beats server force and tool on', { groups: { mcp: 'off' }, servers: { gh: 'force' }, tools: { mcp__gh__get_issue: 'on' } }, mcp, 'hidden'],
    ['3 server force beats tool off and group defer', { groups: { mcp: 'defer' }, servers: { gh: 'force' }, tools: { mcp__gh__get_issue: 'off' } }, mcp, 'inject'],
    ['4 server off beats tool defer', { servers: { gh: 'off' }, tools: { mcp__gh__get_issue: 'defer' } }, mcp, 'hidden'],
    ['5 tool off under a deferred group', { groups: { mcp: 'defer' }, tools: { mcp__gh__get_issue: 'off' } }, mcp, 'hidden'],
    ['6 tool defer under an on group', { tools: { mcp__gh__get_issue: 'defer' } }, mcp, 'defer'],
    ['7 group defer', { groups: { mcp: 'defer' } }, mcp, 'defer'],
    ['7 server defer', { servers: { gh: 'defer' } }, mcp, 'defer'],
    ['7 tool on cannot loosen a deferred group', { groups: { mcp: 'defer' }, tools: { mcp__gh__get_issue: 'on' } }, mcp, 'defer'],
    ['8 nothing set', {}, mcp, 'inject'],
    ['server rules ignore tools without a server', { servers: { gh: 'off' } }, t('bash'), 'inject'],
  ];
  for (const [label, over, tool, want] of cases) {
    it(`CP-06 rule ${label}`, () => expect(effectiveState(profile(over), tool)).toBe(want));
  }

  it('CP-06 the first matching rule wins for every combination (reference model)', () => {
    const g = fc.constantFrom<GroupState | undefined>('force', 'on', 'defer', 'off', undefined);
    const s = fc.constantFrom<ToolState | undefined>('on', 'defer', 'off', undefined);
    fc.assert(fc.property(g, g, s, (group, server, own) => {
      const p = profile({ groups: group ? { mcp: group } : {}, servers: server ? { gh: server } : {}, tools: own ? { mcp__gh__get_issue: own } : {} });
      const rules: [boolean, string][] = [
        [group === 'force', 'inject'], [group === 'off', 'hidden'], [server === 'force', 'inject'], [server === 'off', 'hidden'],
        [own === 'off', 'hidden'], [own === 'defer', 'defer'], [group === 'defer' || server === 'defer', 'defer'], [true, 'inject'],
      ];
      expect(effectiveState(p, mcp)).toBe(rules.find(([hit]) => hit)![1]);
    }));
  });

  it('CP-07 hiding a group keeps the child records and re-enabling restores them', () => {
    const p = profile({ groups: { mcp: 'on' }, servers: { gh: 'defer' }, tools: { mcp__gh__get_issue: 'off', mcp__gh__list: 'on' } });
    const tools = [mcp, t('mcp__gh__list')];
    expect(resolveAll(p, tools)).toEqual({ inject: [], defer: ['mcp__gh__list'], hidden: ['mcp__gh__get_issue'] });
    const hidden = { ...p, groups: { mcp: 'off' as const } };
    expect(resolveAll(hidden, tools)).toEqual({ inject: [], defer: [], hidden: ['mcp__gh__get_issue', 'mcp__gh__list'] });
    expect([hidden.servers, hidden.tools]).toEqual([{ gh: 'defer' }, { mcp__gh__get_issue: 'off', mcp__gh__list: 'on' }]);
    expect(resolveAll({ ...hidden, groups: { mcp: 'on' } }, tools)).toEqual(resolveAll(p, tools));
  });
});

describe('deferral summary (CP-11)', () => {
  it('CP-11 server summary > group summary > first sentence', () => {
    const tool = t('mcp__gh__get_issue', 'Get an issue. Returns JSON.');
    expect(deferralSummary(profile({ summaries: { gh: 'GitHub.', mcp: 'MCP.' } }), tool)).toBe('GitHub.');
    expect(deferralSummary(profile({ summaries: { mcp: 'MCP.' } }), tool)).toBe('MCP.');
    expect(deferralSummary(profile({ summaries: { other: 'x' } }), tool)).toBe('Get an issue.');
    expect(deferralSummary(profile({ summaries: { mcp: 'Bash group?' } }), t('bash', 'Run it.'))).toBe('Run it.');
  });

  it('CP-11 first sentence: . ! ? before whitespace or the end, Chinese stops, a line break, else the first line', () => {
    expect([
      firstSentence('Reads v1.2 files. Then more.'),
      firstSentence('Stop! Go'),
      firstSentence('Why? Because'),
      firstSentence('读取文件。然后'),
      firstSentence('读取！x'),
      firstSentence('问？x'),
      firstSentence('first line\nsecond. line'),
      firstSentence('no stop at all'),
      firstSentence('  padded.  '),
      firstSentence('ends with a dot.'),
    ]).toEqual(['Reads v1.2 files.', 'Stop!', 'Why?', '读取文件。', '读取！', '问？', 'first line', 'no stop at all', 'padded.', 'ends with a dot.']);
  });
});
