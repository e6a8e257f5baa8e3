// The throwaway DSH home `inspect` runs the user's DSH in. DSH writes into its home on every boot
// (the profile's `cordis.yml`, the module fallback `profiles/node_modules`, the anonymous user id)
// and at a session's start (the session log, context-profiles' record of the session), and it has
// no read-only mode; `DSH_HOME` is the one switch it gives (dsh-home-paths: "the harness keeps all
// user data under one root"). So inspect copies the home and points `DSH_HOME` at the copy:
// everything DSH reads to build a first request comes along (profiles and their patches, settings,
// credentials, skills, instruction files, rules, memories, presets, `.env`), installed packages are
// linked rather than copied (DSH only loads modules from them), and what only past sessions wrote
// (the session logs, attachments, web storage) is left out. The walk is bounded: a home too large to
// copy is refused with the numbers, never copied in part.

import { copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CliError } from './env.js';

/** Top-level folders of a DSH home that hold past sessions' data only (`dsh-base`, `dsh-attachment-local`, `dsh-web-app`). */
export const SESSION_DATA_DIRS: readonly string[] = ['sessions', 'attachments', 'storages'];
/** Most entries copied (files, folders and links). */
export const MAX_COPIED_ENTRIES = 20_000;
/** Most bytes copied. */
export const MAX_COPIED_BYTES = 256 * 1024 * 1024;

/** What a copy holds. */
export interface HomeCopy {
  readonly entries: number;
  readonly bytes: number;
  /** `node_modules` folders linked instead of copied. */
  readonly linked: number;
  /** Top-level folders left out (those of SESSION_DATA_DIRS that exist). */
  readonly skipped: readonly string[];
}

/** How much a copy may hold. */
export interface CopyLimits {
  readonly entries: number;
  readonly bytes: number;
}

/**
 * Copies the DSH home `from` to `to` (which must not exist yet): files and folders copied, symbolic
 * links re-created as they are, `node_modules` folders linked to the originals, SESSION_DATA_DIRS
 * left out. A missing `from` gives an empty home (DSH initializes its stock profiles there).
 * @param from - the user's DSH home.
 * @param to - the throwaway home.
 * @param limits - default MAX_COPIED_ENTRIES and MAX_COPIED_BYTES.
 * @returns what was copied.
 * @throws CliError when the home holds more entries or bytes than the limits.
 */
export function copyDshHome(from: string, to: string, limits: CopyLimits = { entries: MAX_COPIED_ENTRIES, bytes: MAX_COPIED_BYTES }): HomeCopy {
  const count = { entries: 0, bytes: 0, linked: 0, limits };
  const skipped: string[] = [];
  mkdirSync(to, { recursive: true, mode: 0o700 });
  let top: string[];
  try {
    top = readdirSync(from);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: 0, bytes: 0, linked: 0, skipped };
    throw new CliError(`cannot read the DSH home ${from}: ${(error as Error).message}`, 'pass the home with --dsh-home, or fix its permissions');
  }
  for (const name of top.sort()) {
    if (SESSION_DATA_DIRS.includes(name)) {
      skipped.push(name);
      continue;
    }
    copyEntry(join(from, name), join(to, name), count, name !== 'profiles');
  }
  return { entries: count.entries, bytes: count.bytes, linked: count.linked, skipped };
}

/**
 * Copies one entry. `link`: a `node_modules` folder is linked, not copied; false for the children of
 * `profiles/`, whose `node_modules` is DSH's module fallback, a folder of links DSH repairs at boot:
 * a copy of it, so that a repair never writes into the user's home.
 */
function copyEntry(from: string, to: string, count: { entries: number; bytes: number; linked: number; limits: CopyLimits }, link = true): void {
  if (++count.entries > count.limits.entries) throw tooLarge(`more than ${count.limits.entries.toLocaleString('en-US')} entries`);
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) {
    symlinkSync(readlinkSync(from), to);
  } else if (stat.isDirectory()) {
    if (link && basename(from) === 'node_modules') {
      // Installed packages: DSH resolves modules from them and writes nothing there.
      symlinkSync(from, to, 'junction');
      count.linked++;
      return;
    }
    mkdirSync(to, { mode: stat.mode & 0o777 });
    for (const name of readdirSync(from).sort()) copyEntry(join(from, name), join(to, name), count, link || name !== 'node_modules');
  } else if (stat.isFile()) {
    count.bytes += stat.size;
    if (count.bytes > count.limits.bytes) throw tooLarge(`more than ${count.limits.bytes.toLocaleString('en-US')} bytes`);
    // copyFile keeps the mode, so a credentials file stays private (DSH refuses one others can read).
    copyFileSync(from, to);
  }
  // Sockets, FIFOs and devices are not data DSH reads at boot: left out.
}

function tooLarge(what: string): CliError {
  return new CliError(
    `the DSH home holds ${what} outside ${SESSION_DATA_DIRS.join(', ')}; inspect copies it to run DSH without writing to it, and stops at that size`,
    'move large files out of the DSH home, or run inspect with --offline (the plugins\' part only)',
  );
}
