import { z } from 'zod';
import type { LlmClient } from '../llm/types.js';
import type { EvidenceSlot } from '../schemas/plan.js';
import { describeExpectation, readMeaning } from './meaning/index.js';
import type { MeaningExpectation } from './meaning/types.js';
import { type EntailmentQuestion, judgeEntailment } from './meaning-judge.js';

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
   * What a slot whose keywords are present must mean (src/synth/meaning/), with the drift's
   * cause for the hint. The reader's `contradicts` and `unsure` go to one entailment call per
   * chunk (a judge, else the realizer's endpoint) whose verdict decides; offline a
   * `contradicts` makes the slot missing and an `unsure` is counted and passes. Keywords alone
   * pass "I have gotten into X" for a planned new dislike.
   */
  meaning?: (slot: EvidenceSlot) => { expectations: MeaningExpectation[]; cause: string | null };
}

/** What the meaning check of a chunk found, for counts in reports. */
export interface MeaningCounts {
  /** Readings the reader left unsure (decided by the judge when there is one). */
  unsure: number;
  /** Readings the reader found contradicting the plan. */
  contradicts: number;
  /** Judge verdicts: the message says the claim, does not say it, says the opposite. */
  judged: { yes: number; no: number; opposite: number };
  /** Unsure readings no model could decide (offline), passed and counted. */
  undecided: number;
}

export const emptyMeaningCounts = (): MeaningCounts => ({
  unsure: 0,
  contradicts: 0,
  judged: { yes: 0, no: 0, opposite: 0 },
  undecided: 0,
});

/**
 * Verifies every required slot of a chunk against the user turn of its round. Returns the
 * slots that were not expressed and the number of judge calls made.
 *
 * @example const { missing } = await checkChunkSlots([{ slots, user }], { unsureFraction: 0.5 });
 */
export async function checkChunkSlots(
  rounds: ReadonlyArray<{ slots: readonly EvidenceSlot[]; user: string }>,
  options: CheckChunkOptions,
): Promise<{
  missing: EvidenceSlot[];
  judgeCalls: number;
  reasons: Map<string, string>;
  meaning: MeaningCounts;
}> {
  const missing: EvidenceSlot[] = [];
  const reasons = new Map<string, string>();
  const meaning = emptyMeaningCounts();
  const questions: Array<EntailmentQuestion & { slot: EvidenceSlot }> = [];
  let judgeCalls = 0;
  for (const round of rounds) {
    for (const slot of round.slots) {
      const check = lexicalSlotCheck(slot, round.user, options.unsureFraction);
      if (check.status === 'expressed') {
        const wanted = options.meaning?.(slot);
        if (wanted === undefined) continue;
        const readings = readMeaning(round.user, wanted.expectations);
        readings.forEach((reading, i) => {
          const expectation = wanted.expectations[i]!;
          const claim = describeExpectation(expectation, expectation.ended ? null : wanted.cause);
          if (reading.missing) {
            if (!missing.includes(slot)) missing.push(slot);
            reasons.set(slot.id, `must say ${claim}: ${reading.reason}`);
            return;
          }
          if (reading.verdict === 'agrees') return;
          if (reading.verdict === 'unsure') meaning.unsure++;
          else meaning.contradicts++;
          questions.push({
            id: `q${questions.length + 1}`,
            round: slot.round,
            text: round.user,
            claim,
            reading,
            slot,
          });
        });
        continue;
      }
      if (check.status === 'missing' || options.llm === undefined) {
        missing.push(slot);
        reasons.set(
          slot.id,
          `must say ${slot.statement} (naming ${check.missingKeywords.map((k) => `"${k}"`).join(', ')})`,
        );
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
      if (!verdict.expressed) {
        missing.push(slot);
        reasons.set(slot.id, `must say ${slot.statement}`);
      }
    }
  }
  if (questions.length > 0) {
    const verdicts =
      options.llm === undefined
        ? new Map(
            questions.map((q) => [
              q.id,
              {
                says: q.reading.verdict === 'contradicts' ? ('opposite' as const) : null,
                quote: q.reading.clause,
              },
            ]),
          )
        : await judgeEntailment(options.llm, questions, { stage: options.stage ?? 'synth' });
    const online =
      options.llm !== undefined && !(options.llm.isOffline('judge') && options.llm.isOffline('realizer'));
    if (online) judgeCalls++;
    for (const q of questions) {
      const verdict = verdicts.get(q.id)!;
      if (verdict.says === null) {
        meaning.undecided++;
        continue;
      }
      if (online) meaning.judged[verdict.says]++;
      if (verdict.says === 'yes') continue;
      if (!missing.includes(q.slot)) missing.push(q.slot);
      const said = verdict.says === 'opposite' ? 'it says the opposite' : 'it does not say so';
      const words = verdict.quote === '' ? '' : ` ("${verdict.quote}")`;
      reasons.set(q.slot.id, `must say ${q.claim}: ${said}${words}`);
    }
  }
  return { missing, judgeCalls, reasons, meaning };
}
