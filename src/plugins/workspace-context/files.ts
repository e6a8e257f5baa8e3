// Discovery and reads (spec WC-10..WC-16): candidate scopes, display paths, tri-state probes and
// bounded reads, all through the `ctx.fs` provider. Nothing here decides what the model sees.

import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readBounded } from '../../engine/index.js';
import type { FileSystem, FsTarget, FsVersion } from '../../host/index.js';
import type { ResolvedConfig } from './config.js';

/** The directory component of the user-global scope, and the one file name it has (WC-09). */
export const USER_GLOBAL_DIRECTORY = 'user-global';
export const USER_GLOBAL_FILE = 'AGENTS.md';
const SCOPE_SEPARATOR = '\u0000';

/** One candidate file: its scope key (WC-29), display path (WC-18) and absolute path. */
export interface Candidate {
  /** `<directory>\u0000<name>`. */
  readonly scope: string;
  /** `user-global`, `.`, or the root-relative directory with `/` separators. */
  readonly directory: string;
  readonly name: string;
  readonly path: string;
  readonly absolute: string;
}

/** Where candidates live for one session: the cwd, its project root and the resolved home. */
export interface Layout {
  readonly cwd: string;
  readonly root: string;
  readonly config: ResolvedConfig;
  /** Candidates already built, per display directory (a session keeps this while its root stays). */
  readonly candidates?: Map<string, readonly Candidate[]>;
  /**
   * Absolute paths of display directories found by walking (a session keeps this with `candidates`),
   * so a candidate's path is its directory's plus a name: joining the root and a display directory
   * costs time and garbage in proportion to its depth, which for every directory of a chain 2,000
   * levels deep was most of a step (issue 32 item 9).
   */
  readonly directories?: Map<string, string>;
}

/** The scope key of a candidate name in a display directory. */
export function scopeKey(directory: string, name: string): string {
  return `${directory}${SCOPE_SEPARATOR}${name}`;
}

/** Splits a scope key; `undefined` for a string that is not one. */
export function parseScope(scope: string): { directory: string; name: string } | undefined {
  const at = scope.indexOf(SCOPE_SEPARATOR);
  return at <= 0 || at === scope.length - 1 ? undefined : { directory: scope.slice(0, at), name: scope.slice(at + 1) };
}

/** `path` with the platform separator written as `/`, as display paths are. */
export const slashes = (path: string): string => (sep === '/' ? path : path.split(sep).join('/'));

/**
 * The display directory of an absolute directory under the root: `.` for the root itself. A
 * directory written as the root plus a separator and more (what walks produce) is sliced, in
 * constant time; anything else goes through `path.relative`.
 */
export function displayDirectory(root: string, absoluteDir: string): string {
  if (absoluteDir === root) return '.';
  const prefix = root.endsWith(sep) ? root : root + sep;
  if (absoluteDir.startsWith(prefix)) {
    const rest = absoluteDir.slice(prefix.length);
    if (!NOT_PLAIN.test(rest)) return slashes(rest);
  }
  const rel = slashes(relative(root, absoluteDir));
  return rel === '' ? '.' : rel;
}

/** A `.` or `..` segment, an empty one, or a leading or trailing separator: a path `relative` would rewrite. One pass. */
const NOT_PLAIN = /(?:^|[\\/])\.{1,2}(?:[\\/]|$)|[\\/][\\/]|^[\\/]|[\\/]$|^$/;

/** The candidate for a scope key in this layout; `undefined` for a key outside it. */
export function candidateFor(layout: Layout, scope: string): Candidate | undefined {
  const parsed = parseScope(scope);
  if (parsed === undefined) return undefined;
  const { directory, name } = parsed;
  if (directory === USER_GLOBAL_DIRECTORY) {
    if (name !== USER_GLOBAL_FILE) return undefined;
    return { scope, directory, name, path: `${layout.config.dshHome.display}/${USER_GLOBAL_FILE}`, absolute: join(layout.config.dshHome.path, USER_GLOBAL_FILE) };
  }
  const dir = projectDirectory(layout, directory);
  return dir === undefined ? undefined : projectCandidate(scope, directory, name, dir);
}

/** The absolute path of a project display directory, `undefined` for one outside the root. */
function projectDirectory(layout: Layout, directory: string): string | undefined {
  if (directory.startsWith('..') || isAbsolute(directory)) return undefined;
  return layout.directories?.get(directory) ?? join(layout.root, directory);
}

function projectCandidate(scope: string, directory: string, name: string, absoluteDir: string): Candidate {
  const absolute = absoluteDir.endsWith(sep) ? absoluteDir + name : absoluteDir + sep + name;
  return { scope, directory, name, path: directory === '.' ? name : `${directory}/${name}`, absolute };
}

/** Every configured candidate of a display directory, in probe order (WC-11). */
export function directoryCandidates(layout: Layout, directory: string): readonly Candidate[] {
  const known = layout.candidates?.get(directory);
  if (known !== undefined) return known;
  let built: Candidate[];
  if (directory === USER_GLOBAL_DIRECTORY) built = [candidateFor(layout, scopeKey(directory, USER_GLOBAL_FILE))!];
  else {
    const dir = projectDirectory(layout, directory);
    built = dir === undefined ? [] : layout.config.candidateNames.map((name) => projectCandidate(scopeKey(directory, name), directory, name, dir));
  }
  layout.candidates?.set(directory, built);
  return built;
}

