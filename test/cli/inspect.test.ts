// dsh-context inspect and rules on hostile and unusual repositories (issues 18 and 19): what the
// text shows is inert, what --json shows is exact, and every decision shown is the plugins' own.

import { spawnSync } from 'node:child_process';
import { closeSync, lstatSync, mkdirSync, openSync, readdirSync, symlinkSync, writeFileSync, ftruncateSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeFileSystem } from '../../src/fs/index.js';
import { projectKey } from '../../src/host/index.js';
import * as autoMemory from '../../src/plugins/auto-memory/index.js';
import { createTestHost } from '../../src/testing/index.js';
import { cleanUp, cli, fixture, tempDir } from '../support/cli.js';
import { referenceEncode } from '../support/tokenizer.js';

afterAll(cleanUp);

// Terminal controls a hostile repository could use: clear screen, window title, OSC 52 clipboard
// write, a C1 CSI, a bell, a carriage return that overwrites the line.
const CLEAR = '\u001b[2J';
const TITLE = '\u001b]0;pwned\u0007';
const CLIPBOARD = '\u001b]52;c;ZXZpbA==\u0007';
const C1 = '\u009b31m';

/** Any C0 control but tab and newline, DEL, or C1 control. */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

describe('issue 18 item 7: inspect and rules text escapes control characters; --json stays exact', () => {
  const hostile = () => {
    const dir = `pkg${TITLE}`;
    const { repo, home } = fixture({
      [`repo/${dir}/AGENTS.md`]: `Be careful ${CLEAR} and ${CLIPBOARD}\r over\twritten ${C1}\n`,
      [`repo/.claude/rules/${CLEAR}style.md`]: `Style ${CLIPBOARD}\n`,
      'repo/.claude/rules/forged\n  injected   FAKE.md': 'forged row\n',
      'repo/.claude/rules/scoped.md': `---\npaths: "**/*.ts"\n---\nScoped ${TITLE}\n`,
    });
    return { repo, home, dir };
  };

  it('inspect: no raw control reaches the terminal; each is shown escaped; a newline in a name forges no row', () => {
    const { repo, home, dir } = hostile();
    const out = cli(['inspect', repo, '--cwd', dir, '--dsh-home', home]);
    expect([out.code, out.stderr]).toEqual([0, '']);
    expect(out.stdout).not.toMatch(RAW_CONTROL);
    expect(out.stdout).toContain('session cwd   pkg\\x1b]0;pwned\\x07\n');
    expect(out.stdout).toContain('  injected  pkg\\x1b]0;pwned\\x07/AGENTS.md');
    expect(out.stdout).toContain('Be careful \\x1b[2J and \\x1b]52;c;ZXZpbA==\\x07\\r over\twritten \\x9b31m');
    expect(out.stdout).toContain('now      .claude/rules/\\x1b[2Jstyle.md');
    expect(out.stdout).toContain('.claude/rules/forged\\n  injected   FAKE.md');
    // The table cannot be forged; the verbatim message keeps the newline, since the model gets it.
    expect(cli(['inspect', repo, '--cwd', dir, '--dsh-home', home, '--summary']).stdout).not.toMatch(/^ {2}injected {3}FAKE\.md/m);
    expect(out.stdout).toContain('Rule from: .claude/rules/forged\n  injected   FAKE.md\n\nforged row');
    expect(out.stdout).toContain(`Style \\x1b]52;c;ZXZpbA==\\x07`);
  });

  it('inspect --json keeps every string exact', () => {
    const { repo, home, dir } = hostile();
    const report = JSON.parse(cli(['inspect', repo, '--cwd', dir, '--dsh-home', home, '--json']).stdout);
    expect(report.cwd).toBe(dir);
    expect(report.workspace.files.map((f: { path: string }) => f.path)).toEqual([`${dir}/AGENTS.md`]);
    expect(report.rules.now.map((r: { path: string }) => r.path)).toEqual([`.claude/rules/${CLEAR}style.md`, '.claude/rules/forged\n  injected   FAKE.md']);
    const instructions = report.messages.find((m: { kind: string }) => m.kind === 'agent-instructions').blocks[0];
    expect(instructions).toContain(`Be careful ${CLEAR} and ${CLIPBOARD}\r over\twritten ${C1}\n`);
  });

  it('rules: the touched path, rule names and warnings are escaped in text and exact in --json', () => {
    const { repo, home, dir } = hostile();
    const touched = `${dir}/x${CLEAR}.ts`;
    const out = cli(['rules', repo, '--dsh-home', home, '--path', touched]);
    expect(out.code).toBe(0);
    expect(out.stdout).not.toMatch(RAW_CONTROL);
    expect(out.stdout).toContain('  pkg\\x1b]0;pwned\\x07/x\\x1b[2J.ts  .claude/rules/scoped.md\n');
    const report = JSON.parse(cli(['rules', repo, '--dsh-home', home, '--path', touched, '--json']).stdout);
    expect(report.touches).toEqual([{ path: touched, rules: ['.claude/rules/scoped.md'] }]);
  });
});

