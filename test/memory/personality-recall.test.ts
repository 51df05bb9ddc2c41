import { describe, expect, it } from 'vitest';
import { BIG_FIVE_TRAITS } from '../../src/schemas/common.js';
import { noTraitRead, PERSONALITY_SETS, tallySet } from './personality-sets.js';

/**
 * The personality reader's recall and precision on three sets of natural chat sentences written
 * apart from it and from every phrase bank that writes the offline style (./personality-sets.ts).
 * `npx tsx bench/personality-recall.ts` prints the same figures.
 */

/**
 * What each set reads today on the intended side: the floors keep it. The paraphrases shaped the
 * reader's frames and the held-out set's misses widened them; the model-style turns were written
 * after both and no change has read them, so their figure is the one to expect on unseen text.
 */
const RECALL_FLOOR: Record<string, number> = { paraphrases: 96, heldout: 61, 'model-turns': 23 };

describe.each(PERSONALITY_SETS.map((set) => [set.name, set] as const))(
  'the personality reader on %s',
  (name, set) => {
    it('holds at least ten sentences per trait and side and twenty with no trait', () => {
      for (const trait of BIG_FIVE_TRAITS)
        for (const side of ['+', '-'] as const)
          expect(set.shows[`${trait}${side}`].length).toBeGreaterThanOrEqual(10);
      expect(set.none.length).toBeGreaterThanOrEqual(20);
    });

    it('never reads a sentence on the side opposite to the one it shows', () => {
      for (const [key, row] of Object.entries(tallySet(set))) expect(row.wrong, key).toEqual([]);
    });

    it('reads no sentence that shows no trait as a trait', () => {
      const read = noTraitRead(set);
      expect(read, read.join(' | ')).toEqual([]);
    });

    it(`reads the intended side of at least ${RECALL_FLOOR[name]} sentences`, () => {
      const hits = Object.values(tallySet(set)).reduce((sum, row) => sum + row.hit, 0);
      expect(hits).toBeGreaterThanOrEqual(RECALL_FLOOR[name] ?? Number.POSITIVE_INFINITY);
    });
  },
);
