import type { RunLines } from '../../src/validate/run-lines.js';
import { type ValidateJobData, validateUserJob } from '../../src/validate/validate-user-job.js';

/** The user on whom `validateJobThatFails` ends its thread. */
export const CRASH_ON_USER = 'train-00002';

/**
 * validate's worker handler (src/validate/validate-user-job.ts), except that the thread ends,
 * as a crash would, on `CRASH_ON_USER`: for test/e2e/workers.test.ts.
 */
export function validateJobThatFails(lines: RunLines, data: ValidateJobData & { judgesHere: boolean }) {
  // In a worker thread, process.exit ends the thread, not the process.
  if (lines.userId === CRASH_ON_USER) process.exit(7);
  return validateUserJob(lines, data);
}
