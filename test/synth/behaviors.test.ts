import { describe, expect, it } from 'vitest';
import { BehaviorEvent } from '../../src/schemas/dialogue.js';
import { SynthConfig } from '../../src/schemas/synth-config.js';
import { generateBehaviors } from '../../src/synth/behaviors.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { toVitaBenchInteractions } from '../../src/synth/vitabench.js';
import { makePlanFixture } from '../support/plan-fixture.js';

const plans = Array.from({ length: 6 }, (_, i) => makePlanFixture({ seed: 500 + i, rounds: 300 }));
const config = SynthConfig.parse({ behaviors: { eventsPerGap: 4 } }).behaviors;

describe('behavior logs', () => {
  it('are schema-valid, sorted, with unique ids, and fall between sessions', () => {
    for (const plan of plans) {
      const events = generateBehaviors(plan, { seed: 1, config });
      expect(events.length).toBeGreaterThan(20);
      expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
      for (let i = 0; i < events.length; i++) {
        expect(BehaviorEvent.safeParse(events[i]).success).toBe(true);
        if (i > 0) expect(events[i]!.time >= events[i - 1]!.time).toBe(true);
      }
      const spans = plan.sessions.map(
        (s) => [Date.parse(s.start), Date.parse(s.start) + s.rounds * s.roundGapMinutes * 60_000] as const,
      );
      for (const event of events) {
        const at = Date.parse(event.time);
        expect(spans.some(([from, to]) => at >= from && at <= to)).toBe(false);
      }
    }
  });

  it('follow the preferences active at the event time, never ordering a dislike', () => {
    for (const plan of plans) {
      for (const event of generateBehaviors(plan, { seed: 2, config })) {
        if (event.preferenceId === null) {
          expect(event.noise).not.toBeNull();
          continue;
        }
        const pref = plan.preferences.find((p) => p.id === event.preferenceId)!;
        const at = Date.parse(event.time);
        // Reviews come after the order, still before the preference could change in this gap.
        if (event.type !== 'review') {
          expect(at).toBeGreaterThanOrEqual(Date.parse(pref.validFrom));
          if (pref.validUntil !== null) expect(at).toBeLessThan(Date.parse(pref.validUntil));
        }
        expect(pref.polarity).toBe('like');
        expect(event.tags).toContain(pref.category);
        for (const item of event.items) {
          const [min, max] = config.priceRanges[event.scenario];
          expect(item.price).toBeGreaterThanOrEqual(min);
          expect(item.price).toBeLessThanOrEqual(max);
        }
      }
    }
  });

  it('carry about the configured share of noise, including cancellations', () => {
    const events = plans.flatMap((plan) => generateBehaviors(plan, { seed: 3, config }));
    const noisy = events.filter((e) => e.noise !== null);
    // The realized share over the logs is the configured one within 2 points (a mistaken order
    // and its cancellation are two noise events; reviews are ordinary events).
    expect(Math.abs(noisy.length / events.length - 0.2)).toBeLessThanOrEqual(0.02);
    // Many short logs (a few events per user, as in a small offline run) add up to the rate too.
    const short = Array.from({ length: 40 }, (_, i) => makePlanFixture({ seed: 900 + i, rounds: 60 }));
    const few = short.flatMap((plan) =>
      generateBehaviors(plan, { seed: 5, config: { ...config, eventsPerGap: 1 } }),
    );
    expect(few.length / short.length).toBeLessThan(30);
    expect(Math.abs(few.filter((e) => e.noise !== null).length / few.length - 0.2)).toBeLessThanOrEqual(0.02);
    for (const noiseRate of [0.05, 0.35]) {
      const logs = plans.flatMap((plan) =>
        generateBehaviors(plan, { seed: 3, config: { ...config, noiseRate } }),
      );
      const share = logs.filter((e) => e.noise !== null).length / logs.length;
      expect(Math.abs(share - noiseRate)).toBeLessThanOrEqual(0.02);
    }
    expect(new Set(noisy.map((e) => e.noise))).toEqual(
      new Set(['irrelevant', 'exploratory', 'on_behalf', 'impulse', 'correction']),
    );
    expect(events.some((e) => e.type === 'cancel')).toBe(true);
    const none = plans.flatMap((plan) =>
      generateBehaviors(plan, { seed: 3, config: { ...config, noiseRate: 0, mirrorPlannedNoise: 0 } }),
    );
    expect(none.every((e) => e.noise === null)).toBe(true);
  });

  it('reflect drift: a replaced preference stops appearing after its end', () => {
    const plan = plans.find((p) => p.drift.length > 0)!;
    const drift = plan.drift[0]!;
    const events = generateBehaviors(plan, {
      seed: 4,
      config: { ...config, eventsPerGap: 12, noiseRate: 0 },
    });
    const after = events.filter((e) => e.type !== 'review' && e.time > drift.time);
    expect(after.some((e) => e.preferenceId === drift.previousPreferenceId)).toBe(false);
  });

  it('convert to VitaBench 2.0 interactions grouped by day', async () => {
    const dialogue = await realizeDialogue(plans[0]!, {
      realizer: createOfflineRealizer({ seed: 1 }),
      seed: 1,
    });
    const days = toVitaBenchInteractions(dialogue);
    expect(days.map((d) => d.date)).toEqual([...days.map((d) => d.date)].sort());
    expect(days.reduce((n, d) => n + d.dialogue.length, 0)).toBe(
      dialogue.sessions.reduce((n, s) => n + s.turns.length, 0),
    );
    expect(days.reduce((n, d) => n + d.behavior.length, 0)).toBe(dialogue.behaviors.length);
    const order = days.flatMap((d) => d.behavior).find((b) => b.behavior_type === 'order')!;
    expect(order.content).toMatchObject({
      scenario: expect.any(String),
      merchant_name: expect.any(String),
      items: [
        expect.objectContaining({
          product_name: expect.any(String),
          price: expect.any(Number),
          quantity: expect.any(Number),
        }),
      ],
    });
    const search = days.flatMap((d) => d.behavior).find((b) => b.behavior_type === 'search');
    if (search !== undefined) expect(search.content).toEqual({ keyword: expect.any(String) });
    expect(days[0]!.dialogue[0]).toEqual({ role: 'user', content: dialogue.sessions[0]!.turns[0]!.text });
  });
});

describe('planned noise in behavior logs', () => {
  it('mirrors each noise round of a session into the following gap', () => {
    const plan = plans[0]!;
    const withMirror = generateBehaviors(plan, {
      seed: 9,
      config: { ...config, eventsPerGap: 0, noiseRate: 1, mirrorPlannedNoise: 1 },
    });
    const planned = plan.sessions.slice(0, -1).flatMap((s) => s.noise.map((n) => n.kind));
    // Corrections log an order and its cancellation.
    const expected = planned.length + planned.filter((kind) => kind === 'correction').length;
    expect(withMirror.length).toBeLessThanOrEqual(expected + plan.sessions.at(-1)!.noise.length * 2);
    expect(withMirror.length).toBeGreaterThanOrEqual(expected - 10);
    expect(withMirror.every((e) => e.noise !== null)).toBe(true);
    const without = generateBehaviors(plan, {
      seed: 9,
      config: { ...config, eventsPerGap: 0, noiseRate: 0, mirrorPlannedNoise: 0 },
    });
    expect(without).toEqual([]);
    // Mirrors count toward the configured share: none when no noise is configured.
    const none = generateBehaviors(plan, {
      seed: 9,
      config: { ...config, eventsPerGap: 0, noiseRate: 0, mirrorPlannedNoise: 1 },
    });
    expect(none).toEqual([]);
  });
});
