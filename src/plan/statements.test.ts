import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.js';
import { iso } from './statements.js';

describe('iso', () => {
  it('matches Date#toISOString for times across days, including fractional milliseconds', () => {
    const rng = createRng(1);
    for (let i = 0; i < 5000; i++) {
      const ms = Math.round(rng.float(0, 4_102_444_800_000));
      expect(iso(ms)).toBe(new Date(ms).toISOString());
    }
    expect(iso(-1)).toBe(new Date(-1).toISOString());
    expect(iso(86_400_000 - 1)).toBe('1970-01-01T23:59:59.999Z');
  });
});
