// Reading the bundle patches of the packages a DSH profile installed (`dsh.profile.bundles` in the
// profile's package.json), so a test host can name their rows: which ones exist, in order.

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
 * The rows the profile's installed bundles insert (DSH's own `@deepseek-ai/*` bundles are not read:
 * they are not installed in the profile but come with DSH).
 * @param profileDir - `$DSH_HOME/profiles/<name>`.
 * @returns every inserted row, in bundle order.
 */
export function bundleRows(profileDir: string): PatchRow[] {
  const manifest = JSON.parse(readFileSync(join(profileDir, 'package.json'), 'utf8')) as { dsh?: { profile?: { bundles?: string[] } } };
  const require = createRequire(join(profileDir, 'package.json'));
  const rows: PatchRow[] = [];
  for (const bundle of manifest.dsh?.profile?.bundles ?? []) {
    if (bundle.startsWith('@deepseek-ai/')) continue;
    const packageJson = require.resolve(`${bundle}/package.json`);
    const declared = (JSON.parse(readFileSync(packageJson, 'utf8')) as { dsh?: { bundle?: { patch?: string } } }).dsh?.bundle?.patch;
    if (declared === undefined) continue;
    const entries = parse(readFileSync(join(dirname(packageJson), declared), 'utf8'), { logLevel: 'error' }) as unknown;
    for (const entry of Array.isArray(entries) ? entries : []) {
      const insert = (entry as { insert?: unknown }).insert;
      if (Array.isArray(insert)) rows.push(...(insert as PatchRow[]));
    }
  }
  return rows;
}
