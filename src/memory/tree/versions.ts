import type { TreeVersion, UserMemory } from '../../schemas/memory.js';

/**
 * The tree's filled leaves at version T_`version` (0 = the initial tree), rebuilt from the
 * stored T_0 and the per-step diffs — versions are persisted as diffs so a record stays small.
 *
 * @example
 * treeValuesAt(record.tree, 3)['4_Identity_Characteristics.Social_Identity.Legal_and_Civic_Status.Name'];
 */
export function treeValuesAt(
  tree: Pick<UserMemory['tree'], 'initial' | 'versions'>,
  version: number,
): Record<string, string> {
  const values: Record<string, string> = { ...tree.initial };
  for (const step of tree.versions) {
    if (step.version > version) break;
    applyDiff(values, step);
  }
  return values;
}

/**
 * The tree at a time: every version whose chunk ended at or before `iso`.
 *
 * @example
 * treeValuesAtTime(record.tree, qa.questionTime);
 */
export function treeValuesAtTime(
  tree: Pick<UserMemory['tree'], 'initial' | 'versions'>,
  iso: string,
): Record<string, string> {
  const at = Date.parse(iso);
  const values: Record<string, string> = { ...tree.initial };
  for (const step of tree.versions) {
    if (Date.parse(step.time) > at) break;
    applyDiff(values, step);
  }
  return values;
}

function applyDiff(values: Record<string, string>, step: TreeVersion): void {
  for (const change of step.diff) {
    if (change.after === null) delete values[change.path];
    else values[change.path] = change.after;
  }
}
