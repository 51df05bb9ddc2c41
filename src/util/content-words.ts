/**
 * Content words of a text as comparable stems: wink-nlp's lemma of each word token that its
 * model does not flag as a stop word, then Porter-stemmed (the `stemmer` package), so "jogs",
 * "jogging" and "jog" meet. A reader with a lexicon of its own, for checks of text written from
 * phrase banks (never the banks themselves).
 */

import { stemmer } from 'stemmer';
import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | null = null;
const cache = new Map<string, readonly string[]>();
/** Options and stems repeat across a corpus; the cache is dropped when it grows past this. */
const CACHE_LIMIT = 50_000;

/**
 * The distinct content stems of `text`, in first-seen order.
 *
 * @example contentStems('What do I usually do every morning?') // ['usual', 'morn']
 */
export function contentStems(text: string): readonly string[] {
  const hit = cache.get(text);
  if (hit !== undefined) return hit;
  nlp ??= winkNLP(model, ['pos']);
  const its = nlp.its;
  const tokens = nlp.readDoc(text.replace(/<image>/g, ' ')).tokens();
  const types = tokens.out(its.type) as string[];
  const stops = tokens.out(its.stopWordFlag) as unknown as boolean[];
  const lemmas = (tokens.out as (f: unknown) => unknown)(its.lemma) as string[];
  const out = new Set<string>();
  lemmas.forEach((lemma, i) => {
    if ((types[i] !== 'word' && types[i] !== 'number') || stops[i] === true) return;
    for (const part of lemma.toLowerCase().split(/[^\p{L}\p{N}]+/u))
      if (part.length > 1 || /\d/.test(part)) out.add(stemmer(part));
  });
  const stems = [...out];
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(text, stems);
  return stems;
}
