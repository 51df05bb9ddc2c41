/**
 * Expectations of a plan's slots, and the problems a check reports: only what the reader finds
 * `contradicts`, and an item the text never names. `unsure` is not a problem here; the callers
 * that can ask a judge do (src/synth/check.ts), and validation counts it (fidelity).
 */
import type { DriftEvent, EvidenceSlot, Preference } from '../../schemas/plan.js';
import { readMeaning } from './read.js';
import type { MeaningExpectation, MeaningReading } from './types.js';

/** The expectations of a preference or drift slot (empty for other kinds). */
export function slotExpectations(
  plan: { preferences: readonly Preference[]; drift: readonly DriftEvent[] },
  slot: Pick<EvidenceSlot, 'kind' | 'refId'>,
  prefsById?: ReadonlyMap<string, Preference>,
): MeaningExpectation[] {
  const find = (id: string | null) =>
    id === null ? undefined : (prefsById?.get(id) ?? plan.preferences.find((p) => p.id === id));
  const expect = (pref: Preference, ended: boolean): MeaningExpectation => ({
    keywords: pref.keywords,
    item: pref.item,
    polarity: pref.polarity,
    ended,
    condition: ended ? null : (pref.condition?.when ?? null),
  });
  if (slot.kind === 'preference') {
    const pref = find(slot.refId);
    return pref === undefined ? [] : [expect(pref, false)];
  }
  if (slot.kind !== 'drift') return [];
  const event = plan.drift.find((d) => d.id === slot.refId);
  if (event === undefined) return [];
  const out: MeaningExpectation[] = [];
  const closed = find(event.previousPreferenceId);
  const opened = find(event.preferenceId);
  if (closed !== undefined) out.push(expect(closed, true));
  if (opened !== undefined) out.push(expect(opened, false));
  return out;
}

/** One problem line for a reading that is a problem (`contradicts`, or never named), else null. */
export function problemOf(reading: MeaningReading): string | null {
  if (reading.missing) return reading.reason;
  if (reading.verdict !== 'contradicts') return null;
  return `"${reading.item}" ${reading.reason} ("${reading.clause}")`;
}

/**
 * Problems with how `text` states the expectations: each `contradicts` and each item the text
 * never names (empty when it says what the plan says, or when the reader is only unsure).
 *
 * @example meaningProblems('Lately I have gotten really sick of durian.', [{ keywords: ['durian'], item: 'durian', polarity: 'like', ended: false, condition: null }])
 * // ['"durian" reads as a dislike, planned like ("Lately I have gotten really sick of durian")']
 */
export function meaningProblems(text: string, expectations: readonly MeaningExpectation[]): string[] {
  return readMeaning(text, expectations).flatMap((reading) => problemOf(reading) ?? []);
}

/**
 * An expectation in plain words, for a judge's question and a regeneration hint: "the user no
 * longer likes black americano", "the user dislikes cilantro, only when travelling for work".
 */
export function describeExpectation(expectation: MeaningExpectation, cause: string | null = null): string {
  const verb = expectation.polarity === 'like' ? 'likes' : 'dislikes';
  const stance = expectation.ended ? `no longer ${verb}` : verb;
  const condition = expectation.condition === null ? '' : `, only ${expectation.condition}`;
  const because = cause === null || cause === '' ? '' : `, because ${cause}`;
  return `the user ${stance} ${expectation.item}${condition}${because}`;
}
