import { describe, expect, it } from 'vitest';
import { PlanError } from '../errors/index.js';
import { resolvePlanSettings } from '../schemas/plan-config.js';
import { createRng } from '../util/rng.js';
import { buildTimeline, MINUTE } from './timeline.js';

describe('buildTimeline', () => {
  it('keeps t_s between sessions even on a crowded schedule', () => {
    const settings = resolvePlanSettings({
      horizonDays: { train: [1, 1] },
      contexts: { '32k': { rounds: [300, 300] } },
    });
    for (let seed = 0; seed < 20; seed++) {
      const timeline = buildTimeline(createRng(seed), settings, 'train');
      expect(timeline.rounds).toHaveLength(300);
      for (let index = 1; index < timeline.rounds.length; index++) {
        const previous = timeline.rounds[index - 1];
        const round = timeline.rounds[index];
        if (previous === undefined || round === undefined) continue;
        expect(round.time).toBeGreaterThan(previous.time);
        if (round.sessionIndex !== previous.sessionIndex) {
          expect(round.time - previous.time).toBeGreaterThanOrEqual(settings.sessionGapMinutes * MINUTE);
        }
      }
      // The horizon grows to cover a schedule that does not fit in one day.
      expect(timeline.end).toBeGreaterThan(timeline.rounds[timeline.rounds.length - 1]?.time ?? 0);
    }
  });

  it('starts sessions at daytime or evening hours', () => {
    const settings = resolvePlanSettings({});
    const hours = new Set<number>();
    for (let seed = 0; seed < 50; seed++) {
      for (const session of buildTimeline(createRng(seed), settings, 'test').sessions)
        hours.add(new Date(session.start).getUTCHours());
    }
    for (const hour of hours) expect(hour === 0 || hour >= 7).toBe(true);
  });

  it('names an unknown context profile in its error', () => {
    const settings = resolvePlanSettings({ trainContexts: ['8k'] });
    expect(() => buildTimeline(createRng(1), settings, 'train')).toThrow(PlanError);
    expect(() => buildTimeline(createRng(1), settings, 'train')).toThrow(/"8k"/);
  });
});
