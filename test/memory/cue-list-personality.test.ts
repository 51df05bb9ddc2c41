import { describe, expect, it } from 'vitest';
import type { BigFive } from '../../src/schemas/common.js';
import {
  personalityTargetFromText,
  readPersonalityEvidence,
  unsupportedTraits,
} from '../support/cue-list-personality.js';

const profile: BigFive = {
  openness: 4.6,
  conscientiousness: 2.2,
  extraversion: 1.4,
  agreeableness: 3.2,
  neuroticism: 3.9,
};
const neutral: BigFive = {
  openness: 3,
  conscientiousness: 3,
  extraversion: 3,
  agreeableness: 3,
  neuroticism: 3,
};

describe('readPersonalityEvidence', () => {
  it.each([
    ['Guess what, I booked the trip!', 'extraversion', 1],
    ['I will keep this short, any ideas on the budget?', 'extraversion', -1],
    ['I made a list already, can we go over the timing?', 'conscientiousness', 1],
    ['I feel more scattered lately: burnout after a long project.', 'conscientiousness', -1],
    ['Skip the fluff, what should I cook?', 'agreeableness', -1],
    ['Could you check the route, thanks so much.', 'agreeableness', 1],
    ['I want to start running, though I am a bit worried about the timing.', 'neuroticism', 1],
    ['I feel more calm lately: starting therapy and a regular sleep schedule.', 'neuroticism', -1],
    ['I am curious, what is pottery like?', 'openness', 1],
    ['I feel more cautious lately: a stressful period made me stick to what I know.', 'openness', -1],
  ] as const)('%s → %s %d', (text, trait, reading) => {
    const evidence = readPersonalityEvidence(text);
    expect(evidence[trait].reading).toBe(reading);
    expect(evidence[trait].cues.length).toBeGreaterThan(0);
  });

  it('reads nothing from a message without cues, and both sides as mixed', () => {
    const none = readPersonalityEvidence(
      'I really enjoy green curry these days, it came up again on the bus.',
    );
    for (const trait of Object.keys(none) as Array<keyof BigFive>) expect(none[trait].reading).toBe(0);
    expect(readPersonalityEvidence('I will keep this short, it went well!').extraversion.reading).toBe(
      'mixed',
    );
  });
});

describe('personalityTargetFromText', () => {
  it('is all 3 for a message that shows nothing, whatever the profile', () => {
    expect(personalityTargetFromText('My sister Ana called me last night.', profile)).toEqual(neutral);
  });

  it('reads a shown trait on the side the text shows, with the profile score when it agrees', () => {
    const target = personalityTargetFromText(
      'Oh wow, look at this! Though I am a bit worried about the cost.',
      profile,
    );
    // Extraversion: the text shows high although the profile is low → the nearest high score.
    expect(target).toEqual({ ...neutral, extraversion: 4, neuroticism: 4 });
    expect(personalityTargetFromText('I am curious, what is rowing like?', profile).openness).toBe(5);
    expect(personalityTargetFromText('I feel more organized lately.', profile).conscientiousness).toBe(4);
    expect(personalityTargetFromText('Skip the fluff, what now?', profile).agreeableness).toBe(2);
  });
});

describe('unsupportedTraits', () => {
  it('names every trait a target reads without (or against) evidence', () => {
    const text = 'I will keep this short, any ideas on the budget?';
    expect(unsupportedTraits(text, { ...neutral, extraversion: 2 })).toEqual([]);
    expect(unsupportedTraits(text, { ...neutral, extraversion: 4, openness: 5 })).toEqual([
      'openness 5: the message shows no cue',
      'extraversion 4: the message shows low (I will keep this short)',
    ]);
    expect(unsupportedTraits(text, neutral)).toEqual([
      'extraversion 3: the message shows low (I will keep this short)',
    ]);
  });
});
