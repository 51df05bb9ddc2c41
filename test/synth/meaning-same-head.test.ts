/**
 * The meaning reader on items that share a head noun: a mention of bubble milk tea is no mention
 * of jasmine green tea, miso soup is not hot and sour soup, mid-century furniture is not
 * Scandinavian furniture. Sentences written the way a chat model states a change of taste,
 * apart from the offline phrase banks.
 */
import { describe, expect, it } from 'vitest';
import { type MeaningExpectation, readMeaning } from '../../src/index.js';

const like = (
  item: string,
  keywords: string[],
  extra: Partial<MeaningExpectation> = {},
): MeaningExpectation => ({
  item,
  keywords,
  polarity: 'like',
  ended: false,
  condition: null,
  ...extra,
});

// Keywords as the planner gives them (the catalogue's), old item first as a drift slot lists them.
const jasmine = like('jasmine green tea', ['jasmine', 'tea']);
const bubble = like('bubble milk tea', ['bubble tea']);
const hotAndSour = like('hot and sour soup', ['soup']);
const miso = like('miso soup', ['miso']);
const scandinavian = like('Scandinavian furniture', ['scandinavian', 'furniture']);
const midCentury = like('mid-century furniture', ['mid-century']);
const ended = (e: MeaningExpectation) => ({ ...e, ended: true });

const verdicts = (text: string, expectations: MeaningExpectation[]) =>
  readMeaning(text, expectations).map((r) => r.verdict);

describe('items with the same head noun', () => {
  it('reads a change from one tea, soup or furniture to another as the old like ended and the new one held', () => {
    const changes: Array<[string, MeaningExpectation, MeaningExpectation]> = [
      ["I've switched from hot and sour soup to miso these days.", hotAndSour, miso],
      ["Jasmine green tea was my thing, but now it's all bubble milk tea.", jasmine, bubble],
      [
        "Hot and sour soup was my usual order for ages; lately I've been craving miso soup instead.",
        hotAndSour,
        miso,
      ],
      [
        "Scandinavian furniture used to be my whole look, but these days I'm all about mid-century furniture.",
        scandinavian,
        midCentury,
      ],
      ["I used to drink jasmine green tea, now I'm hooked on bubble milk tea.", jasmine, bubble],
      [
        'I used to order hot and sour soup every time, but these days I really enjoy miso soup.',
        hotAndSour,
        miso,
      ],
      ['These days bubble milk tea is my favourite - I used to be into jasmine green tea.', jasmine, bubble],
    ];
    for (const [text, old, now] of changes)
      expect(verdicts(text, [ended(old), now]), text).toEqual(['agrees', 'agrees']);
  });

  it('still catches an old like said to hold, whichever item the sentence names too', () => {
    expect(
      verdicts('Jasmine green tea is still my favourite; bubble milk tea is way too sweet for me.', [
        ended(jasmine),
        bubble,
      ]),
    ).toEqual(['contradicts', 'contradicts']);
    expect(
      verdicts('Honestly I still love hot and sour soup, I only tried miso soup once.', [
        ended(hotAndSour),
        miso,
      ])[0],
    ).toBe('contradicts');
    // A contrast with now reads as an ending, so it contradicts a like that should hold.
    expect(verdicts('Jasmine green tea was my thing, but now it is all coffee.', [jasmine])).toEqual([
      'contradicts',
    ]);
  });

  it('does not read another kind with the same head as the item', () => {
    expect(
      verdicts('I love jasmine green tea, but bubble milk tea is way too sweet for me.', [jasmine]),
    ).toEqual(['agrees']);
    expect(verdicts('Hot and sour soup is my go-to, though tomato soup bores me.', [hotAndSour])).toEqual([
      'agrees',
    ]);
    // Only another kind named: the item is not mentioned at all.
    const [reading] = readMeaning('These days I am really into mid-century furniture.', [
      ended(scandinavian),
    ]);
    expect(reading).toMatchObject({ verdict: 'unsure', missing: true });
  });

  it('keeps the item’s own shorter names, a determiner and a pronoun as mentions of it', () => {
    expect(verdicts('I drink green tea most afternoons, it is my favourite.', [jasmine])).toEqual(['agrees']);
    expect(
      verdicts("I was into jasmine green tea for years, but I've gone off the tea lately.", [ended(jasmine)]),
    ).toEqual(['agrees']);
    expect(verdicts('My morning tea is always jasmine green tea.', [jasmine])).toEqual(['agrees']);
    expect(verdicts('A big bowl of soup is my idea of comfort.', [hotAndSour])).toEqual(['agrees']);
  });

  it('does not keep a like because the item is where something still happened', () => {
    const train = like('high-speed train travel', ['train'], { ended: true });
    const overnight = like('overnight trains', ['overnight train'], { polarity: 'dislike' });
    const text =
      "These days I can't stand overnight trains; I used to be into high-speed train travel. I was still in my work clothes on the train, funnily enough.";
    expect(verdicts(text, [train, overnight])).toEqual(['agrees', 'agrees']);
    // Said of the item itself, "still" keeps it.
    expect(verdicts('I still take the train everywhere I can.', [train])).toEqual(['contradicts']);
  });

  it('does not end a like that is only told in the past tense', () => {
    expect(verdicts('I loved the hot and sour soup we had on Friday.', [hotAndSour])).toEqual(['agrees']);
    // "lately" that only says when is no contrast with before.
    expect(
      verdicts('On Monday I was reminded how much I enjoy hot and sour soup. Work has been hectic lately.', [
        hotAndSour,
      ]),
    ).toEqual(['agrees']);
    expect(verdicts("I've always loved jasmine green tea, and now I drink it every day.", [jasmine])).toEqual(
      ['agrees'],
    );
  });
});
