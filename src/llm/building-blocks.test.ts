import { describe, expect, it } from 'vitest';
import { createAdaptiveConcurrency } from './adaptive-concurrency.js';
import type { Clock } from './clock.js';
import { estimateCost } from './estimate-cost.js';
import { createRateLimiter } from './rate-limiter.js';
import { extractJson } from './structured-output.js';
import { estimateTokens } from './token-estimate.js';
import { createUsageLedger } from './usage-ledger.js';

/** A clock whose sleep advances time instantly and records the waits. */
function fakeClock(): Clock & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
}

describe('createRateLimiter', () => {
  it('lets a minute of budget through at once, then paces at the refill rate', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(60, clock); // one per second
    for (let index = 0; index < 60; index++) await limiter.take(1);
    expect(clock.now()).toBe(0);
    await limiter.take(1);
    expect(clock.now()).toBe(1000);
  });

  it('serves waiters in arrival order', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter(2, clock);
    const order: number[] = [];
    await Promise.all([1, 2, 3, 4].map((id) => limiter.take(1).then(() => order.push(id))));
    expect(order).toEqual([1, 2, 3, 4]);
    expect(clock.now()).toBe(60_000);
  });
});

describe('createAdaptiveConcurrency', () => {
  it('halves on 429 once per wave, recovers fast to its highest limit, then grows additively', async () => {
    const gate = createAdaptiveConcurrency({ min: 1, max: 8 });
    for (let index = 0; index < 8; index++) expect(gate.acquire()).toBeUndefined();
    expect(gate.acquire()).toBeInstanceOf(Promise);
    gate.onThrottled();
    gate.onThrottled(); // same wave: ignored
    expect(gate.limit).toBe(4);
    expect(gate.shrinks).toBe(1);
    for (let index = 0; index < 9; index++) gate.release();
    // Fast recovery: one step per success back to 8, the highest limit it had.
    for (let index = 0; index < 3; index++) gate.onSuccess();
    expect(gate.limit).toBe(7);
    gate.onSuccess();
    expect(gate.limit).toBe(8);
    gate.onThrottled();
    expect(gate.limit).toBe(4);
    // Past the highest limit it grows one step per `limit` successes (additive increase).
    const wide = createAdaptiveConcurrency({ min: 1, max: 16 });
    wide.onThrottled(); // 16 -> 8, recovers to 16
    for (let index = 0; index < 8; index++) wide.onSuccess();
    expect(wide.limit).toBe(16);
  });

  it('never goes below min', () => {
    const gate = createAdaptiveConcurrency({ min: 2, max: 3 });
    gate.onThrottled();
    gate.onThrottled();
    expect(gate.limit).toBe(2);
  });
});

describe('extractJson', () => {
  it.each([
    ['{"a":1}', { a: 1 }],
    ['Here you go:\n```json\n{"a":[1,2]}\n```', { a: [1, 2] }],
    ['The answer is {"a":true}. Thanks', { a: true }],
    ['[1,2,3]', [1, 2, 3]],
  ])('parses %j', (text, expected) => {
    expect(extractJson(text)?.value).toEqual(expected);
  });

  it('returns undefined when there is no JSON', () => {
    expect(extractJson('no json here {oops')).toBeUndefined();
  });
});

describe('pricing and tokens', () => {
  it('prices per 1M tokens', () => {
    expect(
      estimateCost(
        { promptTokens: 2_000_000, completionTokens: 1_000_000 },
        { priceInputPerM: 0.5, priceOutputPerM: 1.5 },
      ),
    ).toBe(2.5);
  });

  it.each([
    ['', 0],
    ['one two three', 4],
    ['a b c d e f g h', 8],
  ])('estimateTokens(%j) = %d', (text, tokens) => {
    expect(estimateTokens(text)).toBe(tokens);
  });

  it('refuses a reservation that would pass the budget', () => {
    const ledger = createUsageLedger(1);
    const hold = ledger.reserve(0.6);
    expect(() => ledger.reserve(0.5)).toThrow(/budget/);
    ledger.settle(hold, 's', 'e', { promptTokens: 1, completionTokens: 1, costUsd: 0.3 });
    expect(ledger.reserve(0.5)).toBe(0.5);
    expect(ledger.snapshot().byEndpoint.e?.costUsd).toBe(0.3);
  });
});
