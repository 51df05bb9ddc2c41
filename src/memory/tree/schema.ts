import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../errors/index.js';

/**
 * A PersonaTree schema file: `tree` is the fixed trunk (objects are branches, `""` marks a
 * permitted leaf; Inside Out §3's biopsychosocial layout), `extensible` lists the branches
 * under which ADD may create new leaves (the extended-schema policy).
 */
export const TreeSchemaFile = z
  .object({
    id: z.string().min(1),
    description: z.string().optional(),
    extensible: z.array(z.string()).default([]),
    tree: z.record(z.string(), z.unknown()),
  })
  .strict();
export type TreeSchemaFile = z.infer<typeof TreeSchemaFile>;

export interface TreeSchema {
  id: string;
  /** Permitted leaf paths of the trunk. */
  leaves: ReadonlySet<string>;
  /** Branch paths (never writable themselves). */
  branches: ReadonlySet<string>;
  /** Branches accepting new leaves under the extended-schema policy. */
  extensible: ReadonlySet<string>;
  /** The trunk in nested form with empty leaves (for rendering). */
  tree: Record<string, unknown>;
}

const SEGMENT = /^[A-Za-z0-9_]+$/;

/**
 * Validates a schema document and indexes its leaves and branches.
 *
 * @example
 * const schema = parseTreeSchema({ id: 'tiny', tree: { Identity: { Name: '' } } });
 * schema.leaves.has('Identity.Name'); // true
 */
export function parseTreeSchema(document: unknown, source = 'persona tree schema'): TreeSchema {
  const parsed = TreeSchemaFile.safeParse(document);
  if (!parsed.success) throw new InputError(source, z.prettifyError(parsed.error));
  const leaves = new Set<string>();
  const branches = new Set<string>();
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(node)) {
      if (!SEGMENT.test(key))
        throw new InputError(source, `key "${key}" under "${prefix}" is not [A-Za-z0-9_]+`);
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (typeof value === 'string') leaves.add(path);
      else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        branches.add(path);
        walk(value as Record<string, unknown>, path);
      } else throw new InputError(source, `"${path}" must be a branch object or a "" leaf`);
    }
  };
  walk(parsed.data.tree, '');
  for (const path of parsed.data.extensible) {
    if (!branches.has(path))
      throw new InputError(source, `extensible path "${path}" is not a branch of the tree`);
  }
  return {
    id: parsed.data.id,
    leaves,
    branches,
    extensible: new Set(parsed.data.extensible),
    tree: parsed.data.tree,
  };
}

/** Location of the project's default schema (`data/persona-tree-schema.json`). */
export const DEFAULT_TREE_SCHEMA_PATH = fileURLToPath(
  new URL('../../../data/persona-tree-schema.json', import.meta.url),
);

let defaultSchema: TreeSchema | null = null;

/**
 * Loads a schema file (default: the project's own).
 *
 * @example
 * const schema = loadTreeSchema();
 */
export function loadTreeSchema(path: string | null = null): TreeSchema {
  if (path === null && defaultSchema !== null) return defaultSchema;
  const file = path ?? DEFAULT_TREE_SCHEMA_PATH;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(file, `cannot read persona tree schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const schema = parseTreeSchema(document, file);
  if (path === null) defaultSchema = schema;
  return schema;
}