describe("issue 18 item 11: inspect shows MEMORY.md through auto-memory's own bounded read", () => {
  /** A fixture whose project has `MEMORY.md` written by `write` in its memory directory. */
  const withIndex = (write: (file: string) => void) => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    const memdir = join(home, 'auto-memory', projectKey(repo));
    mkdirSync(memdir, { recursive: true });
    write(join(memdir, 'MEMORY.md'));
    return { repo, home };
  };
  /** The index message auto-memory itself injects at the first step there, if any. */
  const injected = async (repo: string, home: string) => {
    const host = createTestHost({ cwd: repo, fs: createNodeFileSystem(), homedir: '/nonexistent-home', env: { DSH_HOME: home } });
    host.use(autoMemory, {});
    await host.run('hi', [{ text: 'ok' }]);
    host.dispose();
    return host.requests[0]!.messages.find((m) => (m.source as { channel?: string }).channel === 'index');
  };

  it('more lines than maxIndexLines: the report counts what is injected, not the file', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `- [m${i}](m${i}.md) — memory ${i}`);
    const { repo, home } = withIndex((file) => writeFileSync(file, `${lines.join('\n')}\n`));
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    const message = await injected(repo, home);
    expect(message).toBeDefined();
    const shown = report.messages.find((m: { kind: string }) => m.kind === 'auto-memory/index').blocks[0];
    expect(shown).toBe((message!.content[0] as { text: string }).text);
    expect(report.memory).toMatchObject({ status: 'truncated', lines: 200, truncated: true, size: Buffer.byteLength(`${lines.join('\n')}\n`) });
    const text = cli(['inspect', repo, '--dsh-home', home, '--summary']).stdout;
    // Tokens of the body the message holds (its 200 lines), as the reference tokenizer counts them.
    const body = lines.slice(0, 200).join('\n');
    expect(report.memory.tokens).toBe(referenceEncode(body).length);
    expect(text).toContain(`MEMORY.md: 9.3 KiB; injected truncated to fit 200 lines / 25,600 bytes: 200 lines, 6.1 KiB, ${report.memory.tokens.toLocaleString('en-US')} tokens\n`);
  });

  it('a symbolic link is refused, as the plugin refuses it (nothing injected), not "injected whole"', async () => {
    const { repo, home } = withIndex((file) => {
      writeFileSync(`${file}.real`, '- [a](a.md) — a\n');
      symlinkSync(`${file}.real`, file);
    });
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    expect(await injected(repo, home)).toBeUndefined();
    expect(report.memory).toMatchObject({ status: 'refused', reason: '/memories/MEMORY.md is a symbolic link; memory storage never follows links', lines: 0 });
    expect(report.messages.map((m: { kind: string }) => m.kind)).not.toContain('auto-memory/index');
  });

  it('bytes that are not UTF-8 are not injected, and the report says so', async () => {
    const { repo, home } = withIndex((file) => writeFileSync(file, Buffer.from([0x2d, 0x20, 0xff, 0xfe, 0x0a])));
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    expect(await injected(repo, home)).toBeUndefined();
    expect(report.memory).toMatchObject({ status: 'undecodable', lines: 0 });
    expect(report.memory.reason).toMatch(/MEMORY\.md/);
  });

  it('a 600 MiB index (sparse) is read as a prefix and injected truncated, not reported as missing', async () => {
    const head = Array.from({ length: 2000 }, (_, i) => `- [m${i}](m${i}.md) — memory ${i}`).join('\n');
    const { repo, home } = withIndex((file) => {
      const fd = openSync(file, 'w');
      writeSync(fd, head);
      ftruncateSync(fd, 600 * 1024 * 1024);
      closeSync(fd);
    });
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    expect(report.memory).toMatchObject({ status: 'truncated', size: 600 * 1024 * 1024, lines: 200, truncated: true });
    const message = await injected(repo, home);
    expect(report.messages.find((m: { kind: string }) => m.kind === 'auto-memory/index').blocks[0]).toBe((message!.content[0] as { text: string }).text);
  });
});

