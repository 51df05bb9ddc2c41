/**
 * How user text reads, measured with an English parser (src/util/nlp.ts) and not with the
 * phrase banks that wrote it: the sentence templates a run leans on (a sentence's shape with its
 * content words abstracted), stock openings and endings repeated across turns, ungrammatical
 * joins (fragments), and proper nouns written in lower case.
 */
import { type ReadSentence, tagSentences } from '../util/nlp.js';
import { readAsides, type TurnAsides } from './text-asides.js';

/** POS tags whose words are content (abstracted in a skeleton); the rest are kept as words. */
const CONTENT = new Set(['NOUN', 'PROPN', 'VERB', 'ADJ', 'ADV', 'NUM', 'INTJ', 'X', 'SYM']);
/** Sentences shorter than this many tokens are too short for their shape to be a template. */
const MIN_SKELETON_TOKENS = 7;
const ARTICLES = new Set(['a', 'an', 'the', 'my', 'your', 'his', 'her', 'their', 'our']);
/** Words that cannot stand right before an article ("no the gym", "a few the photos"). */
const BEFORE_ARTICLE = new Set([...ARTICLES, 'no']);
/** A preposition that takes an object, then one that cannot start it ("for on your day off"). */
const HEADS = new Set(['for', 'of', 'to', 'with', 'at', 'from', 'into']);
const NOT_AN_OBJECT = new Set(['on', 'in', 'at', 'for', 'of', 'to', 'with', 'by', 'into']);
/** Sentences of at least this many words with no verb are fragments. */
const VERBLESS_WORDS = 8;
/** Names English always capitalises: days, months (not "may", "march"), nationalities and languages, countries and cities. */
const DAYS_AND_MONTHS =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|april|june|july|august|september|october|november|december|thai|indian|chinese|japanese|korean|italian|french|mexican|spanish|greek|scandinavian|english|american|british|german|vietnamese|cantonese|sichuan|turkish|lebanese|moroccan|ethiopian|georgian|peruvian|iceland|japan|paris|london|tokyo|kindle)\b/;

/**
 * A sentence's template shape: function words kept, each run of content words one `_`. Null for
 * sentences too short to be a template.
 *
 * @example sentenceSkeleton(tagSentences('I really love tonkotsu ramen on Fridays.')[0]) // 'i _ on _ .'
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
 * between ("a few the photos"), a word said twice in a row, a preposition with no object before
 * the next ("for on your day off"), and a sentence of eight or more words with no verb.
 *
 * @example fragmentProblems(tagSentences('Should I compare a few the photos options?')[0]) // ['determiner after determiner: "the"']
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
        if (pos[back] === 'NOUN' || pos[back] === 'PROPN' || pos[back] === 'PUNCT' || pos[back] === 'VERB')
          break;
        if (pos[back] === 'DET' && BEFORE_ARTICLE.has(words[back] as string)) {
          problems.push(`determiner after determiner: "${words.slice(back, i + 1).join(' ')}"`);
          break;
        }
      }
    }
    if (HEADS.has(words[i - 1] as string) && NOT_AN_OBJECT.has(word) && pos[i] === 'ADP')
      problems.push(`two prepositions: "${words[i - 1]} ${word}"`);
  }
  const wordCount = pos.filter((tag) => tag !== 'PUNCT').length;
  // A colon introduces a list or a caption ("A new picture of Ziggy: two kites"), not a fragment.
  if (
    wordCount >= VERBLESS_WORDS &&
    !sentence.text.includes(':') &&
    !pos.some((tag) => tag === 'VERB' || tag === 'AUX')
  )
    problems.push(`no verb: "${sentence.text}"`);
  return problems;
}

const words = (text: string) =>
  text
    .replace(/<image>/g, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * A turn's first three and last four words (lower case; '' when it is shorter), the runs a
 * stock opener or an appended stock clause repeats.
 *
 * @example turnEdges('Oh wow, I got the job!') // { opening: 'oh wow i', ending: 'i got the job' }
 */
export function turnEdges(text: string): { opening: string; ending: string } {
  const all = words(text);
  return {
    opening: all.length >= 3 ? all.slice(0, 3).join(' ') : '',
    ending: all.length >= 4 ? all.slice(-4).join(' ') : '',
  };
}

/**
 * Proper names written in lower case ("every sunday morning", "thai green curry").
 *
 * @example lowercaseNames('I have dim sum every sunday morning.') // ['sunday']
 */
export function lowercaseNames(text: string): string[] {
  return text.match(new RegExp(DAYS_AND_MONTHS.source, 'g')) ?? [];
}

/** The parsed part of a turn's shape: its distinct sentence skeletons, fragments and asides. */
export interface ParsedShape {
  skeletons: string[];
  fragments: string[];
  asides: TurnAsides;
}

/**
 * Parses one turn.
 *
 * @example parsedShape('Should I compare a few the photos options?').fragments // ['determiner after determiner: "a few the"']
 */
export function parsedShape(text: string): ParsedShape {
  const skeletons = new Set<string>();
  const fragments: string[] = [];
  const sentences = tagSentences(text);
  for (const sentence of sentences) {
    const skeleton = sentenceSkeleton(sentence);
    if (skeleton !== null) skeletons.add(skeleton);
    fragments.push(...fragmentProblems(sentence));
  }
  return { skeletons: [...skeletons], fragments, asides: readAsides(sentences) };
}
