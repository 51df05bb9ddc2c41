import { MemoryOpError } from '../../errors/index.js';
import type { TreeDiffEntry, TreeOp } from '../../schemas/memory.js';
import { PersonaTreeConfig } from '../../schemas/memory-config.js';
import { compressValue } from './compress.js';
import { loadTreeSchema, type TreeSchema } from './schema.js';

export type TreePolicy = Pick<PersonaTreeConfig, 'leafMaxChars' | 'allowExtendedAdd' | 'maxExtensionDepth'>;

/** One executor step T_{i−1} → T_i. */
export interface TreeStep {
  version: number;
  ops: TreeOp[];
  applied: TreeOp[];
  rejected: Array<{ op: TreeOp; reason: string }>;
  /** Values compressed to the leaf budget (path → original length). */
  compressed: Array<{ path: string; length: number }>;
  diff: TreeDiffEntry[];
}

/**
 * A PersonaTree version: the schema, the non-empty leaf values (dotted path → string), the
 * leaves created under the extended-schema policy, and the steps that produced it (T_0…T_N).
 * Immutable: `applyTreeOps` returns the next version.
 */
export interface PersonaTree {
  readonly schema: TreeSchema;
  readonly policy: TreePolicy;
  readonly values: Readonly<Record<string, string>>;
  readonly extendedLeaves: ReadonlySet<string>;
  readonly version: number;
  readonly history: readonly TreeStep[];
}

export interface CreatePersonaTreeOptions {
  schema?: TreeSchema;
  policy?: Partial<TreePolicy>;
  /** T_0 values (each must be a permitted leaf). */
  initial?: Record<string, string>;
}

/**
 * Creates T_0 over a schema (default: Inside Out's `data/persona-tree/human_tree_en.json`).
 *
 * @example
 * const tree = createPersonaTree({ initial: { '4_Identity_Characteristics.Social_Identity.Legal_and_Civic_Status.Name': 'Ana' } });
 */
export function createPersonaTree(options: CreatePersonaTreeOptions = {}): PersonaTree {
  const schema = options.schema ?? loadTreeSchema();
  const policy = { ...PersonaTreeConfig.parse({}), ...options.policy };
  let tree: PersonaTree = { schema, policy, values: {}, extendedLeaves: new Set(), version: 0, history: [] };
  if (options.initial !== undefined) {
    const ops: TreeOp[] = Object.entries(options.initial)
      .filter(([, value]) => value.trim() !== '')
      .map(([path, value]) => ({ op: 'ADD', path, value }));
    const step = executeOps(tree, ops);
    if (step.rejected.length > 0) {
      const first = step.rejected[0] as { op: TreeOp; reason: string };
      throw new MemoryOpError(`initial tree value for "${first.op.path}" rejected: ${first.reason}`);
    }
    tree = { ...step.tree, version: 0, history: [] };
  }
  return tree;
}

/**
 * Why `path` may not receive a new leaf, or null when the extended-schema policy allows it. A
 * node is a leaf or a branch, never both: with `maxExtensionDepth` ≥ 2 a new leaf may not sit
 * under an extended leaf, nor have extended leaves under it (the rendered tree could hold only one).
 */
function extensionProblem(tree: PersonaTree, path: string, extended: ReadonlySet<string>): string | null {
  if (!tree.policy.allowExtendedAdd) return 'path is not a leaf of the schema (extended ADD is disabled)';
  const segments = path.split('.');
  for (let end = 1; end < segments.length; end++) {
    const prefix = segments.slice(0, end).join('.');
    if (extended.has(prefix)) return `"${prefix}" is a leaf; a leaf cannot have children`;
  }
  for (const leaf of extended) {
    if (leaf.startsWith(`${path}.`)) return `"${leaf}" is under it; a branch cannot hold a value`;
  }
  for (let depth = 1; depth <= tree.policy.maxExtensionDepth; depth++) {
    const parent = segments.slice(0, -depth).join('.');
    if (tree.schema.extensible.has(parent)) return null;
    if (tree.schema.branches.has(parent) || tree.schema.leaves.has(parent)) break;
  }
  return 'path is outside the schema and not under an extensible branch';
}

