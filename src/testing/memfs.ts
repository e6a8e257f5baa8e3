// An in-memory DSH fs provider with fault injection (contract §9, §12.6), for deterministic plugin
// tests: POSIX paths, symlinks followed like realpath, versions from a counter (or set explicitly),
// lazy `streamText`, and injected failures (throwing resolve/stat/read, a read that fails
// mid-stream, a missing size, a stream that blocks until its signal aborts). Every provider call is
// recorded in `calls`, so a test can assert what a plugin read.

import { posix } from 'node:path';
import {
  FsError, throwIfFsAborted, type FileSystem, type FsDirEntry, type FsEdit, type FsEditOutcome, type FsInfo, type FsPathInfo, type FsTarget,
  type FsWriteExpectation, type FsWriteOutcome,
} from '../host/fs.js';
import { applyEdit } from '../fs/edit.js';
import { BINARY_SNIFF_BYTES } from '../fs/stream.js';
import { MemoryTree, type MemoryNode } from './memfs-tree.js';

const BOM = '\ufeff';

/** A failure `fault()` injects at one path (display path or real path). */
export type MemoryFault =
  | { readonly op: 'resolve' | 'stat' | 'lstat' | 'write'; readonly error?: Error }
  /** Throws while iterating, after yielding `afterChunks` chunks (default 0). */
  | { readonly op: 'read'; readonly afterChunks?: number; readonly error?: Error }
  /** Yields nothing until the stream's signal aborts, then fails with `FS_ABORTED`. */
  | { readonly op: 'read'; readonly block: true };

export interface MemoryFileSystemOptions {
  /** Files to create: absolute path → content; parent directories are implied. */
  readonly files?: Readonly<Record<string, string>>;
  /** Where relative paths resolve when a call passes no `cwd`; default `/`. */
  readonly cwd?: string;
  /** UTF-16 code units per streamed chunk (a surrogate pair is never split); default 65536. */
  readonly chunkSize?: number;
}

/** One recorded provider call. */
export interface MemoryFsCall {
  readonly op: 'resolve' | 'stat' | 'lstat' | 'streamText' | 'readBytes' | 'listDir' | 'writeText' | 'editText';
  readonly path: string;
}

/** Creates an in-memory provider. */
export function createMemoryFileSystem(options: MemoryFileSystemOptions = {}): MemoryFileSystem {
  return new MemoryFileSystem(options);
}

/** The in-memory provider; see the module comment. */
export class MemoryFileSystem implements FileSystem {
  readonly sandboxMode = undefined;
  /** Every provider call, in order. */
  readonly calls: MemoryFsCall[] = [];
  readonly #tree = new MemoryTree();
  readonly #faults = new Map<string, MemoryFault[]>();
  readonly #cwd: string;
  readonly #chunkSize: number;

  constructor(options: MemoryFileSystemOptions = {}) {
    this.#cwd = posix.resolve(options.cwd ?? '/');
    this.#chunkSize = options.chunkSize ?? 65536;
    for (const [path, text] of Object.entries(options.files ?? {})) this.write(path, text);
  }

  // ---- test controls -------------------------------------------------------------------------

  /**
   * Creates or overwrites a file (through symlinks); `version` pins its version, `omitSize` hides its
   * size. A new file gives its directory a new version unless `sameTick` (a change within the
   * directory's last timestamp tick, which a coarse filesystem clock cannot tell apart).
   */
  write(path: string, text: string, options: { version?: string; omitSize?: boolean; sameTick?: boolean } = {}): void {
    this.#tree.writeFile(path, text, options);
  }

  /** Creates a directory and its parents. */
  mkdir(path: string, options: { sameTick?: boolean } = {}): void {
    this.#tree.mkdir(path, options.sameTick);
  }

  /** Creates a symlink at `path` pointing at `target` (absolute, or relative to the link's directory). */
  symlink(path: string, target: string, options: { sameTick?: boolean } = {}): void {
    this.#tree.symlink(path, target, options.sameTick);
  }

  /** Removes a file, link or directory (recursively); absent paths are ignored. Its directory gets a new version unless `sameTick`. */
  remove(path: string, options: { sameTick?: boolean } = {}): void {
    this.#tree.remove(path, options.sameTick);
  }

  /** A file's content (following symlinks), or `undefined`. */
  read(path: string): string | undefined {
    const node = this.#tree.lookup(path, true);
    return node?.kind === 'file' ? node.text : undefined;
  }

  /** Injects a fault at `path`; returns its removal. Faults at one path apply in order of injection. */
  fault(path: string, fault: MemoryFault): () => void {
    const key = posix.resolve(path);
    const list = this.#faults.get(key) ?? [];
    list.push(fault);
    this.#faults.set(key, list);
    return () => {
      const i = list.indexOf(fault);
      if (i >= 0) list.splice(i, 1);
    };
  }

