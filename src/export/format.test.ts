import { describe, expect, it } from 'vitest';
import { SftMixConfig } from '../schemas/export-config.js';
import { csvField, pythonRepr } from './eval/personamem.js';
import { keptPositions, mixQuotas, quotaKey, quotaRank, selectByQuota } from './mix.js';
import { formatLocomoTime, formatMinute, optionLabel } from './time-format.js';

describe('time formats', () => {
  it.each([
    ['2023-05-08T13:56:00.000Z', '1:56 pm on 8 May, 2023'],
    ['2024-01-01T00:05:00Z', '12:05 am on 1 January, 2024'],
    ['2024-12-31T12:00:00.000Z', '12:00 pm on 31 December, 2024'],
  ])('LoCoMo time of %s is %s', (iso, expected) => {
    expect(formatLocomoTime(iso)).toBe(expected);
  });

  it.each([
    ['2024-09-23T20:08:00.000Z', '2024-09-23 20:08'],
    ['2024-09-23T20:08:59Z', '2024-09-23 20:08'],
    ['2024-09-23T22:08:00+02:00', '2024-09-23 20:08'],
  ])('minute format of %s is %s', (iso, expected) => {
    expect(formatMinute(iso)).toBe(expected);
  });

  it('labels options (a)…(d)', () => {
    expect([0, 1, 2, 3].map(optionLabel)).toEqual(['(a)', '(b)', '(c)', '(d)']);
  });
});

describe('PersonaMem CSV helpers', () => {
  it.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
  ])('csvField(%j) = %j', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });

  it.each([
    ['(a) tea', "'(a) tea'"],
    ["(b) it's", `"(b) it's"`],
    [`(c) it's "x"`, `'(c) it\\'s "x"'`],
    ['(d) back\\slash\n', "'(d) back\\\\slash\\n'"],
  ])('pythonRepr(%j) = %j', (value, expected) => {
    expect(pythonRepr(value)).toBe(expected);
  });
});

describe('mix', () => {
  it('keeps the largest set matching the ratio, renormalising over tasks with data', () => {
    const mix = SftMixConfig.parse({
      weights: { reasoning: 0.5, semantic_write: 0.25, core_update: 0.25, tree_ops: 0 },
    });
    expect(mixQuotas({ reasoning: 100, semantic_write: 10, core_update: 40, tree_ops: 50 }, mix)).toEqual({
      core_update: 10,
      reasoning: 20,
      semantic_write: 10,
    });
    expect(mixQuotas({ reasoning: 100, semantic_write: 0, core_update: 40 }, mix)).toEqual({
      core_update: 40,
      reasoning: 80,
    });
  });

  it('keeps everything in `all` mode and honours maxPerSplit', () => {
    const all = SftMixConfig.parse({
      mode: 'all',
      weights: { reasoning: 1, core_update: 1 },
      maxPerSplit: 10,
    });
    expect(mixQuotas({ reasoning: 30, core_update: 10, tree_ops: 5 }, all)).toEqual({
      core_update: 2,
      reasoning: 7,
    });
  });

  it('selects deterministically, independent of input order', () => {
    const ids = Array.from({ length: 50 }, (_, i) => `id-${i}`);
    const first = selectByQuota(new Map([['t', ids]]), { t: 10 }, 42);
    const second = selectByQuota(new Map([['t', [...ids].reverse()]]), { t: 10 }, 42);
    expect(first.size).toBe(10);
    expect([...first].sort()).toEqual([...second].sort());
    expect([...selectByQuota(new Map([['t', ids]]), { t: 10 }, 7)].sort()).not.toEqual([...first].sort());
  });

  it('keeps exactly the quota ids of smallest rank, ranks sharing their first digits included', () => {
    const ids = Array.from({ length: 200 }, (_, i) => `id-${i}`);
    const smallest = (ranks: string[], quota: number) =>
      new Set(
        ids
          .map((id, i) => ({ id, rank: ranks[i] as string }))
          .sort((a, b) => (a.rank < b.rank ? -1 : 1))
          .slice(0, quota)
          .map(({ id }) => id),
      );
    const hashed = ids.map((id) => quotaRank(42, id));
    // Only four distinct first-12-digit prefixes: the order within one is decided by the rest.
    const tied = ids.map((_, i) => `0123456789a${i % 4}${hashed[i]?.slice(12)}`);
    for (const ranks of [hashed, tied]) {
      const rankOf = new Map(ids.map((id, i) => [id, ranks[i] as string]));
      const rank = (id: string) => rankOf.get(id) as string;
      for (const quota of [1, 37, 51, 199, 200, 250]) {
        const expected = [...smallest(ranks, quota)].sort();
        // With the keys given (as export's scan computes them) and without.
        for (const keys of [ranks.map(quotaKey), undefined]) {
          const kept = keptPositions(ids, quota, rank, keys).map((i) => ids[i]);
          expect(kept.sort()).toEqual(expected);
        }
      }
    }
    const keys = new Map([['t', hashed.map(quotaKey)]]);
    expect([...selectByQuota(new Map([['t', ids]]), { t: 51 }, 42, keys)].sort()).toEqual(
      [...smallest(hashed, 51)].sort(),
    );
  });

  it('rejects unknown task names in weights', () => {
    expect(SftMixConfig.safeParse({ weights: { reasonin: 1 } }).success).toBe(false);
  });
});
