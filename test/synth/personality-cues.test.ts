import { describe, expect, it } from 'vitest';
import { inferPersonality, readMessage, scoreFromCounts } from '../../src/memory/gold/personality-reading.js';
import { indexPlan } from '../../src/memory/gold/plan-index.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../../src/schemas/common.js';
import { STYLE_CLAUSES } from '../../src/synth/offline/phrases.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

/** The trait and side each style bank writes (src/synth/offline/style.ts). */
const BANK_TRAITS: Record<keyof typeof STYLE_CLAUSES, [BigFiveTrait, 1 | -1]> = {
  extravertHigh: ['extraversion', 1],
  extravertLow: ['extraversion', -1],
  neuroticHigh: ['neuroticism', 1],
  neuroticLow: ['neuroticism', -1],
  agreeableHigh: ['agreeableness', 1],
  agreeableLow: ['agreeableness', -1],
  openHigh: ['openness', 1],
  openLow: ['openness', -1],
  conscientiousHigh: ['conscientiousness', 1],
  conscientiousLow: ['conscientiousness', -1],
};

describe('personality-inference targets are what a reader infers from several messages', () => {
  it('never reads a style sentence as the other side of the trait it was written for', () => {
    let read = 0;
    let phrases = 0;
    for (const [bank, [trait, side]] of Object.entries(BANK_TRAITS)) {
      for (const phrase of STYLE_CLAUSES[bank as keyof typeof STYLE_CLAUSES]) {
        phrases++;
        const reading = readMessage(`${phrase}. Can we go over the budget?`)[trait];
        expect(reading, `${bank}: "${phrase}"`).not.toBe(-side);
        if (reading === side) read++;
      }
    }
    // The reader has its own lexicon: it reads many of the written sentences, not all of them.
    expect(read / phrases).toBeGreaterThan(0.4);
    expect(read).toBeLessThan(phrases);
  });

  it('grades: one message is not enough evidence, two make 4, four (none against) make 5', () => {
    const anxious = 'I am scared I will mess it up.';
    const plain = 'Can we go over the budget for my photos?';
    expect(inferPersonality([plain, plain, anxious]).neuroticism.score).toBe(3);
    expect(inferPersonality([plain, anxious, plain, anxious]).neuroticism.score).toBe(4);
    expect(inferPersonality([anxious, anxious, anxious, anxious]).neuroticism.score).toBe(5);
    expect(scoreFromCounts(3, 2)).toBe(3);
    expect(scoreFromCounts(0, 4)).toBe(1);
    expect(scoreFromCounts(5, 1)).toBe(4);
  });

  it('labels offline dialogues on the side of the hidden profile, mostly "not enough evidence"', async () => {
    const images = fixtureImages();
    const plans = fixtureUsers(8, 5).map((user) =>
      buildUserPlan({ ...user, images }, { config: {}, seed: 42 }),
    );
    let scored = 0;
    let wrongSide = 0;
    let extremes = 0;
    let traits = 0;
    for (const plan of plans) {
      const dialogue = await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
      });
      const index = indexPlan(plan);
      for (const session of dialogue.sessions) {
        const users = session.turns.filter((turn) => turn.speaker === 'user');
        users.forEach((turn, i) => {
          const inference = inferPersonality(users.slice(Math.max(0, i - 4), i + 1).map((t) => t.text));
          const profile = index.personalityAt(turn.time);
          for (const trait of BIG_FIVE_TRAITS) {
            traits++;
            const { score } = inference[trait];
            if (score === 3) continue;
            scored++;
            if (score === 1 || score === 5) extremes++;
            if (Math.sign(score - 3) !== Math.sign(profile[trait] - 3)) wrongSide++;
          }
        });
      }
    }
    expect(scored).toBeGreaterThan(0);
    expect(scored / traits).toBeLessThan(0.5);
    expect(extremes).toBeLessThan(scored / 3);
    expect(wrongSide / scored).toBeLessThan(0.1);
  });
});
