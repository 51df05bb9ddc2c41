import { loadTreeSchema, type TreeSchema } from '../../memory/tree/schema.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/** True when `path` is a leaf of the schema or a new leaf within `depth` levels below an extensible branch. */
export function pathInSchema(schema: TreeSchema, path: string, depth: number): boolean {
  if (schema.leaves.has(path)) return true;
  const segments = path.split('.');
  for (let up = 1; up <= depth && up < segments.length; up++) {
    const parent = segments.slice(0, -up).join('.');
    if (schema.extensible.has(parent)) return true;
    if (schema.branches.has(parent) || schema.leaves.has(parent)) return false;
  }
  return false;
}

/**
 * Every PersonaTree operation targets the configured schema (by default Inside Out's published
 * `human_tree_en.json`): a leaf of its trunk, or a new leaf under a branch the extended-schema
 * policy opens. An op on an invented path trains MemListener on a tree that does not exist.
 *
 * @example treePathsCheck.run(indexUser(bundle), { ...options, tree: { schema, maxExtensionDepth: 1 } })
 */
export const treePathsCheck: RuleCheck = {
  name: 'tree_paths',
  description: 'PersonaTree ops target leaves of the schema (or new leaves under its extensible branches)',
  run({ bundle }, options) {
    const memory = bundle.memory;
    if (memory === null || memory.tree.versions.length === 0) return [];
    const schema = options.tree?.schema ?? loadTreeSchema();
    const depth = options.tree?.maxExtensionDepth ?? 1;
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    if (memory.tree.schemaId !== schema.id)
      failures.push({
        check: 'tree_paths',
        userId,
        location: 'memory.tree.schemaId',
        reason: `the tree was built on schema "${memory.tree.schemaId}", validation reads "${schema.id}"`,
      });
    const paths = new Set<string>(Object.keys(memory.tree.initial));
    for (const version of memory.tree.versions)
      for (const op of version.ops) if (op.path !== null) paths.add(op.path);
    for (const path of paths) {
      if (!pathInSchema(schema, path, depth))
        failures.push({
          check: 'tree_paths',
          userId,
          location: `memory.tree[${path}]`,
          reason: `"${path}" is not a leaf of schema "${schema.id}" nor a new leaf under one of its extensible branches`,
        });
    }
    return failures;
  },
};
