import { describe, expect, it } from 'vitest';
import { DEFECTS } from '../../../test/validate/defects.js';
import { buildFixtureUser } from '../../../test/validate/fixture.js';
import { VitaBenchSystemConfig } from '../../export/systems/config.js';
import { ValidateConfig } from '../../schemas/validate-config.js';
import { indexUser, type RuleOptions } from '../types.js';
import { leaks } from './gold-in-prompt.js';
import { imageRefsCheck, parseTrajectoryStep, RULE_CHECKS } from './index.js';

const options: RuleOptions = {
  config: ValidateConfig.parse({}),
  imageExists: () => true,
  vitabench: { config: VitaBenchSystemConfig.parse({ enabled: true }), seed: 7 },
};

describe('rule checks', () => {
  it('report nothing on a clean user', () => {
    const index = indexUser(buildFixtureUser('user-0001'));
    for (const check of RULE_CHECKS) expect(check.run(index, options), check.name).toEqual([]);
  });

  const ruleDefects = DEFECTS.filter((defect) => RULE_CHECKS.some((check) => check.name === defect.check));
  it('cover every rule check with at least one defect', () => {
    expect(new Set(ruleDefects.map((defect) => defect.check))).toEqual(
      new Set(RULE_CHECKS.map((check) => check.name)),
    );
  });

  it.each(ruleDefects.map((defect) => [defect.check, defect.name, defect] as const))(
    '%s catches: %s',
    (name, _, defect) => {
      const bundle = buildFixtureUser('user-0001');
      defect.apply(bundle, null);
      const check = RULE_CHECKS.find((candidate) => candidate.name === name)!;
      const failures = check.run(indexUser(bundle), options);
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures) {
        expect(failure).toMatchObject({ check: name, userId: 'user-0001' });
        expect(failure.location).not.toBe('');
        expect(failure.reason).not.toBe('');
      }
    },
  );

  it('image_refs reports a pool file that does not exist', () => {
    const config = ValidateConfig.parse({ imagePoolDir: '/pool' });
    const failures = imageRefsCheck.run(indexUser(buildFixtureUser('user-0001')), {
      config,
      imageExists: () => false,
    });
    expect(failures).toEqual([
      expect.objectContaining({
        location: 'plan.images[user-0001-img-0]',
        reason: expect.stringContaining('not found'),
      }),
    ]);
  });
});

describe('parseTrajectoryStep', () => {
  it.each([
    ['<think>a</think><answer>(b)</answer>', true],
    [
      '<think>a</think>\n<retrieve>{"keywords":"tea","start_time":null,"end_time":"2024-01-02 10:00"}</retrieve>',
      true,
    ],
    ['<answer>(b)</answer>', false],
    ['<think>a</think><retrieve>{"start_time":null}</retrieve>', false],
    ['<think>a</think><retrieve>{"keywords":"x","start_time":"yesterday"}</retrieve>', false],
    ['<think>a</think><retrieve>[1]</retrieve>', false],
    ['<think>a</think><answer>x</answer><answer>y</answer>', false],
    ['<think>a<think>b</think><answer>x</answer>', false],
  ])('%s → ok %s', (text, ok) => {
    expect(parseTrajectoryStep(text).ok).toBe(ok);
  });
});

describe('gold_in_prompt leaks', () => {
  const profile =
    'User profile:\nname: Ana\noccupation: Night Nurse\nhobby: ſwimming at dawn\n\nYour role:\nfriend';
  it('finds an answer as a whole phrase in any case, also where a long s folds to s', () => {
    expect(leaks(profile, 'night nurse', [])).toBe(true);
    expect(leaks(profile, 'Night Nurse', [])).toBe(true);
    expect(leaks(profile, 'swimming at dawn', [])).toBe(true);
    expect(leaks(profile, 'swimming at dawn', ['hobby'])).toBe(true);
  });
  it('does not find an answer the profile does not state, a part of a word, or a short answer away from its subject', () => {
    expect(leaks(profile, 'day nurse', [])).toBe(false);
    expect(leaks(profile, 'nurs', [])).toBe(false);
    expect(leaks(profile, 'night nurse', ['hobby'])).toBe(false);
    expect(leaks(profile.replace('ſ', 's'), 'swimming at noon', [])).toBe(false);
  });
});
