// The node tree behind the in-memory provider: absolute POSIX paths to files, directories and
// symlinks, with realpath-style resolution. Versions come from one counter per tree, so every
// change yields a version never seen before (unless a test pins one).

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

  mkdir(path: string): string {
    const real = this.realpath(path);
    if (real === 'not-directory') throw new Error(`mkdir ${path}: a parent is a file`);
    const parts = real.split('/').filter(Boolean);
    let current = '/';
    for (const part of parts) {
      current = posix.join(current, part);
      const node = this.#nodes.get(current);
      if (node === undefined) this.#nodes.set(current, { kind: 'dir', version: this.#version() });
      else if (node.kind !== 'dir') throw new Error(`mkdir ${path}: ${current} is not a directory`);
    }
    return real;
  }

  writeFile(path: string, text: string, options: { version?: string; omitSize?: boolean }): void {
    let real = this.realpath(path);
    if (real === 'not-directory') throw new Error(`write ${path}: a parent is a file`);
    // Writing through a dangling link creates its target, as writing through node:fs does.
    for (let hops = 0, node = this.#nodes.get(real); node?.kind === 'link'; node = this.#nodes.get(real)) {
      if (++hops > MAX_LINK_HOPS) throw new Error(`too many symlinks: ${path}`);
      const next = this.realpath(posix.resolve(posix.dirname(real), node.target));
      if (next === 'not-directory') throw new Error(`write ${path}: a parent is a file`);
      real = next;
    }
    this.mkdir(posix.dirname(real));
    if (this.#nodes.get(real)?.kind === 'dir') throw new Error(`write ${path}: is a directory`);
    this.#nodes.set(real, { kind: 'file', text, version: options.version ?? this.#version(), omitSize: options.omitSize ?? false });
  }

  symlink(path: string, target: string): void {
    const real = this.realpath(path, false);
    if (real === 'not-directory') throw new Error(`symlink ${path}: a parent is a file`);
    this.mkdir(posix.dirname(real));
    this.#nodes.set(real, { kind: 'link', target, version: this.#version() });
  }

  remove(path: string): void {
    const real = this.realpath(path, false);
    if (real === 'not-directory') return;
    if (real === '/') throw new Error('remove: refusing to remove /');
    for (const key of [...this.#nodes.keys()]) if (key === real || key.startsWith(`${real}/`)) this.#nodes.delete(key);
  }
}
