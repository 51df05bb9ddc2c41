import { InvalidArgumentError } from 'commander';

/** Parses `--shard i/n` or `--shard auto` (resolved from the scheduler's environment later). */
export function parseShard(value: string): { index: number; count: number } | 'auto' {
  if (value === 'auto') return 'auto';
  const match = /^(\d+)\/(\d+)$/.exec(value);
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index >= count) {
    throw new InvalidArgumentError(`expected i/n with 0 ≤ i < n, e.g. 0/4, or auto (got "${value}")`);
  }
  return { index, count };
}

/** Parses a non-negative number flag. */
export function parseNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`expected a non-negative number (got "${value}")`);
  return n;
}
