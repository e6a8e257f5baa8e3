// Which memory folder a project uses (AM-07, issue 32 item 8). The folder's name is DSH's
// session-directory key of the project root (AM-06), and that escaping is not one-to-one:
// `/srv/api-server` and `/srv/api/server` both become `--srv-api-server--`, as do two roots whose
// escaped forms agree in their first 251 characters, so a memory written in one project was injected
// into the other. A folder therefore records the root it belongs to in a hidden file (OWNER_FILE,
// which the memory tool can neither list nor address), and a project that finds another root
// recorded there uses a second folder, named by `fallbackKey`: DSH's key cut shorter, plus the first
// 12 hex digits of the SHA-256 of its own root. The name stays DSH's for every project that has no
// twin, and the first project to use a folder claims it: a folder made before this file existed
// holds no root, and nothing in it says whose it is, so it goes to whichever project uses it first
// (with a single project that is the right one; with two, the other one moves to its own folder).
// A claim is written once, atomically, under the folder's lock.

import { join } from 'node:path';
import { sha256Hex } from '../../engine/index.js';
import { lockPathFor, runAsync, withLock, writeLocked, type EntryInfo, type Held, type LockOptions } from '../../io/index.js';
import { PROJECT_KEY_SLUG_MAX } from '../../host/project-key.js';
import { FILE_MODE, type MemoryDisk } from './disk.js';

/** The file in a memory folder that names the project root it belongs to: `{"root": "/srv/api-server"}`. */
export const OWNER_FILE = '.project-root.json';
/** Bytes read of an owner file at most: a root path is at most a few KiB. */
const OWNER_READ_BYTES = 65536;
/** Hex digits of the root's SHA-256 a fallback folder name ends with. */
const FALLBACK_DIGEST_HEX = 12;

/**
 * The folder name a project uses when its DSH key's folder belongs to another root: `--` + the key's
 * slug cut to 238 characters + `--` + the first 12 hex digits of SHA-256(root) (UTF-8), 254
 * characters at most. A DSH key always ends with `--`, so the two kinds of name never meet.
 * @param key the project's DSH key (`projectKey(root)`)
 * @param root the project root
 * @returns the fallback folder name
 */
export function fallbackKey(key: string, root: string): string {
  const slug = key.slice(2, -2).slice(0, PROJECT_KEY_SLUG_MAX - FALLBACK_DIGEST_HEX - 1);
  return `--${slug}--${sha256Hex(root).slice(0, FALLBACK_DIGEST_HEX)}`;
}

/**
 * The root recorded in a memory folder, `undefined` when none is (no folder, no owner file, or one
 * that is not a regular file holding `{"root": "<string>"}`: such a folder is unclaimed).
 * @param disk the memory storage
 * @param memdir the memory folder
 * @returns the recorded root
 */
export async function folderOwner(disk: MemoryDisk, memdir: string): Promise<string | undefined> {
  const path = join(memdir, OWNER_FILE);
  const entry = await disk.lstat(path);
  if (entry?.type !== 'file') return undefined;
  const known = readOwners.get(path);
  if (known !== undefined && known.disk === disk && sameEntry(known.entry, entry)) return known.root;
  let root: string | undefined;
  try {
    const { bytes } = await disk.readPrefix(path, OWNER_READ_BYTES);
    const parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as { root?: unknown } | null;
    root = typeof parsed?.root === 'string' ? parsed.root : undefined;
  } catch {
    return undefined;
  }
  if (readOwners.size >= REMEMBERED_OWNERS) readOwners.clear();
  readOwners.set(path, { disk, entry, root });
  return root;
}

/**
 * Owner files read, by path, with the entry they were read from: every model step resolves its
 * project's folder, and reading the file again (open, stat, read, close) when one `lstat` shows the
 * same inode, size and times cost about 0.3 ms a step. Claims are written by atomic rename (a new
 * inode), and any other change moves the change time.
 */
