import { describe, expect, it } from 'vitest';
import { PipelineConfig } from './pipeline.js';
import { PlanConfig, resolvePlanSettings } from './plan-config.js';

describe('plan config', () => {
  it('defaults to SPEC numbers: t_s 60, 20–100 / 100–500 rounds, VitaBench mix and drift means', () => {
    const settings = resolvePlanSettings({});
    expect(settings.sessionGapMinutes).toBe(60);
    expect(settings.contexts).toEqual({ '32k': { rounds: [20, 100] }, '128k': { rounds: [100, 500] } });
    expect(settings.preferences.mix.food).toBe(0.35);
    expect(settings.drift.perUserMeans).toEqual({ add: 36.07, delete: 7.52, modify: 4.79 });
    expect(settings.noise.ratio).toBe(0.2);
  });

  it('accepts a partial section inside a pipeline file and rejects typos', () => {
    const pipeline = PipelineConfig.parse({
      name: 'x',
      stages: ['plan'],
      plan: { profile: 'm2a', qa: { locomo: 4 } },
    });
    expect(resolvePlanSettings(pipeline.plan).qa.locomo).toBe(4);
    expect(resolvePlanSettings(pipeline.plan).contexts.m2a).toEqual({ rounds: [25, 90] });
    // Parsing the file must not fill generic defaults that would hide the preset.
    expect(pipeline.plan).toEqual({ profile: 'm2a', qa: { locomo: 4 } });
    expect(resolvePlanSettings(pipeline.plan).trainContexts).toEqual(['m2a']);
    expect(PlanConfig.safeParse({ drift: { timescale: 2 } }).success).toBe(false);
    expect(PlanConfig.safeParse({ profile: 'unknown' }).success).toBe(false);
  });

  it('resolves equal configs once', () => {
    expect(resolvePlanSettings({ profile: 'vitabench' })).toBe(resolvePlanSettings({ profile: 'vitabench' }));
  });
});
