// Applying tool states at agent/created on the simulated host (CP-08..CP-10, CP-13, CP-14, CP-16,
// CP-17) and the placeholder size measurement.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placeholderOf, schemaChars, slimSchema, TOOL_SEARCH, TOOL_SEARCH_DESCRIPTION } from '../../../src/plugins/context-profiles/placeholders.js';
import { firstSentence } from '../../../src/plugins/context-profiles/resolve.js';
import { builtinProfiles } from '../../../src/plugins/context-profiles/index.js';
import { hostTools, mcpTools, mountHost, reply, tool } from '../../support/context-profiles.js';

const home = () => mkdtempSync(join(tmpdir(), 'cp-'));
/** A home whose state says which profile new sessions get. */
function homeWith(lastUsedId: string, edit: (p: ReturnType<typeof builtinProfiles>) => void = () => {}): string {
  const dir = home();
  const profiles = builtinProfiles();
  edit(profiles);
  writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ version: 4, lastUsedId, profiles, sessions: {} }));
  return dir;
}
const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);
/** Tool names as DSH orders them in a request: by name, in code units. */
const byName = (list: readonly string[]) => [...list].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('hidden and deferred tools (CP-08, CP-09, CP-10)', () => {
  it('CP-08 lean hides orchestration and plugin-dev: no schema is sent and a call fails', async () => {
    const { host } = mountHost(homeWith('lean'), { tools: hostTools() });
    await host.run('hi', [{ tools: [{ id: 'c1', name: 'todo_write', input: { steps: [] } }] }, { text: 'done' }]);
    const request = host.requests[0]!;
    expect(names(request.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', 'grep', 'bash', 'ask_user_question', 'lsp', 'third_party_widget', TOOL_SEARCH]));
    expect(JSON.stringify(host.requests[1]!.messages.at(-1))).toContain('Error: unknown tool \\"todo_write\\"');
  });

  it('CP-09 a deferred tool keeps its name and every parameter type, loses descriptions, examples, defaults and titles', async () => {
    const { host } = mountHost(homeWith('lean'), { tools: hostTools() });
    await host.run('hi', reply);
    const widget = host.requests[0]!.tools.find((t) => t.name === 'third_party_widget')!;
    expect(widget).toEqual({ name: 'third_party_widget', description: 'A third-party plugin tool without an MCP server.', parameters: { type: 'object', properties: { x: { type: 'number' } }, required: [], additionalProperties: false } });
    expect(slimSchema({
      type: 'object', title: 'T', description: 'd', default: {}, examples: [{}],
      properties: {
        a: { type: 'string', description: 'x', example: 'e', default: 'd', format: 'uri', minLength: 1 },
        b: { type: 'array', items: { type: 'object', properties: { c: { type: 'integer', title: 'c' } }, required: ['c'] } },
        d: { anyOf: [{ type: 'string', description: 's' }, { type: 'null' }], nullable: true },
        e: { type: 'object', additionalProperties: { type: 'number', description: 'n' } },
        f: { enum: ['x', 'y'], description: 'pick' },
        g: { oneOf: [{ type: 'string' }, { type: 'number' }], allOf: [{ description: 'z' }] },
      },
      required: ['a'], additionalProperties: false,
    })).toEqual({
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: 'array', items: { type: 'object', properties: { c: { type: 'integer' } }, required: ['c'] } },
        d: { anyOf: [{ type: 'string' }, { type: 'null' }], nullable: true },
        e: { type: 'object', additionalProperties: { type: 'number' } },
        f: { enum: ['x', 'y'] },
        g: { oneOf: [{ type: 'string' }, { type: 'number' }], allOf: [{}] },
      },
      required: ['a'], additionalProperties: false,
    });
  });

  it('CP-09 NG-CP-2 calling a placeholder without tool_search runs the real tool with the given arguments', async () => {
    const calls: unknown[] = [];
    const { host } = mountHost(homeWith('full'), { tools: [tool('mcp__gh__get_issue', 'Get an issue. More.', { type: 'object', properties: { n: { type: 'number', description: 'n' } } }, calls)] });
    await host.run('hi', [{ tools: [{ id: 'c1', name: 'mcp__gh__get_issue', input: { n: 7 } }] }, { text: 'ok' }]);
    expect(calls).toEqual([{ n: 7 }]);
    expect(host.requests[0]!.tools.find((t) => t.name === 'mcp__gh__get_issue')!.description).toBe('Get an issue.');
  });

  it('CP-10 tool_search returns full definitions as a result, executes nothing, and the tools array never changes', async () => {
    const calls: unknown[] = [];
    const defs = mcpTools().map((d) => (d.name === 'mcp__github__get_issue' ? tool(d.name, d.description, d.parameters, calls) : d));
    const { host, profiles } = mountHost(homeWith('full'), { tools: defs });
    await host.run('hi', [{ tools: [{ id: 'c1', name: TOOL_SEARCH, input: { query: 'GET_ISSUE' } }] }, { text: 'ok' }]);
    const [first, second] = host.requests;
    expect(second!.tools).toEqual(first!.tools);
    const full = defs.find((d) => d.name === 'mcp__github__get_issue')!;
    const result = second!.messages.at(-1)!;
    expect(result.content).toEqual([{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: JSON.stringify([{ name: full.name, description: full.description, parameters: full.parameters }], null, 2) }], isError: false }]);
    expect(calls).toEqual([]);
    expect(profiles.session('session-1').tools).toMatchObject({ mcp__github__get_issue: 'loaded', mcp__github__list_issues: 'defer', read: 'inject' });
    const searchDef = first!.tools.find((t) => t.name === TOOL_SEARCH)!;
    expect(searchDef.description).toBe(TOOL_SEARCH_DESCRIPTION);
  });

  it('CP-10 the query matches summaries case-insensitively; no match gives one line', async () => {
    const { host } = mountHost(homeWith('full'), { tools: mcpTools() });
    await host.run('hi', [{ tools: [{ id: 'c1', name: TOOL_SEARCH, input: { query: 'ACCESSIBILITY SNAPSHOT' } }, { id: 'c2', name: TOOL_SEARCH, input: { query: 'zzz' } }] }, { text: 'ok' }]);
    const messages = host.requests[1]!.messages;
    const texts = messages.slice(-2).map((m) => ((m.content[0] as unknown as { content: { text: string }[] }).content[0]!.text));
    expect(JSON.parse(texts[0]!).map((t: { name: string }) => t.name)).toEqual(['mcp__browser__snapshot']);
    expect(texts[1]).toBe('No deferred tool matches "zzz".');
  });

  it('CP-10 tool_search is registered only when something is deferred', async () => {
    const { host } = mountHost(homeWith('minimal'), { tools: [...hostTools(), ...mcpTools()] });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', 'grep', 'bash', 'lsp']));
  });
});