describe('issue 19: inspect explains what it finds', () => {
  it('names where a symlinked instruction file leads, and @-imports (issue 31: Claude Code\'s rule) DSH sends as written', () => {
    const { repo, home } = fixture({
      'repo/CONTRIBUTING.md': 'How to contribute.\n@docs/style.md\n  @AGENTS.md and more\nmail me@example.com\n',
      'repo/docs/style.md': 'style\n',
    });
    symlinkSync('CONTRIBUTING.md', join(repo, 'CLAUDE.md'));
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    const tokens = referenceEncode('How to contribute.\n@docs/style.md\n  @AGENTS.md and more\nmail me@example.com\n').length;
    expect(report.workspace.files).toEqual([{ path: 'CLAUDE.md', status: 'injected', bytes: 76, tokens, sha1: expect.any(String), target: 'CONTRIBUTING.md', imports: [{ token: '@docs/style.md', path: 'docs/style.md', exists: true }, { token: '@AGENTS.md', path: 'AGENTS.md', exists: false }] }]);
    const text = cli(['inspect', repo, '--dsh-home', home, '--summary']).stdout;
    expect(text).toContain(`  injected  CLAUDE.md -> CONTRIBUTING.md  76 B  ${tokens} tokens`);
    expect(text).toContain('  @-imports: Claude Code would read the files they name; DSH does not expand them: the model gets the line as written, not the file:\n    CLAUDE.md  @docs/style.md (a file), @AGENTS.md (no such file)\n');
  });

  it('warns when no .git is found and the session cwd becomes the project root', () => {
    const base = tempDir('dsh-cli-noroot-');
    writeFileSync(join(base, 'AGENTS.md'), 'x\n');
    const warning = 'no .git found in the session cwd or above it: the session cwd is the project root (project rules and the instruction chain start there)';
    const report = JSON.parse(cli(['inspect', base, '--dsh-home', join(base, 'home'), '--json']).stdout);
    expect(report.warnings).toContain(warning);
    expect(cli(['rules', base, '--path', 'x.ts']).stdout).toContain(`warning: ${warning}`);
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    expect(JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout).warnings).toEqual([]);
  });
});

