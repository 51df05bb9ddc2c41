import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at once: most of the long tests wait on child processes (the shipped binary,
    // a local Slurm, fake servers), so a second file fills the idle core. Vitest's default here
    // would be one (cores - 1).
    maxWorkers: 2,
    // Fails the run when a test leaves pf-* entries in the system temp folder.
    globalSetup: ['test/support/temp-guard.ts'],
  },
});
