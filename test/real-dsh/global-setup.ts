// Vitest global setup for the real-DSH suite: installs the pinned DSH 0.1.0-rc.8 with its Node 22 and
// pnpm into `.test-tools/real-dsh/` (once per checkout; later runs only check the lockfile stamp),
// and packs this package into the tarball users would install (`npm pack` of the built package).
// A failure is not thrown here: it is handed to the tests, which fail with the reason, so the rest
// of the suite still runs.

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureRealDsh, packPackage, type RealDsh } from '../../src/testing/index.js';

/** What the real-DSH tests get: the installation and our packed tarball, or why not. */
export type RealDshSetup =
  | { readonly dsh: RealDsh; readonly tarball: string; readonly pnpmStore: string; readonly installMs: number }
  | { readonly error: string };

declare module 'vitest' {
  export interface ProvidedContext {
    realDsh: RealDshSetup;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function prepare(): RealDshSetup {
  const started = Date.now();
  let dsh: RealDsh;
  try {
    dsh = ensureRealDsh(join(ROOT, '.test-tools', 'real-dsh'));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const installMs = Date.now() - started;
  let tarball: string;
  try {
    // The package was built by `npm test` just before.
    tarball = packPackage(ROOT, join(ROOT, '.test-tools', 'pack'));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  return { dsh, tarball, pnpmStore: join(ROOT, '.test-tools', 'pnpm-store'), installMs };
}

/** Installs and packs once per run, and provides the result to every test. */
export function setup(project: TestProject): void {
  project.provide('realDsh', prepare());
}
