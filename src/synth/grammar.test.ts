import { describe, expect, it } from 'vitest';
import { createRng } from '../util/rng.js';
import { createGrammar, duplicateSentenceRate, sentence, splitSentences } from './grammar.js';

describe('grammar', () => {
  const grammar = createGrammar({
    food: ['noodles', 'a {adj} salad'],
    adj: ['crisp', 'warm'],
    loop: ['{loop}'],
  });

  it('expands variables, banks and inline choices', () => {
    const rng = createRng(1);
    for (let i = 0; i < 20; i++) {
      const text = grammar.expand('{who} had {food} [today|earlier].', { who: 'Ana' }, rng);
      expect(text).toMatch(/^Ana had (noodles|a (crisp|warm) salad) (today|earlier)\.$/);
    }
  });

  it('is deterministic for a seed', () => {
    const a = grammar.expand('{food} {food} {food}', {}, createRng(3));
    expect(grammar.expand('{food} {food} {food}', {}, createRng(3))).toBe(a);
  });

  it('fails clearly on unknown banks and runaway recursion', () => {
    expect(() => grammar.expand('{nope}', {}, createRng(1))).toThrow(/unknown bank \{nope\}/);
    expect(() => grammar.expand('{loop}', {}, createRng(1))).toThrow(/recursion/);
  });

  it('formats and splits sentences, and measures duplicates', () => {
    expect(sentence('  hello   there ')).toBe('Hello there.');
    expect(sentence('really?', '.')).toBe('Really?');
    expect(splitSentences('<image> One. Two! Three?')).toEqual(['One.', 'Two!', 'Three?']);
    expect(duplicateSentenceRate(['Hi. Hi.', 'hi.  Bye.'])).toEqual({
      sentences: 4,
      duplicates: 2,
      rate: 0.5,
    });
  });
});
