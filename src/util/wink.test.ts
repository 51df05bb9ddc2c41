import { describe, expect, it } from 'vitest';
import { winkPipeline } from './wink.js';

describe('winkPipeline', () => {
  it('gives every reader asking for the same annotations one pipeline, and another set its own', () => {
    const meaning = winkPipeline(['sbd', 'pos', 'negation']);
    expect(winkPipeline(['sbd', 'pos', 'negation'])).toBe(meaning);
    const full = winkPipeline(['sbd', 'negation', 'sentiment', 'pos']);
    expect(full).not.toBe(meaning);
    const doc = meaning.readDoc('I am not worried. It went well.');
    expect(doc.sentences().length()).toBe(2);
    // "worried" is in the scope of "not".
    expect(doc.tokens().out(meaning.its.negationFlag).slice(0, 4)).toEqual([false, false, false, true]);
  });
});
