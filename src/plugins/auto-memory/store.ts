// One project's memory directory and the six tool commands over it (spec AM-08..AM-12, AM-17..AM-19,
// AM-24, AM-25). A write command runs under the project's cross-process lock (io/lock.ts: two DSH
// terminals on one repository never lose each other's index lines), validates everything first,
// stages its file and index changes and publishes them together (transaction.ts), so an error
// writes nothing and a failure never leaves the index and a file disagreeing. Every error the model
// sees is a structured code naming virtual paths only, never the host's DSH home. An editor that
// changes MEMORY.md without the lock is caught by a re-read after the new index is staged.

import { LockLostError, LockPathError, LockTimeoutError, lockPathFor, withLock, type Held, type LockOptions } from '../../io/index.js';
import { checkPath, UnsafePathError, type CheckedPath, type MemoryDisk } from './disk.js';
import { checkWritable, compareCodePoints, encodeText, isMemoryError, memoryError, readTextFile, type MemoryError, type TextFile } from './content.js';
import { appendEntry, entryLine, INDEX_HEADER, removeEntries, syncEntries } from './index-file.js';
import { deriveEntry, legacyTitle, memoryIssues, newIssues, type Issue } from './memory-file.js';
import { INDEX_FILE, isIndexPath, isPathProblem, mayBeIndexPath, MARKDOWN_SUFFIX, newNameProblem, parseVirtualPath, requireMarkdown, type VirtualPath } from './paths.js';
import { editLines, replaceOnce } from './edit.js';
import { describeErrno, DiskError, errnoCode, Transaction } from './transaction.js';
import { claimFolder, folderOwner } from './folder.js';
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

/** How often an index update is computed again when something changed MEMORY.md without the lock. */
const INDEX_RETRIES = 5;
const INDEX_VIRTUAL = `/memories/${INDEX_FILE}`;

/** The memory store of one project directory (`<root>/<projectKey>`). */
export class MemoryStore {
  /**
   * @param disk the file operations (node:fs in production; tests inject failures)
   * @param memdir the project's memory directory; its lock file sits next to it
   * @param limits AM-12's limits
   * @param lockOptions how long a command waits for another process's command on this project
   */
  constructor(
    readonly disk: MemoryDisk,
    readonly memdir: string,
    readonly limits: StoreLimits,
    readonly lockOptions: LockOptions = {},
    /** The project root the folder belongs to: a write checks the folder's recorded owner and claims an unclaimed folder (folder.ts). */
    readonly owner?: string,
  ) {}

