import { z } from 'zod';
import type { LlmClient } from '../llm/types.js';
import type { EvidenceSlot } from '../schemas/plan.js';

/** Outcome of the lexical check of one slot against its user turn. */
export interface SlotCheck {
  slot: EvidenceSlot;
  status: 'expressed' | 'missing' | 'unsure';
  /** Keywords not found (case-insensitive). */
  missingKeywords: string[];
}

/**
 * Cheap first check (ARCHITECTURE.md "Check"): all keywords present → expressed; at least
 * `unsureFraction` of them → unsure (a judge decides); fewer → missing.
 *
 * @example lexicalSlotCheck(slot, 'I love Sichuan hotpot', 0.5).status // 'expressed'
 */
export function lexicalSlotCheck(slot: EvidenceSlot, text: string, unsureFraction: number): SlotCheck {
  const haystack = text.toLowerCase();
  const missingKeywords = slot.keywords.filter((keyword) => !haystack.includes(keyword.toLowerCase()));
  if (missingKeywords.length === 0) return { slot, status: 'expressed', missingKeywords };
  const found = slot.keywords.length - missingKeywords.length;
  const unsure = found > 0 && found / slot.keywords.length >= unsureFraction;
  return { slot, status: unsure ? 'unsure' : 'missing', missingKeywords };
}

/** What the judge answers about one slot. */
export const SlotVerdict = z.object({ expressed: z.boolean(), reason: z.string().nullish() });
export type SlotVerdict = z.infer<typeof SlotVerdict>;

export interface CheckChunkOptions {
  /** Judge for unsure slots; without one, unsure counts as missing. */
  llm?: LlmClient;
  unsureFraction: number;
  stage?: string;
  /**
   * Meaning check run on a slot whose keywords are present (src/synth/meaning.ts): any problem
   * it returns makes the slot missing, so the chunk is regenerated. Keywords alone pass "I have
   * gotten into X" for a planned new dislike.
   */
  meaning?: (slot: EvidenceSlot, text: string) => readonly string[];
}

/**
 * Verifies every required slot of a chunk against the user turn of its round. Returns the
 * slots that were not expressed and the number of judge calls made.
 *
 * @example const { missing } = await checkChunkSlots([{ slots, user }], { unsureFraction: 0.5 });
 */
export async function checkChunkSlots(
  rounds: ReadonlyArray<{ slots: readonly EvidenceSlot[]; user: string }>,
  options: CheckChunkOptions,
): Promise<{ missing: EvidenceSlot[]; judgeCalls: number; reasons: Map<string, string> }> {
  const missing: EvidenceSlot[] = [];
  const reasons = new Map<string, string>();
  let judgeCalls = 0;
  for (const round of rounds) {
    for (const slot of round.slots) {
      const check = lexicalSlotCheck(slot, round.user, options.unsureFraction);
      if (check.status === 'expressed') {
        const problems = options.meaning?.(slot, round.user) ?? [];
        if (problems.length > 0) {
          missing.push(slot);
          reasons.set(slot.id, problems.join('; '));
        }
        continue;
      }
      if (check.status === 'missing' || options.llm === undefined) {
        missing.push(slot);
        continue;
      }
      judgeCalls++;
      const verdict = await options.llm.structured('judge', {
        schema: SlotVerdict,
        schemaName: 'slot_expressed',
        stage: options.stage ?? 'synth',
        temperature: 0,
        messages: [
          {
            role: 'system',
            content:
              'You check synthetic dialogue. Answer whether the user message clearly states the given fact in its own words. Reply as JSON {"expressed": boolean, "reason": string}.',
          },
          {
            role: 'user',
            content: `Fact: ${slot.statement}\nKeywords: ${slot.keywords.join(', ')}\nUser message: ${round.user}`,
          },
        ],
        // Offline there is no judge: only a full keyword match counts.
        offline: () => ({ expressed: false, reason: 'offline judge: keywords missing' }),
      });
      if (!verdict.expressed) missing.push(slot);
    }
  }
  return { missing, judgeCalls, reasons };
}
