/**
 * The English parser the personality reader reads with: wink-nlp and its lite web model, for
 * sentences, part of speech, lemmas and negation scope. One instance, loaded on first use; a
 * parse is cached per text (the reader asks about each message once per window it sits in).
 */
import type { ItemSentence, ItemToken } from 'wink-nlp';
import { winkPipeline } from '../../util/wink.js';

/** One word as parsed. */
export interface ParsedWord {
  lower: string;
  lemma: string;
  pos: string;
  /** Inside the scope of a negation ("I am not *worried*"). */
  negated: boolean;
}

/** Words that end a rejected alternative: a new subject or clause ("instead of arguing I let it go"). */
const ALTERNATIVE_ENDS = new Set(['PUNCT', 'CCONJ', 'SCONJ']);
const SUBJECTS = new Set(['i', 'we', 'he', 'she', 'they', 'you', 'it']);

/**
 * Marks a rejected alternative as negated: what follows "instead of" or "rather than" (and "than"
 * after "rather": "I'd rather stay in than go out") up to the next clause is what the speaker did
 * not do. "Instead of snapping back I asked if she was okay" snaps at no one.
 */
function markAlternatives(words: ParsedWord[]): ParsedWord[] {
  let open = false;
  let rather = false;
  words.forEach((word, i) => {
    const previous = words[i - 1]?.lower;
    if (open && (ALTERNATIVE_ENDS.has(word.pos) || SUBJECTS.has(word.lower))) open = false;
    if (open) word.negated = true;
    if (word.lower === 'rather') rather = true;
    if ((word.lower === 'of' && previous === 'instead') || (word.lower === 'than' && rather)) open = true;
  });
  return words;
}

const parsed = new Map<string, ParsedWord[][]>();
const CACHE = 4096;

/**
 * The sentences of `text` as words (spaces dropped, punctuation kept; "I'm" read as "i" + "be").
 *
 * @example parseSentences("I'm not worried.")[0]!.map((w) => w.lemma) // ['i', 'be', 'not', 'worried', '.']
 */
export function parseSentences(text: string): ParsedWord[][] {
  const known = parsed.get(text);
  if (known !== undefined) return known;
  // The meaning reader's pipeline (src/util/wink.ts): one model read per thread for both.
  const pipeline = winkPipeline(['sbd', 'pos', 'negation']);
  const { its } = pipeline;
  const sentences: ParsedWord[][] = [];
  pipeline
    .readDoc(text.replace(/[\u2018\u2019]/g, "'"))
    .sentences()
    .each((sentence: ItemSentence) => {
      const words: ParsedWord[] = [];
      sentence.tokens().each((token: ItemToken) => {
        const type = token.out(its.type) as string;
        if (type === 'tabCRLF' || type === 'space') return;
        const lower = (token.out() as string).toLowerCase();
        const negated = token.out(its.negationFlag) as unknown as boolean;
        if (lower === "i'm") {
          words.push({ lower: 'i', lemma: 'i', pos: 'PRON', negated });
          words.push({ lower: "'m", lemma: 'be', pos: 'AUX', negated });
          return;
        }
        // wink-nlp lemmatises a possessive it has not met before whole ("priya's") and the next time
        // without its "'s": the possessive is dropped here, so a text reads the same whatever came before.
        const lemma = String((token.out as (f: unknown) => unknown)(its.lemma))
          .toLowerCase()
          .replace(/(.)'s$/, '$1');
        words.push({ lower, lemma, pos: token.out(its.pos) as string, negated });
      });
      sentences.push(markAlternatives(words));
    });
  if (parsed.size >= CACHE) parsed.clear();
  parsed.set(text, sentences);
  return sentences;
}
