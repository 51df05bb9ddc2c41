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

/**
 * Parses a Slurm memory size with its unit (`16G`, `8000M`, `1T`): Slurm reads a bare number as
 * megabytes, so `--mem 8` would ask for 8 MB.
 */
export function parseMemory(value: string): string {
  if (!/^\d+(\.\d+)?[KMGT]$/i.test(value.trim())) {
    throw new InvalidArgumentError(
      `give a unit: 16G (gigabytes), 8000M (megabytes) or 1T; Slurm reads a bare number as megabytes (got "${value}")`,
    );
  }
  return value.trim().toUpperCase();
}

/** Parses an OpenAI-compatible base URL: it must name its scheme (`http://host:8000/v1`). */
export function parseBaseUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    const guess = /^[a-z][a-z0-9+.-]*:\/\//i.test(value)
      ? value.replace(/^[^:]+/, 'http')
      : `http://${value}`;
    throw new InvalidArgumentError(`expected an http(s) URL such as ${guess} (got "${value}")`);
  }
  return value;
}
