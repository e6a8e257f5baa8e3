// Issue 31: `dsh-context session` on logs in DSH's format (written here from a simulated session;
// real DSH's own logs are read in test/real-dsh/inspect-session.test.ts): per-turn usage and cost,
// the tape's entries in tokens before → after, and every way a log can fail to be read, named.

import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/env.js';
import { sessionCommand, type SessionCommandOptions } from '../../src/cli/session-command.js';
import type { SessionReport } from '../../src/cli/session-report.js';
import { projectKey } from '../../src/host/index.js';
import { cleanUp, cli, tempDir } from '../support/cli.js';
import { tapeHost } from '../plugins/slice-tape/support.js';

afterAll(cleanUp);

/** A session with the tape mounted: three turns with usage, /compact between the second and third; its log as DSH writes it. */
async function logged(): Promise<{ home: string; cwd: string; dir: string; lines: string[] }> {
  const host = tapeHost({}, { files: { '/repo/a.ts': 'export const a = 1;\n' } });
  const usage = (inputTokens: number, outputTokens: number, cacheReadTokens?: number) => ({ usage: { inputTokens, outputTokens, ...(cacheReadTokens !== undefined ? { cacheReadTokens } : {}) } });
  await host.run('read a.ts', [{ tools: [{ name: 'read', input: { file_path: 'a.ts' } }], ...usage(1000, 20) }, { text: 'a is 1', ...usage(100, 5, 1000) }]);
  await host.run('and again?', [{ text: 'still 1', ...usage(200, 7, 1100) }]);
  host.compact({ summary: 'Summary.' });
  await host.run('thanks', [{ tools: [{ name: 'recall_turn', input: { turn: 1 } }], ...usage(50, 2, 300) }, { text: 'welcome', ...usage(10, 1, 400) }]);
  const base = tempDir('dsh-session-');
  const home = join(base, 'dsh');
  const dir = join(home, 'sessions', projectKey('/repo'), host.session.id);
  mkdirSync(dir, { recursive: true });
  const lines = [JSON.stringify({ type: 'session', ...host.session.header }), ...host.session.events.map((e) => JSON.stringify(e))];
  writeFileSync(join(dir, 'session.jsonl'), `${lines.join('\n')}\n`);
  return { home, cwd: '/repo', dir, lines };
}

