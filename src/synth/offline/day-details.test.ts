import { describe, expect, it } from 'vitest';
import { textSentiment } from '../../util/nlp.js';
import { DAY_BANKS } from './day-details.js';

/** Every sentence a template can say: each `[a|b]` and `{bank}` of DAY_BANKS expanded. */
function everyForm(template: string): string[] {
  const ref = /\{([a-zA-Z]+)\}/.exec(template);
  if (ref !== null) {
    const bank = DAY_BANKS[ref[1]!];
    if (bank === undefined) return everyForm(template.replace(ref[0], 'X'));
    return bank.flatMap((entry) => everyForm(template.replace(ref[0], `[${entry}]`)));
  }
  const alts = /\[([^\]]*)\]/.exec(template);
  if (alts === null) return [template.replace(/\s+/g, ' ').trim()];
  return alts[1]!.split('|').flatMap((alt) => everyForm(template.replace(alts[0], alt)));
}

const details = DAY_BANKS.passingDetail!.flatMap(everyForm);

describe('passing details of a day', () => {
  it('are many: a long dialogue seldom says one twice', () => {
    expect(new Set(details).size).toBeGreaterThan(900);
  });

  // This test's own lists: a public place is not where one showers or goes to bed.
  it('never put a public place at a private moment', () => {
    const publicPlace = /\b(café|office|station|bus stop|gym|library|market|park|shop|bakery|street)\b/;
    const privateTime = /\b(in the shower|in bed|before bed|around midnight|while tidying up)\b/;
    for (const detail of details)
      expect(publicPlace.test(detail) && privateTime.test(detail), detail).toBe(false);
  });

  it('read neutral to wink-nlp, so a detail drawn at random is no mood or trait cue', () => {
    const charged = details.filter((detail) => Math.abs(textSentiment(detail)) > 0.1);
    expect(charged).toEqual([]);
  });
});
