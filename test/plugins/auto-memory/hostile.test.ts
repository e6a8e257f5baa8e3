// Hostile repositories and model text against auto-memory (issue 18 items 1, 8, 9): a rule file or a
// memory written to make the frontmatter reader backtrack, rule globs meant to switch every path
// rule off, and a link that makes the rule walk cover a whole repository. Timing items are checked
// as "finishes" in a child process with a generous deadline (a hang guard, not a speed figure).

import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../../src/engine/index.js';
import * as autoMemory from '../../../src/plugins/auto-memory/index.js';
import {
  MAX_GLOB_BYTES, MAX_RULE_DIRS_VISITED, MAX_RULE_ENTRIES_VISITED, MAX_RULE_FILES_SCANNED, MAX_RULE_GLOB_BYTES, RuleMatcher, type Rule,
} from '../../../src/plugins/auto-memory/rules.js';
import { createTestHost } from '../../../src/testing/index.js';
import { built, runScript } from '../../support/processes.js';
import { tempDir } from './support.js';

/** Long enough to tell a linear reader (well under a second) from the old cubic one (hours). */
const HANG_GUARD_MS = 30_000;

describe('item 1: frontmatter that made the old reader backtrack', () => {
  it('AM-14 AM-33 item 1: 128 KiB rule and memory files of the reported shapes are read, with the right answers, before the deadline', async () => {
    const script = `
      const { parseRule } = await import(${JSON.stringify(built('plugins/auto-memory/rules.js'))});
      const { deriveEntry, memoryIssues } = await import(${JSON.stringify(built('plugins/auto-memory/memory-file.js'))});
      const spaces = ' '.repeat(131072);
      const out = {
        rule: parseRule('project', 'r.md', '---\\npaths:' + spaces + '\\u2028\\n---\\nBody.\\n').paths,
        list: parseRule('project', 'r.md', '---\\npaths:\\n  - "b"\\n  - a' + spaces + '\\u2028\\n  - c\\n---\\nBody.\\n').paths,
        flow: parseRule('project', 'r.md', '---\\npaths: [' + '? '.repeat(65536) + ']\\n---\\nBody.\\n').paths.length,
        memory: deriveEntry('---\\ndescription:' + spaces + '\\u2028\\n---\\nfirst line\\n', 'm.md'),
        issues: memoryIssues('---\\nname:' + spaces + '\\u2029\\n---\\n', 'm.md').map((i) => i.type),
      };
      process.stdout.write(JSON.stringify(out));
    `;
    const run = await runScript(script, [], HANG_GUARD_MS);
    expect({ timedOut: run.timedOut, status: run.status, stderr: run.stderr }).toEqual({ timedOut: false, status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({
      rule: [], list: ['b'], flow: 1, memory: { title: 'm', description: 'first line' }, issues: ['missing-name', 'missing-description', 'missing-type'],
    });
  });
});

const LIMITS = { maxRuleBytes: 65536, maxRulesBytes: 131072, maxRules: 100 };
const rule = (displayPath: string, paths: string[], body = 'Body.'): Rule => ({ level: 'project', displayPath, paths, body, bytes: utf8Length(body) });

describe('item 8: rules that would switch path rules off', () => {
  it('AM-35 item 8: 60 rule files of huge globs switch nothing off: the project\'s own path rule and the user\'s come, each hostile rule is reported alone', async () => {
    const files: Record<string, string> = {
      '/repo/.git/HEAD': '', '/repo/src/a.ts': 'x',
      '/repo/.claude/rules/zz-api.md': '---\npaths: src/**/*.ts\n---\nOwn rule.\n',
      '/home/u/.claude/rules/user.md': '---\npaths: "**/*.ts"\n---\nUser rule.\n',
    };
    for (let i = 0; i < 60; i++) files[`/repo/.claude/rules/aaa-${String(i).padStart(2, '0')}.md`] = `---\npaths: "${'*a'.repeat(23000)}${i}"\n---\nHostile ${i}.\n`;
    const host = createTestHost({ cwd: '/repo', dshHome: tempDir(), homedir: '/home/u', files });
    host.use(autoMemory, {});
    await host.run('look', [{ tools: [{ name: 'read', input: { file_path: 'src/a.ts' } }] }, { text: 'ok' }]);
    const injected = host.requests.at(-1)!.messages.flatMap((m) => {
      const source = m.source as { channel?: string; rules?: { path: string }[] };
      return source.channel === 'rules' ? source.rules!.map((r) => r.path) : [];
    });
    expect(injected).toEqual(['~/.claude/rules/user.md', '.claude/rules/zz-api.md']);
    const warnings = host.logs.map((l) => l.message);
    expect(warnings).toHaveLength(60);
    expect(warnings[0]).toBe(`auto-memory: rule .claude/rules/aaa-00.md: ignoring glob "${'*a'.repeat(30)}"… (46001 characters): the rule's paths globs are 46001 bytes; the limit is ${MAX_RULE_GLOB_BYTES} per rule`);
  });

  it('AM-35 item 8: only rules that can be injected are compiled; per-rule and total glob bytes are bounded; a refused glob drops alone', () => {
    const matcher = new RuleMatcher();
    const unconditional = [rule('u1.md', []), rule('u2.md', [])];
    matcher.update([...unconditional, rule('p.md', ['src/**'])], { ...LIMITS, maxRules: 2 });
    expect(matcher.compiled).toEqual([]);
    matcher.update([...unconditional, rule('p.md', ['src/**'])], { ...LIMITS, maxRules: 3 });
    expect(matcher.compiled).toEqual(['src/**']);
    matcher.update([rule('big.md', [], 'b'.repeat(200)), rule('p.md', ['src/**'], 'b'.repeat(100))], { ...LIMITS, maxRulesBytes: 250 });
    expect(matcher.compiled).toEqual([]);
    matcher.update([rule('big.md', [], 'b'.repeat(200)), rule('p.md', ['src/**'], 'b'.repeat(50))], { ...LIMITS, maxRulesBytes: 250 });
    expect(matcher.compiled).toEqual(['src/**']);
    matcher.update([rule('p.md', ['src/**'], 'b'.repeat(100)), rule('q.md', ['q/**'], '')], { ...LIMITS, maxRuleBytes: 99 });
    expect(matcher.compiled).toEqual([]);
    const glob = (i: number) => `${String(i).padStart(4, '0')}/${'x'.repeat(8187)}`; // 8192 bytes
    const many = Array.from({ length: 40 }, (_, i) => rule(`r${i}.md`, [glob(i)]));
    matcher.update(many, LIMITS);
    expect(matcher.compiled).toEqual(many.slice(0, MAX_GLOB_BYTES / 8192).map((r) => r.paths[0]));
    expect(matcher.rejected[0]).toEqual({ displayPath: 'r32.md', pattern: glob(32), reason: `the globs of the rules before it take ${MAX_GLOB_BYTES} bytes; with this rule's 8192 they would pass the limit of ${MAX_GLOB_BYTES}` });
    expect(matcher.rejected).toHaveLength(8);
    matcher.update([rule('mixed.md', ['a/**', '+(x|y)', 'b/**']), rule('two.md', ['*.md', 'c/**'])], LIMITS);
    expect(matcher.compiled).toEqual(['a/**', 'b/**', '*.md', 'c/**']);
    expect(matcher.rejected).toEqual([{ displayPath: 'mixed.md', pattern: '+(x|y)', reason: expect.stringContaining('extglobs are not supported') }]);
    expect(matcher.activated([{ fromCwd: undefined, fromRoot: 'c/x' }, { fromCwd: undefined, fromRoot: 'b/y' }])).toEqual(['two.md', 'mixed.md']);
  });

  it('AM-35 item 8: a set the engine cannot hold keeps the longest prefix of globs that fits; the rest are reported', () => {
    const matcher = new RuleMatcher({ ruleGlobBytes: Infinity, globBytes: Infinity });
    const hostile = Array.from({ length: 60 }, (_, i) => rule(`h${i}.md`, [`${'*a'.repeat(23000)}${i}`]));
    matcher.update([rule('first.md', ['src/**']), ...hostile], LIMITS);
    const kept = matcher.compiled.length;
    expect(kept).toBeGreaterThan(1);
    expect(kept).toBeLessThan(61);
    expect(matcher.compiled[0]).toBe('src/**');
    expect(matcher.rejected.map((r) => r.displayPath)).toEqual(hostile.slice(kept - 1).map((r) => r.displayPath));
    expect(matcher.rejected[0]!.reason).toBe('the compiled set of the globs before it is already as large as the engine allows');
    expect(matcher.activated([{ fromCwd: undefined, fromRoot: 'src/a.ts' }])).toEqual(['first.md']);
  });
});

describe('item 9: rule walks are bounded', () => {
  const rulesOf = (host: ReturnType<typeof createTestHost>) => [...new Set(host.requests.flatMap((r) => r.messages).flatMap((m) => {
    const source = m.source as { channel?: string; rules?: { path: string }[] };
    return source.channel === 'rules' ? source.rules!.map((r) => r.path) : [];
  }))];

  it('AM-31 AM-32 item 9: a link in a project rule dir back to the project root is not followed: one rule, a few listings per step, one warning', async () => {
    const files: Record<string, string> = { '/repo/.git/HEAD': '', '/repo/.claude/rules/own.md': 'Own rule.\n' };
    for (let d = 0; d < 30; d++) for (let f = 0; f < 100; f++) files[`/repo/pkg/d${d}/f${f}.${f % 10 === 0 ? 'md' : 'ts'}`] = 'x';
    const host = createTestHost({ cwd: '/repo', dshHome: tempDir(), homedir: '/home/u', files });
    host.fs.symlink('/repo/.claude/rules/up', '/repo');
    host.fs.symlink('/repo/.claude/rules/home', '/home/u');
    host.use(autoMemory, {});
    host.fs.calls.length = 0;
    await host.run('look', [{ tools: [{ name: 'read', input: { file_path: 'pkg/d0/f1.ts' } }] }, { tools: [{ name: 'read', input: { file_path: 'pkg/d0/f2.ts' } }] }, { text: 'ok' }]);
    expect(rulesOf(host)).toEqual(['.claude/rules/own.md']);
    expect(host.fs.calls.filter((c) => c.op === 'listDir').length).toBeLessThanOrEqual(3 * 3);
    expect(host.logs.map((l) => l.message)).toEqual(['auto-memory: not following rule directory .claude/rules/up: it leads back to a directory that contains .claude/rules']);
  });

  it('AM-32 item 9: user rule dirs follow links, but not one back to the home directory', async () => {
    const host = createTestHost({ cwd: '/repo', dshHome: tempDir(), homedir: '/home/u', files: { '/repo/.git/HEAD': '', '/home/u/.claude/rules/mine.md': 'Mine.\n', '/home/u/notes/a.md': 'not a rule', '/nix/store/x/shared.md': 'Shared.\n' } });
    host.fs.symlink('/home/u/.claude/rules/home', '/home/u');
    host.fs.symlink('/home/u/.claude/rules/nix', '/nix/store/x');
    host.use(autoMemory, {});
    await host.run('hi', [{ text: 'ok' }]);
    expect(rulesOf(host)).toEqual(['~/.claude/rules/mine.md', '~/.claude/rules/nix/shared.md']);
    expect(host.logs.map((l) => l.message)).toEqual(['auto-memory: not following rule directory ~/.claude/rules/home: it leads back to a directory that contains ~/.claude/rules']);
  });

  it('AM-31 item 9: the directories and entries one step visits are bounded, with one warning naming the limits', async () => {
    const files: Record<string, string> = { '/repo/.git/HEAD': '' };
    for (let d = 0; d < MAX_RULE_DIRS_VISITED + 500; d++) files[`/repo/.claude/rules/d${String(d).padStart(4, '0')}/r.md`] = `Rule ${d}.\n`;
    const host = createTestHost({ cwd: '/repo', dshHome: tempDir(), homedir: '/home/u', files });
    host.use(autoMemory, {});
    host.fs.calls.length = 0;
    await host.run('hi', [{ text: 'ok' }]);
    expect(host.fs.calls.filter((c) => c.op === 'listDir').length).toBe(MAX_RULE_DIRS_VISITED);
    expect(host.logs.map((l) => l.message)).toEqual([
      `auto-memory: stopped reading rule directories at .claude/rules: the limits are ${MAX_RULE_FILES_SCANNED} .md files, ${MAX_RULE_ENTRIES_VISITED} entries and ${MAX_RULE_DIRS_VISITED} directories per step; rules past them are not loaded`,
    ]);
    expect(rulesOf(host)).toHaveLength(100);
  });
});
