/**
 * The English pipeline the reader stands on: wink-nlp with its lite web model, for sentences,
 * tokens, part of speech, lemmas and negation scope. One instance per process, loaded on first use.
 */
import type { ItemToken } from 'wink-nlp';
import { type WinkNlp, winkPipeline } from '../../util/wink.js';
import type { Token } from './types.js';

/** The pipeline the personality reader and the text-shape checks also read with (src/util/wink.ts). */
const nlp = (): WinkNlp => winkPipeline(['sbd', 'pos', 'negation']);

/** Contractions the model keeps as one token ("I'm"): read as the user and the auxiliary. */
const FUSED_I: ReadonlyMap<string, string> = new Map([
  ["i'm", 'be'],
  ["i've", 'have'],
  ["i'd", 'would'],
  ["i'll", 'will'],
]);

const parsed = new Map<string, Token[][]>();

/**
 * The sentences of `text` as tokens (punctuation kept, spaces dropped). Results are cached: the
 * reader asks about the same turn once per expectation.
 *
 * @example parse("I don't like tea.")[0]!.map((t) => t.lemma) // ['i', 'do', 'not', 'like', 'tea', '.']
 */
export function parse(text: string): Token[][] {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  const { its } = nlp();
  const doc = nlp().readDoc(text.replace(/[\u2018\u2019]/g, "'"));
  const sentences: Token[][] = [];
  doc.sentences().each((sentence, index) => {
    const tokens: Token[] = [];
    sentence.tokens().each((token: ItemToken) => {
      const type = token.out(its.type) as string;
      if (type === 'tabCRLF' || type === 'space') return;
      const text = token.out() as string;
      const lower = text.toLowerCase();
      const negated = token.out(its.negationFlag) as unknown as boolean;
      const space = (token.out(its.precedingSpaces) as string) !== '';
      const aux = FUSED_I.get(lower);
      if (aux !== undefined) {
        tokens.push({
          text: text.slice(0, 1),
          lower: 'i',
          lemma: 'i',
          pos: 'PRON',
          negated,
          sentence: index,
          space,
        });
        tokens.push({
          text: text.slice(1),
          lower: lower.slice(1),
          lemma: aux,
          pos: 'AUX',
          negated,
          sentence: index,
          space: false,
        });
        return;
      }
      tokens.push({
        text,
        lower,
        lemma: String((token.out as (f: unknown) => unknown)(its.lemma)).toLowerCase(),
        pos: token.out(its.pos) as string,
        negated,
        sentence: index,
        space,
      });
    });
    sentences.push(tokens);
  });
  if (parsed.size >= 5_000) parsed.clear();
  parsed.set(text, sentences);
  return sentences;
}

/** The lemmas of a phrase, as the parser reads them ("staying up late" → stay up late). */
export function lemmas(phrase: string): string[] {
  return parse(phrase)
    .flat()
    .filter((token) => token.pos !== 'PUNCT' || token.lower === '-')
    .map((token) => token.lemma);
}
