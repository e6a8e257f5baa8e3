// Vitest global setup: makes sure Deno and Bun are installed (pinned, in .test-tools/, see
// bench/runtime-tools.ts) and finds playwright-core and Chromium before any test runs; hands every test what was
// found. A tool that cannot be installed or started is not an error here: the runtime test that
// needs it fails, with the reason, and every other test runs as usual.

import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureRuntimeTools, type RuntimeTools } from '../../bench/runtime-tools.js';

declare module 'vitest' {
  export interface ProvidedContext {
    runtimeTools: RuntimeTools;
  }
}

/** Installs what is missing (once per checkout; later runs only check) and provides the result. */
export function setup(project: TestProject): void {
  project.provide('runtimeTools', ensureRuntimeTools(fileURLToPath(new URL('../..', import.meta.url))));
}
