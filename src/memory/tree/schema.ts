import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { InputError } from '../../errors/index.js';

/**
 * A PersonaTree schema file: `tree` is the fixed trunk (objects are branches, `""` marks a
 * permitted leaf; Inside Out §3's biopsychosocial layout), `extensible` lists the branches
 * under which ADD may create new leaves (the extended-schema policy). Inside Out's published
 * files (a bare tree, e.g. `human_tree_en.json`) are read too, with `INSIDE_OUT_EXTENSIBLE`.
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

const SEGMENT = /^[\p{L}\p{N}_/]+$/u;

/**
 * Branches of Inside Out's English tree (`human_tree_en.json`) under which ADD may create new
 * leaves: one per preference slot, goal, habit, person or photographed object. The published
 * file has only fixed leaves; the paper lets the tree grow, and this list says where.
 */
export const INSIDE_OUT_EXTENSIBLE: readonly string[] = [
  '4_Identity_Characteristics.Motivations_and_Goals.Goals',
  '5_Behavioral_Characteristics.Social_Interactions.Significant_Others',
  '5_Behavioral_Characteristics.Behavioral_Habits',
  '5_Behavioral_Characteristics.Lifestyle.Self_Care',
  '5_Behavioral_Characteristics.Lifestyle.Mobility_and_Travel',
  '5_Behavioral_Characteristics.Lifestyle.Daily_Schedule',
  '5_Behavioral_Characteristics.Knowledge_Base.Artistic_Preferences',
  '5_Behavioral_Characteristics.Interests_and_Skills',
  '5_Behavioral_Characteristics.Material_Security.Economic_Status',
  '5_Behavioral_Characteristics.Lifestyle.Residential_Environment',
  '4_Identity_Characteristics.Family_System.Caregiving_Responsibilities',
];

/** A published tree file (nested object of `""` leaves, no wrapper) — Inside Out's own format. */
function isRawTree(document: unknown): document is Record<string, unknown> {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return false;
  return !('tree' in document) && Object.values(document).every((v) => v !== null && typeof v === 'object');
}

/**
 * Validates a schema document and indexes its leaves and branches.
 *
 * @example
 * const schema = parseTreeSchema({ id: 'tiny', tree: { Identity: { Name: '' } } });
 * schema.leaves.has('Identity.Name'); // true
 */
export function parseTreeSchema(document: unknown, source = 'persona tree schema'): TreeSchema {
  if (isRawTree(document)) {
    // Inside Out's file as published; the project's extension policy applies where its branches exist.
    const branches = new Set<string>();
    const walk = (node: Record<string, unknown>, prefix: string) => {
      for (const [key, value] of Object.entries(node))
        if (value !== null && typeof value === 'object') {
          branches.add(prefix === '' ? key : `${prefix}.${key}`);
          walk(value as Record<string, unknown>, prefix === '' ? key : `${prefix}.${key}`);
        }
    };
    walk(document, '');
    const id = source.replace(/^.*[\\/]/, '').replace(/\.json$/, '');
    document = { id, extensible: INSIDE_OUT_EXTENSIBLE.filter((path) => branches.has(path)), tree: document };
  }
  const parsed = TreeSchemaFile.safeParse(document);
  if (!parsed.success) throw new InputError(source, z.prettifyError(parsed.error));
  const leaves = new Set<string>();
  const branches = new Set<string>();
  const walk = (node: Record<string, unknown>, prefix: string): void => {
    for (const [key, value] of Object.entries(node)) {
      if (!SEGMENT.test(key))
        throw new InputError(source, `key "${key}" under "${prefix}" is not letters, digits and _`);
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

/** Location of the default schema: Inside Out's English tree, shipped as published (`data/persona-tree/`, Apache-2.0). */
export const DEFAULT_TREE_SCHEMA_PATH = fileURLToPath(
  new URL('../../../data/persona-tree/human_tree_en.json', import.meta.url),
);

const loaded = new Map<string, TreeSchema>();

/**
 * Loads a schema file (default: Inside Out's English tree), once per path.
 *
 * @example
 * const schema = loadTreeSchema();
 */
export function loadTreeSchema(path: string | null = null): TreeSchema {
  const file = path ?? DEFAULT_TREE_SCHEMA_PATH;
  const cached = loaded.get(file);
  if (cached !== undefined) return cached;
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(file, `cannot read persona tree schema: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const schema = parseTreeSchema(document, file);
  loaded.set(file, schema);
  return schema;
}
