import { describe, expect, it } from 'vitest';
import { CAUSES_BY_DIRECTION } from '../../src/plan/catalogue/life-catalogue.js';
import { causeValence, questionGoldsCheck, visualAnswerTextCheck } from '../../src/validate/rules/index.js';
import { valueReadable } from '../../src/validate/rules/visual-answer-text.js';
import { indexUser } from '../../src/validate/types.js';
import { askCatColourClean, plantFirstMentionRight } from './defects-questions.js';
import { buildFixtureUser } from './fixture.js';

const none = { config: {} as never, imageExists: () => true };

describe('issue 27 question rules, negative cases', () => {
  it('accept a first-mention date that counts the drift turn', () => {
    const bundle = buildFixtureUser('user-0001');
    plantFirstMentionRight(bundle);
    expect(questionGoldsCheck.run(indexUser(bundle), none)).toEqual([]);
  });

  it('accept a photo turn that names only the photo and its subject', () => {
    const bundle = buildFixtureUser('user-0001');
    askCatColourClean(bundle);
    expect(visualAnswerTextCheck.run(indexUser(bundle), none)).toEqual([]);
  });

  it('read counts and colours as number words, digits, articles and spelling variants', () => {
    expect(valueReadable('the photo shows two purple kites', 'kite', 'count', '2')).toBe(true);
    expect(valueReadable('2 kites on a mint background', 'kite', 'count', '2')).toBe(true);
    expect(valueReadable('a yellow balloon and four books', 'balloon', 'count', '1')).toBe(true);
    expect(valueReadable('meet Olive, my kite - a new photo', 'kite', 'count', '1')).toBe(false);
    expect(valueReadable('two gray mugs', 'mug', 'color', 'grey')).toBe(true);
    expect(valueReadable('two purple kites. The mug is new', 'mug', 'color', 'purple')).toBe(false);
  });
});

describe('drift causes', () => {
  it('every cause the plan draws for a direction reads that way (AFINN-165), or neutral', () => {
    for (const cause of CAUSES_BY_DIRECTION.toward)
      expect(causeValence(cause), cause).toBeGreaterThanOrEqual(0);
    for (const cause of CAUSES_BY_DIRECTION.away) expect(causeValence(cause), cause).toBeLessThanOrEqual(0);
    expect(causeValence('my partner got me into it')).toBe(1);
    expect(causeValence('I had a bad experience last time')).toBe(-1);
  });
});

describe('visual answer reading', () => {
  it('does not read a count across a function word', () => {
    expect(valueReadable('I saw an ad for kite surfing at midnight', 'kite', 'count', '1')).toBe(false);
    expect(valueReadable('compare two options for books side by side', 'book', 'count', '2')).toBe(false);
    expect(valueReadable('I bought a new pair of sneakers', 'sneaker', 'count', '2')).toBe(true);
    expect(valueReadable('a small yellow ball on the grass', 'ball', 'count', '1')).toBe(true);
    expect(valueReadable('would it help to set a books goal for a week', 'book', 'count', '1')).toBe(false);
  });
});

describe('near-duplicate options', () => {
  it('reads options naming the same thing, one inside another, not reorderings or longer histories', async () => {
    const { sameThing, selfContradictory } = await import('../../src/validate/fidelity-questions.js');
    expect(sameThing('Peanuts', 'Salted peanuts')).toBe(true);
    expect(sameThing('Karaoke', 'Karaoke nights')).toBe(true);
    expect(sameThing('Peanut', 'Peanuts')).toBe(true);
    expect(sameThing('likes tea -> dislikes tea', 'dislikes tea -> likes tea')).toBe(false);
    // One option inside another: whoever likes tea abroad likes tea; camping under the stars is camping.
    expect(sameThing('Likes tea', 'Likes tea when travelling abroad')).toBe(true);
    expect(sameThing('Camping', 'Camping under the stars')).toBe(true);
    expect(sameThing('To run a half marathon', 'To run a marathon')).toBe(false);
    expect(sameThing('Watching football', 'Watching basketball')).toBe(false);
    expect(sameThing('Likes tea', 'Dislikes tea')).toBe(false);
    expect(
      sameThing(
        'likes tea -> no longer likes tea -> likes tea',
        'likes tea -> no longer likes tea -> likes tea -> no longer likes tea',
      ),
    ).toBe(false);
    expect(selfContradictory('Used to like modern art exhibitions, now likes modern art exhibitions')).toBe(
      true,
    );
    expect(selfContradictory('Used to like sudoku, now likes crossword puzzles')).toBe(false);
    expect(selfContradictory('Used to like durian, now likes durian on weekday mornings')).toBe(false);
    expect(selfContradictory('likes tea -> likes tea')).toBe(true);
    expect(selfContradictory('likes tea -> no longer likes tea -> likes tea')).toBe(false);
  });
});
