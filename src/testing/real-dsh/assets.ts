// Files a real DSH process loads itself (the driver plugin) must be compiled
// JavaScript. From the built package they sit beside this module; when this module runs from
// TypeScript sources (the package's own tests), they are taken from the build in `lib/`.

import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file `name` of this folder (`driver-plugin.js`).
 * @param name - the file's name in `lib/testing/real-dsh/`.
 * @returns its absolute path.
 * @throws Error when it has not been built.
 */
export function compiledAsset(name: string): string {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith('.ts') ? join(dirname(here), '..', '..', '..', 'lib', 'testing', 'real-dsh') : dirname(here);
  const file = join(dir, name);
  if (!existsSync(file)) throw new Error(`real DSH: ${file} is missing; build the package first (npm run build)`);
  return file;
}