const readOwners = new Map<string, { readonly disk: MemoryDisk; readonly entry: EntryInfo; readonly root: string | undefined }>();
/** Owner files remembered at most (one per project a process serves; cleared when full). */
const REMEMBERED_OWNERS = 256;

function sameEntry(a: EntryInfo, b: EntryInfo): boolean {
  return a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs;
}

/**
 * Records `root` as the owner of `memdir`, atomically. The caller holds the folder's lock
 * (`lockPathFor(memdir)`) and has seen the folder unclaimed under it.
 * @param disk the memory storage
 * @param held the folder's lock, confirmed still ours before the write is published
 * @param memdir an existing memory folder
 * @param root the project root that claims it
 */
export async function claimFolder(disk: MemoryDisk, held: Held, memdir: string, root: string): Promise<void> {
  await runAsync(writeLocked(disk, held, join(memdir, OWNER_FILE), new TextEncoder().encode(`${JSON.stringify({ root })}\n`), FILE_MODE));
}

/** How `memoryFolder` reaches the disk, and whether it may claim a folder. */
export interface FolderAccess {
  readonly disk: MemoryDisk;
  /** Claim an existing unclaimed folder for the project (the plugin does; `dsh-context inspect`, which writes nothing, does not). */
  readonly claim: boolean;
  readonly lockOptions?: LockOptions;
}

/** How long claiming a folder waits for another process's lock: it runs on the way to a model step. */
const CLAIM_LOCK_TIMEOUT_MS = 1000;

/**
 * The access the plugin uses: claim unclaimed folders, waiting at most a second for their lock.
 * @param disk the memory storage
 * @returns the access
 */
export function claimingAccess(disk: MemoryDisk): FolderAccess {
  return { disk, claim: true, lockOptions: { timeoutMs: CLAIM_LOCK_TIMEOUT_MS } };
}

/**
 * The memory folder of the project at `root`: the folder named `key` unless another root is recorded
 * there, then the one named `fallbackKey(key, root)`. A folder named `key` that is a symbolic link
 * is used whatever it records (a user links two checkouts' folders to share their memory). An existing folder nobody has claimed is
 * claimed for `root` when `access.claim` (a claim that cannot be written is left for the next use).
 * Throws when both folders belong to other roots (a SHA-256 prefix collision as well as a key one).
 * @param memoryRoot the resolved auto-memory root
 * @param key the project's DSH key
 * @param root the project root
 * @param access the disk, and whether to claim
 * @returns the memory folder's path
 */
export async function memoryFolder(memoryRoot: string, key: string, root: string, access: FolderAccess): Promise<string> {
  const primary = join(memoryRoot, key);
  // A folder that is a link is a user's choice (two checkouts sharing one memory): it is used as it is.
  if ((await access.disk.lstat(primary))?.type === 'symlink') return primary;
  const owner = await claimed(primary, root, access);
  if (owner === undefined || owner === root) return primary;
  const fallback = join(memoryRoot, fallbackKey(key, root));
  const second = await claimed(fallback, root, access);
  if (second === undefined || second === root) return fallback;
  throw new Error(`auto-memory: the memory folders ${key} and ${fallbackKey(key, root)} both belong to other projects`);
}

/** The owner of `memdir` after claiming it for `root` when it exists unclaimed and `access.claim`. */
async function claimed(memdir: string, root: string, access: FolderAccess): Promise<string | undefined> {
  const { disk } = access;
  const owner = await folderOwner(disk, memdir);
  if (owner !== undefined || !access.claim || (await disk.lstat(memdir)) === undefined) return owner;
  try {
    return await withLock(disk, lockPathFor(memdir), async (held) => {
      const now = await folderOwner(disk, memdir);
      if (now !== undefined) return now;
      await claimFolder(disk, held, memdir, root);
      return root;
    }, access.lockOptions);
  } catch {
    return undefined; // not claimed now (a read-only home, a lock held too long): the next use tries again
  }
}
