import { describe, expect, it } from 'vitest';
import { readPersonalityEvidence } from '../../src/memory/gold/personality-evidence.js';
import { indexPlan } from '../../src/memory/gold/plan-index.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { TRAIT_WORDS } from '../../src/plan/statements.js';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../../src/schemas/common.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { STYLE_CLAUSES } from '../../src/synth/offline/style-clauses.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

/** The trait and side each style bank expresses (src/synth/offline/style.ts). */
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

describe('offline user turns show personality on the side of the plan', () => {
  // The style sentences are written for people; the reader keeps its own lexicon, so it need not
  // read every one of them, but it never reads one as the other side of its trait.
  it('never reads a style sentence as the other side of the trait it was written for', () => {
    for (const [bank, [trait, side]] of Object.entries(BANK_TRAITS)) {
      for (const phrase of STYLE_CLAUSES[bank as keyof typeof STYLE_CLAUSES]) {
        const evidence = readPersonalityEvidence(`${phrase}. Can we go over the budget?`);
        expect(evidence[trait].reading, `${bank}: "${phrase}"`).not.toBe(-side);
      }
    }
  });

  it('reads "I feel more <word> lately" as the planned shift', () => {
    for (const [trait, words] of Object.entries(TRAIT_WORDS)) {
      expect(readPersonalityEvidence(`I feel more ${words.up} lately`)[trait as BigFiveTrait].reading).toBe(
        1,
      );
      expect(readPersonalityEvidence(`I feel more ${words.down} lately`)[trait as BigFiveTrait].reading).toBe(
        -1,
      );
    }
  });

  it('shows a trait only on the side of the plan at the turn (or the planned shift of a personality turn)', async () => {
    const images = fixtureImages();
    const plans = fixtureUsers(8, 5).map((user) =>
      buildUserPlan({ ...user, images }, { config: {}, seed: 42 }),
    );
    let cued = 0;
    let turns = 0;
    for (const plan of plans) {
      const dialogue = await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
      });
      const index = indexPlan(plan);
      for (const turn of dialogue.sessions.flatMap((session) => session.turns)) {
        if (turn.speaker !== 'user') continue;
        turns++;
        const p = index.personalityAt(turn.time);
        const shift = turn.slots.map((id) => index.slot(id)).find((slot) => slot?.kind === 'personality');
        const evidence = readPersonalityEvidence(turn.text);
        for (const trait of BIG_FIVE_TRAITS) {
          const { reading } = evidence[trait];
          if (reading === 0) continue;
          cued++;
          // A personality turn says the planned shift ("I feel more quiet lately") of its trait.
          const word = shift?.keywords[0];
          if (word !== undefined && Object.values(TRAIT_WORDS[trait]!).includes(word)) continue;
          expect(reading, `${turn.id} ${trait} ${p[trait]}: ${turn.text}`).toBe(Math.sign(p[trait] - 3));
        }
      }
    }
    // Personality shows in a good share of turns, not in all of them.
    expect(cued / turns).toBeGreaterThan(0.15);
    expect(cued / turns).toBeLessThan(1.5);
  });
});
