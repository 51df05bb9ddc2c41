/**
 * Where a text names an item: any of its keywords, or the item phrase itself, matched by lemma
 * ("staying up late" names "stay up late", "americanos" names "americano"). A two-word name may
 * have one word between ("the bigger the party" names "big parties").
 */
import { lemmas } from './nlp.js';
import type { MeaningExpectation, Token } from './types.js';

const namesCache = new Map<string, string[][]>();

/** The names of an expectation's item as lemma sequences, longest first. */
export function itemNames(expectation: Pick<MeaningExpectation, 'keywords' | 'item'>): string[][] {
  const key = `${expectation.item}\u0000${expectation.keywords.join('\u0000')}`;
  const known = namesCache.get(key);
  if (known !== undefined) return known;
  const names = [expectation.item, ...expectation.keywords]
    .filter((name) => name.trim() !== '')
    .map((name) => lemmas(name.toLowerCase()))
    .filter((name) => name.length > 0)
    // "the gym" and "a vegetarian diet": a leading article is not part of the name.
    .map((name) => (['the', 'a', 'an'].includes(name[0]!) && name.length > 1 ? name.slice(1) : name))
    .sort((a, b) => b.length - a.length);
  namesCache.set(key, names);
  return names;
}

const matches = (token: Token, word: string) =>
  token.lemma === word ||
  token.lower === word ||
  (token.lower.startsWith(word) && /^(?:s|es|ed|d|ing)$/.test(token.lower.slice(word.length)));

/** The [start, end] spans (end inclusive) where `tokens` name the item. */
export function findMentions(tokens: readonly Token[], names: readonly string[][]): Array<[number, number]> {
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
