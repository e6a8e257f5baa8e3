// The sample monorepo shipped in the package (examples/sample-monorepo): a small repository with
// nested AGENTS.md / CLAUDE.md, local overlays, rules with and without `paths:`, a user home with a
// user-global AGENTS.md and user rules, and a memory index. Git does not keep a `.git` marker or a
// memory folder named after an absolute path, so the sample is copied to a temporary directory and
// those two are created there.

import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectKey } from '../host/index.js';

/** Where the sample lives in the package. */
export const SAMPLE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'examples', 'sample-monorepo');
/** The session cwd the sample is inspected at, relative to its repository. */
export const SAMPLE_CWD = 'packages/app';

/** A ready copy of the sample: its repository, an OS home for it, and how to remove it. */
export interface Sample {
  readonly repo: string;
  readonly home: string;
  dispose(): void;
}

/** Copies the sample to a fresh temporary directory and lays out its `.git` marker and memory folder. */
export function prepareSample(): Sample {
  const base = mkdtempSync(join(tmpdir(), 'dsh-context-sample-'));
  const repo = join(base, 'repo');
  const home = join(base, 'home');
  cpSync(join(SAMPLE_DIR, 'repo'), repo, { recursive: true });
  cpSync(join(SAMPLE_DIR, 'home'), home, { recursive: true });
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  // auto-memory keeps a project's memories under its key, derived from the project's absolute path.
  const memories = join(home, '.dsh', 'auto-memory', projectKey(repo));
  mkdirSync(dirname(memories), { recursive: true });
  cpSync(join(SAMPLE_DIR, 'memories'), memories, { recursive: true });
  return { repo, home, dispose: () => rmSync(base, { recursive: true, force: true }) };
}