  /** Removes every injected fault. */
  clearFaults(): void {
    this.#faults.clear();
  }

  // ---- the provider --------------------------------------------------------------------------

  async resolve(path: string, opts: { cwd?: string; signal?: AbortSignal } = {}): Promise<FsTarget> {
    this.calls.push({ op: 'resolve', path });
    throwIfFsAborted(opts.signal, `resolve ${path}`);
    if (path === '') throw new FsError('FS_NOT_FOUND', 'resolve: empty path');
    const displayPath = posix.resolve(opts.cwd ?? this.#cwd, path);
    this.#throwFault('resolve', [displayPath]);
    const real = this.#tree.realpath(displayPath);
    if (real === 'not-directory') throw new FsError('FS_NOT_FOUND', `resolve ${displayPath}: a parent is not a directory`);
    return { targetKey: real, displayPath };
  }

  processPath(target: FsTarget): string {
    return target.targetKey;
  }

  fileUrl(target: FsTarget): string {
    return `file://${encodeURI(target.targetKey)}`;
  }

  contains(parent: FsTarget, child: FsTarget): boolean {
    return child.targetKey === parent.targetKey || child.targetKey.startsWith(parent.targetKey === '/' ? '/' : `${parent.targetKey}/`);
  }

  /** Records a call and refuses it if `signal` has aborted (every operation starts so). */
  #enter(op: MemoryFsCall['op'], path: string, signal: AbortSignal | undefined): void {
    this.calls.push({ op, path });
    throwIfFsAborted(signal, `${op} ${path}`);
  }

  async stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined> {
    this.#enter('stat', target.displayPath, signal);
    this.#throwFault('stat', [target.displayPath, target.targetKey]);
    const node = this.#tree.lookup(target.targetKey, true);
    return node === undefined ? undefined : info(node);
  }

