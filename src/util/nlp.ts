/**
 * One shared English reader (wink-nlp with wink-eng-lite-web-model): sentences, universal POS
 * tags and the model's sentiment, for checks and labels that must read text with a lexicon of
 * their own (never the phrase banks that wrote it). Loaded on first use.
 */

import type { ItemSentence } from 'wink-nlp';
import { type WinkNlp, winkPipeline } from './wink.js';

/** One sentence as read: its text, tokens, their POS tags and the sentence's sentiment (−1…1). */
export interface ReadSentence {
  text: string;
  tokens: string[];
  pos: string[];
  sentiment: number;
}

type Nlp = WinkNlp;

function reader(): Nlp {
  return winkPipeline(['sbd', 'negation', 'sentiment', 'pos']);
}

/**
 * Sentences and POS, no sentiment: about three times faster than the full reader. Negation only
 * flags tokens (their POS stays), and with it this is the pipeline the meaning and personality
 * readers already loaded in the thread.
 */
function shapeReader(): Nlp {
  return winkPipeline(['sbd', 'pos', 'negation']);
}

function read(nlp: Nlp, text: string, sentiment: boolean): ReadSentence[] {
  const its = nlp.its;
  const doc = nlp.readDoc(text.replace(/<image>/g, ' ').trim());
  const out: ReadSentence[] = [];
  doc.sentences().each((sentence: ItemSentence) => {
    const tokens = sentence.tokens();
    out.push({
      text: sentence.out(),
      tokens: tokens.out(its.value) as string[],
      pos: tokens.out(its.pos) as string[],
      sentiment: sentiment ? Number(sentence.out(its.sentiment)) : 0,
    });
  });
  return out;
}

/**
 * Splits a text into sentences with their tokens and POS tags, without sentiment (`sentiment` is
 * 0): the fast reading for sentence shapes.
 *
 * @example tagSentences('I love it! It is great.')[1].pos // ['PRON', 'AUX', 'ADJ', 'PUNCT']
 */
export function tagSentences(text: string): ReadSentence[] {
  return read(shapeReader(), text, false);
}

/**
 * Splits a text into sentences and reads each (tokens, POS, sentiment). The `<image>`
 * placeholder is not text and is left out.
 *
 * @example readSentences('I love it! It is great.')[0].pos // ['PRON', 'VERB', 'PRON', 'PUNCT']
 */
export function readSentences(text: string): ReadSentence[] {
  return read(reader(), text, true);
}

/**
 * The model's sentiment of a whole text (−1…1; 0 when it holds no sentiment-bearing word).
 *
 * @example textSentiment('I am worried it will go wrong.') // < 0
 */
export function textSentiment(text: string): number {
  const nlp = reader();
  return Number(nlp.readDoc(text.replace(/<image>/g, ' ').trim()).out(nlp.its.sentiment));
}
