import { STYLE_CLAUSES } from '../../src/synth/offline/style-clauses.js';

/**
 * Finds the offline style banks' sentences in text, to keep them apart from what reads style: the
 * personality readers' training messages and test sets, and the audits of what the offline
 * realizer wrote (bench/personality-sides.ts). Never used to label.
 */

/** Letters and digits only: a parsed sentence ("i am sorry , and thank you") meets its phrase. */
export const bare = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/** A bank phrase as a regex over a bare sentence (slots and alternatives as wildcards). */
const bankPatterns = Object.entries(STYLE_CLAUSES).flatMap(([bank, phrases]) =>
  (phrases as readonly string[]).map((phrase) => {
    const body = phrase
      .split(/(\{[^}]+\}|\[[^\]]*\])/)
      .map((part) =>
        part.startsWith('{')
          ? '.+?'
          : part.startsWith('[')
            ? `(?:${part.slice(1, -1).split('|').map(bare).join('|')})`
            : bare(part),
      )
      .join('');
    return { bank, re: new RegExp(body) };
  }),
);

/**
 * The style bank a sentence was written from, or null.
 *
 * @example bankOf('The weather was nice.') // null
 */
export const bankOf = (sentence: string): string | null =>
  bankPatterns.find((p) => p.re.test(bare(sentence)))?.bank ?? null;
