// The files of a repository as git sees them, for `dsh-context bench`. In a git work tree git itself
// answers (`git ls-files -co --exclude-standard`: tracked and untracked files that no .gitignore,
// .git/info/exclude or core.excludesFile hides); outside one, globby's walk, whose .gitignore handling
// is tested against `git ls-files` (nested negations, parent files, pruned directories). Either way a
// symbolic link is one entry, as git records it; the plugins follow it when they read.

import { execFile } from 'node:child_process';
import { globbyStream } from 'globby';
import { compileGlobs, type GlobSet } from '../engine/index.js';
import { CliError } from './env.js';

/** Most files one listing may hold; a larger tree is refused with a hint instead of exhausting memory. */
export const MAX_LISTED_FILES = 2_000_000;
/** Most bytes of `git ls-files` output read (about 128 bytes per path at the file limit). */
const MAX_GIT_OUTPUT_BYTES = 256 * 1024 * 1024;

/** A listing: paths relative to the listed directory with `/` separators, sorted by code point. */
export interface Listing {
  readonly files: readonly string[];
  /** Who listed them: git in a work tree, globby's walk outside one. */
  readonly source: 'git' | 'walk';
  /** Files left out by `--exclude`. */
  readonly excluded: number;
}

const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Lists the files below `dir`: git's answer in a work tree, globby's gitignore-aware walk outside one,
 * then drops the ones matching any `exclude` glob (picomatch syntax with `dot: true`, matched against
 * the listed path). `onProgress` is called with the count so far while a walk runs.
 * @param dir an absolute directory
 * @param exclude globs of files to leave out
 * @param onProgress progress callback (walks only)
 * @returns the listing
 */
export async function listFiles(dir: string, exclude: readonly string[], onProgress?: (files: number) => void): Promise<Listing> {
  const excluded = excludeSet(exclude);
  const inside = await gitWorkTree(dir);
  const all = inside ? await gitFiles(dir) : await walkFiles(dir, onProgress);
  const files = excluded === undefined ? all : kept(all, excluded);
  return { files: files.sort(byCodePoint), source: inside ? 'git' : 'walk', excluded: all.length - files.length };
}

function excludeSet(patterns: readonly string[]): GlobSet | undefined {
  if (patterns.length === 0) return undefined;
  try {
    return compileGlobs(patterns, { dot: true });
  } catch (error) {
    throw new CliError(`--exclude: ${(error as Error).message}`, 'use glob syntax without extglobs, e.g. --exclude "vendor/**" "**/*.min.js"');
  }
}

/** Paths matched per GlobSet.matchAll call: one WASM call per batch, not per path (a million files). */
const EXCLUDE_BATCH = 65_536;

/** The files no exclude glob matches. */
function kept(files: readonly string[], set: GlobSet): string[] {
  const out: string[] = [];
  for (let start = 0; start < files.length; start += EXCLUDE_BATCH) {
    const batch = files.slice(start, start + EXCLUDE_BATCH);
    set.matchAll(batch).forEach((hits, i) => {
      if (hits.length === 0) out.push(batch[i]!);
    });
  }
  return out;
}

function git(dir: string, args: readonly string[]): Promise<{ code: number | string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-C', dir, ...args], { maxBuffer: MAX_GIT_OUTPUT_BYTES, encoding: 'utf8' }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : ((error as NodeJS.ErrnoException).code ?? null), stdout, stderr });
    });
  });
}

/** Whether `dir` is inside a git work tree (false without git, or in a bare repository or `.git`). */
async function gitWorkTree(dir: string): Promise<boolean> {
  const run = await git(dir, ['rev-parse', '--is-inside-work-tree']);
  return run.code === 0 && run.stdout.trim() === 'true';
}

async function gitFiles(dir: string): Promise<string[]> {
  const run = await git(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  if (run.code !== 0) {
    const why = run.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER' ? `its output passed ${MAX_GIT_OUTPUT_BYTES} bytes` : run.stderr.trim() || `exit ${run.code}`;
    throw new CliError(`git ls-files failed in ${dir}: ${why}`, 'bench a sub-directory, or leave files out with --exclude');
  }
  const files = run.stdout.split('\0');
  files.pop(); // the output ends with a NUL
  if (files.length > MAX_LISTED_FILES) throw tooMany(dir);
  return files;
}

async function walkFiles(dir: string, onProgress: ((files: number) => void) | undefined): Promise<string[]> {
  const files: string[] = [];
  // Links are entries, not followed (as git lists them); unreadable directories are skipped, as git skips them.
  const entries = globbyStream('**', {
    cwd: dir, gitignore: true, dot: true, onlyFiles: false, markDirectories: true, followSymbolicLinks: false, suppressErrors: true,
    ignore: ['**/.git', '**/.git/**'],
  });
  for await (const entry of entries) {
    const path = String(entry);
    if (path.endsWith('/')) continue;
    files.push(path);
    if (files.length > MAX_LISTED_FILES) throw tooMany(dir);
    if (files.length % 1000 === 0) onProgress?.(files.length);
  }
  return files;
}

function tooMany(dir: string): CliError {
  return new CliError(`${dir} holds more than ${MAX_LISTED_FILES.toLocaleString('en-US')} files`, 'bench a sub-directory, or leave files out with --exclude');
}
