import { z } from 'zod';

/** A JSON Schema object as `z.toJSONSchema` writes it (draft 2020-12). */
export type JsonSchema = { [keyword: string]: unknown };

/** What the loader accepts before validation, besides the value itself (see `interpolateEnv`). */
const VARIABLE = '\\$\\{[A-Za-z_][A-Za-z0-9_]*(:-[^}]*)?\\}';
/** A whole value `${VAR}`: the loader turns its substitution into a number or boolean when it reads as one. */
const WHOLE_VARIABLE: JsonSchema = {
  type: 'string',
  pattern: `^${VARIABLE}$`,
  description: '`${VAR}` or `${VAR:-default}`: the environment variable, substituted when the file loads.',
};
/** A string holding a `${VAR}` somewhere, e.g. `http://${HOST}:8000/v1`. */
const SOME_VARIABLE: JsonSchema = {
  type: 'string',
  pattern: VARIABLE,
  description: 'A text with `${VAR}` / `${VAR:-default}` references, substituted when the file loads.',
};

const EXTENDS: JsonSchema = {
  type: 'string',
  minLength: 1,
  description:
    'A base file (path relative to this one) this file is merged over: maps merge, lists replace. Fields the base sets may be left out here.',
};

export interface ConfigJsonSchemaOptions {
  /** A base file of `extends:` chains: every field optional. @default false */
  partial?: boolean;
}

/**
 * The JSON Schema of a YAML config file, from its zod schema (the input shape: defaults optional),
 * the one place editors' schemas are made. Besides what zod validates it accepts what the loader
 * takes before validating: `extends: <base file>` (then any field may come from the base, so
 * none is required) and a `${VAR}` string wherever a number, boolean, enum or formatted string
 * goes. Every property carries the `.describe()` text of its zod schema.
 *
 * @example configJsonSchema('pipeline', PipelineConfig).properties.extends.type // 'string'
 */
export function configJsonSchema(
  title: string,
  schema: z.ZodType,
  options: ConfigJsonSchemaOptions = {},
): JsonSchema {
  const complete = withVariables(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }));
  const { $schema, ...body } = complete;
  const partial = withoutRequired(body) as JsonSchema;
  const properties = { extends: EXTENDS, ...(partial.properties as Record<string, JsonSchema>) };
  const description =
    (complete.description as string | undefined) ??
    `A persona-forge ${title} file. Generated from its zod schema by \`persona-forge schema\`.`;
  if (options.partial === true) return { $schema, title, ...partial, description, properties };
  return {
    $schema,
    title,
    ...partial,
    description,
    properties,
    // A file that extends another may leave required fields to its base; one that does not must
    // set them all.
    if: { not: { required: ['extends'] } },
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
    then: { $ref: '#/$defs/complete' },
    $defs: { ...(partial.$defs as object | undefined), complete: body },
  };
}

/** Adds the `${VAR}` alternative to every scalar that is not already a free string. */
function withVariables(node: JsonSchema): JsonSchema {
  if (isScalar(node)) return acceptVariable(node);
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === '$defs') {
      out[key] = Object.fromEntries(
        Object.entries(value as Record<string, JsonSchema>).map(([name, child]) => [
          name,
          withVariables(child),
        ]),
      );
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = withVariables(value);
    } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
      out[key] = (value as JsonSchema[]).map(withVariables);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);

/** A schema for one scalar value (no object, array or union of them). */
function isScalar(node: JsonSchema): boolean {
  if (typeof node.type === 'string') return SCALAR_TYPES.has(node.type);
  if (node.const !== undefined || Array.isArray(node.enum)) return true;
  const branches = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  return branches?.every((branch) => branch.type !== 'null' && isScalar(branch)) ?? false;
}

function acceptVariable(node: JsonSchema): JsonSchema {
  const freeString =
    node.type === 'string' &&
    node.enum === undefined &&
    node.const === undefined &&
    node.pattern === undefined &&
    node.format === undefined;
  if (freeString) return node;
  const { description, default: fallback, title, ...value } = node;
  const variable =
    node.type === 'string' && node.enum === undefined && node.const === undefined
      ? SOME_VARIABLE
      : WHOLE_VARIABLE;
  return {
    ...(title === undefined ? {} : { title }),
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: [value, variable],
  };
}

/** The same schema with no required field anywhere (a base file, or one whose base fills them). */
function withoutRequired(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutRequired);
  if (!isSchema(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'required' && Array.isArray(value)) continue;
    // Without required fields, several branches of a discriminated union can match.
    out[key === 'oneOf' ? 'anyOf' : key] =
      key === 'const' || key === 'enum' || key === 'default' || key === 'examples'
        ? value
        : withoutRequired(value);
  }
  return out;
}
