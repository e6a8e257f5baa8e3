// Issue 31: how inspect runs a `dsh` and takes its first request, checked with stand-ins for `dsh`
// (small Node scripts that do what DSH's side of the exchange does: read the probe's row from the
// `--patch` overlay, write the probe's report, send a request to DEEPSEEK_BASE_URL). Real DSH is
// the judge of the request itself (test/real-dsh/inspect-session.test.ts); here: the body is passed
// on byte for byte, DSH runs in a throwaway home with git's optional locks off and no real key, its
// process group is ended, nothing is left behind, and every way it can fail says why.

import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, cli, fixture, packageRoot, tempDir } from '../support/cli.js';

afterAll(cleanUp);

/** A body as a provider would never reformat it: odd spacing and escapes must survive as sent. */
const BODY = '{"model":"m","messages":[{"role":"system","content":"caf\\u00e9 \\ud83d\\ude00"},  {"role":"user","content":"hi"}],"tools":[]}';

/**
 * A stand-in `dsh`: `behaviour` is the body of an async function given `args`, `overlay` (the probe
 * row's config), `report(value)`, `send(body)` and `out` (a file to record facts in).
 */
function fakeDsh(behaviour: string): { dsh: string; out: string } {
  const dir = tempDir('dsh-fake-');
  const out = join(dir, 'facts.json');
  const dsh = join(dir, 'dsh');
  writeFileSync(dsh, `#!/usr/bin/env node
import { readFileSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { parse } from ${JSON.stringify(join(packageRoot, 'node_modules', 'yaml', 'dist', 'index.js'))};
const args = process.argv.slice(2);
const overlay = parse(readFileSync(args[args.indexOf('--patch') + 1], 'utf8'))[0].insert[0];
const config = overlay.config;
const out = ${JSON.stringify(out)};
const report = (value) => writeFileSync(config.report, JSON.stringify({ marks: { apply: 1, agent: 2, assemble: 3, request: 4 }, ...value }));
const send = (body) => fetch(process.env.DEEPSEEK_BASE_URL + '/chat/completions', { method: 'POST', body }).catch(() => undefined);
${behaviour}
`);
  chmodSync(dsh, 0o755);
  return { dsh, out };
}

