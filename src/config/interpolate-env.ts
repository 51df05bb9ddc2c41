import { isMap, isScalar, isSeq, type Node } from 'yaml';

/** Variables interpolation reads; usually `process.env`. */
export type EnvRecord = Record<string, string | undefined>;

/** One `${VAR}` that had no value and no default. */
export interface MissingVariable {
  /** Dotted YAML path of the string that referenced it, e.g. `llm.endpoints.main.baseUrl`. */
  path: string;
  variable: string;
}

// `${NAME}` or `${NAME:-default}`; `$${` escapes a literal `${`.
const PATTERN = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}$/;

/**
 * Substitutes `${VAR}` and `${VAR:-default}` in every string scalar of a parsed YAML node tree,
 * in place. Keys are left alone. A plain (unquoted) scalar that is exactly one `${…}` and whose
 * value looks like a number or boolean becomes that number or boolean, so
 * `maxConcurrency: ${CONCURRENCY:-8}` validates as a number; quote it to keep a string.
 * Returns the variables that were unset and had no default (the caller turns them into errors).
 *
 * @example interpolateEnv(doc.contents, { HOST: 'gpu1' }) // 'http://${HOST}:8000/v1' → 'http://gpu1:8000/v1'
 */
export function interpolateEnv(node: unknown, env: EnvRecord, path: string[] = []): MissingVariable[] {
  const missing: MissingVariable[] = [];
  visit(node, env, path, missing);
  return missing;
}

function visit(node: unknown, env: EnvRecord, path: string[], missing: MissingVariable[]): void {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      visit(pair.value, env, [...path, key], missing);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, index) => {
      visit(item, env, [...path, String(index)], missing);
    });
  } else if (isScalar(node) && typeof node.value === 'string' && node.value.includes('${')) {
    substituteScalar(node, env, path, missing);
  }
}

function substituteScalar(
  node: Node & { value: unknown; type?: string | undefined },
  env: EnvRecord,
  path: string[],
  missing: MissingVariable[],
): void {
  const text = node.value as string;
  const replaced = text.replace(PATTERN, (match, name: string | undefined, fallback: string | undefined) => {
    if (match === '$${') return '${';
    const value = env[name as string];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.push({ path: path.join('.'), variable: name as string });
    return match;
  });
  node.value = node.type === 'PLAIN' && WHOLE.test(text) ? coerce(replaced) : replaced;
}

function coerce(text: string): string | number | boolean {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(text)) return Number(text);
  return text;
}
