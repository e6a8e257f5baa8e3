// Child Node processes over the built package (`lib/`, which `npm test` builds first): several at
// once for cross-process races, and one with a deadline as a hang guard for "finishes" tests. A
// deadline only detects a hang (the process is killed and the test fails); it never measures speed.

import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A built module's URL, for `import()` inside a child script: `built('plugins/auto-memory/store.js')`. */
export const built = (path: string): string => pathToFileURL(join(REPO_ROOT, 'lib', path)).href;

/** How a child ended. */
export interface ChildResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The deadline passed and the child was killed. */
  readonly timedOut: boolean;
}

/**
 * Runs an ES module `script` in a fresh Node process (cwd: the repository root, `argv` after it),
 * killing it after `deadlineMs`.
 */
export function runScript(script: string, argv: readonly string[] = [], deadlineMs = 60_000): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, '--', ...argv], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, deadlineMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr, timedOut });
    });
  });
}
