// Deep trees through the node:fs provider (issue 18 item 10, WC-11, WC-38, X-09): resolving each
// candidate with realpath(3) cost about depth² per probe, so a session start deep in a tree and a
// read far below its cwd took about depth³ (7 s and 68 s at 400 levels). The provider now builds
// real paths from remembered parent directories, a few system calls per probe at any depth. Checked
// as "finishes" in a child process with a generous deadline (a hang guard, not a speed figure).

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { built, runScript } from '../../support/processes.js';
import { loggedInstructions, mount, texts } from '../../support/workspace-context.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('item 10: probing is linear in depth', () => {
  it('WC-11 WC-38 X-09 item 10: a session 400 levels deep and a read 400 levels below its cwd finish, with the right instructions', async () => {
    const base = mkdtempSync(join(tmpdir(), 'wc-deep-'));
    made.push(base);
    const script = `
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      const wc = await import(${JSON.stringify(built('plugins/workspace-context/index.js'))});
      const { createTestHost } = await import(${JSON.stringify(built('testing/index.js'))});
      const { createNodeFileSystem } = await import(${JSON.stringify(built('fs/index.js'))});
      const [base] = process.argv.slice(1);
      const repo = join(base, 'repo');
      const cwd = join(repo, ...Array(400).fill('d'));
      const below = join(cwd, ...Array(400).fill('e'));
      mkdirSync(below, { recursive: true });
      mkdirSync(join(repo, '.git'));
      writeFileSync(join(repo, 'AGENTS.md'), 'root');
      writeFileSync(join(cwd, 'AGENTS.md'), 'deep');
      writeFileSync(join(below, 'AGENTS.md'), 'deeper');
      writeFileSync(join(below, 'x.ts'), 'x');
      const host = createTestHost({ cwd, dshHome: join(base, 'home'), fs: createNodeFileSystem({ cwd }) });
      host.use(wc, { maxBytes: 65536 });
      await host.run('hi', [{ tools: [{ name: 'read', input: { file_path: join(below, 'x.ts') } }] }, { text: 'ok' }]);
      const texts = host.requests.at(-1).messages.filter((m) => m.source.kind === 'agent-instructions').map((m) => m.content[0].text);
      process.stdout.write(JSON.stringify(texts.map((t) => ({ paths: [...t.matchAll(/from: (\\S+)/g)].map((m) => m[1].length), bodies: ['root', 'deep', 'deeper'].filter((b) => t.includes('\\n' + b + '\\n')) }))));
    `;
    const run = await runScript(script, [base], 30_000);
    expect({ timedOut: run.timedOut, status: run.status, stderr: run.stderr }).toEqual({ timedOut: false, status: 0, stderr: '' });
    // Display paths are root-relative: 'AGENTS.md', then 400 × 'd/' + 'AGENTS.md', then 400 more 'e/'.
    expect(JSON.parse(run.stdout)).toEqual([{ paths: [9, 809], bodies: ['root', 'deep'] }, { paths: [1609], bodies: ['deeper'] }]);
  });
});

describe('item 9: a deep chain costs a bounded number of calls per directory', () => {
  it('WC-11 WC-13 item 9: a session start 300 levels deep looks at each directory with lstat and resolves only the files that are there', async () => {
    // 300 levels: the in-memory provider's own lookups grow with depth × path length (2,000 levels take minutes there).
    const deep = `/repo/${Array(300).fill('d').join('/')}`;
    const host = mount({ '/repo/AGENTS.md': 'root', [`${deep}/AGENTS.md`]: 'deep' }, undefined, { cwd: deep });
    await host.run('hi', [{ text: 'ok' }]);
    const count = (op: string) => host.fs.calls.filter((c) => c.op === op).length;
    // The two files there, each resolved, stat'ed and read once (DSH's probe), and the home's AGENTS.md,
    // whose directory is not there, probed the DSH way; the root and the home's AGENTS.md resolved once
    // more for the link fence (item 6). DSH's probes would resolve and stat every name.
    expect(host.fs.calls.filter((c) => c.op === 'resolve').map((c) => c.path).sort()).toEqual(['/home/user/.dsh/AGENTS.md', '/home/user/.dsh/AGENTS.md', '/repo', '/repo/AGENTS.md', `${deep}/AGENTS.md`]);
    expect({ stat: count('stat'), streamText: count('streamText') }).toEqual({ stat: 3, streamText: 2 });
    // The root walk (301 directories up to /repo/.git), then each of the 301 chain directories and its
    // 4 names once, and the home and its one name.
    expect(count('lstat')).toBe(301 + 301 * 5 + 2);
    expect(loggedInstructions(host).map((m) => texts(m)[0]!.includes('\n\ndeep\n'))).toEqual([true]);
  });
});
