// createTestHost: the offline host (src/offline-host) as a test driver, so tests (ours and plugin
// authors') can drive plugins end to end against a simulated DSH host: mount plugins, run scripted
// turns, compact, resume, and inspect the durable log, the model requests and the filesystem. What
// it adds to the offline host is the in-memory filesystem with fault injection (memfs.ts).

import type { FileSystem } from '../host/fs.js';
import { OfflineHost, type OfflineHostOptions } from '../offline-host/host.js';
import { createMemoryFileSystem, type MemoryFileSystem } from './memfs.js';

export type { CompactOptions, PluginHandle } from '../offline-host/host.js';

export interface TestHostOptions extends OfflineHostOptions {
  /** Mounts an in-memory provider holding these files (absolute path → content); `fs` mounts another provider instead. */
  readonly files?: Readonly<Record<string, string>>;
  /** Chunk size of the in-memory provider's streams. */
  readonly chunkSize?: number;
}

/**
 * Creates a simulated DSH host with one session. With `files` (or no provider option) `host.fs` is
 * an in-memory provider; with `fs` it is that provider.
 * @param options - the session's cwd, files or a provider, the process facts, the models.
 * @returns the host.
 */
export function createTestHost<F extends FileSystem>(options: TestHostOptions & { readonly fs: F }): TestHost<F>;
export function createTestHost(options?: TestHostOptions): TestHost<MemoryFileSystem>;
export function createTestHost(options: TestHostOptions = {}): TestHost<FileSystem> {
  return new TestHost(options);
}

/** The simulated host; see `createTestHost`. */
export class TestHost<F extends FileSystem = FileSystem> extends OfflineHost<F> {
  constructor(options: TestHostOptions) {
    const fs = options.fs ?? (options.files !== undefined ? createMemoryFileSystem({ files: options.files, cwd: options.cwd, chunkSize: options.chunkSize }) : undefined);
    super({ ...options, ...(fs !== undefined ? { fs } : {}) });
  }

  protected override get label(): string {
    return 'test host';
  }
}
