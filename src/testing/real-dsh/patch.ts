// Reading the bundle patches of the packages a DSH profile installed (`dsh.profile.bundles` in the
// profile's package.json), so a test host can name their rows: which ones exist, in order, and which
// of DSH's own rows a bundle overrides on their behalf.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';

/** One plugin row of a patch's `insert` list. */
export interface PatchRow {
  readonly id: string;
  readonly name: string;
  readonly config?: unknown;
  readonly disabled?: boolean;
}

/**
 * A bundle's override of a row it does not insert (one of DSH's own, e.g. `agent-instructions`
 * disabled), and the rows it is made for: by the patch's layout, those of the next `insert` entry.
 */
export interface PatchOverride {
  readonly id: string;
  readonly disabled?: boolean;
  /** Ids of the rows of the `insert` entry that follows the override in its patch. */
  readonly for: readonly string[];
}

/** The patch entries of every installed non-DSH bundle, in bundle order. */
function bundleEntries(profileDir: string): unknown[] {
  const manifest = JSON.parse(readFileSync(join(profileDir, 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: string[] } } };
  const require = createRequire(join(profileDir, 'package.json'));
  const entries: unknown[] = [];
  for (const bundle of manifest.dsh?.profile?.bundles ?? []) {
    if (bundle.startsWith('@deepseek-ai/')) continue;
    const packageJson = require.resolve(`${bundle}/package.json`);
    const declared = (JSON.parse(readFileSync(packageJson, 'utf8')) as { dsh?: { bundle?: { patch?: string } } }).dsh?.bundle?.patch;
    if (declared === undefined) continue;
    const parsed = parse(readFileSync(join(dirname(packageJson), declared), 'utf8'), { logLevel: 'error' }) as unknown;
    if (Array.isArray(parsed)) entries.push(...parsed);
  }
  return entries;
}

/**
 * The rows the profile's installed bundles insert (DSH's own `@deepseek-ai/*` bundles are not read:
 * they are not installed in the profile but come with DSH).
 * @param profileDir - `$DSH_HOME/profiles/<name>`.
 * @returns every inserted row, in bundle order.
 */
export function bundleRows(profileDir: string): PatchRow[] {
  const rows: PatchRow[] = [];
  for (const entry of bundleEntries(profileDir)) {
    const insert = (entry as { insert?: unknown }).insert;
    if (Array.isArray(insert)) rows.push(...(insert as PatchRow[]));
  }
  return rows;
}

/**
 * The overrides the installed bundles make to rows they do not insert, each with the rows it is made
 * for: an override belongs to the `insert` entry that follows it in its patch (a bundle writes the
 * override of DSH's row just before the row that takes its place).
 * @param profileDir - `$DSH_HOME/profiles/<name>`.
 * @returns every override, in bundle order.
 */
export function bundleOverrides(profileDir: string): PatchOverride[] {
  const overrides: PatchOverride[] = [];
  let waiting: { id: string; disabled?: boolean }[] = [];
  for (const entry of bundleEntries(profileDir)) {
    const { id, insert, disabled } = entry as { id?: unknown; insert?: unknown; disabled?: unknown };
    if (Array.isArray(insert)) {
      const ids = (insert as PatchRow[]).map((row) => row.id);
      overrides.push(...waiting.map((o) => ({ ...o, for: ids })));
      waiting = [];
    } else if (typeof id === 'string') waiting.push({ id, ...(typeof disabled === 'boolean' ? { disabled } : {}) });
  }
  overrides.push(...waiting.map((o) => ({ ...o, for: [] })));
  return overrides;
}
