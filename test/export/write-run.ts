import { join } from 'node:path';
import { writeJsonl } from '../../src/util/fs.js';
import type { UserBundle } from '../../src/validate/types.js';

/** Writes bundles as a run directory's plan, dialogue and memory files (sorted by user id). */
export async function writeRun(runDir: string, bundles: readonly UserBundle[]): Promise<void> {
  const sorted = [...bundles].sort((a, b) => (a.plan.userId < b.plan.userId ? -1 : 1));
  await writeJsonl(
    join(runDir, 'plan', 'plan.jsonl'),
    sorted.map((bundle) => bundle.plan),
  );
  await writeJsonl(
    join(runDir, 'dialogues', 'dialogues.jsonl'),
    sorted.map((bundle) => bundle.dialogue),
  );
  await writeJsonl(
    join(runDir, 'memory', 'memory.jsonl'),
    sorted.flatMap((bundle) => (bundle.memory === null ? [] : [bundle.memory])),
  );
}
