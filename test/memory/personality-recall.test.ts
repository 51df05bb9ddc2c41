import { describe, expect, it } from 'vitest';
import { BIG_FIVE_TRAITS } from '../../src/schemas/common.js';
import { noTraitRead, PERSONALITY_SETS, tallySet } from './personality-sets.js';

/**
 * The personality readers' recall and precision on seven sets of natural chat sentences written
 * apart from them and from every phrase bank that writes the offline style (./personality-sets.ts).
 * `npx tsx bench/personality-recall.ts` prints the same figures.
 */

/**
 * What each set reads today on the intended side: the floors keep it. The paraphrases shaped the
 * rules' frames and the held-out set's misses widened them; the model-style turns were written
 * after both; the fresh chat and session sets were written before the learned reader was wired in
 * (and read with earlier models of it); the fresh likes set was written alongside the learned
 * reader's taste and offline-register training messages by a writer who read neither; the fresh
 * turns set (several sentences, one of them a trait's) was committed before the reader changes it
 * measures (34 on the side and 6 on the other before them; 40 and 4 after the first of them).
 * Their figures are the ones to expect on unseen text.
 */
const RECALL_FLOOR: Record<string, number> = {
  paraphrases: 115,
  heldout: 90,
  'model-turns': 60,
  'fresh-chat': 66,
  'fresh-sessions': 74,
  'fresh-likes': 50,
  'fresh-turns': 52,
};
/**
 * Sentences read on the wrong side, and no-trait sentences read as a trait, that an untouched set
 * shows and no change was allowed to fix by reading them: contrasts read backwards ("isn't a quiet
 * night in — it's getting out", "than a last-minute push", "it isn't that I dislike people",
 * "barely bothered me", "not about to start experimenting"), a habit told as a vow ("every month
 * I say this is the month I stick to a budget") and modesty read as its opposite ("kept pointing out
 * that the interns did most of the work"). The rules' own sets allow no wrong side.
 */
const WRONG_ALLOWED: Record<string, number> = {
  'fresh-chat': 1,
  'fresh-sessions': 4,
  'fresh-likes': 4,
  'fresh-turns': 5,
};
/** A no-trait sentence the learned reader reads: a crowd at a concert ("forty thousand people were there"). */
const NONE_READ_ALLOWED: Record<string, number> = { heldout: 1 };

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