  /** `view` (AM-08, AM-09): the root or a directory lists `.md` files recursively; a file returns its text. */
  view(rawPath: unknown, numbered: boolean): Promise<StoreResult> {
    return this.#read(rawPath, async () => {
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
    return this.#write(rawPath, async (tx) => {
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
      await tx.parents(path.virtual, path.segments);
      await tx.write(path.virtual, found.path, encodeText(file), undefined);
      const staged = update === undefined ? undefined : await this.#stageIndex(tx, update);
      if (isMemoryError(staged)) return staged;
      await tx.publish();
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
    return this.#write(rawPath, async (tx) => {
      const target = await this.#file(rawPath, 'file');
      if (isMemoryError(target)) return target;
      const { path, found } = target;
      tx.remove(path.virtual, found.path);
      if (!isIndexPath(path)) {
        const staged = await this.#stageIndex(tx, (current) => (current === null ? null : { ...current, text: removeEntries(current.text, path.relative) }));
        if (isMemoryError(staged)) return staged;
      }
      await tx.publish();
      return { ok: true, command: 'delete', path: path.virtual, issues: [] };
    });
  }

  /** `rename` (AM-08, AM-10, AM-19): moves a file and rewrites its index target (and a generated title). */
  rename(rawPath: unknown, rawNewPath: unknown): Promise<StoreResult> {
    return this.#write(rawPath, async (tx) => {
      for (const raw of [rawPath, rawNewPath]) {
        const parsed = parseVirtualPath(raw);
        if (!isPathProblem(parsed) && mayBeIndexPath(parsed)) return memoryError('FORBIDDEN', `${INDEX_FILE} cannot be renamed, and nothing can be renamed to it; the index must stay at ${INDEX_VIRTUAL}`);
      }
      const source = await this.#file(rawPath, 'file');
      if (isMemoryError(source)) return source;
      const destination = await this.#file(rawNewPath, 'absent');
      if (isMemoryError(destination)) return destination;
      const from = source.path;
      const to = destination.path;
      const file = await readTextFile(this.disk, source.found.path, from.virtual, this.limits.maxFileBytes);
      if (isMemoryError(file)) return file;
      const sync = {
        target: from.relative, newTarget: to.relative, before: deriveEntry(file.text, from.relative), after: deriveEntry(file.text, to.relative), legacyTitle: legacyTitle(file.text),
      };
      await tx.parents(to.virtual, to.segments);
      tx.move(from.virtual, source.found.path, destination.found.path);
      const staged = await this.#stageIndex(tx, (current) => (current === null ? null : { ...current, text: syncEntries(current.text, sync) }));
      if (isMemoryError(staged)) return staged;
      await tx.publish();
      const issues = newIssues(memoryIssues(file.text, from.relative), memoryIssues(file.text, to.relative));
      return { ok: true, command: 'rename', path: from.virtual, new_path: to.virtual, issues };
    });
  }

  /** Shared body of str_replace and insert: read, transform, check, write, sync the index (AM-21). */
  #edit(rawPath: unknown, command: 'str_replace' | 'insert', change: (text: string, shown: string) => string | MemoryError): Promise<StoreResult> {
    return this.#write(rawPath, async (tx) => {
      const target = await this.#file(rawPath, 'file');
      if (isMemoryError(target)) return target;
      const { path, found } = target;
      const file = await readTextFile(this.disk, found.path, path.virtual, this.limits.maxFileBytes);
      if (isMemoryError(file)) return file;
      const text = change(file.text, path.virtual);
      if (isMemoryError(text)) return text;
      const bad = checkWritable(text, file.bom, path.virtual, this.limits.maxFileBytes);
      if (bad !== undefined) return bad;
      const sync = {
        target: path.relative, before: deriveEntry(file.text, path.relative), after: deriveEntry(text, path.relative), legacyTitle: legacyTitle(file.text),
      };
      // The old bytes come back exactly from the decoded file (fatal UTF-8, BOM kept): the undo copy.
      await tx.write(path.virtual, found.path, encodeText({ text, bom: file.bom }), encodeText(file));
      if (!isIndexPath(path)) {
        const staged = await this.#stageIndex(tx, (current) => (current === null ? null : { ...current, text: syncEntries(current.text, sync) }));
        if (isMemoryError(staged)) return staged;
      }
      await tx.publish();
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
    // A name being given (create, rename's destination) must be NFC and free of format characters.
    const badName = want === 'absent' ? newNameProblem(path) : undefined;
    if (badName !== undefined) return memoryError(badName.code, badName.message);
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
    if (found.type !== 'file') return memoryError('FORBIDDEN', `${INDEX_VIRTUAL} is not a regular file`);
    return readTextFile(this.disk, found.path, INDEX_VIRTUAL, this.limits.maxFileBytes);
  }

  #checkIndex(index: TextFile | null): MemoryError | undefined {
    return index === null ? undefined : checkWritable(index.text, index.bom, INDEX_VIRTUAL, this.limits.maxFileBytes);
  }

  /**
   * Stages `update` applied to the current index (a `null` result or an unchanged text stages
   * nothing). Other plugin processes wait for the lock, but an editor does not: after staging, the
   * index is read again, and if it changed meanwhile the update is computed again from the new text
   * (up to INDEX_RETRIES times; then the command fails and writes nothing), so that edit is kept.
   */
  async #stageIndex(tx: Transaction, update: (current: TextFile | null) => TextFile | null): Promise<MemoryError | undefined> {
    for (let attempt = 0; attempt <= INDEX_RETRIES; attempt++) {
      const current = await this.#readIndex();
      if (isMemoryError(current)) return current;
      const next = update(current);
      if (next === null || next.text === current?.text) {
        await tx.dropIndex();
        return undefined;
      }
      const problem = this.#checkIndex(next);
      if (problem !== undefined) return problem;
      await tx.index(INDEX_VIRTUAL, join(this.memdir, INDEX_FILE), encodeText(next));
      const again = await this.#readIndex();
      if (!isMemoryError(again) && again?.text === current?.text && again?.bom === current?.bom) return undefined;
    }
    return memoryError('IO_ERROR', `${INDEX_VIRTUAL} kept changing while this command tried to update it (${INDEX_RETRIES + 1} attempts); nothing was changed, try again`);
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

  /** Runs a read-only command; a failure becomes a structured error (reads need no lock: writes are atomic renames). */
  async #read(rawPath: unknown, task: () => Promise<StoreResult>): Promise<StoreResult> {
    try {
      return await task();
    } catch (error) {
      return failure(error, shownPath(rawPath), 'read');
    }
  }

  /**
   * Runs a write command under the project's lock with a fresh transaction. A command that returns
   * an error, or throws, leaves nothing behind: what it staged is removed and so are the directories
   * it created. Thrown failures become structured errors naming virtual paths only.
   */
  #write(rawPath: unknown, task: (tx: Transaction) => Promise<StoreResult>): Promise<StoreResult> {
    const run = async (held: Held): Promise<StoreResult> => {
      // A folder that is a link is shared on purpose (folder.ts): no owner is checked or recorded through it.
      const shared = this.owner === undefined || (await this.disk.lstat(this.memdir))?.type === 'symlink';
      const recorded = shared ? undefined : await folderOwner(this.disk, this.memdir);
      if (recorded !== undefined && recorded !== this.owner) {
        // Another project whose folder name is the same claimed this folder after this call resolved it.
        return memoryError('IO_ERROR', `this project's memory folder was just claimed by another project with the same folder name; nothing was changed, try again (the next call uses a folder of this project's own)`);
      }
      const tx = new Transaction(this.disk, this.memdir, held);
      let result: StoreResult;
      try {
        result = await task(tx);
        if (!result.ok) await tx.abandon();
      } catch (error) {
        await tx.abandon();
        throw error;
      }
      if (result.ok && !shared && recorded === undefined && (await this.disk.lstat(this.memdir))?.type === 'directory') {
        await claimFolder(this.disk, held, this.memdir, this.owner!).catch(() => undefined); // a claim not written now is written by the next command
      }
      return result;
    };
    return withLock(this.disk, lockPathFor(this.memdir), run, this.lockOptions).catch((error: unknown) => failure(error, shownPath(rawPath), 'changed'));
  }
}

