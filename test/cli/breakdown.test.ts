// Issue 31: the token breakdown of a captured request. Every message's parts add up to its count,
// the categories to the request's total (the system prompt, each message's text, each tool's JSON),
// each part goes to who put it there; where the probe's account does not match the request, the
// message is counted whole and says why.

import { describe, expect, it } from 'vitest';
import { breakDown, type PluginNames } from '../../src/cli/breakdown.js';
import type { ProbeReport } from '../../src/cli/dsh-probe.js';
import { countTokens } from '../../src/engine/index.js';

const ours: PluginNames = { sections: new Set(['tool:memory']), tools: new Set(['memory', 'tool_search']), contexts: new Set(['session-context-config:environment']), kinds: new Set(['auto-memory/index', 'auto-memory/rules']) };

const sections = [{ name: 'harness:identity', text: 'You are an AI agent powered by DeepSeek Harness.' }, { name: 'tool:read', text: 'Use the read tool.' }, { name: 'tool:memory', text: '# Memory\n\nYou have a memory tool.' }];
const system = sections.map((s) => s.text).join('\n\n');
const instructions = '<system-reminder>\nThe following workspace instructions may be relevant.\n\nInstructions from: ~/.dsh/AGENTS.md\n\nBe brief.\n\n\nInstructions from: AGENTS.md\n\nUse pnpm.\n</system-reminder>';
const facts = [{ name: 'sandbox:policy', text: 'Current DSH file policy: workspace-write.' }, { name: 'session-context-config:environment', text: 'Environment facts (sampled once at session start):\n- git branch: main' }];
const runtime = `Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n${facts.map((f) => f.text).join('\n\n')}`;
const rules = '<system-reminder>\nRules.\n\nRule from: .claude/rules/a.md\n\nA.\n\nRule from: .claude/rules/b.md\n\nB.\n</system-reminder>';
const tool = (name: string, description: string) => ({ type: 'function', function: { name, description, parameters: { type: 'object', properties: {} } } });
const body = {
  model: 'deepseek-v4-flash',
  messages: [
    { role: 'system', content: system },
    { role: 'user', content: 'hello' },
    { role: 'user', content: instructions },
    { role: 'user', content: runtime },
    { role: 'user', content: rules },
  ],
  tools: [tool('memory', 'Deferred. Call tool_search.'), tool('read', 'Read a file.'), tool('tool_search', 'Find tools.')],
};
const probe: ProbeReport = {
  marks: { apply: 1 },
  provider: 'deepseek-official',
  model: 'deepseek-v4-flash',
  contextWindow: 1_000_000,
  sections,
  messages: [
    { role: 'user', source: { kind: 'user' }, text: 'hello' },
    { role: 'user', source: { kind: 'agent-instructions', changes: [{ path: '~/.dsh/AGENTS.md' }, { path: 'AGENTS.md' }] }, text: instructions },
    { role: 'user', source: { kind: 'plugin', plugin: '@deepseek-ai/dsh-system-prompt', form: 'snapshot', sections: facts }, text: runtime },
    { role: 'user', source: { kind: 'auto-memory', channel: 'rules', rules: [{ path: '.claude/rules/a.md' }, { path: '.claude/rules/b.md' }] }, text: rules },
  ],
  tools: [
    { name: 'memory', state: 'deferred', registered: { name: 'memory', description: 'The memory tool, in full, with a long description of every command it has.', parameters: { type: 'object', properties: { command: { type: 'string', description: 'what to do' } } } } },
    { name: 'read', state: 'full' },
    { name: 'tool_search', state: 'added' },
    { name: 'web_search', state: 'hidden', registered: { name: 'web_search', description: 'Search the web.', parameters: { type: 'object' } } },
  ],
  rows: [{ id: 'workspace-context', name: 'dsh-context-engine/workspace-context' }],
};

