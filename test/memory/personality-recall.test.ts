import { describe, expect, it } from 'vitest';
import { readMessage } from '../../src/memory/gold/personality-reading.js';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../../src/schemas/common.js';
import { PERSONALITY_SETS, type PersonalitySet } from './personality-sets.js';

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

/** Per trait-side: sentences read on the intended side, on the other side, and in all. */
function tally(set: PersonalitySet): Record<string, { hit: number; wrong: string[]; n: number }> {
  const out: Record<string, { hit: number; wrong: string[]; n: number }> = {};
  for (const [key, sentences] of Object.entries(set.shows)) {
    const trait = key.slice(0, -1) as BigFiveTrait;
    const side = key.endsWith('+') ? 1 : -1;
    const row = { hit: 0, wrong: [] as string[], n: sentences.length };
    for (const text of sentences) {
      const reading = readMessage(text)[trait];
      if (reading === side) row.hit++;
      else if (reading === -side) row.wrong.push(text);
    }
    out[key] = row;
  }
  return out;
}

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
      for (const [key, row] of Object.entries(tally(set))) expect(row.wrong, key).toEqual([]);
    });

    it('reads no sentence that shows no trait as a trait', () => {
      const read = set.none.filter((text) => Object.values(readMessage(text)).some((side) => side !== 0));
      expect(read, read.join(' | ')).toEqual([]);
    });

    it(`reads the intended side of at least ${RECALL_FLOOR[name]} sentences`, () => {
      const hits = Object.values(tally(set)).reduce((sum, row) => sum + row.hit, 0);
      expect(hits).toBeGreaterThanOrEqual(RECALL_FLOOR[name] ?? Number.POSITIVE_INFINITY);
    });
  },
);
