import { describe, expect, it } from 'vitest';
import { aboutPerson, firstPerson, isPlural, withKeywords } from './text.js';

describe('withKeywords', () => {
  it.each([
    ['spicy Sichuan hotpot', ['Sichuan', 'hotpot'], 'spicy Sichuan hotpot'],
    ['spicy food', ['hotpot'], 'spicy food, especially hotpot'],
    ['Scandinavian furniture', ['scandinavian'], 'Scandinavian furniture'],
    ['every Sunday morning', ['sunday'], 'every Sunday morning'],
    ['', ['a', 'b'], 'a and b'],
  ])('%s + %j → %s', (phrase, keywords, expected) => {
    expect(withKeywords(phrase, keywords)).toBe(expected);
  });
});

describe('firstPerson', () => {
  it.each([
    ['The user works night shifts on Fridays.', 'I work night shifts on Fridays'],
    ["The user's sister lives in Porto.", 'my sister lives in Porto'],
    ['swims laps before work', 'I swim laps before work'],
    ['calls their parents on Sunday evenings', 'I call my parents on Sunday evenings'],
    ['The user watches films with them', 'I watch films with me'],
    ['The user tries new recipes', 'I try new recipes'],
  ])('%s → %s', (statement, expected) => {
    expect(firstPerson(statement)).toBe(expected);
  });
});

describe('isPlural', () => {
  it.each([
    ['city breaks with museums', true],
    ['heavily scented lotions', true],
    ['e-books on a Kindle', true],
    ['yoga classes', true],
    ['dim sum', false],
    ['collecting vinyl records', false],
    ['swimming laps', false],
    ['hiking trips in the mountains', true],
    ['cooking competition shows', true],
    ['running shoes', true],
    ['weekend brunch with eggs benedict', false],
    ['hummus', false],
    ['chess', false],
  ])('%s → %s', (phrase, plural) => {
    expect(isPlural(phrase)).toBe(plural);
  });
});

describe('aboutPerson', () => {
  it.each([
    ['they helped me through a hard week', 'brother', 'Leo', 'he helped me through a hard week'],
    ['they moved to another city', 'mother', 'Ana', 'she moved to another city'],
    ['they moved to another city', 'colleague', 'Sam', 'Sam moved to another city'],
    ['we had an argument about plans', 'sister', 'Mia', 'we had an argument about plans'],
  ])('%s (%s %s) → %s', (note, relation, name, expected) => {
    expect(aboutPerson(note, relation, name)).toBe(expected);
  });
});
