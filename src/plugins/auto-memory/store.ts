// One project's memory directory and the six tool commands over it (spec AM-08..AM-12, AM-17..AM-19,
// AM-24, AM-25). Every command validates everything first and writes last, so an error writes
// nothing; the memory file is written before the index, and every write is atomic. Commands on one
// directory run one at a time (a lock shared by every store in the process), so two sessions
// editing the same project's index cannot lose each other's lines; another process's edit is
// caught by the re-check just before each index rename (`#updateIndex`).

import { checkPath, ensureParents, KeyedLock, UnsafePathError, writeAtomic, type CheckedPath, type MemoryDisk } from './disk.js';
import { checkWritable, compareCodePoints, encodeText, isMemoryError, memoryError, readTextFile, type MemoryError, type TextFile } from './content.js';
import { appendEntry, entryLine, INDEX_HEADER, removeEntries, syncEntries } from './index-file.js';
import { deriveEntry, legacyTitle, memoryIssues, newIssues, type Issue } from './memory-file.js';
import { INDEX_FILE, isIndexPath, isPathProblem, mayBeIndexPath, MARKDOWN_SUFFIX, parseVirtualPath, requireMarkdown, type VirtualPath } from './paths.js';
import { editLines, replaceOnce } from './edit.js';
import { join } from 'node:path';

/** Store limits (AM-12). */
export interface StoreLimits {
  readonly maxFileBytes: number;
  readonly maxFiles: number;
}

export type ViewResult =
  | { readonly ok: true; readonly command: 'view'; readonly path: string; readonly kind: 'directory'; readonly entries: string[] }
  | { readonly ok: true; readonly command: 'view'; readonly path: string; readonly kind: 'file'; readonly content: string; readonly numbered: boolean };

export interface WriteResult {
  readonly ok: true;
  readonly command: 'create' | 'str_replace' | 'insert' | 'delete' | 'rename';
  readonly path: string;
  readonly new_path?: string;
  /** Frontmatter issues the write did not block (AM-16). */
  readonly issues: Issue[];
}

export type StoreResult = ViewResult | WriteResult | MemoryError;

/** How often an index update re-reads and retries when another process changed MEMORY.md meanwhile. */
const INDEX_RETRIES = 5;

/** The lock every store in this process shares, keyed by memory dir. */
const sharedLock = new KeyedLock();

/** The memory store of one project directory (`<root>/<projectKey>`). */
export class MemoryStore {
  constructor(
    readonly disk: MemoryDisk,
    readonly memdir: string,
    readonly limits: StoreLimits,
    readonly lock: KeyedLock = sharedLock,
  ) {}