describe('issue 31: dsh-context session', () => {
  it('reports each turn as the provider counted it, the cost at DeepSeek’s prices, the tape’s entries and the recalls', async () => {
    const { home, cwd, dir } = await logged();
    const run = cli(['session', '--last', '--cwd', cwd, '--dsh-home', home, '--json']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const report = JSON.parse(run.stdout) as SessionReport;
    expect(report.file).toBe(join(dir, 'session.jsonl'));
    expect(report.turns.map((t) => [t.turn, t.requests, t.usage, t.cacheHitRate])).toEqual([
      [1, 2, { input: 1100, cacheRead: 1000, output: 25, reasoning: 0 }, 1000 / 2100],
      [2, 1, { input: 200, cacheRead: 1100, output: 7, reasoning: 0 }, 1100 / 1300],
      [3, 2, { input: 60, cacheRead: 700, output: 3, reasoning: 0 }, 700 / 760],
    ]);
    expect(report.turns[0]!.cost).toBe((1100 * 0.28 + 1000 * 0.028 + 25 * 0.42) / 1e6);
    expect(report.totals.cost).toBeCloseTo(report.turns.reduce((n, t) => n + t.cost, 0), 15);
    expect(report.totals.costWithoutCache).toBeCloseTo(((1360 + 2800) * 0.28 + 35 * 0.42) / 1e6, 15);
    // The tape sealed turn 1 at turn 2's first step; /compact then shadowed the rest (simulated: no summary call).
    expect(report.turns.map((t) => t.tape.length)).toEqual([0, 1, 0]);
    expect(report.turns[1]!.tape[0]).toMatchObject({ nodes: 3 });
    expect(report.turns.map((t) => t.recalls.map((r) => r.tool))).toEqual([[], [], ['recall_turn']]);
    expect(report.compactions).toEqual([{ id: 'compaction-1', turn: null, replacement: expect.objectContaining({ nodes: expect.any(Number) }), cost: 0 }]);
    expect(report.prices).toEqual({ input: 0.28, cacheRead: 0.028, output: 0.42, currency: 'USD', per: 1_000_000, source: 'DeepSeek' });

    const text = cli(['session', dir, '--price-input', '1', '--price-cache-read', '0.5', '--price-output', '2']).stdout;
    expect(text).toContain(`Session ${report.session}\n  log     ${join(dir, 'session.jsonl')}\n  cwd     /repo\n  prices  USD per million tokens: input (cache miss) 1 · cache read 0.5 · output 2\n`);
    expect(text).toContain('  1     2         1,100  1,000       25      48%       $0.001650');
    expect(text).toContain("DSH's compactions (1 compaction)\n  between turns");
  });

  it('a log cut short mid-line (DSH still writing) is read up to its last whole line', async () => {
    const { dir, lines } = await logged();
    writeFileSync(join(dir, 'session.jsonl'), `${lines.slice(0, 20).join('\n')}\n{"type":"assistant/mess`);
    const run = cli(['session', dir, '--json']);
    expect(run.code).toBe(0);
  });

  it('names what is wrong: no session named, a missing path, a folder without a log, no session of the directory, a bad line, bad Zstandard data, no header, a bad price', async () => {
    const { home, dir, lines } = await logged();
    const environment = { env: {}, homedir: '/nonexistent-home', processCwd: '/' };
    const error = (options: Omit<SessionCommandOptions, 'environment'>): [string, string | undefined] => {
      try {
        sessionCommand({ environment, ...options });
      } catch (e) {
        expect(e).toBeInstanceOf(CliError);
        return [(e as CliError).message, (e as CliError).hint];
      }
      throw new Error('no error');
    };
    const hint = 'e.g. dsh-context session --last, or dsh-context session ~/.dsh/sessions/<project>/<session>';
    expect(error({})).toEqual(['name one session: a path (a session.jsonl[.zstd] file or its directory) or --last', hint]);
    expect(error({ path: dir, last: true })).toEqual(['name one session: a path (a session.jsonl[.zstd] file or its directory) or --last', hint]);
    expect(error({ path: join(dir, 'nope') })).toEqual([`no such file or directory: ${join(dir, 'nope')}`, 'pass a session.jsonl[.zstd] file or its session directory']);
    expect(error({ path: home })).toEqual([`${home} holds no session.jsonl or session.jsonl.zstd`, 'pass a session directory (~/.dsh/sessions/<project>/<session>) or its log file']);
    expect(error({ last: true, cwd: '/elsewhere', dshHome: home })).toEqual([`no sessions of /elsewhere under ${join(home, 'sessions')} (looked in ${join(home, 'sessions', '--elsewhere--')})`, 'run it in the directory DSH ran in (or pass --cwd), or pass a log path']);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, `${lines[0]}\nnot json\n${lines[1]}\n`);
    expect(error({ path: bad })[0]).toBe(`cannot read the session log ${bad}: session log ${bad}: line 2 is not JSON (Unexpected token 'o', "not json" is not valid JSON)`);
    const zstd = join(dir, 'session.jsonl.zstd');
    writeFileSync(zstd, 'not zstd at all');
    expect(error({ path: zstd })[0]).toMatch(/^cannot read the session log .*session\.jsonl\.zstd: session log .*session\.jsonl\.zstd is not valid Zstandard data: ./);
    const headless = join(dir, 'headless.jsonl');
    writeFileSync(headless, `${lines[1]}\n`);
    expect(error({ path: headless })[0]).toBe(`cannot read the session log ${headless}: session log ${headless}: the first line is not a session header ({"type":"session","id":…})`);
    // The command line prints an error and its hint, exit 1; a bad price is a usage error, exit 2.
    expect(cli(['session'])).toEqual({ code: 1, stdout: '', stderr: `dsh-context: name one session: a path (a session.jsonl[.zstd] file or its directory) or --last\n  ${hint}\n` });
    const price = cli(['session', dir, '--price-output', 'cheap']);
    expect([price.code, price.stderr]).toEqual([2, expect.stringContaining('--price-output must be a non-negative number of US dollars per million tokens, e.g. 0.28.')]);
  });
});
