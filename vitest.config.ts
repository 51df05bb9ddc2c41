import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Generous: a test that runs the shipped binary can take minutes on a loaded machine (load
    // average 20 and more seen); speed is measured in bench/, never here.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    // Two test files at once: most of the long tests wait on child processes (the shipped binary,
    // a local Slurm, fake servers), so a second file fills the idle core. Vitest's default here
    // would be one (cores - 1).
    maxWorkers: 2,
    // The long files first even on a fresh checkout, which has no recorded durations.
    sequence: { sequencer: LongFirstSequencer },
    globalSetup: [
      // Fails the run when a test leaves pf-* entries in the system temp folder.
      'test/support/temp-guard.ts',
      // The session's shared reference runs (test/support/shared-run.ts); removed before the
      // check above (teardowns run in reverse order).
      'test/support/shared-runs-setup.ts',
    ],
  },
});
