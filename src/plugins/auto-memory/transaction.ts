// One write command's changes, published together (AM-11, AM-19, AM-25): a memory file change and
// the index update that goes with it. Everything that needs disk space is written first, to hidden
// temporary files (the new bytes, the new index, and a copy of the old bytes when a later step may
// have to be undone); only then are the changes published, each by one rename. If a publishing
// rename fails, the renames before it are undone, so the index and the files never disagree because
// of a failure; only a failed undo leaves a change in place, and the error says which file changed.
// Directories the command created are removed again when it fails. The caller holds the memory
// directory's lock (io/lock.ts) for the whole transaction.

import { getSystemErrorMap } from 'node:util';
import { commit, confirm, discard, ensureDirectory, removeQuietly, runAsync, stage, tempName, type Held, type Staged } from '../../io/index.js';
import { DIR_MODE, ensureParents, FILE_MODE, removeCreated, type MemoryDisk } from './disk.js';

/** A file system failure, with the virtual path it concerns and what was being done to it. */
export class DiskError extends Error {
  override readonly name = 'DiskError';
  constructor(readonly virtual: string, readonly action: string, override readonly cause: unknown, readonly changed: readonly string[] = []) {
    super(`${virtual} could not be ${action}`);
  }

  /** The OS error code (`ENOSPC`, …), or `undefined` for something that is not an OS error. */
  get code(): string | undefined {
    return errnoCode(this.cause);
  }
}

/** The `code` of an OS error. */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

let descriptions: Map<string, string> | undefined;

/** `no space left on device (ENOSPC)`: libuv's description of an OS error code, never a host path. */
export function describeErrno(code: string): string {
  descriptions ??= new Map([...getSystemErrorMap().values()].map(([name, text]) => [name, text]));
  const text = descriptions.get(code);
  return text === undefined ? code : `${text} (${code})`;
}

type Step =
  | { readonly kind: 'write'; readonly virtual: string; readonly staged: Staged; readonly old: Uint8Array | undefined; backup?: Staged }
  | { readonly kind: 'move'; readonly virtual: string; readonly from: string; readonly to: string }
  | { readonly kind: 'remove'; readonly virtual: string; readonly path: string; readonly trash: string };

/** The staged changes of one command. */
export class Transaction {
  readonly #created: string[] = [];
  readonly #steps: Step[] = [];
  #index: { readonly virtual: string; readonly staged: Staged } | undefined;

  /**
   * @param disk the file operations
   * @param memdir the project's memory directory
   * @param held the directory's lock, confirmed still ours before anything is published (none: not checked)
   */
  constructor(readonly disk: MemoryDisk, readonly memdir: string, readonly held?: Held) {}

