import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Installs the pinned Deno, Bun and playwright-core for test/runtimes once (bench/runtime-tools.ts).
    globalSetup: ['test/runtimes/global-setup.ts'],
  },
});
