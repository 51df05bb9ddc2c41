import * as crypto from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal values always serialise to equal bytes.
 * Used for content hashes (cache keys, config hashes) and for byte-stable output files.
 *
 * @example stableStringify({ b: 1, a: [2, { d: 1, c: 0 }] }) // '{"a":[2,{"c":0,"d":1}],"b":1}'
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== undefined) out[key] = sortKeys(inner);
    }
    return out;
  }
  return value;
}

/** Node's one-shot digest (20.12+): ~4× faster than a Hash object for short inputs (ids, keys). */
const oneShot = (
  crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string }
).hash;

/** Hex sha256 of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return oneShot !== undefined
    ? oneShot('sha256', data, 'hex')
    : crypto.createHash('sha256').update(data).digest('hex');
}

/** Hex sha256 of a value's stable JSON. */
export function hashValue(value: unknown): string {
  return sha256(stableStringify(value));
}
