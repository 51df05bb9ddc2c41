/**
 * Sentences into clauses, and who holds each clause's stance. A clause ends at punctuation, at
 * a conjunction that can change stance ("but", "because", "except"), and at "and"/"so" when a
 * new subject follows ("…, so I keep it off my plate"). Item mentions are never cut.
 */
import { CLAUSE_OPENERS, PEOPLE } from './lexicon.js';
import type { Clause, Holder, Token } from './types.js';

const BREAKS = new Set([',', ';', ':', '(', ')', '—', '–', '...', '…', '!', '?', '.']);
const SUBJECTS = new Set([
  'i',
  'we',
  'he',
  'she',
  'they',
  'it',
  'my',
  'our',
  'everyone',
  'now',
  'then',
  'these',
  'honestly',
]);

/** Splits a sentence's tokens; `inMention[i]` keeps a mention's tokens together. */
export function splitClauses(
  tokens: readonly Token[],
  inMention: readonly boolean[],
  previous: Holder = 'user',
): Clause[] {
  const clauses: Clause[] = [];
  let current: Token[] = [];
  let opener = '';
  let holder = previous;
  const mentions = new Set(tokens.filter((_, i) => inMention[i] === true));
  const close = (next: string) => {
    if (current.some((token) => token.pos !== 'PUNCT')) {
      holder = holderOf(current, holder, (token) => mentions.has(token));
      clauses.push({ tokens: current, sentence: current[0]!.sentence, holder, opener });
    }
    current = [];
    opener = next;
  };
  tokens.forEach((token, i) => {
    const inside = inMention[i] === true && inMention[i - 1] === true;
    const dash = token.lower === '-' && token.space;
    if (!inside && (BREAKS.has(token.lower) || dash)) {
      close(opener === '' ? '' : opener);
      opener = '';
      return;
    }
    const next = tokens[i + 1];
    const newSubject = next !== undefined && SUBJECTS.has(next.lower);
    const opens =
      !inside &&
      (CLAUSE_OPENERS.has(token.lower) ||
        ((token.lower === 'and' || token.lower === 'so' || token.lower === 'while') && newSubject) ||
        (token.lower === 'since' && token.pos === 'SCONJ'));
    if (opens) {
      close(token.lower);
      return;
    }
    current.push(token);
  });
  close('');
  return clauses;
}

/**
 * Who holds a clause's stance: another person when the clause's subject is one ("my brother
 * is obsessed with…", "everyone at work…"), the user otherwise. A clause whose only pronoun is
 * "they" keeps the holder of the clause before it.
 */
export function holderOf(
  tokens: readonly Token[],
  previous: Holder,
  isMention: (token: Token) => boolean = () => false,
): Holder {
  let prepositional = false;
  for (const [i, token] of tokens.entries()) {
    // The item is the subject ("Big parties with people from work are exhausting").
    if (isMention(token)) break;
    if (token.lemma === 'i' || token.lemma === 'we') return 'user';
    // "… sorry to anyone who loves it".
    if (isPerson(token) && tokens[i + 1]?.lower === 'who') return 'other';
    if (token.pos === 'VERB' || token.pos === 'AUX') break;
    // A noun after a preposition is not the subject ("with my family").
    if (token.pos === 'ADP') prepositional = true;
    if (prepositional) continue;
    if (token.lower === 'me') return 'user';
    if (token.lower === 'my' || token.lower === 'our') {
      // "my brother" / "my little sister" hold a stance; "my playlists" do not.
      const noun = tokens.slice(i + 1, i + 4).find((t) => t.pos === 'NOUN' || t.pos === 'PROPN');
      if (noun !== undefined && isPerson(noun)) return 'other';
      continue;
    }
    if (isPerson(token) && (token.pos === 'NOUN' || token.pos === 'PRON' || token.pos === 'PROPN'))
      return 'other';
    if (
      token.lower === 'they' &&
      previous === 'other' &&
      !tokens.some((t) => t.lower === 'me' || t.lower === 'i')
    )
      return 'other';
    if (token.pos === 'VERB' || token.pos === 'AUX') break;
  }
  return tokens.some((token) => token.lower === 'i' || token.lower === 'me' || token.lower === 'my')
    ? 'user'
    : previous === 'other' && tokens.some((t) => t.lower === 'they')
      ? 'other'
      : 'user';
}

/** A word naming a person ("coworkers", whatever the lemmatizer makes of it). */
function isPerson(token: Token): boolean {
  return (
    PEOPLE.has(token.lemma) || PEOPLE.has(token.lower) || PEOPLE.has(token.lower.replace(/(?:e?s)$/, ''))
  );
}

/** The clause's words as written (spaces restored). */
export function clauseText(tokens: readonly Token[]): string {
  return tokens
    .map((token, i) => (i > 0 && token.space ? ` ${token.text}` : token.text))
    .join('')
    .trim();
}
