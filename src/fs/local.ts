// A DSH fs provider over node:fs (contract §9), for the CLI and for tests that want real files.
// Targets are keyed by realpath so symlinks resolve to one identity; display paths stay as the caller
// wrote them (resolved against the cwd), because those are what users recognise. Real paths are
// built one component at a time from the real path of the parent directory, which the provider
// remembers and re-checks with one `stat` per use: realpath(3) itself reads every component of a
// path, so resolving each candidate of a deep tree that way costs about depth² per probe (depth³
// for a walk), while this costs a few system calls per probe at any depth.

import type { BigIntStats } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve as resolvePath, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  FsError, throwIfFsAborted, type FileSystem, type FsDirEntry, type FsEdit, type FsEditOutcome, type FsInfo, type FsPathInfo,
  type FsTarget, type FsWriteExpectation, type FsWriteOutcome,
} from '../host/fs.js';
import { applyEdit } from './edit.js';
import { isAbsence, toFsError } from './errors.js';
import { READ_FLAGS, streamFileText } from './stream.js';
import { typeOf, versionOf } from './version.js';

export interface NodeFileSystemOptions {
  /** Relative paths resolve here when a call passes no `cwd`; default `process.cwd()`. */
  readonly cwd?: string;
}

/** Creates the node:fs provider. */
export function createNodeFileSystem(options: NodeFileSystemOptions = {}): NodeFileSystem {
  return new NodeFileSystem(options);
}

/** The node:fs provider; see the module comment and `FileSystem` for the contract it follows. */
export class NodeFileSystem implements FileSystem {
  readonly sandboxMode = undefined;
  readonly #cwd: string;
  /** Real paths of directories resolved before, with the identity (device, inode) they had then. */
  readonly #dirs = new Map<string, { readonly real: string; readonly dev: bigint; readonly ino: bigint }>();

  constructor(options: NodeFileSystemOptions = {}) {
    this.#cwd = resolvePath(options.cwd ?? process.cwd());
  }

  /**
   * Never fails because the path is absent: the key is the realpath, or the realpath of the nearest
   * existing ancestor plus the missing rest. An empty path, or a file used as a directory on the
   * way, is `FS_NOT_FOUND`; an aborted signal is `FS_ABORTED`.
   */
  async resolve(path: string, opts: { cwd?: string; signal?: AbortSignal } = {}): Promise<FsTarget> {
    throwIfFsAborted(opts.signal, `resolve ${path}`);
    if (path === '') throw new FsError('FS_NOT_FOUND', 'resolve: empty path');
    const displayPath = absolutePath(opts.cwd ?? this.#cwd, path);
    const targetKey = await this.#realTarget(displayPath);
    throwIfFsAborted(opts.signal, `resolve ${path}`);
    return { targetKey, displayPath };
  }

  /**
   * The real path of `absolute`: the real path of its parent directory plus its name, followed when
   * the name is a symlink; an absent path is anchored on its nearest existing ancestor (`undefined`
   * parents are absent). A file on the way is `FS_NOT_FOUND`.
   */
  async #realTarget(absolute: string): Promise<string> {
    const parent = dirname(absolute);
    if (parent === absolute) return absolute;
    const realParent = await this.#realDirectory(parent, absolute);
    const candidate = child(realParent === undefined ? await this.#realTarget(parent) : realParent, basename(absolute));
    if (realParent === undefined) return candidate;
    const info = await statOrAbsent(candidate, absolute, false);
    return info?.isSymbolicLink() ? ((await realpathOrAbsent(candidate, absolute)) ?? candidate) : candidate;
  }

  /**
   * The real path of the directory `dir`, `undefined` when it does not exist; `FS_NOT_FOUND` when a
   * file stands on the way (`what` is the path being resolved, for the message). A remembered real
   * path is used only while `dir` still leads to the same directory (same device and inode).
   */
  async #realDirectory(dir: string, what: string): Promise<string | undefined> {
    const parent = dirname(dir);
    if (parent === dir) return dir;
    const known = this.#dirs.get(dir);
    if (known !== undefined) {
      const now = await statOrAbsent(dir, what, true);
      if (now?.isDirectory() && now.dev === known.dev && now.ino === known.ino) return known.real;
      this.#dirs.delete(dir);
    }
    const realParent = await this.#realDirectory(parent, what);
    if (realParent === undefined) return undefined;
    const candidate = child(realParent, basename(dir));
    let info = await statOrAbsent(candidate, what, false);
    let real = candidate;
    if (info?.isSymbolicLink()) {
      const followed = await realpathOrAbsent(candidate, what);
      info = followed === undefined ? undefined : await statOrAbsent(followed, what, true);
      real = followed ?? candidate;
    }
    if (info === undefined) return undefined;
    if (!info.isDirectory()) throw new FsError('FS_NOT_FOUND', `resolve ${what}: a parent is not a directory`);
    if (this.#dirs.size >= REMEMBERED_DIRECTORIES) this.#dirs.clear();
    this.#dirs.set(dir, { real, dev: info.dev, ino: info.ino });
    return real;
  }

  processPath(target: FsTarget): string {
    return target.targetKey;
  }

  fileUrl(target: FsTarget): string {
    return pathToFileURL(target.targetKey).href;
  }

  contains(parent: FsTarget, child: FsTarget): boolean {
    const prefix = parent.targetKey.endsWith(sep) ? parent.targetKey : parent.targetKey + sep;
    return child.targetKey === parent.targetKey || child.targetKey.startsWith(prefix);
  }

  /** Follows symlinks; `undefined` when absent; other OS errors and aborts throw. */
  async stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    throwIfFsAborted(signal, `stat ${target.displayPath}`);
    let stats: BigIntStats;
    try {
      stats = await stat(target.targetKey, { bigint: true });
    } catch (error) {
      if (isAbsence(error)) return undefined;
      throw toFsError(error, 'stat', target.displayPath);
    } finally {
      throwIfFsAborted(signal, `stat ${target.displayPath}`);
    }
    return { version: versionOf(stats), type: typeOf(stats), size: Number(stats.size) };
  }

