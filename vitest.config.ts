import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Fails the run when a test leaves pf-* entries in the system temp folder.
    globalSetup: ['test/support/temp-guard.ts'],
  },
});