describe('placeholder size on a realistic tool set (CP-09, informative 12,889 → 5,842 in the seed)', () => {
  it('CP-09 20 MCP tools shrink by more than half; every parameter name survives', async () => {
    const defs = mcpTools();
    const { host } = mountHost(homeWith('full'), { tools: defs });
    await host.run('hi', reply);
    const sent = host.requests[0]!.tools.filter((t) => t.name.startsWith('mcp__'));
    const before = defs.reduce((n, d) => n + schemaChars(d), 0);
    const after = sent.reduce((n, d) => n + schemaChars(d), 0);
    // The numbers this fixture gives (reported in the README); pinned so a change is noticed.
    expect([defs.length, before, after]).toEqual([20, 17444, 7694]);
    expect(after / before).toBeLessThan(0.5);
    for (const d of defs) {
      const slim = sent.find((s) => s.name === d.name)!;
      expect(Object.keys((slim.parameters as { properties: object }).properties)).toEqual(Object.keys((d.parameters as { properties: object }).properties));
      expect(slim).toEqual({ name: d.name, description: firstSentence(d.description), parameters: slimSchema(d.parameters) });
    }
  });
});

describe('lifecycle (CP-13, CP-14, CP-16, CP-17)', () => {
  it('CP-13 CP-14 lastUsedId "none" leaves the session unprocessed and records "none" for it', async () => {
    const dir = homeWith('none');
    const { host } = mountHost(dir, { tools: hostTools() });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', ...hostTools().map((t) => t.name)]));
    expect(JSON.parse(readFileSync(join(dir, 'session-context-config.json'), 'utf8')).sessions).toEqual({ 'session-1': 'none' });
  });

  it('CP-14 CP-15 a session started under "none" is not adopted by a default chosen later: after a resume it is still unprocessed', async () => {
    const dir = homeWith('none');
    const { host, profiles } = mountHost(dir, { tools: hostTools() });
    await host.run('hi', reply);
    profiles.store.save({ lastUsedId: 'minimal' });
    await host.resume();
    await host.run('again', reply);
    expect(names(host.requests[1]!.tools)).toEqual(names(host.requests[0]!.tools));
    const { host: fresh } = mountHost(dir, { tools: hostTools(), sessionId: 'session-2' });
    await fresh.run('hi', reply);
    expect(names(fresh.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', 'grep', 'bash', 'lsp']));
    expect(JSON.parse(readFileSync(join(dir, 'session-context-config.json'), 'utf8')).sessions).toEqual({ 'session-1': 'none', 'session-2': 'minimal' });
  });

  it('CP-13 CP-14 the session record wins over lastUsedId, is written once, and a resumed session keeps it', async () => {
    const dir = homeWith('minimal');
    const state = JSON.parse(readFileSync(join(dir, 'session-context-config.json'), 'utf8'));
    writeFileSync(join(dir, 'session-context-config.json'), JSON.stringify({ ...state, sessions: { 'session-1': 'lean' } }));
    const { host } = mountHost(dir, { tools: hostTools() });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).toContain('ask_user_question');
    const { host: other, profiles } = mountHost(dir, { tools: hostTools(), sessionId: 'session-2' });
    await other.run('hi', reply);
    expect(names(other.requests[0]!.tools)).not.toContain('ask_user_question');
    expect(profiles.store.state.sessions).toEqual({ 'session-1': 'lean', 'session-2': 'minimal' });
    await other.resume();
    await other.run('again', reply);
    expect(names(other.requests[1]!.tools)).toEqual(names(other.requests[0]!.tools));
  });

  it('issue 30: defaultProfile is the profile new sessions start with while there is no state file (full: deferred tools and tool_search, recorded as full); a file\'s lastUsedId, none included, still decides', async () => {
    const fresh = home();
    const { host } = mountHost(fresh, { tools: hostTools(), config: { defaultProfile: 'full' } });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', ...hostTools().map((t) => t.name), TOOL_SEARCH]));
    expect(host.requests[0]!.tools.find((t) => t.name === 'todo_write')!.description).toBe('Record a plan of steps.');
    const saved = JSON.parse(readFileSync(join(fresh, 'session-context-config.json'), 'utf8'));
    expect([saved.lastUsedId, saved.sessions]).toEqual(['full', { 'session-1': 'full' }]);
    const chosen = homeWith('none');
    const { host: kept } = mountHost(chosen, { tools: hostTools(), config: { defaultProfile: 'full' } });
    await kept.run('hi', reply);
    expect(names(kept.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', ...hostTools().map((t) => t.name)]));
    expect(() => mountHost(home(), { config: { defaultProfile: 'lena' as 'lean' } })).toThrow(/defaultProfile/);
  });

  it('issue 30: this package\'s own tools keep their place: the tape\'s recall tools (the only way back to what its lines and folded views replaced) follow search, auto-memory\'s memory files; whole under full, kept under minimal', async () => {
    const recall = ['recall_turn', 'recall_step', 'recall_search', 'expand_result', 'memory'].map((n) => tool(n, `Recalls ${n}. More text.`, { type: 'object', properties: { turn: { type: 'string', description: 'The turn.' } } }));
    for (const id of ['full', 'minimal']) {
      const { host } = mountHost(homeWith(id), { tools: [...hostTools(), ...recall] });
      await host.run('hi', reply);
      const sent = host.requests[0]!.tools;
      expect([id, recall.map((r) => sent.find((t) => t.name === r.name))]).toEqual([id, recall.map((r) => ({ name: r.name, description: r.description, parameters: r.parameters }))]);
    }
  });

  it('CP-17 a sub-agent gets no profile: every tool stays', async () => {
    const { host } = mountHost(homeWith('minimal'), { tools: hostTools(), subagent: true });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code', ...hostTools().map((t) => t.name)]));
  });

  it('CP-16 tools/change registers only new tools, revokes vanished ones and keeps unchanged registrations by identity', async () => {
    const { host } = mountHost(homeWith('full'), { tools: mcpTools().slice(0, 3) });
    const agent = await host.start();
    const before = ['mcp__github__get_issue', 'mcp__github__create_issue', 'mcp__github__update_issue'].map((n) => agent.ctx.tools.get(n, agent));
    const search = agent.ctx.tools.get(TOOL_SEARCH, agent);
    const added = tool('mcp__late__ping', 'Ping. Late server.');
    const undo = host.ctx.tools.register(added);
    const after = ['mcp__github__get_issue', 'mcp__github__create_issue', 'mcp__github__update_issue'].map((n) => agent.ctx.tools.get(n, agent));
    expect(after.every((d, i) => d === before[i])).toBe(true);
    expect(agent.ctx.tools.get(TOOL_SEARCH, agent)).toBe(search);
    expect(agent.ctx.tools.get('mcp__late__ping', agent)!.description).toBe('Ping.');
    undo();
    expect(agent.ctx.tools.get('mcp__late__ping', agent)).toBeUndefined();
    expect(agent.ctx.tools.schemas(agent).map((s) => s.name)).toEqual(['read', 'write', 'edit', 'run_code', 'mcp__github__get_issue', 'mcp__github__create_issue', 'mcp__github__update_issue', TOOL_SEARCH]);
    expect(['mcp__github__get_issue', 'mcp__github__create_issue', 'mcp__github__update_issue'].map((n) => agent.ctx.tools.get(n, agent)).every((d, i) => d === before[i])).toBe(true);
  });

  it('CP-16 a plugin reload (new definition object) re-registers that placeholder; disabling leaves no callable placeholder', async () => {
    const { host } = mountHost(homeWith('full'), {});
    const agent = await host.start();
    const undo1 = host.ctx.tools.register(tool('mcp__p__a', 'Old. x'));
    const first = agent.ctx.tools.get('mcp__p__a', agent);
    undo1();
    const undo2 = host.ctx.tools.register(tool('mcp__p__a', 'New. x'));
    const second = agent.ctx.tools.get('mcp__p__a', agent);
    expect([first!.description, second!.description, first === second]).toEqual(['Old.', 'New.', false]);
    undo2();
    await host.run('call it', [{ tools: [{ id: 'c1', name: 'mcp__p__a', input: {} }] }, { text: 'ok' }]);
    expect(JSON.stringify(host.requests[1]!.messages.at(-1))).toContain('unknown tool \\"mcp__p__a\\"');
    expect(names(host.requests[0]!.tools)).toEqual(byName(['read', 'write', 'edit', 'run_code']));
  });

  it('CP-09 a placeholder carries the summary and inherits the full definition execute', () => {
    const def = tool('mcp__gh__x', 'First. Second.');
    expect(placeholderOf(def, 'S').description).toBe('S');
    expect(placeholderOf(def, 'S').execute).toBe(def.execute);
  });
});

describe('a state file that cannot be written (CP-14)', () => {
  it('CP-14 a failed session record is logged and the session still gets its profile', async () => {
    const dir = homeWith('lean');
    const { host, profiles } = mountHost(dir, { tools: hostTools() });
    Object.defineProperty(profiles.store, 'recordFirst', { value: () => { throw new Error('disk full'); } });
    await host.run('hi', reply);
    expect(names(host.requests[0]!.tools)).not.toContain('todo_write');
    expect(host.logs.map((l) => l.message)).toEqual(['context-profiles: could not record profile "lean" for session session-1: disk full']);
  });
});
