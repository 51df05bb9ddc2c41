import { describe, expect, it } from 'vitest';
import type { BehaviorEvent } from '../../src/schemas/dialogue.js';
import { createFidelityMeter } from '../../src/validate/fidelity.js';
import { indexUser } from '../../src/validate/types.js';
import { buildFixtureUser } from './fixture.js';

/** A log of `total` events of which `noisy` are noise (the rest ordinary orders). */
function log(total: number, noisy: number): BehaviorEvent[] {
  return Array.from({ length: total }, (_, i) => ({
    id: `u:B${i}`,
    time: new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString(),
    type: 'order',
    scenario: 'delivery',
    merchant: 'Corner Kitchen',
    items: [{ name: 'noodles', price: 12, quantity: 1 }],
    keyword: null,
    tags: [],
    text: null,
    rating: null,
    preferenceId: i < noisy ? null : 'pref-001',
    noise: i < noisy ? 'impulse' : null,
  }));
}

function figure(logs: BehaviorEvent[][], behaviorNoiseRate?: number) {
  const meter = createFidelityMeter(behaviorNoiseRate === undefined ? {} : { behaviorNoiseRate });
  logs.forEach((behaviors, i) => {
    const user = buildFixtureUser(`user-000${i + 1}`);
    meter.addUser(indexUser({ ...user, dialogue: { ...user.dialogue, behaviors } }), new Map());
  });
  return meter.finish().behavior_noise_rate;
}

describe('behavior_noise_rate', () => {
  it('is measured over the run beside the configured rate, within 2 points', () => {
    // 21 of 100 events over two users: 21%, within 2 points of 20%.
    expect(figure([log(60, 12), log(40, 9)], 0.2)).toMatchObject({
      value: 21,
      target: 20,
      tolerance: 2,
      count: 21,
      of: 100,
      ok: true,
    });
  });

  it('fails a log with a planted excess of noise (26% against 20%)', () => {
    expect(figure([log(50, 13), log(50, 13)], 0.2)).toMatchObject({ value: 26, ok: false });
    // Too little noise is off as well.
    expect(figure([log(100, 10)], 0.2)).toMatchObject({ value: 10, ok: false });
  });

  it('allows half an event per log when logs are short (one event is several points)', () => {
    // Three logs of 12 events: 6 of 36 is 16.7%, within 50 × 3 / 36 = 4.2 points of 20%.
    expect(figure([log(12, 2), log(12, 2), log(12, 2)], 0.2)).toMatchObject({ tolerance: 4.2, ok: true });
    expect(figure([log(12, 0), log(12, 1), log(12, 1)], 0.2)).toMatchObject({ ok: false });
  });

  it('is absent when the run has no behaviour logs or no configured rate', () => {
    expect(figure([[]], 0.2)).toBeUndefined();
    expect(figure([log(10, 2)])).toBeUndefined();
  });
});
