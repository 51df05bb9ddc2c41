/**
 * A deep copy of plain data (objects, arrays, primitives), the same as `structuredClone` gives
 * for it (keys in order, `undefined` values kept) at a fraction of the cost; anything else (a
 * Date, a Map, a class instance) is handed to `structuredClone`.
 *
 * @example clonePlain({ a: [1, { b: 'x' }] }) // { a: [1, { b: 'x' }] }, sharing nothing
 */
export function clonePlain<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = clonePlain(value[i]);
    return out as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = clonePlain((value as Record<string, unknown>)[key]);
  return out as T;
}
