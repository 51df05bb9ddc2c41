import { describe, expect, it } from 'vitest';
import { readMessage } from '../../src/memory/gold/personality-reading.js';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../../src/schemas/common.js';
import { NO_TRAIT, SHOWS } from './personality-paraphrases.js';

/**
 * The personality reader's recall and precision on natural chat sentences written for this test
 * alone (./personality-paraphrases.ts), never from the phrase banks that write the offline style.
 */

/** No-trait sentences the reader may read as a trait. */
const MAX_NO_TRAIT_READS = 1;

/** Per trait-side: sentences read on the intended side, on the other side, and in all. */
function tally(): Record<string, { hit: number; wrong: string[]; n: number }> {
  const out: Record<string, { hit: number; wrong: string[]; n: number }> = {};
  for (const [key, sentences] of Object.entries(SHOWS)) {
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

describe('the personality reader on natural sentences written for this test', () => {
  it('holds at least twelve sentences per trait and side and twenty with no trait', () => {
    for (const trait of BIG_FIVE_TRAITS)
      for (const side of ['+', '-'] as const)
        expect(SHOWS[`${trait}${side}`].length).toBeGreaterThanOrEqual(12);
    expect(NO_TRAIT.length).toBeGreaterThanOrEqual(20);
  });

  it('never reads a sentence on the side opposite to the one it shows', () => {
    for (const [key, row] of Object.entries(tally())) expect(row.wrong, key).toEqual([]);
  });

  it('reads at most one no-trait sentence as a trait', () => {
    const read = NO_TRAIT.filter((text) => Object.values(readMessage(text)).some((side) => side !== 0));
    expect(read.length, read.join(' | ')).toBeLessThanOrEqual(MAX_NO_TRAIT_READS);
  });

  // The reader's recall on these sentences is low (most describe a behaviour no questionnaire
  // word names): it reads 11 of 140 on the intended side. The floor keeps what it reads; the
  // goal, half of each trait and side, is what the next reader has to reach.
  it('reads the intended side of at least 11 of the sentences that show a trait', () => {
    const rows = Object.values(tally());
    const hits = rows.reduce((sum, row) => sum + row.hit, 0);
    expect(hits).toBeGreaterThanOrEqual(11);
    expect(rows.reduce((sum, row) => sum + row.n, 0)).toBeGreaterThanOrEqual(140);
  });
});
