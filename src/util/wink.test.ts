import { describe, expect, it } from 'vitest';
import { READING, winkDoc, winkPipeline } from './wink.js';

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

  it('reads a text once for every reader of the same string, as the reading pipeline reads it', () => {
    const text = "I don't like tea any more. Coffee is fine.";
    const doc = winkDoc(text);
    expect(winkDoc(text)).toBe(doc);
    expect(winkDoc(`${text} `)).not.toBe(doc);
    const nlp = winkPipeline(READING);
    expect(doc.tokens().out(nlp.its.pos)).toEqual(nlp.readDoc(text).tokens().out(nlp.its.pos));
  });
});
