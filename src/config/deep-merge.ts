/**
 * Merges `override` onto `base` the way `extends:` works: maps merge key by key, recursively;
 * arrays and scalars in `override` replace what `base` had. Neither input is modified.
 *
 * @example deepMerge({ a: { x: 1, y: [1] } }, { a: { y: [2] } }) // { a: { x: 1, y: [2] } }
 */
export function deepMerge(base: unknown, override: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(override)) return override === undefined ? base : override;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    out[key] = key in base ? deepMerge(base[key], value) : value;
  }
  return out;
}

/** True for `{…}` objects (not arrays, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
