import { describe, expect, it } from 'vitest';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { UserPlan } from '../../src/schemas/plan.js';
import { PLAN_PROFILES, type PlanConfig, resolvePlanSettings } from '../../src/schemas/plan-config.js';
import { checkAnswer } from './expected-answer.js';
import { fixtureImages, fixtureUsers } from './fixtures.js';

const users = fixtureUsers(120, 11);
const images = fixtureImages(11);

function build(config: PlanConfig, seed = 5) {
  return users.map((user) => buildUserPlan({ ...user, images }, { config, seed }));
}

describe('buildUserPlan', () => {
  it('is deterministic: same seed gives identical JSON, another seed differs', () => {
    const first = build({}).slice(0, 40);
    const again = build({}).slice(0, 40);
    expect(JSON.stringify(again)).toBe(JSON.stringify(first));
    const other = build({}, 6).slice(0, 40);
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(first));
  });

  it('one user’s plan does not depend on the other users in the run', () => {
    const user = users[7] as (typeof users)[number];
    const alone = buildUserPlan({ ...user, images }, { config: {}, seed: 5 });
    expect(alone).toEqual(build({})[7]);
  });

  it.each(PLAN_PROFILES)('profile %s yields schema-valid plans with correct answers', (profile) => {
    const settings = resolvePlanSettings({ profile });
    const plans = build({ profile });
    const problems: string[] = [];
    for (const plan of plans) {
      const parsed = UserPlan.safeParse(plan);
      if (!parsed.success) problems.push(`${plan.userId} ${parsed.error.issues[0]?.message}`);
      expect(plan.profile).toBe(profile);
      const rounds = plan.sessions.reduce((sum, session) => sum + session.rounds, 0);
      const imageRounds = plan.sessions.reduce((sum, session) => sum + session.images.length, 0);
      if (!settings.multimodal.enabled && imageRounds > 0)
        problems.push(`${plan.userId} has images with multimodal off`);
      if (settings.multimodal.enabled && imageRounds / rounds < settings.multimodal.ratio[0])
        problems.push(`${plan.userId} too few images`);
      for (const qa of plan.qa) {
        const problem = checkAnswer(plan, qa);
        if (problem !== null) problems.push(`${plan.userId} ${qa.task}: ${problem}`);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it('applies profile presets under explicit settings', () => {
    expect(resolvePlanSettings({ profile: 'vitabench' }).preferences.initial).toEqual([25, 68]);
    expect(
      resolvePlanSettings({ profile: 'vitabench', preferences: { initial: [30, 40] } }).preferences.initial,
    ).toEqual([30, 40]);
    expect(resolvePlanSettings({ profile: 'm2a' }).qa.weights).toMatchObject({
      multi_hop: 2,
      temporal: 3,
      open_domain: 1,
      single_hop: 4,
    });
    const vita = build({ profile: 'vitabench' });
    const initial = vita.map((plan) => plan.preferences.filter((p) => p.origin === 'initial').length);
    expect(Math.min(...initial)).toBeGreaterThanOrEqual(25);
  });

  it('turns multimodal rounds off when the pool is empty', () => {
    const user = users[0] as (typeof users)[number];
    const plan = buildUserPlan({ ...user, images: [] }, { config: {}, seed: 5 });
    expect(plan.sessions.every((session) => session.images.length === 0)).toBe(true);
    expect(plan.concepts).toEqual([]);
    expect(plan.qa.some((qa) => qa.task === 'visual_detail_recall')).toBe(false);
  });

  it('honours QA counts and task weights', () => {
    const plans = build({
      qa: { personaMme: 0, personaMem: 0, locomo: 10, weights: { temporal: 0, adversarial: 0 } },
    });
    const tasks = new Set(plans.flatMap((plan) => plan.qa.map((qa) => qa.task)));
    expect(tasks.has('temporal')).toBe(false);
    expect(tasks.has('adversarial')).toBe(false);
    expect(plans.every((plan) => plan.qa.every((qa) => qa.family === 'locomo'))).toBe(true);
    expect(plans.every((plan) => plan.qa.length <= 10)).toBe(true);
  });
});
