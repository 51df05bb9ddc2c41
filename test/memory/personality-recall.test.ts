import { describe, expect, it } from 'vitest';
import { BIG_FIVE_TRAITS } from '../../src/schemas/common.js';
import { noTraitRead, PERSONALITY_SETS, tallySet } from './personality-sets.js';

/**
 * The personality reader's recall and precision on five sets of natural chat sentences written
 * apart from it and from every phrase bank that writes the offline style (./personality-sets.ts).
 * `npx tsx bench/personality-recall.ts` prints the same figures.
 */

/**
 * What each set reads today on the intended side: the floors keep it. The paraphrases shaped the
 * reader's frames and the held-out set's misses widened them; the model-style turns were written
 * after both; the two fresh sets were written after every change and no change has read them, so
 * their figures are the ones to expect on unseen text.
 */
const RECALL_FLOOR: Record<string, number> = {
  paraphrases: 107,
  heldout: 76,
  'model-turns': 47,
  'fresh-chat': 46,
  'fresh-sessions': 63,
};
/**
 * Sentences read on the wrong side, and no-trait sentences read as a trait, that an untouched set
 * shows and no change was allowed to fix by reading them (a contrast the rules read backwards: "isn't
 * a quiet night in — it's getting out", "instead of snapping back", "than a last-minute push"; a
 * wish, "I'd love to be someone who stays calm"), and what the learned reader reads in a condition
 * ("when I'm stressed I eat chocolate"). The rules' own sets allow no wrong side.
 */
const WRONG_ALLOWED: Record<string, number> = { 'fresh-chat': 2, 'fresh-sessions': 5 };
const NONE_READ_ALLOWED: Record<string, number> = { paraphrases: 2, 'fresh-chat': 1, 'fresh-sessions': 1 };

describe.each(PERSONALITY_SETS.map((set) => [set.name, set] as const))(
  'the personality reader on %s',
  (name, set) => {
    it('holds at least ten sentences per trait and side and twenty with no trait', () => {
      for (const trait of BIG_FIVE_TRAITS)
        for (const side of ['+', '-'] as const)
          expect(set.shows[`${trait}${side}`].length).toBeGreaterThanOrEqual(10);
      expect(set.none.length).toBeGreaterThanOrEqual(20);
    });

    it(`reads at most ${WRONG_ALLOWED[name] ?? 0} sentences on the side opposite to the one they show`, () => {
      const wrong = Object.entries(tallySet(set)).flatMap(([key, row]) =>
        row.wrong.map((text) => `${key}: ${text}`),
      );
      expect(wrong.length, wrong.join(' | ')).toBeLessThanOrEqual(WRONG_ALLOWED[name] ?? 0);
    });

    it(`reads at most ${NONE_READ_ALLOWED[name] ?? 0} sentences that show no trait as a trait`, () => {
      const read = noTraitRead(set);
      expect(read.length, read.join(' | ')).toBeLessThanOrEqual(NONE_READ_ALLOWED[name] ?? 0);
    });

    it(`reads the intended side of at least ${RECALL_FLOOR[name]} sentences`, () => {
      const hits = Object.values(tallySet(set)).reduce((sum, row) => sum + row.hit, 0);
      expect(hits).toBeGreaterThanOrEqual(RECALL_FLOOR[name] ?? Number.POSITIVE_INFINITY);
    });
  },
);
