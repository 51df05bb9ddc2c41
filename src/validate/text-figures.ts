/**
 * The fidelity figures of how the run's text reads (issue 27): sentence templates, stock
 * openings and endings, ungrammatical joins, lower-cased names, and replies that do not agree
 * with the user turn they answer. Measured by src/validate/text-shape.ts and
 * src/validate/reply-agreement.ts with an English parser, never with the realizer's banks.
 */
import { type FidelityFigure, defect as rounded } from './fidelity-figures.js';

/** A defect figure whose target 0 means none at all (2 of 25,254 rounds to 0.0% but is not 0). */
function defect(description: string, count: number, of: number, target: number): FidelityFigure {
  const figure = rounded(description, count, of, target);
  return target === 0 && count > 0 ? { ...figure, ok: false } : figure;
}

import type { FidelityCounts } from './fidelity-measure.js';

/** A sentence template may shape at most this share (%) of user turns. */
export const TEMPLATE_SHARE_MAX = 2;
/** Parsed user turns below which no template share is measured. */
export const TEMPLATE_SAMPLE_MIN = 100;
/** An opening or ending is stock when at least this share (%) of user turns has it. */
export const STOCK_SHARE = 1;
/** At most this share (%) of user turns may open, or end, with a stock run. */
export const STOCK_TURNS_MAX = 25;

/** User turns below which no opening or ending is called stock (1% of them is a handful of turns). */
export const STOCK_SAMPLE_MIN = 500;

/** Turns whose key is used by at least `STOCK_SHARE`% of `total` turns. */
function stockTurns(counts: ReadonlyMap<string, number>, total: number): number {
  if (total < STOCK_SAMPLE_MIN) return 0;
  let stock = 0;
  for (const count of counts.values()) if (count * 100 >= total * STOCK_SHARE && count > 1) stock += count;
  return stock;
}

export function textFigures(
  n: FidelityCounts,
  userOpenings: ReadonlyMap<string, number>,
  userEndings: ReadonlyMap<string, number>,
  skeletons: ReadonlyMap<string, number>,
): Record<string, FidelityFigure> {
  // Turns holding a template that more than TEMPLATE_SHARE_MAX% of the parsed user turns hold
  // (measured from TEMPLATE_SAMPLE_MIN parsed turns: below that, 2% is one or two turns).
  let overused = 0;
  for (const count of skeletons.values())
    if (n.parsedUserTurns >= TEMPLATE_SAMPLE_MIN && count * 100 > n.parsedUserTurns * TEMPLATE_SHARE_MAX)
      overused += count;
  return {
    user_template_share: defect(
      `user turns (parsed sample) holding a sentence template (function words kept, content words abstracted) used in more than ${TEMPLATE_SHARE_MAX}% of them`,
      overused,
      n.parsedUserTurns,
      0,
    ),
    user_stock_openings: defect(
      `user turns opening with a 3-word run that opens ≥ ${STOCK_SHARE}% of user turns`,
      stockTurns(userOpenings, n.userTurns),
      n.userTurns,
      STOCK_TURNS_MAX,
    ),
    user_stock_endings: defect(
      `user turns ending with a 4-word run (an appended stock clause) that ends ≥ ${STOCK_SHARE}% of user turns`,
      stockTurns(userEndings, n.userTurns),
      n.userTurns,
      STOCK_TURNS_MAX,
    ),
    ungrammatical_joins: defect(
      'turns (parsed sample) with a fragment: two determiners, a doubled word, a preposition with no object, a long verbless sentence',
      n.fragmentTurns,
      n.parsedTurns,
      0,
    ),
    user_repeated_lead_ins: defect(
      'user turns (parsed sample) where two sentences open with the same lead-in (the words before a comma, colon or dash)',
      n.leadInRepeatTurns,
      n.parsedUserTurns,
      0,
    ),
    user_stacked_asides: defect(
      'user turns (parsed sample) with more than one aside sentence (opened by a digression marker: "by the way", "not that it matters" …)',
      n.asideStackTurns,
      n.parsedUserTurns,
      0,
    ),
    reflexive_binding_errors: defect(
      'turns (parsed sample) with a clause whose subject "I" or "we" is its own verb\'s object "me" or "us" ("I helped me")',
      n.reflexiveTurns,
      n.parsedTurns,
      0,
    ),
    lowercase_proper_nouns: defect(
      'user turns writing a day or month name in lower case',
      n.lowercaseNameTurns,
      n.userTurns,
      0,
    ),
    assistant_reply_disagreements: defect(
      'replies next to drift and goal turns that do not name what the turn is about, or praise what the user turned away from',
      n.replyDisagreements,
      n.replyChecked,
      0,
    ),
  };
}