  /** Like `stat` but does not follow a final symlink. */
  async lstat(path: string, opts: { cwd?: string } = {}, signal?: AbortSignal): Promise<FsPathInfo | undefined> {
    throwIfFsAborted(signal, `lstat ${path}`);
    const absolute = absolutePath(opts.cwd ?? this.#cwd, path);
    let stats: BigIntStats;
    try {
      stats = await lstat(absolute, { bigint: true });
    } catch (error) {
      if (isAbsence(error)) return undefined;
      throw toFsError(error, 'lstat', absolute);
    }
    return { version: versionOf(stats), type: stats.isSymbolicLink() ? 'symlink' : typeOf(stats), size: Number(stats.size) };
  }

  async readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    let text = '';
    for await (const chunk of await this.streamText(target, signal)) text += chunk;
    return text;
  }

  /** Resolves at once; absence, non-regular files, non-text content and aborts surface while iterating. */
  async streamText(target: FsTarget, signal?: AbortSignal): Promise<AsyncIterable<string>> {
    return streamFileText(target.targetKey, signal);
  }

  /** The whole file, or `FS_TOO_LARGE` when it has more than `maxBytes` bytes. */
  async readBytes(target: FsTarget, signal: AbortSignal | undefined, maxBytes: number): Promise<Uint8Array> {
    throwIfFsAborted(signal, `readBytes ${target.displayPath}`);
    let handle;
    try {
      handle = await open(target.targetKey, READ_FLAGS);
    } catch (error) {
      throw toFsError(error, 'readBytes', target.displayPath);
    }
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new FsError('FS_NOT_REGULAR_FILE', `readBytes ${target.displayPath}: not a regular file`);
      // Read one byte past the limit so a file that grew after fstat is still caught.
      const buffer = new Uint8Array(maxBytes + 1);
      let filled = 0;
      while (filled < buffer.length) {
        throwIfFsAborted(signal, `readBytes ${target.displayPath}`);
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled > maxBytes) throw new FsError('FS_TOO_LARGE', `readBytes ${target.displayPath}: more than ${maxBytes} bytes`);
      return buffer.slice(0, filled);
    } finally {
      await handle.close();
    }
  }

  /** Entries sorted by name in code-point order, typed after following symlinks. */
  async listDir(target: FsTarget, signal?: AbortSignal): Promise<FsDirEntry[]> {
    throwIfFsAborted(signal, `listDir ${target.displayPath}`);
    let dirents;
    try {
      dirents = await readdir(target.targetKey, { withFileTypes: true });
    } catch (error) {
      throw toFsError(error, 'listDir', target.displayPath);
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: FsDirEntry[] = [];
    for (const dirent of dirents) {
      const { name } = dirent;
      throwIfFsAborted(signal, `listDir ${target.displayPath}`);
      // The entries of the directory just read: each one's real path is the directory's plus its
      // name, unless it is a link (no per-entry walk of the whole path).
      const real = join(target.targetKey, name);
      const displayPath = join(target.displayPath, name);
      const child = { targetKey: dirent.isSymbolicLink() ? ((await realpathOrAbsent(real, displayPath)) ?? real) : real, displayPath };
      const info = await this.stat(child, signal);
      entries.push(info === undefined ? { name, type: 'other', target: child } : { name, type: info.type, target: child, version: info.version, size: info.size });
    }
    return entries;
  }

  /** Writes (creating parent directories); `expected` makes it fail with `FS_STALE_VERSION` if the file changed. */
  async writeText(target: FsTarget, content: string, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsWriteOutcome> {
    throwIfFsAborted(signal, `writeText ${target.displayPath}`);
    const before = await this.stat(target, signal);
    // Writing into a FIFO or device would block or misbehave; only regular files are written.
    if (before !== undefined && before.type !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `writeText ${target.displayPath}: not a regular file`);
    if (expected !== undefined && before?.version !== expected.version) {
      throw new FsError('FS_STALE_VERSION', `writeText ${target.displayPath}: the file changed since it was read`);
    }
    try {
      await mkdir(dirname(target.targetKey), { recursive: true });
      await writeFile(target.targetKey, content, 'utf8');
    } catch (error) {
      throw toFsError(error, 'writeText', target.displayPath);
    }
    const after = await this.stat(target);
    return { version: after!.version, created: before === undefined };
  }

  /** Reads, applies the exact-string edit, and writes back only if the file did not change meanwhile. */
  async editText(target: FsTarget, edit: FsEdit, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsEditOutcome> {
    const info = await this.stat(target, signal);
    if (info === undefined) throw new FsError('FS_NOT_FOUND', `editText ${target.displayPath}: no such file`);
    if (expected !== undefined && info.version !== expected.version) {
      throw new FsError('FS_STALE_VERSION', `editText ${target.displayPath}: the file changed since it was read`);
    }
    const edited = applyEdit(await this.readText(target, signal), edit, target.displayPath);
    const outcome = await this.writeText(target, edited.text, { version: info.version }, signal);
    return { version: outcome.version, replacements: edited.replacements };
  }
}

/**
 * `path` resolved against `base`. An absolute path that is already normal (what callers that walk a
 * tree pass) is returned as it is: `path.resolve` of a path 2,000 levels deep takes about 0.1 ms and
 * leaves about 70 KB of garbage, which at every probe of a deep walk was most of its time (issue 32
 * item 9). One pass over the path decides.
 */
function absolutePath(base: string, path: string): string {
  const normal = sep === '/' && path.startsWith('/') && (path.length === 1 || !path.endsWith('/')) && !NOT_NORMAL.test(path);
  return normal ? path : resolvePath(base, path);
}

/** A `.` or `..` segment or a doubled separator (POSIX paths only). */
const NOT_NORMAL = /\/\.\.?(?:\/|$)|\/\//;

/** The path of `name` in the directory `dir`: `join` normalizes the whole path again, at a cost in its depth. */
function child(dir: string, name: string): string {
  return dir.endsWith(sep) ? dir + name : dir + sep + name;
}

/** How many directories' real paths a provider remembers (it forgets them all when full). */
const REMEMBERED_DIRECTORIES = 4096;

/** `lstat` (or, with `follow`, `stat`) as bigints; `undefined` when absent or a dangling link. */
async function statOrAbsent(path: string, what: string, follow: boolean): Promise<BigIntStats | undefined> {
  try {
    return await (follow ? stat : lstat)(path, { bigint: true });
  } catch (error) {
    if (isAbsence(error)) return undefined;
    throw toFsError(error, 'resolve', what);
  }
}

/** realpath(3) of a link; `undefined` when it dangles. */
async function realpathOrAbsent(path: string, what: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch (error) {
    if (isAbsence(error)) return undefined;
    throw toFsError(error, 'resolve', what);
  }
}
