// What every command needs before it starts: the directory to look at, the session cwd inside it, and
// the process facts the plugins read (environment, OS home, process cwd), checked with errors that
// say what to do.

import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { HomeEnvironment } from '../host/index.js';

/** The module name of workspace-context's row, as the bundle patch mounts it. */
export const WORKSPACE_CONTEXT_MODULE = 'dsh-context-engine/workspace-context';

/** An error a user can act on: the message says what went wrong, `hint` what to do. Exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The process facts plugins resolve homes and relative paths against. */
export function processEnvironment(): HomeEnvironment {
  return { env: process.env, homedir: homedir(), processCwd: process.cwd() };
}

/** A directory to inspect and the session cwd inside it, both absolute. */
export interface Workspace {
  readonly dir: string;
  readonly cwd: string;
}

/** Resolves `dir` (default: the process cwd) and `--cwd` (relative to `dir`), refusing what does not exist. */
export function resolveWorkspace(dir: string | undefined, cwd: string | undefined, environment: HomeEnvironment): Workspace {
  const base = resolve(environment.processCwd, dir ?? '.');
  requireDirectory(base, 'directory', 'pass an existing directory, e.g. `dsh-context inspect .`');
  const session = cwd === undefined ? base : resolve(base, cwd);
  requireDirectory(session, '--cwd directory', `--cwd is relative to ${dir ?? 'the directory'}; pass one of its subdirectories`);
  const rel = relative(base, session);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new CliError(`--cwd ${cwd} is outside ${base}`, 'pass a subdirectory of the inspected directory');
  return { dir: base, cwd: session };
}

/** Throws a `CliError` unless `path` is an existing directory. */
export function requireDirectory(path: string, what: string, hint: string): void {
  let kind: string;
  try {
    kind = statSync(path).isDirectory() ? 'directory' : 'not a directory';
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? `no such ${what}: ${path}` : `cannot read ${what} ${path}: ${(error as Error).message}`, hint);
  }
  if (kind !== 'directory') throw new CliError(`${what} ${path} is not a directory`, hint);
}

/** Parses a positive integer option value; a bad one is a usage error naming the option (exit 2). */
export function positiveInteger(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`${option} must be a positive integer.`);
    return n;
  };
}

/** Parses a non-negative integer option value (a port), naming the option in a usage error. */
export function nonNegativeInteger(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n > 65535) throw new InvalidArgumentError(`${option} must be an integer from 0 to 65535.`);
    return n;
  };
}

/** Parses a price (a non-negative decimal number), naming the option in a usage error. */
export function price(option: string): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/.test(value) || !Number.isFinite(n)) throw new InvalidArgumentError(`${option} must be a non-negative number of US dollars per million tokens, e.g. 0.28.`);
    return n;
  };
}