  async lstat(path: string, opts: { cwd?: string } = {}, signal?: AbortSignal): Promise<FsPathInfo | undefined> {
    const absolute = posix.resolve(opts.cwd ?? this.#cwd, path);
    this.#enter('lstat', absolute, signal);
    this.#throwFault('lstat', [absolute]);
    const node = this.#tree.lookup(absolute, false);
    if (node === undefined) return undefined;
    return node.kind === 'link' ? { version: node.version, type: 'symlink' } : info(node);
  }

  async readText(target: FsTarget, signal?: AbortSignal): Promise<string> {
    let text = '';
    for await (const chunk of await this.streamText(target, signal)) text += chunk;
    return text;
  }

  /** Resolves at once; the file is looked up, and faults fire, only while iterating. */
  async streamText(target: FsTarget, signal?: AbortSignal): Promise<AsyncIterable<string>> {
    this.calls.push({ op: 'streamText', path: target.displayPath });
    const faultsNow = () => this.#faultsAt('read', [target.displayPath, target.targetKey]);
    const node = () => this.#tree.lookup(target.targetKey, true);
    const chunkSize = this.#chunkSize;
    return {
      async *[Symbol.asyncIterator]() {
        throwIfFsAborted(signal, `streamText ${target.displayPath}`);
        const faults = faultsNow();
        const blocking = faults.find((f) => 'block' in f);
        if (blocking !== undefined) await untilAborted(signal, target.displayPath);
        const file = node();
        if (file === undefined) throw new FsError('FS_NOT_FOUND', `streamText ${target.displayPath}: no such file`);
        if (file.kind !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `streamText ${target.displayPath}: not a regular file`);
        // As the local backend: a NUL in the first 8192 *bytes* is binary; a leading BOM is stripped.
        if (new TextEncoder().encode(file.text.slice(0, BINARY_SNIFF_BYTES)).subarray(0, BINARY_SNIFF_BYTES).includes(0)) {
          throw new FsError('FS_NOT_TEXT', `streamText ${target.displayPath}: binary content (NUL byte)`);
        }
        const failing = faults.find((f): f is Extract<MemoryFault, { afterChunks?: number }> => !('block' in f));
        const chunks = splitChunks(file.text.startsWith(BOM) ? file.text.slice(BOM.length) : file.text, chunkSize);
        for (let i = 0; i <= chunks.length; i++) {
          if (failing !== undefined && i === (failing.afterChunks ?? 0)) throw failing.error ?? injected('read', target.displayPath);
          if (i === chunks.length) break;
          throwIfFsAborted(signal, `streamText ${target.displayPath}`);
          yield chunks[i]!;
        }
      },
    };
  }

  async readBytes(target: FsTarget, signal: AbortSignal | undefined, maxBytes: number): Promise<Uint8Array> {
    this.#enter('readBytes', target.displayPath, signal);
    this.#throwFault('read', [target.displayPath, target.targetKey]);
    const file = this.#tree.lookup(target.targetKey, true);
    if (file === undefined) throw new FsError('FS_NOT_FOUND', `readBytes ${target.displayPath}: no such file`);
    if (file.kind !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `readBytes ${target.displayPath}: not a regular file`);
    const bytes = new TextEncoder().encode(file.text);
    if (bytes.length > maxBytes) throw new FsError('FS_TOO_LARGE', `readBytes ${target.displayPath}: more than ${maxBytes} bytes`);
    return bytes;
  }

  async listDir(target: FsTarget, signal?: AbortSignal): Promise<FsDirEntry[]> {
    this.#enter('listDir', target.displayPath, signal);
    const dir = this.#tree.lookup(target.targetKey, true);
    if (dir === undefined) throw new FsError('FS_NOT_FOUND', `listDir ${target.displayPath}: no such directory`);
    if (dir.kind !== 'dir') throw new FsError('FS_NOT_DIRECTORY', `listDir ${target.displayPath}: not a directory`);
    return this.#tree.children(target.targetKey).map((name) => {
      const displayPath = posix.join(target.displayPath, name);
      const real = this.#tree.realpath(posix.join(target.targetKey, name));
      const child = real === 'not-directory' ? undefined : this.#tree.lookup(real, true);
      const entryTarget = { targetKey: real === 'not-directory' ? posix.join(target.targetKey, name) : real, displayPath };
      return child === undefined ? { name, type: 'other' as const, target: entryTarget } : { name, ...info(child), target: entryTarget };
    });
  }

  async writeText(target: FsTarget, content: string, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsWriteOutcome> {
    this.#enter('writeText', target.displayPath, signal);
    this.#throwFault('write', [target.displayPath, target.targetKey]);
    const before = this.#tree.lookup(target.targetKey, true);
    if (before !== undefined && before.kind !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `writeText ${target.displayPath}: not a regular file`);
    if (expected !== undefined && before?.version !== expected.version) {
      throw new FsError('FS_STALE_VERSION', `writeText ${target.displayPath}: the file changed since it was read`);
    }
    this.#tree.writeFile(target.targetKey, content, {});
    return { version: this.#tree.lookup(target.targetKey, true)!.version, created: before === undefined };
  }

  async editText(target: FsTarget, edit: FsEdit, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsEditOutcome> {
    this.#enter('editText', target.displayPath, signal);
    this.#throwFault('write', [target.displayPath, target.targetKey]);
    const file = this.#tree.lookup(target.targetKey, true);
    if (file === undefined) throw new FsError('FS_NOT_FOUND', `editText ${target.displayPath}: no such file`);
    if (file.kind !== 'file') throw new FsError('FS_NOT_REGULAR_FILE', `editText ${target.displayPath}: not a regular file`);
    if (expected !== undefined && file.version !== expected.version) {
      throw new FsError('FS_STALE_VERSION', `editText ${target.displayPath}: the file changed since it was read`);
    }
    const edited = applyEdit(file.text, edit, target.displayPath);
    this.#tree.writeFile(target.targetKey, edited.text, {});
    return { version: this.#tree.lookup(target.targetKey, true)!.version, replacements: edited.replacements };
  }

  #faultsAt(op: MemoryFault['op'], paths: readonly string[]): MemoryFault[] {
    return [...new Set(paths)].flatMap((p) => (this.#faults.get(p) ?? []).filter((f) => f.op === op));
  }

  #throwFault(op: MemoryFault['op'], paths: readonly string[]): void {
    const fault = this.#faultsAt(op, paths)[0];
    if (fault !== undefined) throw ('error' in fault && fault.error) || injected(op, paths[0]!);
  }
}

function info(node: MemoryNode): FsInfo {
  if (node.kind === 'file') return { version: node.version, type: 'file', ...(node.omitSize ? {} : { size: new TextEncoder().encode(node.text).length }) };
  return { version: node.version, type: node.kind === 'dir' ? 'directory' : 'other' };
}

function injected(op: string, path: string): FsError {
  return new FsError('FS_IO_ERROR', `injected ${op} failure: ${path}`);
}

function splitChunks(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    chunks.push(text.slice(i, end));
    i = end;
  }
  return chunks;
}

function untilAborted(signal: AbortSignal | undefined, path: string): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(new FsError('FS_ABORTED', `streamText ${path}: aborted`, { cause: signal?.reason }));
    if (signal?.aborted) fail();
    else signal?.addEventListener('abort', fail, { once: true });
  });
}
