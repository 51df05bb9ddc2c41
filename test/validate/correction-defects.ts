/**
 * Planted noise-correction defects (issue 13): a correction that retracts a planned, held
 * preference, and one with no misstatement to correct. Both are for the `correction_scope` rule.
 */
import type { UserBundle } from '../../src/validate/types.js';
import type { Defect } from './types.js';

const turn = (bundle: UserBundle, s: number, t: number) => bundle.dialogue.sessions[s]!.turns[t]!;

/**
 * Plants a correction noise round on round 2 of session 0 (text `text`) while the plan holds a
 * ramen preference; with `slip`, round 1 is planted as the misstatement it corrects.
 */
function plantCorrection(b: UserBundle, text: string, slip: boolean): void {
  const first = turn(b, 0, 0);
  b.plan.preferences.push({
    id: 'pref-ramen',
    category: 'food',
    slot: 'ramen',
    item: 'tonkotsu ramen',
    polarity: 'like',
    keywords: ['ramen'],
    validFrom: first.time,
    validUntil: null,
    origin: 'initial',
    condition: null,
  });
  const fix = turn(b, 0, 4);
  const misstated = turn(b, 0, 2);
  fix.text = text;
  fix.noise = 'correction';
  turn(b, 0, 5).noise = 'correction';
  const noise = b.plan.sessions[0]!.noise;
  noise.push({
    round: fix.round,
    kind: 'correction',
    note: 'corrects the drop-off day',
    corrects: misstated.round,
  });
  if (slip) {
    misstated.text = 'Quick practical thing: please note the drop-off day as Tuesday.';
    misstated.noise = 'misstatement';
    noise.unshift({
      round: misstated.round,
      kind: 'misstatement',
      note: 'gives the wrong drop-off day for a parcel',
    });
  }
}

export const CORRECTION_DEFECTS: Defect[] = [
  {
    name: 'a correction that retracts a planned preference the plan still holds',
    check: 'correction_scope',
    apply: (b) =>
      plantCorrection(b, 'Wait, scratch what I said about ramen - I meant the cheapest option.', true),
  },
  {
    name: 'a correction with no misstatement to correct',
    check: 'correction_scope',
    apply: (b) =>
      plantCorrection(b, 'Correction: I said Tuesday for the drop-off day, I meant Friday.', false),
  },
];
