/**
 * Where a text names an item: any of its keywords, or the item phrase itself, matched by lemma
 * ("staying up late" names "stay up late", "americanos" names "americano"). A two-word name may
 * have one word between ("the bigger the party" names "big parties"). The item's head word alone
 * names it only when no modifier of another kind stands before it: "green tea" and "the tea" name
 * jasmine green tea, "bubble milk tea" and "miso soup" name other teas and soups.
 */
import { parse } from './nlp.js';
import type { MeaningExpectation, Token } from './types.js';

/** One word of a name: as written (lowercased) and as the parser lemmatizes it. */
export interface NameWord {
  lower: string;
  lemma: string;
}

const namesCache = new Map<string, NameWord[][]>();

/** The names of an expectation's item as lemma sequences, longest first. */
export function itemNames(expectation: Pick<MeaningExpectation, 'keywords' | 'item'>): NameWord[][] {
  const key = `${expectation.item}\u0000${expectation.keywords.join('\u0000')}`;
  const known = namesCache.get(key);
  if (known !== undefined) return known;
  const names = [expectation.item, ...expectation.keywords]
    .filter((name) => name.trim() !== '')
    .map((name) => words(name.toLowerCase()))
    .filter((name) => name.length > 0)
    // "the gym" and "a vegetarian diet": a leading article is not part of the name.
    .map((name) => (['the', 'a', 'an'].includes(name[0]!.lower) && name.length > 1 ? name.slice(1) : name))
    .sort((a, b) => b.length - a.length);
  namesCache.set(key, names);
  return names;
}

function words(phrase: string): NameWord[] {
  return parse(phrase)
    .flat()
    .filter((token) => token.pos !== 'PUNCT' || token.lower === '-')
    .map((token) => ({ lower: token.lower, lemma: token.lemma }));
}

/** A token is a word, inflected or not ("ramen" whatever the lemmatizer makes of it). */
export function sameWord(token: Token, word: NameWord | string): boolean {
  const { lower, lemma } = typeof word === 'string' ? { lower: word, lemma: word } : word;
  if (token.lemma === lemma || token.lower === lower || token.lemma === lower || token.lower === lemma)
    return true;
  return token.lower.startsWith(lower) && /^(?:s|es|ed|d|ing)$/.test(token.lower.slice(lower.length));
}
const matches = sameWord;

/** The [start, end] spans (end inclusive) where `tokens` name the item. */
export function findMentions(
  tokens: readonly Token[],
  names: readonly NameWord[][],
): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const taken = new Set<number>();
  for (const name of names) {
    for (let i = 0; i < tokens.length; i++) {
      if (taken.has(i) || !matches(tokens[i]!, name[0]!)) continue;
      let at = i;
      let ok = true;
      for (const word of name.slice(1)) {
        if (at + 1 < tokens.length && matches(tokens[at + 1]!, word)) at += 1;
        else if (
          name.length === 2 &&
          at + 2 < tokens.length &&
          tokens[at + 1]!.pos !== 'PUNCT' &&
          tokens[at + 1]!.pos !== 'ADP' &&
          matches(tokens[at + 2]!, word)
        )
          at += 2;
        else {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      spans.push([i, at]);
      for (let j = i; j <= at; j++) taken.add(j);
    }
  }
  return spans.sort((a, b) => a[0] - b[0]);
}

/**
 * Words before a head noun that say when, not what kind ("my morning tea" is still the tea):
 * general English for parts of the day and the year.
 */
const WHEN = new Set([
  'morning',
  'afternoon',
  'evening',
  'night',
  'day',
  'weekend',
  'weekday',
  'week',
  'today',
  'summer',
  'winter',
  'spring',
  'autumn',
  'holiday',
]);

/**
 * True when the mention at [start, end] is only the item's head word and a modifier of another
 * kind stands right before it: "milk" in "bubble milk tea" for jasmine green tea, "miso" in "miso
 * soup" for hot and sour soup, "mid-century" for Scandinavian furniture. A compound noun, a proper
 * adjective or a hyphenated word that is not one of the item's own words names another item with
 * the same head; determiners, possessives, plain adjectives and times of day do not ("the tea",
 * "my tea", "a good tea", "my morning tea").
 */
export function namesAnotherKind(
  tokens: readonly Token[],
  [start, end]: readonly [number, number],
  item: readonly NameWord[],
): boolean {
  if (item.length < 2 || start !== end) return false;
  if (!sameWord(tokens[start]!, item.at(-1)!)) return false;
  const before = tokens[start - 1];
  if (before === undefined || before.sentence !== tokens[start]!.sentence) return false;
  if (WHEN.has(before.lemma) || WHEN.has(before.lower) || item.some((word) => sameWord(before, word)))
    return false;
  if (/\w-\w/.test(before.lower)) return true;
  // A capital at a sentence's start says nothing: "Fancy resorts" is tagged as a name, "fancy resorts" is not.
  const pos =
    before.pos === 'PROPN' && (start - 1 === 0 || tokens[start - 2]!.sentence !== before.sentence)
      ? (parse(`${before.lower} ${tokens[start]!.lower}`).flat()[0]?.pos ?? before.pos)
      : before.pos;
  return pos === 'NOUN' || pos === 'PROPN';
}

/** An item's own phrase as name words ("jasmine green tea" → jasmine, green, tea). */
export function itemWords(item: string): NameWord[] {
  const all = words(item.toLowerCase());
  return ['the', 'a', 'an'].includes(all[0]?.lower ?? '') && all.length > 1 ? all.slice(1) : all;
}
