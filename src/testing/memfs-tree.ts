// The node tree behind the in-memory provider: absolute POSIX paths to files, directories and
// symlinks, with realpath-style resolution. Versions come from one counter per tree, so every
// change yields a version never seen before (unless a test pins one). As a POSIX directory's mtime
// does, a directory's version changes whenever an entry is added to it, removed from it or replaced
// by another (not when a file in it is rewritten in place); `sameTick` models a change made within
// the timestamp tick of the directory's previous change, which leaves its version as it was.

import { posix } from 'node:path';
import { FsError } from '../host/fs.js';

export type MemoryNode =
  | { readonly kind: 'file'; readonly text: string; readonly version: string; readonly omitSize: boolean }
  | { readonly kind: 'dir'; readonly version: string }
  | { readonly kind: 'link'; readonly target: string; readonly version: string };

/** More link hops than this is a loop (Linux's limit). */
const MAX_LINK_HOPS = 40;

/** The tree; paths are normalized with `posix.resolve`. */
export class MemoryTree {
  readonly #nodes = new Map<string, MemoryNode>([['/', { kind: 'dir', version: 'v0' }]]);
  #counter = 0;

  #version(): string {
    return `v${++this.#counter}`;
  }

  /**
   * The real path of `path`: every symlink on the way (and the final one) followed; a missing
   * component keeps the rest as written. `'not-directory'` when a file is used as a directory.
   */
  realpath(path: string, followFinal = true): string | 'not-directory' {
    let hops = 0;
    const walk = (absolute: string, follow: boolean): string | 'not-directory' => {
      const parts = posix.resolve(absolute).split('/').filter(Boolean);
      let real = '/';
      for (let i = 0; i < parts.length; i++) {
        const next = posix.join(real, parts[i]!);
        const node = this.#nodes.get(next);
        if (node === undefined) return posix.join(next, ...parts.slice(i + 1));
        const last = i === parts.length - 1;
        if (node.kind === 'link' && (!last || follow)) {
          // ELOOP: node:fs reports it as an I/O error, so the local provider throws FS_IO_ERROR too.
          if (++hops > MAX_LINK_HOPS) throw new FsError('FS_IO_ERROR', `too many levels of symbolic links: ${absolute}`);
          const resolved = walk(posix.resolve(real, node.target), true);
          if (resolved === 'not-directory') return resolved;
          // A dangling link keeps its own path, as realpath's nearest-existing-ancestor fallback does.
          if (!this.#nodes.has(resolved)) return posix.join(next, ...parts.slice(i + 1));
          real = resolved;
          continue;
        }
        if (node.kind === 'file' && !last) return 'not-directory';
        real = next;
      }
      return real;
    };
    return walk(path, followFinal);
  }

  /** The node at `path` (following a final symlink when `follow`), or `undefined`. */
  lookup(path: string, follow: boolean): MemoryNode | undefined {
    const real = this.realpath(path, follow);
    if (real === 'not-directory') return undefined;
    const node = this.#nodes.get(real);
    // A dangling final link followed: absent.
    return node?.kind === 'link' && follow ? undefined : node;
  }

  /** Names directly under the directory `dir` (a real path), sorted by code point. */
  children(dir: string): string[] {
    const prefix = dir === '/' ? '/' : `${dir}/`;
    const names: string[] = [];
    for (const path of this.#nodes.keys()) {
      if (path !== dir && path.startsWith(prefix) && !path.slice(prefix.length).includes('/')) names.push(path.slice(prefix.length));
    }
    return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** A new version for the directory holding `path` (an entry in it came, went or was replaced), unless `sameTick`. */
  #entriesChanged(path: string, sameTick = false): void {
    const parent = posix.dirname(path);
    const node = this.#nodes.get(parent);
    if (!sameTick && parent !== path && node?.kind === 'dir') this.#nodes.set(parent, { kind: 'dir', version: this.#version() });
  }

  mkdir(path: string, sameTick = false): string {
    const real = this.realpath(path);
    if (real === 'not-directory') throw new Error(`mkdir ${path}: a parent is a file`);
    const parts = real.split('/').filter(Boolean);
    let current = '/';
    for (const part of parts) {
      current = posix.join(current, part);
      const node = this.#nodes.get(current);
      if (node === undefined) {
        this.#nodes.set(current, { kind: 'dir', version: this.#version() });
        this.#entriesChanged(current, sameTick);
      } else if (node.kind !== 'dir') throw new Error(`mkdir ${path}: ${current} is not a directory`);
    }
    return real;
  }

  writeFile(path: string, text: string, options: { version?: string; omitSize?: boolean; sameTick?: boolean }): void {
    let real = this.realpath(path);
    if (real === 'not-directory') throw new Error(`write ${path}: a parent is a file`);
    // Writing through a dangling link creates its target, as writing through node:fs does.
    for (let hops = 0, node = this.#nodes.get(real); node?.kind === 'link'; node = this.#nodes.get(real)) {
      if (++hops > MAX_LINK_HOPS) throw new Error(`too many symlinks: ${path}`);
      const next = this.realpath(posix.resolve(posix.dirname(real), node.target));
      if (next === 'not-directory') throw new Error(`write ${path}: a parent is a file`);
      real = next;
    }
    this.mkdir(posix.dirname(real), options.sameTick);
    const before = this.#nodes.get(real);
    if (before?.kind === 'dir') throw new Error(`write ${path}: is a directory`);
    this.#nodes.set(real, { kind: 'file', text, version: options.version ?? this.#version(), omitSize: options.omitSize ?? false });
    // A rewrite in place leaves the directory alone; a new file is a new entry.
    if (before === undefined) this.#entriesChanged(real, options.sameTick);
  }

  symlink(path: string, target: string, sameTick = false): void {
    const real = this.realpath(path, false);
    if (real === 'not-directory') throw new Error(`symlink ${path}: a parent is a file`);
    this.mkdir(posix.dirname(real), sameTick);
    this.#nodes.set(real, { kind: 'link', target, version: this.#version() });
    this.#entriesChanged(real, sameTick);
  }

  remove(path: string, sameTick = false): void {
    const real = this.realpath(path, false);
    if (real === 'not-directory') return;
    if (real === '/') throw new Error('remove: refusing to remove /');
    if (!this.#nodes.has(real)) return;
    for (const key of [...this.#nodes.keys()]) if (key === real || key.startsWith(`${real}/`)) this.#nodes.delete(key);
    this.#entriesChanged(real, sameTick);
  }
}
