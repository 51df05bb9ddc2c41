import { normaliseText } from '../../util/text.js';
import type { RuleCheck, RuleFailure } from '../types.js';

export { normaliseText };

/**
 * Fraction of `keywords` found in `text` (case-insensitive), each starting at a word boundary;
 * inflected endings are allowed ("window seat" matches "window seats", "star" matches "stars").
 */
export function keywordCoverage(text: string, keywords: readonly string[]): number {
  if (keywords.length === 0) return 1;
  const haystack = normaliseText(text);
  let found = 0;
  for (const keyword of keywords) if (haystack.includes(normaliseText(keyword).trimEnd())) found++;
  return found / keywords.length;
}

/**
 * Every evidence slot a QA target relies on is expressed: the turn listing it in `slots`
 * contains (at least `slotKeywordFraction` of) its keywords.
 *
 * @example slotExpressedCheck.run(indexUser(bundle), options)
 */
export const slotExpressedCheck: RuleCheck = {
  name: 'slot_expressed',
  description: 'every evidence slot expressed (its turn contains its keywords)',
  run({ bundle, turnBySlot, slotsById }, { config }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    const needed = new Set<string>();
    for (const qa of bundle.plan.qa) for (const slotId of qa.evidenceSlotIds) needed.add(slotId);
    for (const slotId of needed) {
      const slot = slotsById.get(slotId);
      if (slot === undefined) continue; // reported by qa_evidence
      const located = turnBySlot.get(slotId);
      if (located === undefined) {
        failures.push({
          check: 'slot_expressed',
          userId,
          location: `slots[${slotId}]`,
          reason: 'no turn lists this slot',
        });
        continue;
      }
      const coverage = keywordCoverage(located.turn.text, slot.keywords);
      if (coverage < config.slotKeywordFraction) {
        failures.push({
          check: 'slot_expressed',
          userId,
          location: located.turn.id,
          reason: `lists slot "${slotId}" but contains ${Math.round(coverage * 100)}% of its keywords [${slot.keywords.join(', ')}]`,
        });
      }
    }
    return failures;
  },
};