/** The virtual path a command names, for an error message (the raw argument only when it is one). */
function shownPath(rawPath: unknown): string {
  const parsed = parseVirtualPath(rawPath ?? '/memories');
  return isPathProblem(parsed) ? '/memories' : parsed.virtual;
}

/**
 * A thrown failure as the model may see it: an unsafe path on disk is INVALID_PATH, a name the file
 * system finds too long is INVALID_PATH, a lock held too long and any other OS error are IO_ERROR,
 * each naming the virtual path and the OS error code, never a host path. Anything else is a bug and
 * is rethrown.
 */
function failure(error: unknown, virtual: string, action: string): MemoryError {
  if (error instanceof UnsafePathError) return memoryError('INVALID_PATH', error.message);
  if (error instanceof LockTimeoutError) {
    const blocked = error.breakBlocked !== undefined ? `; a leftover break file beside the lock is ${error.breakBlocked} and keeps it from being taken over` : '';
    return memoryError('IO_ERROR', `another process kept this project's memory directory locked for ${error.waitedMs} ms (${error.holder})${blocked}; nothing was changed, try again`);
  }
  if (error instanceof LockLostError) {
    return memoryError('IO_ERROR', `another process took over this project's memory lock while this command held it (judged abandoned: not refreshed for too long); nothing was changed, try again`);
  }
  if (error instanceof LockPathError) {
    return memoryError('IO_ERROR', `this project's memory lock cannot be taken: its lock file's path holds ${error.what}; nothing was changed`);
  }
  const disk = error instanceof DiskError ? error : undefined;
  const code = disk?.code ?? errnoCode(error);
  if (code === undefined) throw disk?.cause ?? error;
  const where = disk?.virtual ?? virtual;
  const outcome = disk === undefined || disk.changed.length === 0
    ? 'nothing was changed'
    : `${disk.changed.join(' and ')} ${disk.changed.length === 1 ? 'was' : 'were'} changed and could not be restored, so ${INDEX_VIRTUAL} may not match ${disk.changed.length === 1 ? 'it' : 'them'}`;
  if (code === 'ENAMETOOLONG') return memoryError('INVALID_PATH', `${where} is too long for the file system: ${describeErrno(code)}; ${outcome}`);
  return memoryError('IO_ERROR', `${where} could not be ${disk?.action ?? action}: ${describeErrno(code)}; ${outcome}`);
}
