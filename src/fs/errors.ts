// Mapping node:fs errors to DSH's FsError codes, in one place so every operation reports alike.

import { FsError, type FsErrorCode } from '../host/fs.js';

/** The errno codes that mean "this path is absent" for stat-like calls. */
export function isAbsence(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Wraps an OS error as an `FsError` with the closest DSH code; an FsError passes through. */
export function toFsError(error: unknown, what: string, path: string): FsError {
  if (error instanceof FsError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const mapped: FsErrorCode =
    code === 'ENOENT' ? 'FS_NOT_FOUND'
    : code === 'ENOTDIR' ? 'FS_NOT_DIRECTORY'
    : code === 'EACCES' || code === 'EPERM' ? 'FS_PERMISSION_DENIED'
    : code === 'EISDIR' ? 'FS_NOT_REGULAR_FILE'
    : code === 'ABORT_ERR' ? 'FS_ABORTED'
    : 'FS_IO_ERROR';
  const reason = error instanceof Error ? error.message : String(error);
  return new FsError(mapped, `${what} ${path}: ${reason}`, { cause: error });
}