  /** Creates the memory directory and the parent directories of `segments` (remembered, to remove them on failure). */
  async parents(virtual: string, segments: readonly string[]): Promise<void> {
    await this.#attempt(virtual, 'created', async () => {
      await runAsync(ensureDirectory(this.disk, this.memdir, DIR_MODE, this.#created));
      await ensureParents(this.disk, this.memdir, segments, this.#created);
    });
  }

  /** Stages new bytes for `path`; `old` is what it holds now (`undefined`: the file is new). */
  async write(virtual: string, path: string, bytes: Uint8Array, old: Uint8Array | undefined): Promise<void> {
    const staged = await this.#attempt(virtual, 'written', () => runAsync(stage(this.disk, path, bytes)));
    this.#steps.push({ kind: 'write', virtual, staged, old });
  }

  /** Moves `from` to `to` when published. */
  move(virtual: string, from: string, to: string): void {
    this.#steps.push({ kind: 'move', virtual, from, to });
  }

  /** Removes `path` when published (moved aside first, so the removal can be undone). */
  remove(virtual: string, path: string): void {
    this.#steps.push({ kind: 'remove', virtual, path, trash: tempName(path) });
  }

  /** Stages the new index (replacing one staged before); it is published last. */
  async index(virtual: string, path: string, bytes: Uint8Array): Promise<void> {
    await this.dropIndex();
    const staged = await this.#attempt(virtual, 'updated', () => runAsync(stage(this.disk, path, bytes)));
    this.#index = { virtual, staged };
  }

  /** Drops a staged index: the command turned out not to change it. */
  async dropIndex(): Promise<void> {
    if (this.#index !== undefined) await runAsync(discard(this.disk, this.#index.staged));
    this.#index = undefined;
  }

  /**
   * Publishes every step and then the index. On a failure every published step is undone (newest
   * first) and a `DiskError` is thrown; its `changed` lists the files an undo could not restore.
   */
  async publish(): Promise<void> {
    const last = this.#index === undefined ? this.#steps.length - 1 : this.#steps.length;
    // Copies of old bytes are written before anything is published, so a full disk stops the command here.
    for (let i = 0; i < this.#steps.length; i++) {
      const step = this.#steps[i]!;
      if (step.kind === 'write' && step.old !== undefined && i < last) {
        step.backup = await this.#attempt(step.virtual, 'written', () => runAsync(stage(this.disk, step.staged.path, step.old!, FILE_MODE, false)));
      }
    }
    // A holder robbed of the lock while it could not refresh it (stopped) publishes nothing: LockLostError.
    if (this.held !== undefined) await runAsync(confirm(this.disk, this.held));
    const done: Step[] = [];
    for (const step of this.#steps) {
      try {
        await this.#apply(step);
      } catch (error) {
        throw await this.#rollBack(done, new DiskError(step.virtual, step.kind === 'remove' ? 'deleted' : step.kind === 'move' ? 'renamed' : 'written', error));
      }
      done.push(step);
    }
    const index = this.#index;
    if (index !== undefined) {
      this.#index = undefined; // a failed commit removes its own temporary file
      try {
        await runAsync(commit(this.disk, index.staged));
      } catch (error) {
        throw await this.#rollBack(done, new DiskError(index.virtual, 'updated', error));
      }
    }
    for (const step of done) {
      if (step.kind === 'write' && step.backup !== undefined) await runAsync(discard(this.disk, step.backup));
      if (step.kind === 'remove') await runAsync(removeQuietly(this.disk, step.trash));
    }
    this.#steps.length = 0;
    this.#created.length = 0;
  }

  /** Removes everything staged and every directory created; nothing the command did remains. */
  async abandon(): Promise<void> {
    for (const step of this.#steps) {
      if (step.kind === 'write') {
        await runAsync(discard(this.disk, step.staged));
        if (step.backup !== undefined) await runAsync(discard(this.disk, step.backup));
      }
    }
    this.#steps.length = 0;
    await this.dropIndex();
    await removeCreated(this.disk, this.#created);
    this.#created.length = 0;
  }

  async #apply(step: Step): Promise<void> {
    if (step.kind === 'write') await runAsync(commit(this.disk, step.staged));
    else if (step.kind === 'move') await this.disk.rename(step.from, step.to);
    else await this.disk.rename(step.path, step.trash);
  }

  /** Undoes published steps, newest first; returns `failure` with the files that stayed changed. */
  async #rollBack(done: readonly Step[], failure: DiskError): Promise<DiskError> {
    const changed: string[] = [];
    for (const step of [...done].reverse()) {
      try {
        if (step.kind === 'write') {
          if (step.backup !== undefined) await this.disk.rename(step.backup.temp, step.staged.path);
          else await this.disk.unlink(step.staged.path);
        } else if (step.kind === 'move') await this.disk.rename(step.to, step.from);
        else await this.disk.rename(step.trash, step.path);
      } catch {
        changed.push(step.virtual);
      }
    }
    if (changed.length === 0) await this.abandon();
    else {
      for (const step of this.#steps) if (step.kind === 'write' && step.backup !== undefined) await runAsync(removeQuietly(this.disk, step.backup.temp));
      for (const step of this.#steps) if (step.kind === 'write' && !done.includes(step)) await runAsync(discard(this.disk, step.staged));
      await this.dropIndex();
    }
    return new DiskError(failure.virtual, failure.action, failure.cause, changed.reverse());
  }

  /** Runs one staging operation, turning its failure into a `DiskError` about `virtual`. */
  async #attempt<T>(virtual: string, action: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw error instanceof DiskError ? error : new DiskError(virtual, action, error);
    }
  }
}
