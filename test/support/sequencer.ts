import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that run the shipped binary for a minute or more, longest first. Vitest orders files
 * by the durations it recorded in an earlier run; a fresh checkout (CI) has none, and its
 * fallback (largest file first) could start a two-minute file last and leave one core idle while
 * it runs. With no recorded durations these start first, in this order.
 */
const LONG_FIRST = [
  'test/e2e/integrity.test.ts',
  'test/e2e/kill-anywhere.test.ts',
  'test/scale/slurm.test.ts',
  'test/e2e/safe-dirs.test.ts',
  'test/e2e/workers.test.ts',
  'test/e2e/user-paths.test.ts',
  'test/e2e/nothing-lost.test.ts',
  'test/e2e/readme.test.ts',
  'test/e2e/quickstart.test.ts',
  'test/e2e/trust.test.ts',
  'test/e2e/eval.test.ts',
  'test/scale/hostile-paths.test.ts',
  'test/e2e/flags.test.ts',
];

export default class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const path = (file: TestSpecification) => relative(root, file.moduleId);
    const recorded = files.every(
      (file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${path(file)}`) !== undefined,
    );
    if (recorded) return sorted;
    const rank = (file: TestSpecification) => {
      const at = LONG_FIRST.indexOf(path(file));
      return at < 0 ? LONG_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
