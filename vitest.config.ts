import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Installs the pinned Deno, Bun and playwright-core for test/runtimes once (bench/runtime-tools.ts),
    // and real DSH 0.1.0-rc.8 with Node 22 for test/real-dsh (src/testing/real-dsh/install.ts).
    globalSetup: ['test/runtimes/global-setup.ts', 'test/real-dsh/global-setup.ts'],
  },
});
