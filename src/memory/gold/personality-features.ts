/**
 * What the learned personality reader (personality-classifier.ts) sees of a message: the words of
 * its statements, each marked with who its clause is about and whether it is denied, wished for
 * or a condition, and the runs of two and three words of a clause. "I skipped the party" gives
 * `I:skip` and `I:party`; "my sister skipped the party" gives `M:skip`; "I didn't skip it" gives
 * `I!skip`; a word in a clause of condition or time gives only its marked form. Questions give
 * nothing: asking how to stop panicking shows no panic. The marks let the model tell a habit of the
 * speaker from the same words said of someone else, denied, wished for or conditional.
 */
import { createRequire } from 'node:module';
import { CLAUSE_BREAKS, OPENERS } from './personality-match.js';
import { type ParsedWord, parseSentences } from './personality-parse.js';

/**
 * Who a clause is about: the speaker (I), the speaker with others (W), something of the speaker's
 * ("my sister", "my desk": M), the one spoken to (Y), someone or something else (O), or no subject
 * said: D, a chat sentence that drops its "I" ("spent the day…"), or R, one that opens with a verb
 * in its base form, as a request does ("keep calm", "tell me") and as present-tense chat may
 * ("love a good party").
 */
type Subject = 'I' | 'W' | 'M' | 'Y' | 'O' | 'D' | 'R';

/** Parts of speech whose words carry what a clause says. */
const CONTENT = new Set(['NOUN', 'VERB', 'ADJ', 'ADV', 'PROPN', 'INTJ', 'NUM']);
/** Words a clause opens its statement with: a subject is the first of these before the verb. */
const SUBJECT_POS = new Set(['PRON', 'NOUN', 'PROPN', 'DET']);
/** Verbs too light to say anything on their own. */
const LIGHT = new Set(['be', 'have', 'do', "'s", "'m", "'re", "'ve", "'d", "'ll"]);
/** Words that make the rest of their clause a wish, duty or plan: "I want to get organised". */
const WISHES = new Set(['want', 'wish', 'hope', 'should', 'must', 'gonna']);
/** Words that do so only before "to": "I meant to call" is an intention, "I meant Tuesday" and "I tried it" are not. */
const WISHES_TO = new Set(['try', 'plan', 'need', 'mean', 'intend']);
/** Words that make the rest of their clause a condition or a time: "when I'm stressed". */
const CONDITIONS = new Set(['if', 'when', 'whenever', 'unless', 'before', 'until', 'till', 'once']);
/** Particles and prepositions kept in pairs, for phrasal verbs ("turn down", "stay in", "left early"). */
const PARTICLES = new Set(['in', 'out', 'up', 'down', 'off', 'on', 'over', 'away', 'alone', 'early', 'home']);

/** AFINN-165 word valences (−5…5), as the `sentiment` package ships them: a feeling's direction. */
const AFINN = createRequire(import.meta.url)('sentiment/languages/en/labels.json') as Record<string, number>;

const subjectOf = (token: ParsedWord, next: ParsedWord | undefined): Subject | null => {
  if (token.lower === 'i' || token.lower === 'me') return 'I';
  if (token.lower === 'we' || token.lower === 'us') return 'W';
  if (token.lower === 'my') return next?.pos === 'NOUN' || next?.pos === 'ADJ' ? 'M' : null;
  if (token.lower === 'you') return 'Y';
  if (token.pos === 'DET' && token.lower !== 'this' && token.lower !== 'that') return null;
  return 'O';
};

/** True when the sentence opens with a verb in its base form: "keep calm", "love a good party". */
function opensWithBaseVerb(tokens: readonly ParsedWord[]): boolean {
  const first = tokens.find((token) => !OPENERS.has(token.pos) && token.pos !== 'PUNCT');
  return first?.pos === 'VERB' && first.lower === first.lemma;
}

/** The features of one sentence (none for a question). */
function sentenceFeatures(tokens: readonly ParsedWord[], out: Set<string>): void {
  if (tokens.some((token) => token.lower === '?')) return;
  const opening: Subject = opensWithBaseVerb(tokens) ? 'R' : 'D';
  let subject: Subject = opening;
  let verbSeen = false;
  let subjectSet = false;
  let wish = false;
  let condition = false;
  let previous = '';
  let earlier = '';
  tokens.forEach((token, i) => {
    if (token.pos === 'PUNCT' || CLAUSE_BREAKS.has(token.lower) || token.lower === 'and') {
      // A new clause keeps its subject until it names one ("I stayed late and finished her slides").
      [verbSeen, subjectSet, wish, condition, previous, earlier] = [false, false, false, false, '', ''];
      if (token.pos === 'PUNCT') subject = 'D';
      return;
    }
    if (CONDITIONS.has(token.lower)) {
      condition = true;
      return;
    }
    if (WISHES.has(token.lemma) || (WISHES_TO.has(token.lemma) && tokens[i + 1]?.lower === 'to')) wish = true;
    if (!verbSeen && !subjectSet && SUBJECT_POS.has(token.pos)) {
      const found = subjectOf(token, tokens[i + 1]);
      if (found !== null) [subject, subjectSet] = [found, true];
    }
    if (token.pos === 'VERB' || token.pos === 'AUX') verbSeen = true;
    const keep = (CONTENT.has(token.pos) && !LIGHT.has(token.lemma)) || PARTICLES.has(token.lower);
    if (!keep) return;
    // Which number is said is no trait: "15 people" and "four guests" give the same word.
    const lemma = token.pos === 'NUM' ? 'num' : token.lemma.replace(/[^a-z0-9']/g, '');
    if (lemma.length < 2) return;
    const mark = `${subject}${token.negated ? '!' : ''}${wish ? 'w' : ''}${condition ? 'c' : ''}`;
    out.add(`${mark}:${lemma}`);
    // A word in a clause of condition or time is only itself there: "before I forget" and "when
    // I'm stressed" lend nothing to "I forget things" or "I'm stressed".
    if (condition) return;
    out.add(lemma);
    const valence = AFINN[token.lower] ?? AFINN[lemma] ?? 0;
    if (valence !== 0) out.add(`${mark}:${valence > 0 ? 'good' : 'bad'}`);
    if (previous !== '') out.add(`${token.negated ? '!' : ''}${previous}_${lemma}`);
    // Three words in a row say what two cannot: "keep_head_down", "say_very_little".
    if (earlier !== '' && previous !== '') out.add(`${earlier}_${previous}_${lemma}`);
    [earlier, previous] = [previous, lemma];
  });
}

/**
 * The features of a message, sorted.
 *
 * @example messageFeatures('I skipped the party.') // ['I:party', 'I:skip', 'party', 'skip', 'skip_party']
 */
export function messageFeatures(text: string): string[] {
  const out = new Set<string>();
  for (const sentence of parseSentences(text.replace(/<image>/g, ' '))) sentenceFeatures(sentence, out);
  return [...out].sort();
}
