// Helpers for auto-memory tests: a real temporary memory directory (storage is node:fs by design),
// a MemoryDisk wrapper that fails chosen operations (fault injection), and small readers.

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { nodeDisk, type MemoryDisk } from '../../../src/plugins/auto-memory/disk.js';
import { MemoryStore, type StoreLimits } from '../../../src/plugins/auto-memory/store.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'am-test-'));
  made.push(dir);
  return dir;
}

export const LIMITS: StoreLimits = { maxFileBytes: 65536, maxFiles: 200 };

/** A store over a fresh temporary memory dir (`<tmp>/mem`, not created yet). */
export function tempStore(limits: Partial<StoreLimits> = {}, disk: MemoryDisk = nodeDisk): { store: MemoryStore; memdir: string; base: string } {
  const base = tempDir();
  const memdir = join(base, 'mem');
  return { store: new MemoryStore(disk, memdir, { ...LIMITS, ...limits }), memdir, base };
}

/** A file's text, or undefined. */
export function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Every entry name (recursively, hidden ones too) under `dir`, sorted. */
export function tree(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split('\\').join('/')).sort();
  } catch {
    return [];
  }
}

/** Permission bits of a path. */
export function mode(path: string): number {
  return statSync(path).mode & 0o777;
}

type Op = keyof MemoryDisk;

/**
 * `nodeDisk` with injected failures: `fail(op, when?)` makes the next matching call of `op` throw
 * (once); `before(op, hook)` runs a hook before each call of `op` (e.g. to change a file meanwhile).
 * `calls` records every operation and its first argument.
 */
export function faultyDisk(inner: MemoryDisk = nodeDisk) {
  const faults: { op: Op; when: (path: string) => boolean; error: Error }[] = [];
  const hooks: { op: Op; hook: (path: string) => void | Promise<void> }[] = [];
  const calls: [Op, string][] = [];
  const wrap = <K extends Op>(op: K) =>
    (async (...args: unknown[]) => {
      const path = args[0] as string;
      calls.push([op, path]);
      for (const h of hooks) if (h.op === op) await h.hook(path);
      const i = faults.findIndex((f) => f.op === op && f.when(path));
      if (i >= 0) throw faults.splice(i, 1)[0]!.error;
      return (inner[op] as (...a: unknown[]) => unknown)(...args);
    }) as MemoryDisk[K];
  const disk = Object.fromEntries((Object.keys(inner) as Op[]).map((op) => [op, wrap(op)])) as unknown as MemoryDisk;
  return {
    disk,
    calls,
    fail(op: Op, when: (path: string) => boolean = () => true, error: Error = Object.assign(new Error(`injected ${op} failure`), { code: 'EIO' })) {
      faults.push({ op, when, error });
    },
    before(op: Op, hook: (path: string) => void | Promise<void>) {
      hooks.push({ op, hook });
    },
  };
}

/** A memory file with frontmatter. */
export function memory(name: string, description: string, type = 'feedback', body = 'Body.'): string {
  return `---\nname: ${name}\ndescription: ${description}\nmetadata:\n  type: ${type}\n---\n\n${body}\n`;
}
