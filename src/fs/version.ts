// Opaque file versions from one stat call: cheap (no content read) and changing whenever size,
// mtime, ctime (ns) or the inode changes, as DSH's local backend does (contract §9).

import type { BigIntStats } from 'node:fs';
import type { FsVersion } from '../host/fs.js';

/**
 * The version token of a bigint stat. ctime changes on every content write even when mtime is
 * forced back (utimes), so a same-size rewrite within one mtime tick still yields a new version.
 */
export function versionOf(stats: BigIntStats): FsVersion {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

/** The contract's entry type for a stat that followed symlinks. */
export function typeOf(stats: BigIntStats): 'file' | 'directory' | 'other' {
  return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other';
}
