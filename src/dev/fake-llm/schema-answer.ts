type JsonSchema = Record<string, unknown>;

/**
 * Builds a value that satisfies a JSON Schema, the way a well-behaved model with guided
 * decoding would: every property of an object (required or not), the first enum/const value,
 * strings padded to `minLength` and cut to `maxLength`, numbers inside their range, arrays of
 * `minItems` (at least one, at most `maxItems`), the first non-null branch of `anyOf`/`oneOf`,
 * and `$ref`s into `$defs`. Formats date-time, date, email, uri and uuid get valid samples.
 * `pattern` is not honoured (the fake server documents this).
 *
 * @example answerForSchema({ type: 'object', properties: { n: { type: 'integer', minimum: 3 } }, required: ['n'] }) // { n: 3 }
 */
export function answerForSchema(
  schema: JsonSchema,
  root: JsonSchema = schema,
  depth = 0,
  key = 'value',
): unknown {
  if (depth > 12) return null;
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, part) => (node as JsonSchema)?.[part], root);
    return answerForSchema((target as JsonSchema) ?? {}, root, depth + 1, key);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('default' in schema && schema.default !== undefined) return schema.default;
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    const branch = branches.find((option) => option.type !== 'null') ?? branches[0];
    return answerForSchema(branch as JsonSchema, root, depth + 1, key);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return answerForSchema(schema.allOf[0] as JsonSchema, root, depth + 1, key);
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'object':
      return objectAnswer(schema, root, depth);
    case 'array':
      return arrayAnswer(schema, root, depth, key);
    case 'string':
      return stringAnswer(schema, key);
    case 'integer':
    case 'number':
      return numberAnswer(schema, type === 'integer');
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return schema.properties === undefined ? `sample ${key}` : objectAnswer(schema, root, depth);
  }
}

function objectAnswer(schema: JsonSchema, root: JsonSchema, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [name, property] of Object.entries(properties))
    out[name] = answerForSchema(property, root, depth + 1, name);
  return out;
}

function arrayAnswer(schema: JsonSchema, root: JsonSchema, depth: number, key: string): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 1;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Math.max(min, 1);
  const count = Math.min(Math.max(min, 1), max);
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
  const items = (schema.items ?? {}) as JsonSchema;
  return Array.from({ length: Math.max(count, prefix.length) }, (_, index) =>
    answerForSchema(prefix[index] ?? items, root, depth + 1, `${key}${index + 1}`),
  );
}

const FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00.000Z',
  date: '2024-01-01',
  time: '00:00:00',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

function stringAnswer(schema: JsonSchema, key: string): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
  let text = `sample ${key}`;
  while (text.length < min) text += ' and more';
  return text.slice(0, Math.max(min, Math.min(text.length, max)));
}

function numberAnswer(schema: JsonSchema, integer: boolean): number {
  const step = integer ? 1 : 0.5;
  let low = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  if (typeof schema.exclusiveMinimum === 'number') low = schema.exclusiveMinimum + step;
  let high = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  if (typeof schema.exclusiveMaximum === 'number') high = schema.exclusiveMaximum - step;
  let value = low ?? (high !== undefined ? Math.min(0, high) : 1);
  if (high !== undefined && value > high) value = high;
  return integer ? Math.ceil(value) : value;
}
