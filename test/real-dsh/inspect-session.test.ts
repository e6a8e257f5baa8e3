// Issue 31 in real DSH 0.1.0-rc.8 (our packed tarball added with `dsh plugin add`): `dsh-context
// inspect --dsh <the pinned dsh>` prints exactly the first request that the same DSH sends in a normal
// headless session with the same prompt, breaks it down so that the parts add up to the request's
// total, and leaves the DSH home and the repository as they were; `dsh-context session` reads the
// logs real DSH wrote, and its per-turn usage is what the scripted model reported. One DSH home and
// profile (one `dsh plugin add`) serves every run of the file, to keep the suite's time small.

import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTokens } from '../../src/engine/index.js';
import { projectKey, type SessionEvent } from '../../src/host/index.js';
import { builtinProfiles } from '../../src/plugins/context-profiles/index.js';
import type { InspectResult } from '../../src/cli/inspect-exact.js';
import { renderExact } from '../../src/cli/report-request.js';
import type { SessionReport } from '../../src/cli/session-report.js';
import { createDshHost, type ChatRequest, type DshHost } from '../../src/testing/index.js';
import { bin } from '../support/cli.js';
import { realDsh, stderrOf } from './support.js';

const PROMPT = 'Fix the failing test in packages/app.';

/** Every entry under `dir` with its kind, size, modification time and link target: what a write would change. */
function snapshot(dir: string, into = new Map<string, string>(), prefix = ''): Map<string, string> {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const stat = lstatSync(path);
    const key = `${prefix}${name}`;
    if (stat.isSymbolicLink()) into.set(key, `link ${readlinkSync(path)}`);
    else if (stat.isDirectory()) {
      into.set(key, `dir ${stat.mtimeMs}`);
      if (name !== 'node_modules') snapshot(path, into, `${key}/`);
    } else into.set(key, `file ${stat.size} ${stat.mtimeMs}`);
  }
  return into;
}