describe('issue 31: inspect writes nothing to the repository', () => {
  it('the `git status` context-profiles runs does not refresh git\'s index (GIT_OPTIONAL_LOCKS=0): .git is as it was', () => {
    const base = tempDir('dsh-cli-git-');
    const repo = join(base, 'repo');
    mkdirSync(repo);
    expect(spawnSync('git', ['init', '-q'], { cwd: repo }).status).toBe(0);
    writeFileSync(join(repo, 'AGENTS.md'), 'x\n');
    const entries = (): string[] => readdirSync(join(repo, '.git')).map((name) => `${name} ${lstatSync(join(repo, '.git', name)).mtimeMs}`).concat(`. ${lstatSync(join(repo, '.git')).mtimeMs}`);
    const before = entries();
    const out = cli(['inspect', repo, '--offline', '--dsh-home', join(base, 'home')]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('- git branch: ');
    expect(entries()).toEqual(before);
  });
});

describe('issue 32: inspect on links out, pipes and sockets, and plugin warnings', () => {
  it('item 8: inspect shows a memory folder nobody has claimed yet and claims nothing: the DSH home is as it was', () => {
    const { repo, home } = fixture({ 'repo/AGENTS.md': 'x\n' });
    const memdir = join(home, 'auto-memory', projectKey(repo));
    mkdirSync(memdir, { recursive: true });
    writeFileSync(join(memdir, 'MEMORY.md'), '- [Old](old.md) — from before owner files\n');
    const entries = (): string[] => readdirSync(memdir).map((name) => `${name} ${lstatSync(join(memdir, name)).mtimeMs}`).concat(`. ${lstatSync(memdir).mtimeMs}`);
    const before = entries();
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    expect(report.memory.status).toBe('injected');
    expect(report.messages.find((m: { kind: string }) => m.kind === 'auto-memory/index').blocks.join('')).toContain('from before owner files');
    expect(entries()).toEqual(before);
  });

  it('item 6: a CLAUDE.md that links outside the project is listed as refused with where it leads, and its text is in no message', () => {
    const { repo, home, base } = fixture({ 'repo/AGENTS.md': 'rules\n', 'outside/.git-credentials': 'https://me:ghp_CLITOKEN@github.com\n' });
    symlinkSync('../outside/.git-credentials', join(repo, 'CLAUDE.md'));
    const report = JSON.parse(cli(['inspect', repo, '--dsh-home', home, '--json']).stdout);
    expect(report.workspace.files.map((f: { path: string; status: string; target?: string }) => [f.path, f.status, f.target])).toEqual([['AGENTS.md', 'injected', undefined], ['CLAUDE.md', 'refused', join(base, 'outside/.git-credentials')]]);
    expect(report.workspace.files[1].note).toBe('leads outside the project root: not sent to the model (DSH\'s own loader would send it); allow its target with the workspace-context config key allowedLinkTargets');
    expect(JSON.stringify(report.messages)).not.toContain('ghp_CLITOKEN');
    const warning = `workspace-context: not loading CLAUDE.md: it leads to ${join(base, 'outside/.git-credentials')}, outside the project root, so it is not sent to the model (DSH's own loader would send it); allow it with the allowedLinkTargets config key`;
    expect(report.warnings).toEqual([warning]);
    // The terminal says the same: the row, where it leads and why, and the warning once.
    const text = cli(['inspect', repo, '--dsh-home', home, '--summary']).stdout;
    expect(text).toMatch(new RegExp(`^  refused +CLAUDE\\.md -> ${join(base, 'outside/\\.git-credentials')} +leads outside the project root: not sent to the model \\(DSH's own loader would send it\\); allow its target with the workspace-context config key allowedLinkTargets$`, 'm'));
    expect(text.split('\n').filter((line) => line.startsWith('warning: '))).toEqual([`warning: ${warning}`]);
    expect(text).not.toContain('ghp_CLITOKEN');
  });

  it('item 15: an AGENTS.md that is a named pipe or a socket is listed as what it is, and why it is skipped', async () => {
    const { repo, home } = fixture({ 'repo/pkg/x.ts': 'x\n' });
    const mkfifo = spawnSync('mkfifo', [join(repo, 'AGENTS.md')]);
    expect(mkfifo.status).toBe(0);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(repo, 'pkg', 'AGENTS.md'), resolve));
    try {
      const report = JSON.parse(cli(['inspect', repo, '--cwd', 'pkg', '--dsh-home', home, '--json']).stdout);
      expect(report.workspace.files).toEqual([
        { path: 'AGENTS.md', status: 'not-a-file', note: 'a named pipe (FIFO), not a regular file: skipped without reading it, as DSH\'s loader skips it (reading one would wait for a writer)' },
        { path: 'pkg/AGENTS.md', status: 'not-a-file', note: 'a socket, not a regular file: skipped without reading it, as DSH\'s loader skips it' },
      ]);
      // The terminal names them too, instead of "no AGENTS.md, CLAUDE.md or local overlay …".
      const text = cli(['inspect', repo, '--cwd', 'pkg', '--dsh-home', home, '--summary']).stdout;
      const section = text.slice(text.indexOf('Workspace instructions'), text.indexOf('Memory index'));
      // Columns as the table pads them, runs of spaces read as one gap.
      expect(section.split('\n').map((line) => line.trimEnd().replace(/(?<=\S) {2,}/g, '  '))).toEqual([
        'Workspace instructions (workspace-context): 0 of 65,536 bytes',
        '  not-a-file  AGENTS.md  a named pipe (FIFO), not a regular file: skipped without reading it, as DSH\'s loader skips it (reading one would wait for a writer)',
        '  not-a-file  pkg/AGENTS.md  a socket, not a regular file: skipped without reading it, as DSH\'s loader skips it',
        '',
        '',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('item 15: a plugin warning is printed once with its plugin\'s name, not "warning: warn auto-memory: auto-memory: …"', () => {
    const { repo, home } = fixture({ 'repo/.claude/rules/bad.md': '---\npaths: "+(a|b).ts"\n---\nbody\n' });
    const warning = 'auto-memory: rule .claude/rules/bad.md: ignoring glob "+(a|b).ts": compileGlobs: glob pattern "+(a|b).ts" has "+" at index 0: extglobs are not supported';
    const text = cli(['inspect', repo, '--dsh-home', home, '--summary']).stdout;
    expect(text.split('\n').filter((line) => line.startsWith('warning: '))).toEqual([`warning: ${warning}`]);
  });
});
