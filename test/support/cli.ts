// Running the built dsh-context binary as a user runs it, on fixture repositories in temp dirs.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const bin = join(packageRoot, 'lib', 'cli', 'index.js');

/** Temp dirs made by `fixture`/`tempDir`; `cleanUp` removes them (call it in `afterAll`). */
const made: string[] = [];
export const cleanUp = (): void => made.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));

/** A fresh temp dir removed by `cleanUp`. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/**
 * PATH without folders that hold a `dsh`: `inspect` runs the `dsh` it finds, so tests of its
 * offline mode must not find one on a developer's machine (tests of exact mode pass `--dsh`).
 */
const PATH_WITHOUT_DSH = (process.env.PATH ?? '').split(delimiter).filter((dir) => dir === '' || !existsSync(join(dir, 'dsh'))).join(delimiter);

/** Runs the built CLI with a controlled home and environment (and no `dsh` on PATH). */
export function cli(args: string[], env: Record<string, string> = {}, cwd?: string) {
  const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', cwd, env: { PATH: PATH_WITHOUT_DSH, HOME: '/nonexistent-home', ...env } });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A fixture repository: `files` under a fresh temp dir with a .git marker, and a DSH home beside it. */
export function fixture(files: Record<string, string | Buffer>): { repo: string; home: string; base: string } {
  const base = tempDir('dsh-cli-');
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    const full = join(base, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return { repo, home, base };
}
