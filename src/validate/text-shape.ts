/**
 * How user text reads, measured with an English parser (src/util/nlp.ts) and not with the
 * phrase banks that wrote it: the sentence templates a run leans on (a sentence's shape with its
 * content words abstracted), stock openings and endings repeated across turns, ungrammatical
 * joins (fragments), and proper nouns written in lower case.
 */
import { type ReadSentence, readSentences } from '../util/nlp.js';

/** POS tags whose words are content (abstracted in a skeleton); the rest are kept as words. */
const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM', 'INTJ', 'X', 'SYM']);
/** Sentences shorter than this many tokens are too short for their shape to be a template. */
const MIN_SKELETON_TOKENS = 7;
const ARTICLES = new Set(['a', 'an', 'the', 'my', 'your', 'his', 'her', 'their', 'our']);
/** Preposition pairs English does use. */
const PREPOSITION_PAIRS = new Set([
  'out of',
  'because of',
  'instead of',
  'up to',
  'from around',
  'up in',
  'up at',
  'back to',
  'back from',
  'over to',
  'down to',
  'apart from',
  'due to',
  'next to',
  'close to',
  'away from',
  'along with',
  'in between',
  'as of',
  'up with',
  'out in',
  'off to',
  'about to',
  'as for',
  'from behind',
]);
const DAYS_AND_MONTHS =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|april|june|july|august|september|october|november|december)\b/;

/**
 * A sentence's template shape: function words kept, each run of content words one `_`. Null for
 * sentences too short to be a template.
 *
 * @example sentenceSkeleton(readSentences('I really love tonkotsu ramen on Fridays.')[0]) // 'i _ on _ .'
 */
export function sentenceSkeleton(sentence: ReadSentence): string | null {
  if (sentence.tokens.length < MIN_SKELETON_TOKENS) return null;
  const parts: string[] = [];
  sentence.tokens.forEach((token, i) => {
    const part = CONTENT.has(sentence.pos[i] ?? '') ? '_' : token.toLowerCase();
    if (part === '_' && parts.at(-1) === '_') return;
    parts.push(part);
  });
  return parts.join(' ');
}

/**
 * Ungrammatical joins in one sentence, as the parser reads it: two determiners with no noun
 * between ("a few the photos"), a word said twice in a row, two prepositions in a row ("for on
 * your day off"), and a sentence of five or more words with no verb.
 *
 * @example fragmentProblems(readSentences('Should I compare a few the photos options?')[0]) // ['determiner after determiner: "the"']
 */
export function fragmentProblems(sentence: ReadSentence): string[] {
  const { tokens, pos } = sentence;
  const words = tokens.map((token) => token.toLowerCase());
  const problems: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as string;
    if (pos[i] !== 'PUNCT' && word === words[i - 1] && !/^(very|so|really|no|bye|ha)$/.test(word))
      problems.push(`word said twice: "${word} ${word}"`);
    if (ARTICLES.has(word) && pos[i] === 'DET') {
      for (let back = i - 1; back >= Math.max(0, i - 2); back--) {
        if (pos[back] === 'NOUN' || pos[back] === 'PROPN' || pos[back] === 'PUNCT' || pos[back] === 'VERB') break;
        if (pos[back] === 'DET' && ARTICLES.has(words[back] as string)) {
          problems.push(`determiner after determiner: "${words.slice(back, i + 1).join(' ')}"`);
          break;
        }
      }
    }
    if (pos[i] === 'ADP' && pos[i - 1] === 'ADP' && !PREPOSITION_PAIRS.has(`${words[i - 1]} ${word}`))
      problems.push(`two prepositions: "${words[i - 1]} ${word}"`);
  }
  const wordCount = pos.filter((tag) => tag !== 'PUNCT').length;
  if (wordCount >= 5 && !pos.some((tag) => tag === 'VERB' || tag === 'AUX'))
    problems.push(`no verb: "${sentence.text}"`);
  return problems;
}

/** What one user turn contributes to the run's text-shape figures. */
export interface TurnShape {
  /** Distinct sentence skeletons of the turn. */
  skeletons: string[];
  /** First three words (lower case), or '' for a turn shorter than that. */
  opening: string;
  /** Last four words (lower case), or ''. */
  ending: string;
  fragments: string[];
  /** Day and month names written in lower case. */
  lowercaseNames: string[];
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * Reads one user turn.
 *
 * @example turnShape('I have dim sum every sunday morning.').lowercaseNames // ['sunday']
 */
export function turnShape(text: string): TurnShape {
  const sentences = readSentences(text);
  const skeletons = new Set<string>();
  const fragments: string[] = [];
  for (const sentence of sentences) {
    const skeleton = sentenceSkeleton(sentence);
    if (skeleton !== null) skeletons.add(skeleton);
    fragments.push(...fragmentProblems(sentence));
  }
  const all = words(text.replace(/<image>/g, ' '));
  const lowercaseNames = (text.match(new RegExp(DAYS_AND_MONTHS.source, 'g')) ?? []).slice();
  return {
    skeletons: [...skeletons],
    opening: all.length >= 3 ? all.slice(0, 3).join(' ') : '',
    ending: all.length >= 4 ? all.slice(-4).join(' ') : '',
    fragments,
    lowercaseNames,
  };
}
