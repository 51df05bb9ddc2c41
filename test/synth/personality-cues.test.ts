import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cueStem, ipipItems, personalityCues } from '../../src/memory/gold/personality-lexicon.js';
import {
  inferPersonality,
  readMessage,
  scoreFromCounts,
  scoresOf,
} from '../../src/memory/gold/personality-reading.js';
import { indexPlan } from '../../src/memory/gold/plan-index.js';
import { buildUserPlan } from '../../src/plan/index.js';
import { BIG_FIVE_TRAITS, type BigFive, type BigFiveTrait } from '../../src/schemas/common.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { STYLE_CLAUSES } from '../../src/synth/offline/style-clauses.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

/** The trait and side each style bank writes (src/synth/offline/style.ts), under either naming of the banks. */
const BANK_TRAITS: Record<string, [BigFiveTrait, 1 | -1]> = {
  exclaimPrefix: ['extraversion', 1],
  reservedPrefix: ['extraversion', -1],
  worrySuffix: ['neuroticism', 1],
  bluntPrefix: ['agreeableness', -1],
  politeSuffix: ['agreeableness', 1],
  curiousPrefix: ['openness', 1],
  plannerPrefix: ['conscientiousness', 1],
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

/** A bank phrase as a sentence: slots filled, the first of each [a|b] alternative taken. */
const sentence = (phrase: string) =>
  `${phrase.replace(/\{[^}]+\}/g, 'the budget').replace(/\[([^|\]]*)[^\]]*\]/g, '$1')}. Can we go over it?`;

describe('the personality reader shares nothing with the style writer', () => {
  it('takes its lexicon from the IPIP-NEO items, and imports neither the banks nor the plan trait words', () => {
    for (const file of ['personality-lexicon.ts', 'personality-reading.ts']) {
      const source = readFileSync(new URL(`../../src/memory/gold/${file}`, import.meta.url), 'utf8');
      const imports = source.match(/from '[^']+'/g) ?? [];
      for (const path of imports) expect(path, file).not.toMatch(/offline|statements|phrases|style/);
    }
    const itemStems = new Set(
      ipipItems().flatMap((item) => (item.text.toLowerCase().match(/[a-z]+/g) ?? []).map(cueStem)),
    );
    const cues = [...personalityCues().keys()];
    expect(cues.length).toBeGreaterThan(30);
    for (const stem of cues) expect(itemStems.has(stem), stem).toBe(true);
    // No cue is a bank phrase: the reader looks words up one at a time, never a written phrase.
    for (const phrase of Object.values(STYLE_CLAUSES).flat()) expect(cues).not.toContain(cueStem(phrase));
  });

  it('reads some style sentences on the side they were written for, never on the other side', () => {
    let read = 0;
    let phrases = 0;
    for (const [bank, list] of Object.entries(STYLE_CLAUSES)) {
      const written = BANK_TRAITS[bank];
      expect(written, `add the trait of style bank ${bank} to BANK_TRAITS`).toBeDefined();
      const [trait, side] = written!;
      for (const phrase of list as readonly string[]) {
        phrases++;
        const reading = readMessage(sentence(phrase))[trait];
        expect(reading, `${bank}: "${phrase}"`).not.toBe(-side);
        if (reading === side) read++;
      }
    }
    // A reader with its own lexicon reads part of what was written, not all of it.
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThan(phrases);
  });

  it('never reads punctuation or length as personality', () => {
    const excited = ['What a day!', 'Look at this!', 'Wow!', 'So good!', 'Again!', 'Yes!'];
    expect(inferPersonality(excited).extraversion.score).toBe(3);
    expect(inferPersonality(['Ok.', 'Fine.', 'Sure.', 'Noted.']).extraversion.score).toBe(3);
  });
});

describe('personality-inference targets are what a reader infers from several messages', () => {
  it('grades: one message is not enough evidence, two make 4, four (none against) make 5', () => {
    const anxious = 'I am scared I will mess it up.';
    const plain = 'Can we go over the budget for my photos?';
    expect(inferPersonality([plain, plain, anxious]).neuroticism.score).toBe(3);
    expect(inferPersonality([plain, anxious, plain, anxious]).neuroticism.score).toBe(4);
    expect(inferPersonality([anxious, anxious, anxious, anxious]).neuroticism.score).toBe(5);
    // A denied worry is calm said twice: low neuroticism, not "no evidence".
    expect(inferPersonality(['I am not worried at all.', 'I am not worried at all.']).neuroticism.score).toBe(
      2,
    );
    expect(scoreFromCounts(3, 2)).toBe(3);
    expect(scoreFromCounts(0, 4)).toBe(1);
    expect(scoreFromCounts(5, 1)).toBe(4);
  });

  it('labels offline dialogues on the side of the hidden profile, mostly "not enough evidence"', async () => {
    const images = fixtureImages();
    const plans = fixtureUsers(4, 5).map((user) =>
      buildUserPlan({ ...user, images }, { config: {}, seed: 42 }),
    );
    let scored = 0;
    let wrongSide = 0;
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
          const inference = inferPersonality(users.slice(Math.max(0, i - 5), i + 1).map((t) => t.text));
          const profile = index.personalityAt(turn.time);
          for (const trait of BIG_FIVE_TRAITS) {
            traits++;
            const { score } = inference[trait];
            if (score === 3) continue;
            scored++;
            if (Math.sign(score - 3) !== Math.sign(profile[trait] - 3)) wrongSide++;
          }
        });
      }
    }
    expect(scored).toBeGreaterThan(0);
    expect(scored / traits).toBeLessThan(0.5);
    expect(wrongSide / scored).toBeLessThan(0.1);
  });

  it('reads a strongly profiled persona on the side of its profile (offline writer, independent reader)', async () => {
    const images = fixtureImages();
    const extremes: BigFive[] = [
      { openness: 1, conscientiousness: 1, extraversion: 1, agreeableness: 5, neuroticism: 5 },
      { openness: 5, conscientiousness: 5, extraversion: 5, agreeableness: 1, neuroticism: 1 },
    ];
    const users = fixtureUsers(2, 11).map((user, i) => ({
      ...user,
      split: 'test' as const,
      enriched: { ...user.enriched, bigFive: extremes[i]! },
    }));
    const sides = { right: 0, wrong: 0, neuroticHigh: 0 };
    for (const user of users) {
      const plan = buildUserPlan({ ...user, images }, { config: {}, seed: 42 });
      const dialogue = await realizeDialogue(plan, {
        realizer: createOfflineRealizer({ seed: 42 }),
        seed: 42,
      });
      const index = indexPlan(plan);
      for (const session of dialogue.sessions) {
        const texts = session.turns.filter((turn) => turn.speaker === 'user');
        texts.forEach((turn, i) => {
          const window = texts.slice(Math.max(0, i - 5), i + 1).map((t) => t.text);
          const scores = scoresOf(inferPersonality(window));
          const profile = index.personalityAt(turn.time);
          for (const trait of BIG_FIVE_TRAITS) {
            if (scores[trait] === 3) continue;
            if (Math.sign(scores[trait] - 3) === Math.sign(profile[trait] - 3)) sides.right++;
            else sides.wrong++;
            if (trait === 'neuroticism' && scores[trait] > 3 && profile.neuroticism > 3) sides.neuroticHigh++;
          }
        });
      }
    }
    // The anxious persona's worry is read; nothing is read against either profile.
    expect(sides.neuroticHigh).toBeGreaterThan(0);
    expect(sides.right).toBeGreaterThan(0);
    expect(sides.wrong).toBe(0);
  });
});
