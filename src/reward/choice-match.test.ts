import { describe, expect, it } from 'vitest';
import { goldChoice, matchChoice, readChoices } from './choice-match.js';

const options = ['Sketching.', 'Painting.', 'Comic strips.', 'Latte art.'];

describe('matchChoice', () => {
  it.each([
    ['(b)', 1],
    ['b', 1],
    ['B.', 1],
    ['b)', 1],
    ['B. Painting', 1],
    ['(b) Painting.', 1],
    ['Painting.', 1],
    ['painting', 1],
    ['The answer is (c).', 2],
    ['Answer: d', 3],
    ['I would say comic strips', 2],
    ['sketching or painting', null],
    ['(e)', null],
    ['', null],
  ])('%s → %s', (text, expected) => {
    expect(matchChoice(text, options)).toBe(expected);
  });

  it('maps yes/no style answers onto binary options', () => {
    expect(matchChoice('Yes, definitely.', ['Yes', 'No'])).toBe(0);
    expect(matchChoice('no', ['Yes', 'No'])).toBe(1);
    expect(matchChoice('False', ['True', 'False'])).toBe(1);
  });
});

describe('readChoices and goldChoice', () => {
  it('reads lists, Persona-MME objects and PersonaMem python-list strings', () => {
    expect(readChoices({ '(b)': 'B text', '(a)': 'A text' })).toEqual(['A text', 'B text']);
    expect(readChoices("['(a) x', '(b) y']")).toEqual(['(a) x', '(b) y']);
    expect(readChoices([1, 2])).toBeNull();
  });

  it('reads the gold option from letters, option text or an index', () => {
    expect(goldChoice('(c)', options)).toBe(2);
    expect(goldChoice('Latte art.', options)).toBe(3);
    expect(goldChoice(0, options)).toBe(0);
    expect(goldChoice('1', options)).toBe(1);
    expect(goldChoice('neither', readChoices("['(a) x', '(b) y']"))).toBeNull();
    expect(goldChoice('(b)', readChoices("['(a) x', '(b) y']"))).toBe(1);
  });
});