  /** `view` (AM-08, AM-09): the root or a directory lists `.md` files recursively; a file returns its text. */
  view(rawPath: unknown, numbered: boolean): Promise<StoreResult> {
    return this.#locked(async () => {
      const path = parseVirtualPath(rawPath ?? '/memories');
      if (isPathProblem(path)) return memoryError(path.code, path.message);
      const found = await checkPath(this.disk, this.memdir, path.segments);
      if (found.type === 'directory') return { ok: true, command: 'view', path: path.virtual, kind: 'directory', entries: await this.#list(found.path) };
      if (found.type === undefined) {
        if (path.relative === '') return { ok: true, command: 'view', path: path.virtual, kind: 'directory', entries: [] };
        return memoryError('NOT_FOUND', `${path.virtual} does not exist`);
      }
      const notMarkdown = requireMarkdown(path);
      if (notMarkdown !== undefined) return memoryError(notMarkdown.code, notMarkdown.message);
      if (found.type !== 'file') return memoryError('FORBIDDEN', `${path.virtual} is not a regular file`);
      const file = await readTextFile(this.disk, found.path, path.virtual, this.limits.maxFileBytes);
      if (isMemoryError(file)) return file;
      return { ok: true, command: 'view', path: path.virtual, kind: 'file', content: file.text, numbered };
    });
  }

  /** `create` (AM-08, AM-12, AM-17, AM-19): a new file; the first memory also creates the index. */
  create(rawPath: unknown, fileText: string): Promise<StoreResult> {
    return this.#locked(async () => {
      const target = await this.#file(rawPath, 'absent');
      if (isMemoryError(target)) return target;
      const { path, found } = target;
      const isIndex = isIndexPath(path);
      const file: TextFile = { text: isIndex && fileText === '' ? INDEX_HEADER : fileText, bom: false };
      const bad = checkWritable(file.text, false, path.virtual, this.limits.maxFileBytes);
      if (bad !== undefined) return bad;
      const index = isIndex ? undefined : await this.#readIndex();
      if (isMemoryError(index)) return index;
      const count = await this.#count();
      const after = count + 1 + (!isIndex && index === null ? 1 : 0);
      if (after > this.limits.maxFiles) {
        return memoryError('TOO_MANY_FILES', `creating ${path.virtual} would make ${after} .md files in this project (MEMORY.md included); the limit is maxFiles = ${this.limits.maxFiles}`);
      }
      const line = entryLine(path.relative, deriveEntry(file.text, path.relative));
      const update = isIndex ? undefined : (current: TextFile | null) => ({ text: appendEntry(current?.text ?? INDEX_HEADER, line), bom: current?.bom ?? false });
      const indexProblem = update !== undefined ? this.#checkIndex(update(index ?? null)) : undefined;
      if (indexProblem !== undefined) return indexProblem;
      await ensureParents(this.disk, this.memdir, path.segments);
      await writeAtomic(this.disk, found.path, encodeText(file));
      if (update !== undefined) await this.#updateIndex(update);
      return { ok: true, command: 'create', path: path.virtual, issues: isIndex ? [] : memoryIssues(file.text, path.relative) };
    });
  }

  /** `str_replace` (AM-08, AM-10): `oldStr` must occur exactly once. */
  strReplace(rawPath: unknown, oldStr: string, newStr: string): Promise<StoreResult> {
    return this.#edit(rawPath, 'str_replace', (text, shown) => replaceOnce(text, oldStr, newStr, shown));
  }

  /** `insert` (AM-08, AM-10): after line `insertLine` (0 = before the first), in the file's line endings. */
  insert(rawPath: unknown, insertLine: number, insertText: string): Promise<StoreResult> {
    return this.#edit(rawPath, 'insert', (text, shown) => editLines(text, insertLine, insertText, shown));
  }

  /** `delete` (AM-08, AM-10, AM-19): removes the file and its index lines; deleting MEMORY.md does no index maintenance. */
  delete(rawPath: unknown): Promise<StoreResult> {
    return this.#locked(async () => {
      const target = await this.#file(rawPath, 'file');
      if (isMemoryError(target)) return target;
      const { path, found } = target;
      const update = isIndexPath(path) ? undefined : (current: TextFile | null) => (current === null ? null : { ...current, text: removeEntries(current.text, path.relative) });
      if (update !== undefined) {
        const index = await this.#readIndex();
        if (isMemoryError(index)) return index;
      }
      await this.disk.unlink(found.path);
      if (update !== undefined) await this.#updateIndex(update);
      return { ok: true, command: 'delete', path: path.virtual, issues: [] };
    });
  }

  /** `rename` (AM-08, AM-10, AM-19): moves a file and rewrites its index target (and a generated title). */
  rename(rawPath: unknown, rawNewPath: unknown): Promise<StoreResult> {
    return this.#locked(async () => {
      for (const raw of [rawPath, rawNewPath]) {
        const parsed = parseVirtualPath(raw);
        if (!isPathProblem(parsed) && mayBeIndexPath(parsed)) return memoryError('FORBIDDEN', `${INDEX_FILE} cannot be renamed, and nothing can be renamed to it; the index must stay at /memories/${INDEX_FILE}`);
      }
      const source = await this.#file(rawPath, 'file');
      if (isMemoryError(source)) return source;
      const destination = await this.#file(rawNewPath, 'absent');
      if (isMemoryError(destination)) return destination;
      const from = source.path;
      const to = destination.path;
      const file = await readTextFile(this.disk, source.found.path, from.virtual, this.limits.maxFileBytes);
      if (isMemoryError(file)) return file;
      const index = await this.#readIndex();
      if (isMemoryError(index)) return index;
      const sync = {
        target: from.relative, newTarget: to.relative, before: deriveEntry(file.text, from.relative), after: deriveEntry(file.text, to.relative), legacyTitle: legacyTitle(file.text),
      };
      const update = (current: TextFile | null) => (current === null ? null : { ...current, text: syncEntries(current.text, sync) });
      const problem = this.#checkIndex(update(index));
      if (problem !== undefined) return problem;
      await ensureParents(this.disk, this.memdir, to.segments);
      await this.disk.rename(source.found.path, destination.found.path);
      await this.#updateIndex(update);
      const issues = newIssues(memoryIssues(file.text, from.relative), memoryIssues(file.text, to.relative));
      return { ok: true, command: 'rename', path: from.virtual, new_path: to.virtual, issues };
    });
  }

  /** Shared body of str_replace and insert: read, transform, check, write, sync the index (AM-21). */
  #edit(rawPath: unknown, command: 'str_replace' | 'insert', change: (text: string, shown: string) => string | MemoryError): Promise<StoreResult> {
    return this.#locked(async () => {
      const target = await this.#file(rawPath, 'file');
      if (isMemoryError(target)) return target;
      const { path, found } = target;
      const file = await readTextFile(this.disk, found.path, path.virtual, this.limits.maxFileBytes);
      if (isMemoryError(file)) return file;
      const text = change(file.text, path.virtual);
      if (isMemoryError(text)) return text;
      const bad = checkWritable(text, file.bom, path.virtual, this.limits.maxFileBytes);
      if (bad !== undefined) return bad;
      const edited = { text, bom: file.bom };
      const sync = {
        target: path.relative, before: deriveEntry(file.text, path.relative), after: deriveEntry(text, path.relative), legacyTitle: legacyTitle(file.text),
      };
      const update = isIndexPath(path) ? undefined : (current: TextFile | null) => (current === null ? null : { ...current, text: syncEntries(current.text, sync) });
      if (update !== undefined) {
        const index = await this.#readIndex();
        if (isMemoryError(index)) return index;
        const problem = index === null ? undefined : this.#checkIndex(update(index));
        if (problem !== undefined) return problem;
      }
      await writeAtomic(this.disk, found.path, encodeText(edited));
      if (update !== undefined) await this.#updateIndex(update);
      const issues = isIndexPath(path) ? [] : newIssues(memoryIssues(file.text, path.relative), memoryIssues(text, path.relative));
      return { ok: true, command, path: path.virtual, issues };
    });
  }

  /**
   * Validates a file path for a command: a virtual `.md` path that passes AM-24 on disk, and that is
   * a regular file (`want: 'file'`) or does not exist yet (`want: 'absent'`).
   */
  async #file(rawPath: unknown, want: 'file' | 'absent'): Promise<{ path: VirtualPath; found: CheckedPath } | MemoryError> {
    const path = parseVirtualPath(rawPath);
    if (isPathProblem(path)) return memoryError(path.code, path.message);
    const notMarkdown = requireMarkdown(path);
    if (notMarkdown !== undefined) return memoryError(notMarkdown.code, notMarkdown.message);
    const found = await checkPath(this.disk, this.memdir, path.segments);
    if (want === 'absent') {
      if (found.type !== undefined) return memoryError('ALREADY_EXISTS', `${path.virtual} already exists; use str_replace or insert to change it, or delete it first`);
    } else if (found.type === undefined) {
      return memoryError('NOT_FOUND', `${path.virtual} does not exist`);
    } else if (found.type !== 'file') {
      return memoryError('FORBIDDEN', `${path.virtual} is a ${found.type === 'directory' ? 'directory' : 'special file'}; only .md files can be changed`);
    }
    return { path, found };
  }

  /** The index as text, `null` when absent, or why it cannot be maintained. */
  async #readIndex(): Promise<TextFile | null | MemoryError> {
    const found = await checkPath(this.disk, this.memdir, [INDEX_FILE]);
    if (found.type === undefined) return null;
    if (found.type !== 'file') return memoryError('FORBIDDEN', `/memories/${INDEX_FILE} is not a regular file`);
    return readTextFile(this.disk, found.path, `/memories/${INDEX_FILE}`, this.limits.maxFileBytes);
  }

  #checkIndex(index: TextFile | null): MemoryError | undefined {
    return index === null ? undefined : checkWritable(index.text, index.bom, `/memories/${INDEX_FILE}`, this.limits.maxFileBytes);
  }

  /**
   * Applies `update` to the current index and writes it atomically. Between writing the temporary
   * file and the rename it checks that MEMORY.md is still what `update` saw; if another process
   * changed it, it starts over from the new content (up to INDEX_RETRIES times), so that edit is
   * kept too. A `null` result or an unchanged text writes nothing.
   */
  async #updateIndex(update: (current: TextFile | null) => TextFile | null): Promise<void> {
    const path = join(this.memdir, INDEX_FILE);
    for (let attempt = 0; ; attempt++) {
      const current = await this.#readIndex();
      if (isMemoryError(current)) throw new Error(current.message);
      const next = update(current);
      if (next === null || next.text === current?.text) return;
      const problem = this.#checkIndex(next);
      if (problem !== undefined) throw new Error(problem.message);
      const unchanged = async () => {
        const again = await this.#readIndex();
        return !isMemoryError(again) && again?.text === current?.text && again?.bom === current?.bom;
      };
      if (await writeAtomic(this.disk, path, encodeText(next), attempt < INDEX_RETRIES ? unchanged : undefined)) return;
    }
  }

  /** `.md` files below `dir`, relative to it, sorted by code point (AM-09). Hidden entries and links are skipped. */
  async #list(dir: string): Promise<string[]> {
    const found: string[] = [];
    const walk = async (absolute: string, relative: string): Promise<void> => {
      for (const entry of await this.disk.readdir(absolute)) {
        if (entry.name.startsWith('.')) continue;
        const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
        if (entry.type === 'directory') await walk(join(absolute, entry.name), child);
        else if (entry.type === 'file' && entry.name.endsWith(MARKDOWN_SUFFIX)) found.push(child);
      }
    };
    await walk(dir, '');
    return found.sort(compareCodePoints);
  }

  /** How many `.md` files the project has (AM-12); an absent directory has none. */
  async #count(): Promise<number> {
    if ((await this.disk.lstat(this.memdir)) === undefined) return 0;
    return (await this.#list(this.memdir)).length;
  }

  /** Runs a command under the directory's lock; an unsafe path found on disk becomes INVALID_PATH. */
  #locked(task: () => Promise<StoreResult>): Promise<StoreResult> {
    return this.lock.run(this.memdir, async () => {
      try {
        return await task();
      } catch (error) {
        if (error instanceof UnsafePathError) return memoryError('INVALID_PATH', error.message);
        throw error;
      }
    });
  }
}