describe('issue 31: the breakdown of a captured request', () => {
  const b = breakDown(JSON.stringify(body), probe, ours, 131_072);

  it('adds up: parts to each message, categories to the total, the total to the request’s text and tool JSON', () => {
    const total = body.messages.reduce((n, m) => n + countTokens(m.content), 0) + body.tools.reduce((n, t) => n + countTokens(JSON.stringify(t)), 0);
    expect(b.total).toBe(total);
    expect(b.categories.reduce((n, c) => n + c.tokens, 0)).toBe(total);
    for (const m of b.messages) {
      expect(m.tokens).toBe(countTokens(body.messages[m.index]!.content));
      if (m.parts.length > 0) expect(m.parts.reduce((n, p) => n + p.tokens, 0)).toBe(m.tokens);
    }
    expect([b.contextWindow, b.contextWindowFrom, b.free]).toEqual([1_000_000, 'dsh', 1_000_000 - total]);
  });

  it('names each part and who put it there', () => {
    const parts = (i: number) => b.messages[i]!.parts.map((p) => [p.name, p.owner]);
    expect(parts(0)).toEqual([['harness:identity', 'dsh'], ['tool:read', 'dsh'], ['tool:memory', 'plugins']]);
    expect(b.messages.map((m) => [m.kind, m.owner])).toEqual([['system prompt', 'dsh'], ['the prompt', 'user'], ['instructions', 'plugins'], ['runtime context', 'dsh'], ['rules', 'plugins']]);
    expect(parts(2)).toEqual([['instructions framing', 'plugins'], ['~/.dsh/AGENTS.md', 'plugins'], ['AGENTS.md', 'plugins']]);
    expect(parts(3)).toEqual([['runtime context framing', 'dsh'], ['sandbox:policy', 'dsh'], ['environment facts', 'plugins']]);
    expect(parts(4)).toEqual([['rules framing', 'plugins'], ['.claude/rules/a.md', 'plugins'], ['.claude/rules/b.md', 'plugins']]);
    // A file's part is its heading and text up to the next heading.
    const file = b.messages[2]!.parts[1]!;
    expect(file.bytes).toBe(Buffer.byteLength('Instructions from: ~/.dsh/AGENTS.md\n\nBe brief.\n\n\n'));
    expect(b.categories.map((c) => [c.name, c.owner])).toEqual([
      ['system prompt', 'dsh'], ['system prompt', 'plugins'], ['tools', 'plugins'], ['tools', 'dsh'],
      ['the prompt', 'user'], ['instructions', 'plugins'], ['runtime context', 'dsh'], ['environment facts', 'plugins'], ['rules', 'plugins'],
    ]);
  });

  it('tools: as sent, a deferred one with its registered definition’s tokens, an added one, a hidden one sent as nothing', () => {
    expect(b.tools.tools.map((t) => [t.name, t.owner, t.state])).toEqual([['memory', 'plugins', 'deferred'], ['read', 'dsh', 'full'], ['tool_search', 'plugins', 'added'], ['web_search', 'dsh', 'hidden']]);
    const memory = b.tools.tools[0]!;
    expect(memory.tokens).toBe(countTokens(JSON.stringify(body.tools[0])));
    expect(memory.full).toBe(countTokens(JSON.stringify({ type: 'function', function: probe.tools![0]!.registered })));
    expect(b.tools.tools[3]).toMatchObject({ tokens: 0, full: countTokens(JSON.stringify({ type: 'function', function: probe.tools![3]!.registered })) });
  });

  it('what it cannot attribute it counts whole and says why; without DSH’s window, the option’s', () => {
    const other = breakDown(JSON.stringify(body), { ...probe, contextWindow: undefined, sections: null, sectionsNote: 'the sections of the last assembly do not join to the system prompt sent', messages: probe.messages!.slice(0, 1) }, ours, 131_072);
    expect(other.messages[0]).toMatchObject({ kind: 'system prompt', parts: [], note: 'the sections of the last assembly do not join to the system prompt sent' });
    expect(other.messages[2]).toMatchObject({ kind: 'message', parts: [], note: 'its source is unknown: the probe saw other messages' });
    expect([other.contextWindow, other.contextWindowFrom]).toEqual([131_072, 'option']);
    expect(other.total).toBe(b.total);
    // Sections that are not where DSH said: counted whole.
    const moved = breakDown(JSON.stringify(body), { ...probe, sections: [...sections].reverse() }, ours, 131_072);
    expect(moved.messages[0]).toMatchObject({ parts: [], note: 'its sections are not where DSH said they are' });
  });

  it('an instruction message of DSH’s own loader (workspace-context not mounted) is DSH’s', () => {
    const stock = breakDown(JSON.stringify(body), { ...probe, rows: [] }, ours, 131_072);
    expect(stock.messages[2]).toMatchObject({ kind: 'instructions', owner: 'dsh' });
  });
});