/** Runs the built CLI as a user of this host runs it: its home, and the pinned DSH's Node 22 first on PATH. */
function cli(args: readonly string[]): { code: number | null; stdout: string; stderr: string } {
  const { dsh } = realDsh();
  const env = { PATH: [...dsh.path, process.env.PATH ?? ''].join(':'), HOME: host.home };
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env, maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** More than DSH's 50,000-byte read window once numbered: slice-tape folds it. */
const BIG = `${Array.from({ length: 1200 }, (_, i) => `line ${i} ${'x'.repeat(50)}`).join('\n')}\n`;

let host: DshHost;
beforeAll(async () => {
  host = fixture();
  await host.install();
}, 120_000);
afterAll(() => host?.close());

const skill = (name: string, description: string): string => `---\nname: ${name}\ndescription: ${description}\n---\n# ${name}\nSteps.\n`;

/** The fixture: nested AGENTS.md, CLAUDE.md as a link to AGENTS.md, a one-line `See @AGENTS.md`, a user-global file, rules, a memory index, skills, and a context profile that defers tools. */
function fixture(): DshHost {
  const { dsh, tarball, pnpmStore } = realDsh();
  const host = createDshHost({
    dsh, pnpmStore, packages: [tarball],
    cwd: 'packages/app',
    files: {
      'packages/app/big.txt': BIG,
      'AGENTS.md': '# Monorepo\nUse pnpm. Run `pnpm test` before you finish.\n\n```sh\nnpm i @ai-sdk/openai\n```\n',
      'packages/app/AGENTS.md': '# App\nReact 19, strict TypeScript.\n',
      'packages/app/CLAUDE.md': 'See @AGENTS.md\n',
      'packages/app/src/app.ts': 'export const app = 1;\n',
      '.claude/rules/style.md': '# Style\nNo default exports.\n',
      '.claude/rules/api.md': '---\npaths: "packages/api/**"\n---\n# API\nValidate every input.\n',
      '.dsh/skills/deploy/SKILL.md': skill('deploy', 'Deploy the app to staging.'),
    },
    homeFiles: {
      '.dsh/AGENTS.md': '# Me\nAnswer briefly.\n',
      '.dsh/skills/review/SKILL.md': skill('review', 'Review a change for bugs.'),
      '.dsh/session-context-config.json': JSON.stringify({ version: 4, lastUsedId: 'full', profiles: builtinProfiles(), sessions: {} }),
    },
  });
  // As the suite's other hosts: no side request for a session title (its answer lands in the log whenever it arrives).
  host.patch({ id: 'session-title-llm', disabled: true });
  symlinkSync('AGENTS.md', join(host.workspace, 'CLAUDE.md'));
  host.write(join('.dsh', 'auto-memory', projectKey(host.workspace), 'MEMORY.md'), '- [Prefer pnpm](prefer-pnpm.md): never npm\n', host.home);
  return host;
}

describe('issue 31: inspect captures the first request of the user’s own DSH', () => {
  it('prints exactly the body a normal headless session sends with the same prompt (messages and tools, under a context profile that defers tools), breaks it down to the request’s total, and writes nothing to the DSH home or the repository', async () => {
    const { dsh } = realDsh();
    const dshBin = join(dsh.dir, 'node_modules', '.bin', 'dsh');
    const before = { home: snapshot(host.home), repo: snapshot(host.workspace) };

    const raw = cli(['inspect', host.workspace, '--cwd', 'packages/app', '--dsh', dshBin, '--prompt', PROMPT, '--json']);
    expect([raw.code, raw.stderr]).toEqual([0, '']);
    const full = cli(['inspect', host.workspace, '--cwd', 'packages/app', '--dsh', dshBin, '--prompt', PROMPT, '--json-report']);
    expect([full.code, full.stderr]).toEqual([0, '']);
    const report = JSON.parse(full.stdout) as Extract<InspectResult, { mode: 'exact' }>;
    expect(report.mode).toBe('exact');
    // --json is the request body itself, byte for byte, the same in two runs.
    expect(report.request.body).toBe(raw.stdout);
    expect({ home: snapshot(host.home), repo: snapshot(host.workspace) }).toEqual(before);

    // The same DSH, the same prompt, a normal headless session: the same request.
    await host.headless(PROMPT, [{ text: 'done' }]);
    const sent: ChatRequest = host.requests[0]!;
    const body = JSON.parse(raw.stdout) as ChatRequest;
    expect(body.messages).toEqual(sent.messages);
    expect(body.tools).toEqual(sent.tools);
    expect(body).toEqual(sent);
    expect(stderrOf(host)).toBe('');

    // The breakdown adds up to the request's total: the system prompt, each message's text, each tool's JSON.
    const b = report.request.breakdown;
    const recount = body.messages.reduce((n, m) => n + countTokens(typeof m.content === 'string' ? m.content : ''), 0) + (body.tools ?? []).reduce((n, t) => n + countTokens(JSON.stringify(t)), 0);
    expect(b.total).toBe(recount);
    expect(b.categories.reduce((n, c) => n + c.tokens, 0)).toBe(b.total);
    for (const m of b.messages) if (m.parts.length > 0) expect(m.parts.reduce((n, p) => n + p.tokens, 0)).toBe(m.tokens);
    expect(b.free).toBe(b.contextWindow - b.total);
    expect([b.contextWindow, b.contextWindowFrom, b.provider, b.model]).toEqual([1_000_000, 'dsh', 'deepseek-official', 'deepseek-v4-flash']);

    // What each part is and who put it there.
    const kinds = b.messages.map((m) => [m.kind, m.owner]);
    // auto-memory's index and rules enter before the prompt; the other plugins' messages after it.
    expect(kinds).toEqual([['system prompt', 'dsh'], ['memory index', 'plugins'], ['rules', 'plugins'], ['the prompt', 'user'], ['instructions', 'plugins'], ['runtime context', 'dsh'], ['skills', 'dsh']]);
    const parts = (kind: string) => b.messages.find((m) => m.kind === kind)!.parts.map((p) => p.name);
    expect(parts('instructions')).toEqual(['instructions framing', '~/.dsh/AGENTS.md', 'AGENTS.md', 'packages/app/AGENTS.md', 'packages/app/CLAUDE.md']);
    expect(parts('skills')).toEqual(['skills framing', 'deploy', 'review']);
    expect(parts('rules')).toEqual(['rules framing', '.claude/rules/style.md']);
    expect(parts('runtime context')).toEqual(['runtime context framing', 'sandbox:policy', 'approval:policy', 'environment facts']);
    const system = b.messages[0]!.parts;
    expect(system[0]).toMatchObject({ name: 'harness:identity', owner: 'dsh' });
    // The plugins' sections; memory's guidance (tool:memory) stays with its tool, which no built-in profile defers (issue 30).
    expect(system.filter((p) => p.owner === 'plugins').map((p) => p.name)).toEqual(['tool:memory', 'session-context-config:contract', 'session-context-config:card-receipt', 'session-context-config:untrusted-download']);
    // Under the "full" context profile DSH's rarely used tools go as placeholders and tool_search is
    // added; this package's own tools are sent whole (memory follows files, the recall tools search).
    const tool = (name: string) => b.tools.tools.find((t) => t.name === name)!;
    expect(tool('memory')).toMatchObject({ owner: 'plugins', state: 'full' });
    expect(tool('recall_turn')).toMatchObject({ owner: 'plugins', state: 'full' });
    expect(tool('todo_write')).toMatchObject({ owner: 'dsh', state: 'deferred' });
    expect(tool('todo_write').full!).toBeGreaterThan(tool('todo_write').tokens);
    expect(tool('tool_search')).toMatchObject({ owner: 'plugins', state: 'added' });
    expect(tool('bash')).toMatchObject({ owner: 'dsh', state: 'full' });

    // The plugins' own account beside it: the link, the duplicate it makes, the inline @-import; the rule waiting on paths.
    const files = report.workspace.files.map((f) => [f.path, f.status, f.target, f.imports]);
    expect(files).toEqual([
      ['~/.dsh/AGENTS.md', 'injected', undefined, undefined],
      ['AGENTS.md', 'injected', undefined, undefined],
      ['CLAUDE.md', 'duplicate', 'AGENTS.md', undefined],
      ['packages/app/AGENTS.md', 'injected', undefined, undefined],
      ['packages/app/CLAUDE.md', 'injected', undefined, [{ token: '@AGENTS.md', path: 'AGENTS.md', exists: true }]],
    ]);
    expect(report.rules.waiting.map((r) => r.path)).toEqual(['.claude/rules/api.md']);
    const text = renderExact(report, true);
    expect(text).toContain(`  instructions (plugins)  `);
    expect(text).toContain('  @-imports: Claude Code would read the files they name; DSH does not expand them: the model gets the line as written, not the file:\n    packages/app/CLAUDE.md  @AGENTS.md (a file)\n');
    expect(text).toContain(`  prompt        ${PROMPT}\n`);
  });
});

describe('issue 31: session reads the logs real DSH wrote (the same profile, after the headless run above)', () => {
  it('per-turn usage is what the scripted model reported; tape entries, the fold, the recall and /compact are counted as DSH logged them', async () => {
    const usage = (inputTokens: number, outputTokens: number, cacheReadTokens?: number) => ({ usage: { inputTokens, outputTokens, ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}) } });
    await host.run('read app.ts', [{ tools: [{ name: 'read', input: { file_path: 'src/app.ts' } }], ...usage(1000, 20) }, { text: 'a is 1', ...usage(100, 5, 1000) }]);
    await host.run('read big.txt', [{ tools: [{ name: 'read', input: { file_path: 'big.txt' } }], ...usage(200, 20, 1100) }, { text: 'read it', ...usage(14_000, 6, 1300) }]);
    await host.run('what did turn 1 say?', [{ tools: [{ name: 'recall_turn', input: { turn: 1, view: 'dialogue' } }], ...usage(300, 30, 1500) }, { text: 'a is 1', ...usage(50, 4, 1800) }]);
    await host.compact([{ text: 'Summary.', ...usage(900, 40) }]);
    await host.run('thanks', [{ text: 'welcome', ...usage(70, 3, 400) }]);
    const { events } = await host.session();
    await host.restart();

    const run = cli(['session', '--last', '--cwd', host.cwd, '--json']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const report = JSON.parse(run.stdout) as SessionReport;
    expect(report.session).toBe(host.sessionId);
    expect(report.turns.map((t) => [t.turn, t.requests, t.usage.input, t.usage.cacheRead, t.usage.output])).toEqual([
      [1, 2, 1100, 1000, 25],
      [2, 2, 14_200, 2400, 26],
      [3, 2, 350, 3300, 34],
      [4, 1, 70, 400, 3],
    ]);
    const price = (u: { input: number; cacheRead: number; output: number }) => (u.input * 0.28 + u.cacheRead * 0.028 + u.output * 0.42) / 1e6;
    expect(report.turns[0]!.cost).toBeCloseTo(price({ input: 1100, cacheRead: 1000, output: 25 }), 12);
    expect(report.compactions).toHaveLength(1);
    expect(report.compactions[0]).toMatchObject({ turn: null, usage: { input: 900, cacheRead: 0, output: 40, reasoning: 0 } });
    expect(report.totals.usage).toEqual({ input: 1100 + 14_200 + 350 + 70 + 900, cacheRead: 1000 + 2400 + 3300 + 400, output: 25 + 26 + 34 + 3 + 40, reasoning: 0 });

    // What the plugins did, as the log holds it.
    const tape = events.filter((e: SessionEvent) => e.type === 'user/message' && (e.data as { source: { plugin?: string } }).source.plugin === 'slice:history');
    expect(report.totals.tape.entries).toBe(tape.length);
    expect(report.turns.flatMap((t) => t.tape.map((r) => r.seq))).toEqual(tape.map((e) => e.seq));
    expect(report.turns.map((t) => t.folds.length)).toEqual([0, 1, 0, 0]);
    expect(report.turns[1]!.folds[0]!.tokensBefore).toBeGreaterThan(10 * report.turns[1]!.folds[0]!.tokensAfter);
    expect(report.turns.map((t) => t.recalls.map((r) => r.tool))).toEqual([[], [], ['recall_turn'], []]);

    // The same log by its path, and with other prices.
    const dir = join(host.dshHome, 'sessions', projectKey(host.cwd), host.sessionId!);
    const priced = JSON.parse(cli(['session', dir, '--json', '--price-input', '1', '--price-cache-read', '0', '--price-output', '2']).stdout) as SessionReport;
    expect(priced.turns[0]!.cost).toBeCloseTo((1100 * 1 + 25 * 2) / 1e6, 12);
    expect(priced.prices).toMatchObject({ input: 1, cacheRead: 0, output: 2, source: 'options' });
  });
});
