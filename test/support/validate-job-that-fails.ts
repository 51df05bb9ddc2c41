import type { RunLines } from '../../src/validate/run-lines.js';
import { type ValidateJobData, validateUserJob } from '../../src/validate/validate-user-job.js';

let jobs = 0;

/**
 * validate's worker handler (src/validate/validate-user-job.ts), except that the thread ends, as
 * a crash would, at its second job: for test/e2e/workers.test.ts. (A pool of one worker gets the
 * first two users: validate keeps two jobs in flight per worker.)
 */
export function validateJobThatFails(lines: RunLines, data: ValidateJobData & { judgesHere: boolean }) {
  // In a worker thread, process.exit ends the thread, not the process.
  if (++jobs === 2) process.exit(7);
  return validateUserJob(lines, data);
}
