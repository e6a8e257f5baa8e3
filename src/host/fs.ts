// The fs provider shape (contract §9) and its error type. Targets and versions are opaque: compare
// versions with ===, never parse a target key.

export type FsTargetKey = string & { readonly __brand?: 'FsTargetKey' };
export type FsVersion = string & { readonly __brand?: 'FsVersion' };

export interface FsTarget {
  readonly targetKey: FsTargetKey;
  /** The path as resolved against the cwd, not the realpath. */
  readonly displayPath: string;
}
export interface FsInfo {
  readonly version: FsVersion;
  readonly type: 'file' | 'directory' | 'other';
  /** Optional in the contract; some providers omit it. */
  readonly size?: number;
}
export interface FsPathInfo {
  readonly version: FsVersion;
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size?: number;
}
export interface FsDirEntry {
  readonly name: string;
  readonly type: 'file' | 'directory' | 'other';
  readonly target: FsTarget;
  readonly version?: FsVersion;
  readonly size?: number;
}

/** Optimistic-concurrency expectation for writes. [uncertain: DSH's `FsWriteIntent` is richer.] */
export interface FsWriteExpectation {
  readonly version: FsVersion;
}
/** [uncertain: DSH's outcome types carry more; we rely on `version` only.] */
export interface FsWriteOutcome {
  readonly version: FsVersion;
  readonly created: boolean;
}
export interface FsEditOutcome {
  readonly version: FsVersion;
  readonly replacements: number;
}
export interface FsEdit {
  readonly oldString: string;
  readonly newString: string;
  readonly replaceAll: boolean;
}

/**
 * `ctx.fs`. Note the signal positions: inside the options for `resolve`, positional for `stat`,
 * `readText`, `streamText`, `listDir`; `lstat(path, opts, signal)`; `readBytes(target, signal, max)`.
 */
export interface FileSystem {
  readonly sandboxMode: unknown;
  /** Never fails because the path is absent. */
  resolve(path: string, opts?: { cwd?: string; signal?: AbortSignal }): Promise<FsTarget>;
  processPath(target: FsTarget): string;
  fileUrl(target: FsTarget): string;
  contains(parent: FsTarget, child: FsTarget): boolean;
  /** `undefined` = absent. Follows symlinks. */
  stat(target: FsTarget, signal?: AbortSignal): Promise<FsInfo | undefined>;
  lstat(path: string, opts?: { cwd?: string }, signal?: AbortSignal): Promise<FsPathInfo | undefined>;
  readText(target: FsTarget, signal?: AbortSignal): Promise<string>;
  /** Resolves at once with a lazy iterable; errors surface while iterating. */
  streamText(target: FsTarget, signal?: AbortSignal): Promise<AsyncIterable<string>>;
  readBytes(target: FsTarget, signal: AbortSignal | undefined, maxBytes: number): Promise<Uint8Array>;
  listDir(target: FsTarget, signal?: AbortSignal): Promise<FsDirEntry[]>;
  writeText(target: FsTarget, content: string, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsWriteOutcome>;
  editText(target: FsTarget, edit: FsEdit, expected?: FsWriteExpectation, signal?: AbortSignal): Promise<FsEditOutcome>;
}

export type FsErrorCode =
  | 'FS_NOT_FOUND'
  | 'FS_NOT_DIRECTORY'
  | 'FS_NOT_TEXT'
  | 'FS_NOT_REGULAR_FILE'
  | 'FS_TOO_LARGE'
  | 'FS_PERMISSION_DENIED'
  | 'FS_SANDBOX_DENIED'
  | 'FS_IO_ERROR'
  | 'FS_STALE_VERSION'
  | 'FS_NOT_OBSERVED'
  | 'FS_AMBIGUOUS_EDIT'
  | 'FS_EDIT_NOT_FOUND'
  | 'FS_ABORTED';

/** A provider error with DSH's code. `cause` keeps the underlying OS error when there is one. */
export class FsError extends Error {
  override readonly name = 'FsError';
  constructor(
    readonly code: FsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Throws `FsError('FS_ABORTED')` if the signal has aborted; providers call it at every await point. */
export function throwIfFsAborted(signal: AbortSignal | undefined, what: string): void {
  if (signal?.aborted) throw new FsError('FS_ABORTED', `${what}: aborted`, { cause: signal.reason });
}

/** What {@link lstatOf}'s function gives when the provider's `lstat` threw (not for cancellation). */
export const LSTAT_FAILED: unique symbol = Symbol('lstat failed');

/**
 * `fs.lstat`, looked up once: a Cordis service's methods are reached through a proxy whose lookup
 * costs more than a call, and a plugin that asks at every step asks hundreds of times. Each call
 * still goes through `fs`, so the provider runs as it does for any call of the plugin's.
 * @param fs - the provider (as `ctx.get('fs')` returned it).
 * @returns `(path, signal) => fs.lstat(path, undefined, signal)`, with a throw turned into
 * `LSTAT_FAILED`, unless `signal` has aborted: then it rejects with the signal's reason.
 */
export function lstatOf(fs: Pick<FileSystem, 'lstat'>): (path: string, signal: AbortSignal | undefined) => Promise<FsPathInfo | undefined | typeof LSTAT_FAILED> {
  const method = fs.lstat;
  return async (path, signal) => {
    try {
      return await method.call(fs, path, undefined, signal);
    } catch {
      signal?.throwIfAborted();
      return LSTAT_FAILED;
    }
  };
}
