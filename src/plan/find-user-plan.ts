import { join } from 'node:path';
import { PlanError } from '../errors/index.js';
import { UserPlan } from '../schemas/plan.js';
import { readJsonl } from '../util/fs.js';

/** How many known ids the not-found error lists. */
const LISTED_IDS = 5;

/**
 * Reads `<runDir>/plan/plan.jsonl` and returns the validated plan of `userId`. Throws a
 * `PlanError` (code `NOT_FOUND`) naming a few ids that do exist when the user is absent.
 *
 * @example const plan = await findUserPlan('runs/quickstart', 'train-00000');
 */
export async function findUserPlan(runDir: string, userId: string): Promise<UserPlan> {
  const file = join(runDir, 'plan', 'plan.jsonl');
  const seen: string[] = [];
  let count = 0;
  for await (const record of readJsonl(file)) {
    const id = (record as { userId?: unknown }).userId;
    if (id === userId) return UserPlan.parse(record);
    count++;
    if (typeof id === 'string' && seen.length < LISTED_IDS) seen.push(id);
  }
  throw new PlanError(
    `user "${userId}" is not in ${file} (${count} users${seen.length > 0 ? `, e.g. ${seen.join(', ')}` : ''})`,
    {
      code: 'NOT_FOUND',
      hint: 'pass one of the listed ids to --user',
    },
  );
}