/** Whether a process runs (a zombie does not: on a machine whose init reaps nothing, an ended child stays one). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]![0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return existsSync('/proc') ? false : true;
    } catch {
      return false;
    }
  }
}

const leftovers = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('dsh-context-inspect-'));

describe('issue 31: inspect runs the dsh it finds and takes its first request', () => {
  it('--json prints the body byte for byte; DSH ran in the session cwd with a throwaway ~/.dsh, git’s optional locks off, a placeholder key; its process group is ended and the copy removed', () => {
    const { repo, base } = fixture({ 'repo/AGENTS.md': 'x\n', 'repo/pkg/a.ts': 'a\n' });
    const osHome = join(base, 'home-os');
    mkdirSync(join(osHome, '.dsh', 'profiles', 'headless'), { recursive: true });
    writeFileSync(join(osHome, '.dsh', 'AGENTS.md'), '# Me\n');
    writeFileSync(join(osHome, '.dsh', 'profiles', 'headless', 'package.json'), JSON.stringify({ dsh: { profile: { bundles: ['@deepseek-ai/dsh-base', '@deepseek-ai/dsh-headless'] } } }));
    writeFileSync(join(osHome, '.gitconfig'), '[user]\n');
    const { dsh, out } = fakeDsh(`
const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
writeFileSync(out, JSON.stringify({ args, cwd: process.cwd(), home: process.env.HOME, dshHome: process.env.DSH_HOME ?? null, key: process.env.DEEPSEEK_API_KEY, locks: process.env.GIT_OPTIONAL_LOCKS,
  agents: readFileSync(process.env.HOME + '/.dsh/AGENTS.md', 'utf8'), gitconfig: readFileSync(process.env.HOME + '/.gitconfig', 'utf8'), sleeper: sleeper.pid, probe: overlay.name }));
report({ provider: 'deepseek-official', model: 'm', contextWindow: 100, sections: [{ name: 'x', text: 'café 😀' }], messages: [{ role: 'user', source: { kind: 'user' }, text: 'hi' }], tools: [], rows: [] });
await send(${JSON.stringify(BODY)});
await new Promise((resolve) => setTimeout(resolve, 60_000));
`);
    const before = leftovers();
    const run = cli(['inspect', repo, '--cwd', 'pkg', '--dsh', dsh, '--json', '--prompt', 'Do it.'], { HOME: osHome });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toBe(BODY);
    const facts = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(facts.cwd).toBe(join(repo, 'pkg'));
    expect(facts.args).toEqual(['--profile', 'headless', '--patch', expect.stringMatching(/dsh-context-inspect-.*probe\.cordis\.patch\.yml$/), 'Do it.']);
    // ~/.dsh is a copy in a throwaway home whose other entries lead to the user's.
    expect(facts.home).not.toBe(osHome);
    expect(facts).toMatchObject({ dshHome: null, key: 'dsh-context-inspect', locks: '0', agents: '# Me\n', gitconfig: '[user]\n' });
    expect(facts.probe).toMatch(/profiles\/headless\/dsh-context-inspect-probe\.mjs$/);
    expect(running(facts.sleeper as number)).toBe(false);
    expect(leftovers()).toEqual(before);
    expect(existsSync(join(osHome, '.dsh', 'profiles', 'headless', 'dsh-context-inspect-probe.mjs'))).toBe(false);
  });

  it('a DSH home named by DSH_HOME is copied and named by DSH_HOME again (plugins show it as $DSH_HOME); the prompt goes to a probe that drives the session where the profile has no one-shot runner', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    mkdirSync(join(home, 'profiles', 'tui'), { recursive: true });
    writeFileSync(join(home, 'profiles', 'tui', 'package.json'), JSON.stringify({ dsh: { profile: { bundles: ['@deepseek-ai/dsh-base'] } } }));
    const { dsh, out } = fakeDsh(`
writeFileSync(out, JSON.stringify({ args, dshHome: process.env.DSH_HOME, drive: config.drive }));
report({ provider: 'deepseek-official', model: 'm', sections: null, messages: [], tools: [], rows: [] });
await send(${JSON.stringify(BODY)});
await new Promise((resolve) => setTimeout(resolve, 60_000));
`);
    const run = cli(['inspect', repo, '--dsh', dsh, '--profile', 'tui', '--json'], { DSH_HOME: home });
    expect([run.code, run.stderr, run.stdout]).toEqual([0, '', BODY]);
    const facts = JSON.parse(readFileSync(out, 'utf8')) as { args: string[]; dshHome: string; drive: unknown };
    expect(facts.dshHome).toMatch(/dsh-context-inspect-[^/]+\/dsh$/);
    expect(facts.args).toEqual(['--profile', 'tui', '--patch', expect.any(String)]);
    expect(facts.drive).toEqual({ prompt: '(your first prompt)', cwd: repo });
  });

  it('a dsh that fails before its first request: exit 1 with what it printed', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    const { dsh } = fakeDsh(`process.stderr.write('plugin tree failed to load: boom\\n'); process.exit(3);`);
    const run = cli(['inspect', repo, '--dsh', dsh, '--dsh-home', home]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`dsh-context: ${dsh} exited (code 3) before its first model request; it printed:\\nplugin tree failed to load: boom\n  check that this dsh boots the profile (\`dsh --profile <name> --dump-config\`), or use --offline\n`);
  });

  it('a session whose model route is not DSH’s DeepSeek adapter: the probe stops DSH before the request is sent, and inspect says so', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    const { dsh } = fakeDsh(`report({ error: 'the session\\'s model route is openai/gpt; inspect captures requests of DSH\\'s DeepSeek adapter (deepseek-official) only, and stopped DSH before this one was sent' }); process.kill(process.pid, 'SIGKILL');`);
    const run = cli(['inspect', repo, '--dsh', dsh, '--dsh-home', home]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("dsh-context: DSH was stopped before its first request: the session's model route is openai/gpt; inspect captures requests of DSH's DeepSeek adapter (deepseek-official) only, and stopped DSH before this one was sent\n");
  });

  it('--dsh that is no executable file is refused; an unknown --context-profile offline names the built-in ones', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    expect(cli(['inspect', repo, '--dsh', join(home, 'nope'), '--dsh-home', home])).toMatchObject({ code: 1, stderr: `dsh-context: --dsh ${join(home, 'nope')}: not an executable file\n  pass the path of the \`dsh\` command (\`command -v dsh\`), or leave --dsh out to use the one on PATH\n` });
    expect(cli(['inspect', repo, '--offline', '--context-profile', 'huge', '--dsh-home', home])).toMatchObject({ code: 1, stderr: 'dsh-context: --context-profile huge: offline, inspect knows the built-in profiles only (none, full, lean, minimal)\n  run it with a dsh to use the profiles of your DSH home\n' });
  });

  it('a relative --dsh is relative to where the command runs, with --sample too (not to the sample’s copy)', () => {
    const { dsh, out } = fakeDsh(`writeFileSync(out, JSON.stringify({ ran: true }));
process.exit(3);`);
    const run = cli(['inspect', '--sample', '--dsh', './dsh'], {}, join(dsh, '..'));
    expect(run.stderr).not.toContain('not an executable file');
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({ ran: true });
  });

  it('without a dsh on PATH, or with --offline, the report is the plugins’ part, headed as such with the reason', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    const none = cli(['inspect', repo, '--dsh-home', home, '--summary'], { PATH: tempDir('dsh-empty-path-') });
    expect(none.code).toBe(0);
    expect(none.stdout.split('\n').slice(0, 2)).toEqual([
      'What the model sees at the start of a session: the plugins\' part only (offline)',
      '  DSH did not run: no `dsh` command was found on PATH (pass --dsh <path>). DSH\'s own system prompt, tools and messages are not here; with a `dsh` inspect shows its exact first request.',
    ]);
    const { dsh } = fakeDsh('process.exit(9);');
    const offline = JSON.parse(cli(['inspect', repo, '--dsh', dsh, '--offline', '--dsh-home', home, '--json']).stdout) as { mode: string; reason: string };
    expect(offline).toMatchObject({ mode: 'offline', reason: '--offline was given' });
  });

  it('item 6: the plugins\' account lists a link out of the project as the mounted workspace-context decides: refused with its warning, or loaded where its allowedLinkTargets allow it', () => {
    const { repo, home, base } = fixture({ 'repo/AGENTS.md': 'rules\n', 'team/AGENTS.md': 'team rules\n', 'outside/.git-credentials': 'https://me:ghp_TOKEN@github.com\n' });
    symlinkSync('../team/AGENTS.md', join(repo, 'CLAUDE.md'));
    symlinkSync('../outside/.git-credentials', join(repo, 'AGENTS.local.md'));
    const run = (config: Record<string, unknown>) => {
      const rows = JSON.stringify([{ id: 'workspace-context', name: 'dsh-context-engine/workspace-context', config }]);
      const { dsh } = fakeDsh(`
report({ provider: 'deepseek-official', model: 'm', sections: null, messages: [], tools: [], rows: ${rows} });
await send(${JSON.stringify(BODY)});
await new Promise((resolve) => setTimeout(resolve, 60_000));
`);
      const out = cli(['inspect', repo, '--dsh', dsh, '--dsh-home', home, '--json-report']);
      expect([out.code, out.stderr]).toEqual([0, '']);
      const report = JSON.parse(out.stdout) as { mode: string; workspace: { files: { path: string; status: string; target?: string }[] }; warnings: string[] };
      expect(report.mode).toBe('exact');
      return { files: report.workspace.files.map((f) => [f.path, f.status, f.target]), warnings: report.warnings };
    };
    const warning = (link: string, target: string) => `workspace-context: not loading ${link}: it leads to ${join(base, target)}, outside the project root, so it is not sent to the model (DSH's own loader would send it); allow it with the allowedLinkTargets config key`;
    // The bundle patch's row: nothing allowed.
    expect(run({ maxBytes: 65536, allowedLinkTargets: [] })).toEqual({
      files: [['AGENTS.md', 'injected', undefined], ['CLAUDE.md', 'refused', join(base, 'team/AGENTS.md')], ['AGENTS.local.md', 'refused', join(base, 'outside/.git-credentials')]],
      warnings: [warning('CLAUDE.md', 'team/AGENTS.md'), warning('AGENTS.local.md', 'outside/.git-credentials')],
    });
    // The user's row allows ../team (relative: from the session cwd, where DSH runs).
    expect(run({ maxBytes: 65536, allowedLinkTargets: ['../team'] })).toEqual({
      files: [['AGENTS.md', 'injected', undefined], ['CLAUDE.md', 'injected', join(base, 'team/AGENTS.md')], ['AGENTS.local.md', 'refused', join(base, 'outside/.git-credentials')]],
      warnings: [warning('AGENTS.local.md', 'outside/.git-credentials')],
    });
  });
});
