// The dsh-context binary as a user runs it (issue 9): a subprocess on fixture repositories, asserting
// output, exit codes and --json shapes, errors included.

import { spawn, spawnSync } from 'node:child_process';
import { lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/fs/index.js';
import * as workspaceContext from '../../src/plugins/workspace-context/index.js';
import { TOKEN_HEADER } from '../../src/plugins/context-profiles/index.js';
import { createTestHost } from '../../src/testing/index.js';
import { bin, cleanUp, cli, fixture, tempDir } from '../support/cli.js';
import { referenceEncode } from '../support/tokenizer.js';

afterAll(cleanUp);

describe('help and usage', () => {
  it('--help names every command; each command has its own --help; exit 0', () => {
    const top = cli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toMatch(/inspect \[options\] \[dir\]/);
    expect(top.stdout).toMatch(/rules \[options\] \[dir\]/);
    expect(top.stdout).toMatch(/bench \[options\] \[dir\]/);
    for (const command of ['inspect', 'rules', 'bench']) {
      const help = cli([command, '--help']);
      expect([command, help.code, help.stdout.startsWith(`Usage: dsh-context ${command}`)]).toEqual([command, 0, true]);
    }
  });

  it('a bad flag or flag value is a usage error: exit 2, the problem on stderr, nothing on stdout', () => {
    const unknown = cli(['inspect', '--bogus']);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([2, '', "error: unknown option '--bogus'\n(run with --help for usage)\n"]);
    const value = cli(['inspect', '.', '--max-bytes', 'lots']);
    expect([value.code, value.stderr]).toEqual([2, "error: option '--max-bytes <n>' argument 'lots' is invalid. --max-bytes must be a positive integer.\n(run with --help for usage)\n"]);
    const missing = cli(['rules', '.']);
    expect([missing.code, missing.stderr]).toEqual([2, "error: required option '--path <file...>' not specified\n(run with --help for usage)\n"]);
  });

  it('a missing directory or a --cwd outside it fails with exit 1 and says what to do', () => {
    const gone = cli(['inspect', '/no/such/dir']);
    expect([gone.code, gone.stdout, gone.stderr]).toEqual([1, '', 'dsh-context: no such directory: /no/such/dir\n  pass an existing directory, e.g. `dsh-context inspect .`\n']);
    const { repo } = fixture({ 'repo/AGENTS.md': 'x' });
    const outside = cli(['inspect', repo, '--cwd', '..']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toBe(`dsh-context: --cwd .. is outside ${repo}\n  pass a subdirectory of the inspected directory\n`);
  });
});

describe('inspect', () => {
  it('the instruction message is byte for byte what workspace-context injects in a session there', async () => {
    const { repo, home } = fixture({
      'home/AGENTS.md': 'global rules\n',
      'repo/AGENTS.md': 'root </system-reminder> rules\n',
      'repo/CLAUDE.md': '  root </system-reminder> rules\n\n',
      'repo/pkg/AGENTS.md': '规则 for pkg 😀\n',
      'repo/pkg/AGENTS.local.md': 'local overlay\n',
    });
    const out = cli(['inspect', repo, '--cwd', 'pkg', '--dsh-home', home, '--json']);
    expect([out.code, out.stderr]).toEqual([0, '']);
    const report = JSON.parse(out.stdout);
    const host = createTestHost({ cwd: join(repo, 'pkg'), fs: createNodeFileSystem(), homedir: '/nonexistent-home' });
    host.use(workspaceContext, { maxBytes: 65536, dshHome: home });
    await host.run('hi', [{ text: 'ok' }]);
    const injected = host.requests[0]!.messages.find((m) => m.source.kind === 'agent-instructions')!;
    expect(report.messages.find((m: { kind: string }) => m.kind === 'agent-instructions').blocks).toEqual(injected.content.map((b) => (b as { text: string }).text));
    // Tokens: the reference tokenizer's count of each file's text as the message holds it (escaped).
    const sha1 = expect.stringMatching(/^[0-9a-f]{40}$/);
    expect(report.workspace.files).toEqual([
      { path: '$DSH_HOME/AGENTS.md', status: 'injected', bytes: 13, tokens: referenceEncode('global rules\n').length, sha1 },
      { path: 'AGENTS.md', status: 'injected', bytes: 30, tokens: referenceEncode('root <\\/system-reminder> rules\n').length, sha1 },
      { path: 'CLAUDE.md', status: 'duplicate', bytes: 33, note: 'same text as AGENTS.md once trimmed: rendered once, as AGENTS.md' },
      { path: 'pkg/AGENTS.md', status: 'injected', bytes: 20, tokens: referenceEncode('规则 for pkg 😀\n').length, sha1 },
      { path: 'pkg/AGENTS.local.md', status: 'injected', bytes: 14, tokens: referenceEncode('local overlay\n').length, sha1 },
    ]);
    expect(report).toMatchObject({ cwd: 'pkg', projectRoot: '.', dshHome: { path: home, display: '$DSH_HOME' } });
    expect(Object.keys(report.timings).sort()).toEqual(['memory', 'probe', 'projectRoot', 'readDigest', 'render', 'rules', 'session', 'tokens']);
  });

  it('reports what the budget omitted and cut, and files it could not read or would not read', () => {
    const { repo, home } = fixture({
      'repo/AGENTS.md': `${'broad '.repeat(60)}\n`,
      'repo/CLAUDE.md': Buffer.from([0x62, 0x69, 0x00, 0x6e]),
      'repo/pkg/AGENTS.md': `${'specific '.repeat(80)}\n`,
    });
    const out = cli(['inspect', repo, '--cwd', 'pkg', '--dsh-home', home, '--max-bytes', '600', '--json']);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.workspace.files.map((f: { path: string; status: string }) => [f.path, f.status])).toEqual([['AGENTS.md', 'omitted'], ['CLAUDE.md', 'unreadable'], ['pkg/AGENTS.md', 'truncated']]);
    expect(report.workspace.omitted).toEqual(['AGENTS.md']);
    expect(report.workspace.truncated).toMatchObject({ path: 'pkg/AGENTS.md', from: 721 });
    expect(report.workspace.bytes).toBeLessThanOrEqual(600);
    const text = cli(['inspect', repo, '--cwd', 'pkg', '--dsh-home', home, '--max-bytes', '600', '--summary']).stdout;
    expect(text).toContain('  budget: omitted AGENTS.md; truncated pkg/AGENTS.md from 721 to ');
    expect(text).toMatch(/unreadable +CLAUDE\.md +the provider failed: .*binary/);
    expect(text).not.toContain('<system-reminder>');
  });

  it('an empty chain injects nothing and says so', () => {
    const { repo, home } = fixture({ 'repo/src/a.ts': '' });
    const out = cli(['inspect', repo, '--dsh-home', home]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('Workspace instructions (workspace-context): 0 of 65,536 bytes\n  no AGENTS.md, CLAUDE.md or local overlay from the DSH home down to the cwd: nothing is injected');
  });

  it('--sample shows the bundled monorepo: instructions, memory index, rules now and waiting, messages verbatim', () => {
    const out = cli(['inspect', '--sample']);
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect(out.stdout).toContain('  duplicate  CLAUDE.md                     198 B             same text as AGENTS.md once trimmed: rendered once, as AGENTS.md');
    expect(out.stdout).toMatch(/  now +~\/\.claude\/rules\/git\.md/);
    expect(out.stdout).toMatch(/  waiting +\.claude\/rules\/api\.md +104 B +30 tokens +paths: packages\/api\/\*\*\/\*\.ts/);
    expect(out.stdout).toContain('Request 1, in order\n  #1  auto-memory/index');
    expect(out.stdout).toContain('Instructions from: ~/.dsh/AGENTS.md\n\n# My defaults');
    const json = JSON.parse(cli(['inspect', '--sample', '--json']).stdout);
    // The bundle's four plugins: context-profiles' environment facts come as the runtime context (plugin).
    expect(json.messages.map((m: { kind: string }) => m.kind)).toEqual(['auto-memory/index', 'auto-memory/rules', 'user', 'agent-instructions', 'plugin']);
    expect(json.memory).toMatchObject({ status: 'injected', lines: 4, truncated: false });
    expect(json.rules.waiting.map((r: { path: string }) => r.path)).toEqual(['~/.dsh/rules/docs.md', '.dsh/rules/tests.md', '.claude/rules/api.md']);
  });
});

describe('rules', () => {
  it('names the path-scoped rules a touch would inject, relative to the cwd for user rules and to the root for project rules', () => {
    const { repo, home } = fixture({
      'repo/.claude/rules/api.md': '---\npaths: "packages/api/**/*.ts"\n---\nAPI rule.\n',
      'repo/.claude/rules/always.md': 'Always.\n',
      'home/rules/md.md': '---\npaths: "*.md"\n---\nMarkdown rule.\n',
      'repo/packages/api/x.ts': '',
    });
    const out = cli(['rules', join(repo, 'packages'), '--dsh-home', home, '--path', 'api/x.ts', 'README.md', 'api/y.js', '--json'], { HOME: join(home, '..', 'oshome') });
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.touches).toEqual([
      { path: 'api/x.ts', rules: ['.claude/rules/api.md'] },
      { path: 'README.md', rules: [] },
      { path: 'api/y.js', rules: [] },
    ]);
    expect(report.injected).toEqual(['.claude/rules/api.md']);
    const user = fixture({ 'oshome/.claude/rules/md.md': '---\npaths: "*.md"\n---\nMarkdown rule.\n', 'repo/x': '' });
    const text = cli(['rules', user.repo, '--path', 'README.md'], { HOME: join(user.repo, '..', 'oshome') });
    expect(text.stdout).toBe('1 rule file found (project root ' + user.repo + ')\n  README.md  ~/.claude/rules/md.md\nThe next step would inject: ~/.claude/rules/md.md\n');
  });
});

/** Starts `profiles serve` on `home`; resolves with the panel URL, the output so far and a stopper that resolves with the exit code. */
async function serve(home: string): Promise<{ url: string; token: string; out: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(process.execPath, [bin, 'profiles', 'serve', '--port', '0', '--dsh-home', home], { env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent-home' } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.kill('SIGTERM');
    return exited;
  };
  let out = '';
  try {
    // The link carries the server's access token in its fragment (issue 32, item 4).
    const [url, token] = await new Promise<[string, string]>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const found = /panel: (http:\/\/127\.0\.0\.1:\d+\/session-context-config\/)#token=([A-Za-z0-9_-]{43})\n/.exec(out);
        if (found) resolve([found[1]!, found[2]!]);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    return { url, token, out: () => out, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

describe('profiles serve', () => {
  it('serves the context-profiles panel and API on loopback for the given home, and stops on SIGTERM', async () => {
    const home = tempDir('dsh-cli-profiles-');
    // A chosen profile: a started session would be recorded in the state file; serving must not start one.
    const { builtinProfiles } = await import('../../src/plugins/context-profiles/index.js');
    const state = JSON.stringify({ version: 4, lastUsedId: 'lean', profiles: builtinProfiles(), sessions: {} });
    writeFileSync(join(home, 'session-context-config.json'), state);
    const { url, token, out, stop } = await serve(home);
    expect(out()).toContain(`(the link carries this server's access token: keep it to yourself)\nstate file: ${join(home, 'session-context-config.json')}`);
    expect((await fetch(`${url}api/state`)).status).toBe(401);
    const served = (await (await fetch(`${url}api/state`, { headers: { [TOKEN_HEADER]: token } })).json()) as { profiles: { id: string }[]; catalog: { name: string }[] };
    expect(served.profiles.map((p) => p.id)).toEqual(expect.arrayContaining(['full', 'lean', 'minimal']));
    expect(served.catalog.map((t) => t.name)).toEqual(expect.arrayContaining(['read', 'memory', 'recall_turn']));
    expect(await (await fetch(url)).text()).toMatch(/^<!doctype html>/i);
    expect(await stop()).toBe(0);
    // The store may rewrite the file in its normal form on load, but it holds no session record.
    expect(JSON.parse(readFileSync(join(home, 'session-context-config.json'), 'utf8')).sessions).toEqual({});
  });

  it('CP-31 serves with a FIFO at the state path: starts (no hang), the API says the path is refused, a save is 503, the FIFO stays', async () => {
    const home = tempDir('dsh-cli-profiles-');
    const file = join(home, 'session-context-config.json');
    expect(spawnSync('mkfifo', [file]).status).toBe(0);
    const { url, token, stop } = await serve(home);
    try {
      const served = (await (await fetch(`${url}api/state`, { headers: { [TOKEN_HEADER]: token } })).json()) as { load: unknown; lastUsedId: string };
      expect(served.load).toEqual({ kind: 'refused', reason: 'is not a regular file (a FIFO, socket or device); context-profiles reads and replaces only a regular file' });
      const save = await fetch(`${url}api/state`, { method: 'POST', headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json' }, body: '{"lastUsedId":"lean"}' });
      expect(save.status).toBe(503);
      expect(lstatSync(file).isFIFO()).toBe(true);
    } finally {
      await stop();
    }
  });

  it('a bad --port is a usage error', () => {
    const bad = cli(['profiles', 'serve', '--port', '70000']);
    expect([bad.code, bad.stderr]).toEqual([2, "error: option '--port <n>' argument '70000' is invalid. --port must be an integer from 0 to 65535.\n(run with --help for usage)\n"]);
  });
});