/**
 * The directories from `top` down to `bottom`, inclusive and broadest first (`bottom` under `top`),
 * as display directories under `layout`'s root, each remembered with its absolute path.
 */
function chain(layout: Layout, top: string, bottom: string): string[] {
  const stop = resolve(top);
  const dirs: string[] = [];
  for (let dir = resolve(bottom); ; ) {
    dirs.push(dir);
    const parent = dirname(dir);
    if (dir === stop || parent === dir) break;
    dir = parent;
  }
  return dirs.reverse().map((dir) => {
    const display = displayDirectory(layout.root, dir);
    layout.directories?.set(display, dir);
    return display;
  });
}

/** WC-11: the user-global directory, then every directory from the root down to the cwd. */
export function baselineDirectories(layout: Layout): string[] {
  return [USER_GLOBAL_DIRECTORY, ...chain(layout, layout.root, layout.cwd)];
}

/**
 * WC-38 [R]: the display directories a touch newly reaches, every directory strictly below the cwd
 * down to the touched file's directory; none for a file that is not under the cwd.
 */
export function touchedDirectories(layout: Layout, touchedPath: string): string[] {
  const file = isAbsolute(touchedPath) ? resolve(touchedPath) : resolve(layout.cwd, touchedPath);
  const rel = relative(layout.cwd, dirname(file));
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [];
  return chain(layout, layout.cwd, dirname(file)).slice(1);
}

/** Orders display directories broad to specific: user-global, the root, then parents before children. */
export function compareDirectories(a: string, b: string): number {
  const rank = (d: string): string[] => (d === USER_GLOBAL_DIRECTORY ? [] : d === '.' ? [''] : ['', ...d.split('/')]);
  const x = rank(a);
  const y = rank(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

/**
 * A probe outcome (WC-13): the world is uncertain, so absence and failure stay apart. `refused` is a
 * project candidate that leads outside the project (fence.ts): it counts as absent.
 */
export type Probe =
  | { readonly kind: 'present'; readonly target: FsTarget; readonly version: FsVersion; readonly size?: number }
  | { readonly kind: 'absent' }
  | { readonly kind: 'refused'; readonly target: FsTarget }
  | { readonly kind: 'unavailable'; readonly error: unknown };

/**
 * Resolves a candidate and stats the resolved target (so a final symlink is followed). A regular
 * file is present; a missing path or any other type is absent; a provider exception is unavailable.
 * Cancellation (WC-15) rejects with the signal's reason instead of producing an outcome.
 */
export async function probeCandidate(fs: FileSystem, candidate: Candidate, signal: AbortSignal | undefined): Promise<Probe> {
  try {
    const target = await fs.resolve(candidate.absolute, { signal });
    const info = await fs.stat(target, signal);
    signal?.throwIfAborted();
    if (info === undefined || info.type !== 'file') return { kind: 'absent' };
    return { kind: 'present', target, version: info.version, ...(info.size !== undefined ? { size: info.size } : {}) };
  } catch (error) {
    signal?.throwIfAborted();
    return { kind: 'unavailable', error };
  }
}

/** A bounded read's outcome: the text with its digests, or why there is none. */
export type Read =
  | { readonly kind: 'loaded'; readonly text: string; readonly digest: string; readonly trimmedDigest: string }
  | { readonly kind: 'oversize' }
  | { readonly kind: 'unavailable'; readonly error: unknown };

/**
 * WC-14: reads a present candidate through `streamText` with the engine's bounded read, which counts
 * UTF-8 bytes, stops past `maxSourceBytes` (a reported size above it skips the read) and computes the
 * SHA-1 of the text and of its trimmed form in the same pass. Cancellation rejects.
 */
export async function readCandidate(fs: FileSystem, probe: Extract<Probe, { kind: 'present' }>, maxSourceBytes: number, signal: AbortSignal | undefined): Promise<Read> {
  if (probe.size !== undefined && probe.size > maxSourceBytes) return { kind: 'oversize' };
  let stream: AsyncIterable<string>;
  try {
    stream = await fs.streamText(probe.target, signal);
  } catch (error) {
    signal?.throwIfAborted();
    return { kind: 'unavailable', error };
  }
  const result = await readBounded(stream, { maxBytes: maxSourceBytes, signal, ...(probe.size !== undefined ? { reportedSize: probe.size } : {}) });
  switch (result.status) {
    case 'ok':
      return { kind: 'loaded', text: result.text, digest: result.sha1, trimmedDigest: result.trimmedSha1 };
    case 'oversize':
      return { kind: 'oversize' };
    case 'cancelled':
      signal?.throwIfAborted();
      throw new Error('workspace-context: a read was cancelled without an aborted signal');
    case 'unavailable':
      return { kind: 'unavailable', error: result.error };
    case 'invalid-utf8':
      return { kind: 'unavailable', error: new Error(`${probe.target.displayPath}: invalid UTF-8`) };
  }
}