function executeOps(
  tree: PersonaTree,
  ops: readonly TreeOp[],
): { tree: PersonaTree; step: TreeStep } & TreeStep {
  const values: Record<string, string> = { ...tree.values };
  const extended = new Set(tree.extendedLeaves);
  const applied: TreeOp[] = [];
  const rejected: TreeStep['rejected'] = [];
  const compressed: TreeStep['compressed'] = [];
  const before = new Map<string, string | null>();
  const touched = new Set<string>();
  const reject = (op: TreeOp, reason: string) => rejected.push({ op, reason });
  for (const op of ops) {
    if (op.op === 'NO_OP') {
      applied.push(op);
      continue;
    }
    const path = op.path;
    if (path === null || path === '') {
      reject(op, `${op.op} needs a path`);
      continue;
    }
    if (tree.schema.branches.has(path)) {
      reject(op, `"${path}" is a branch, not a leaf`);
      continue;
    }
    // One operation per attribute and step (Inside Out §3): the executor never arbitrates.
    if (touched.has(path)) {
      reject(op, `"${path}" already has an operation in this step`);
      continue;
    }
    const known = tree.schema.leaves.has(path) || extended.has(path);
    const current = values[path];
    if (op.op === 'DELETE') {
      if (op.value !== null) {
        reject(op, 'DELETE takes no value (the deletion marker None)');
        continue;
      }
      if (!known || current === undefined) {
        reject(op, `"${path}" has no value to delete`);
        continue;
      }
      before.set(path, current);
      touched.add(path);
      delete values[path];
      if (extended.has(path)) extended.delete(path);
      applied.push(op);
      continue;
    }
    if (typeof op.value !== 'string' || op.value.trim() === '') {
      reject(op, `${op.op} needs a non-empty string value`);
      continue;
    }
    if (op.op === 'ADD') {
      if (current !== undefined) {
        reject(op, `"${path}" already has a value (use UPDATE)`);
        continue;
      }
      if (!known) {
        const problem = extensionProblem(tree, path, extended);
        if (problem !== null) {
          reject(op, `"${path}": ${problem}`);
          continue;
        }
        extended.add(path);
      }
    } else if (!known || current === undefined) {
      reject(op, `"${path}" has no value to update (use ADD)`);
      continue;
    }
    let value = op.value.trim();
    if (value.length > tree.policy.leafMaxChars) {
      compressed.push({ path, length: value.length });
      value = compressValue(value, tree.policy.leafMaxChars);
    }
    before.set(path, current ?? null);
    touched.add(path);
    values[path] = value;
    applied.push(op);
  }
  const diff: TreeDiffEntry[] = [...before.entries()]
    .map(([path, old]) => ({ path, before: old, after: values[path] ?? null }))
    .filter((entry) => entry.before !== entry.after)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const step: TreeStep = { version: tree.version + 1, ops: [...ops], applied, rejected, compressed, diff };
  const next: PersonaTree = {
    ...tree,
    values,
    extendedLeaves: extended,
    version: step.version,
    history: [...tree.history, step],
  };
  return { tree: next, step, ...step };
}

/**
 * The safe executor (Inside Out §3): applies the ops that pass the gate — permitted leaf paths
 * only (new leaves only under an extensible branch when the policy allows), ADD only on empty
 * leaves, UPDATE/DELETE only on filled ones, string values or the deletion marker, one op per
 * path, values compressed to the leaf budget — and returns version T_{i+1} with its diff.
 * Rejected ops are listed with reasons; conflicts are never resolved here.
 *
 * @example
 * const { tree: next, rejected } = applyTreeOps(tree, parseTreeOps(text).ops);
 */
export function applyTreeOps(
  tree: PersonaTree,
  ops: readonly TreeOp[],
  policy: Partial<TreePolicy> = {},
): { tree: PersonaTree; step: TreeStep } {
  const withPolicy =
    Object.keys(policy).length === 0 ? tree : { ...tree, policy: { ...tree.policy, ...policy } };
  const { tree: next, step } = executeOps(withPolicy, ops);
  return { tree: { ...next, policy: tree.policy }, step };
}

/**
 * True when `path` is a leaf the tree may hold (schema leaf or an extended leaf it created).
 *
 * @example
 * isPermittedLeaf(tree, '4_Identity_Characteristics.Social_Identity.Legal_and_Civic_Status.Name'); // true
 */
export function isPermittedLeaf(tree: PersonaTree, path: string): boolean {
  return tree.schema.leaves.has(path) || tree.extendedLeaves.has(path);
}

/**
 * The tree as nested JSON (schema trunk with current values), the form a prompt shows.
 *
 * @example
 * JSON.stringify(renderPersonaTree(tree, { onlyFilled: true }));
 */
export function renderPersonaTree(
  tree: PersonaTree,
  options: { onlyFilled?: boolean } = {},
): Record<string, unknown> {
  // Null-prototype objects: no path segment can reach Object.prototype.
  const out: Record<string, unknown> = Object.create(null);
  const set = (path: string, value: string) => {
    const segments = path.split('.');
    let node = out;
    for (const segment of segments.slice(0, -1)) {
      const child = node[segment];
      if (child === undefined || typeof child !== 'object') node[segment] = Object.create(null);
      node = node[segment] as Record<string, unknown>;
    }
    node[segments[segments.length - 1] as string] = value;
  };
  if (options.onlyFilled !== true) for (const leaf of tree.schema.leaves) set(leaf, '');
  for (const [path, value] of Object.entries(tree.values).sort(([a], [b]) => (a < b ? -1 : 1)))
    set(path, value);
  return out;
}
