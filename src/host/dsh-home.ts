// `$DSH_HOME` resolution and `~` expansion (spec X-10). One module for every plugin, as upstream
// keeps it in one place ("tilde expansion and the default live in dsh-paths").

import { isAbsolute, join, resolve } from 'node:path';

/** The display label of the default home, and of any other home. */
export const DEFAULT_HOME_DISPLAY = '~/.dsh';
export const CUSTOM_HOME_DISPLAY = '$DSH_HOME';

/** A resolved home: the absolute path and the label model-visible text uses instead of it. */
export interface DshHome {
  readonly path: string;
  readonly display: typeof DEFAULT_HOME_DISPLAY | typeof CUSTOM_HOME_DISPLAY;
}

/** What resolution needs from the process; pass `hostRuntime(ctx)` in plugins. */
export interface HomeEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homedir: string;
  readonly processCwd: string;
}

/**
 * Expands a leading `~`, `~/…` or `~\…` against `homedir`, then resolves the result to an absolute,
 * normalized path relative to `processCwd` (the process cwd, never the session cwd: upstream does
 * the same). `~user` forms are left alone, as upstream leaves them.
 */
export function expandHome(path: string, homedir: string, processCwd: string): string {
  let expanded = path;
  if (path === '~') expanded = homedir;
  else if (path.startsWith('~/') || path.startsWith('~\\')) expanded = join(homedir, path.slice(2));
  return isAbsolute(expanded) ? resolve(expanded) : resolve(processCwd, expanded);
}

/**
 * Resolves the DSH home: a configured value wins, then a non-blank `DSH_HOME`, then `~/.dsh`; each is
 * expanded with `expandHome`. The display label is `~/.dsh` exactly when the result equals the
 * default home, otherwise `$DSH_HOME` (never an absolute path, which would leak the machine layout
 * into model-visible text).
 */
export function resolveDshHome(configured: string | undefined, environment: HomeEnvironment): DshHome {
  const fromEnv = environment.env.DSH_HOME;
  const chosen = configured !== undefined ? configured : fromEnv !== undefined && fromEnv.trim() !== '' ? fromEnv : '~/.dsh';
  const path = expandHome(chosen, environment.homedir, environment.processCwd);
  const defaultPath = expandHome('~/.dsh', environment.homedir, environment.processCwd);
  return { path, display: path === defaultPath ? DEFAULT_HOME_DISPLAY : CUSTOM_HOME_DISPLAY };
}

/** The display form of a file under the home, e.g. `~/.dsh/AGENTS.md` or `$DSH_HOME/AGENTS.md`. */
export function homeDisplayPath(home: DshHome, relativePath: string): string {
  return `${home.display}/${relativePath}`;
}
