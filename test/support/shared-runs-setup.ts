import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder that holds this session's shared reference runs (test/support/shared-run.ts). */
    sharedRunsDir: string;
  }
}

/**
 * vitest globalSetup: one folder per test session for the reference runs several test files
 * compare against (made once, by whichever file asks first), removed when the session ends.
 */
export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'pf-shared-runs-'));
  project.provide('sharedRunsDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
