import { describe, expect, it } from 'vitest';
import { type MeaningExpectation, meaningProblems, readStances } from './meaning.js';

const expectation = (
  item: string,
  polarity: 'like' | 'dislike',
  ended = false,
  condition: string | null = null,
) => ({ keywords: [item.split(' ').at(-1)!], item, polarity, ended, condition }) satisfies MeaningExpectation;

describe('readStances', () => {
  it.each([
    ['I really love jasmine tea.', 'like', false],
    ['I honestly cannot stand jasmine tea.', 'dislike', false],
    ['Whatever we plan, no jasmine tea please.', 'dislike', false],
    ['I do not enjoy jasmine tea.', 'dislike', false],
    ['I no longer enjoy jasmine tea.', 'like', true],
    ['I gave up on jasmine tea, because money is tight.', 'like', true],
    ['Jasmine tea does not bother me any more, because I got used to it.', 'dislike', true],
    ['I used to avoid jasmine tea.', 'dislike', true],
    ['Skip the fluff, I adore jasmine tea.', 'like', false],
  ])('%s → %s (ended %s)', (text, polarity, ended) => {
    const [stance] = readStances(text, ['tea'], 'jasmine tea');
    expect(stance).toMatchObject({ polarity, ended });
  });

  it('keeps the item words out of the cues ("skipping breakfast" is not a dislike)', () => {
    expect(
      readStances('I really enjoy skipping breakfast.', ['skip breakfast'], 'skipping breakfast'),
    ).toEqual([expect.objectContaining({ polarity: 'like', ended: false })]);
  });

  it('reads each clause of a modify on its own', () => {
    const text =
      'I used to love black americano, but my doctor said so, and these days I cannot stand black americano.';
    expect(readStances(text, ['americano'], 'black americano').map((s) => [s.polarity, s.ended])).toEqual([
      ['like', true],
      ['dislike', false],
    ]);
  });
});

describe('meaningProblems', () => {
  it('passes a statement that says what the plan says', () => {
    expect(
      meaningProblems(
        'I used to love black americano, but my budget changed, and now I love oat milk latte, but only when I am travelling.',
        [
          expectation('black americano', 'like', true),
          expectation('oat milk latte', 'like', false, 'when I am travelling'),
        ],
      ),
    ).toEqual([]);
  });

  it('names the item, the reading and the plan when the polarity is reversed', () => {
    expect(meaningProblems('Lately I have gotten into durian.', [expectation('durian', 'dislike')])).toEqual([
      '"durian" reads as like, planned dislike',
    ]);
  });

  it('reports a closed preference that still reads as held, and a dropped condition', () => {
    const problems = meaningProblems('Black americano is my favourite, and I love oat milk latte.', [
      expectation('black americano', 'like', true),
      expectation('oat milk latte', 'like', false, 'when I am travelling'),
    ]);
    expect(problems).toEqual([
      '"black americano" should read as ended, reads as like',
      'condition "when I am travelling" of "oat milk latte" is dropped',
    ]);
  });

  it('reports an item the text never names', () => {
    expect(meaningProblems('I had a quiet day.', [expectation('durian', 'like')])).toEqual([
      '"durian" is not mentioned',
    ]);
  });
});
