/** Planted drift-meaning defects: a drift planned on the fixture's first user turn, written wrong. */
import type { UserBundle } from '../../src/validate/types.js';
import type { Defect } from './types.js';

const turn = (bundle: UserBundle, s: number, t: number) => bundle.dialogue.sessions[s]!.turns[t]!;

/** Plans a drift on the fixture's first user turn and writes `text` as that turn (planted meaning defects). */
function plantDrift(
  b: UserBundle,
  drift: {
    type: 'add' | 'modify' | 'delete';
    from?: [string, 'like' | 'dislike'];
    to?: [string, 'like' | 'dislike'];
  },
  text: string,
  condition: string | null = null,
): void {
  const t = turn(b, 0, 0);
  const pref = (id: string, [item, polarity]: [string, 'like' | 'dislike']) => ({
    id,
    category: 'food' as const,
    slot: 'fruit',
    item,
    polarity,
    keywords: [item.split(' ').at(-1)!],
    validFrom: t.time,
    validUntil: null,
    origin: 'drift' as const,
    condition:
      condition === null || id !== 'pref-new' ? null : { context: 'situation' as const, when: condition },
  });
  if (drift.from !== undefined) b.plan.preferences.push(pref('pref-old', drift.from));
  if (drift.to !== undefined) b.plan.preferences.push(pref('pref-new', drift.to));
  b.plan.drift.push({
    id: 'drift-planted',
    type: drift.type,
    time: t.time,
    preferenceId: drift.to === undefined ? null : 'pref-new',
    previousPreferenceId: drift.from === undefined ? null : 'pref-old',
    cause: 'a friend introduced me to it',
    visibility: 'explicit',
  });
  b.plan.slots.push({
    id: 'slot-planted',
    kind: 'drift',
    refId: 'drift-planted',
    sessionIndex: 0,
    round: t.round,
    time: t.time,
    statement: 'planted drift',
    keywords: [(drift.to ?? drift.from)![0].split(' ').at(-1)!],
    imageId: null,
  });
  t.slots.push('slot-planted');
  t.text = text;
}

export const DRIFT_DEFECTS: Defect[] = [
  {
    name: 'an added dislike written as taking the thing up',
    check: 'drift_meaning',
    apply: (b) =>
      plantDrift(
        b,
        { type: 'add', to: ['fresh durian', 'dislike'] },
        'Lately I have gotten into durian, a friend introduced me to it.',
      ),
  },
  {
    name: '"modify to dislike" written as "now I prefer X"',
    check: 'drift_meaning',
    apply: (b) =>
      plantDrift(
        b,
        { type: 'modify', from: ['black americano', 'like'], to: ['oat milk latte', 'dislike'] },
        'Things changed: I am off americano, and now I prefer latte.',
      ),
  },
  {
    name: 'a flip of the same item written as keeping it',
    check: 'drift_meaning',
    apply: (b) =>
      plantDrift(
        b,
        { type: 'modify', from: ['durian', 'like'], to: ['durian', 'dislike'] },
        'I am done with durian these days, so it is durian for me now.',
      ),
  },
  {
    name: 'a delete written as still liking it',
    check: 'drift_meaning',
    apply: (b) =>
      plantDrift(
        b,
        { type: 'delete', from: ['salmon sushi', 'like'] },
        'Salmon sushi is still my favourite thing, honestly.',
      ),
  },
  {
    // A condition the text leaves out is not a contradiction (the reader cannot tell it from
    // one said in other words): it is counted as unsure in fidelity.meaning_unsure. One the
    // text excludes is.
    name: 'the condition of a conditional drift excluded',
    check: 'drift_meaning',
    apply: (b) =>
      plantDrift(
        b,
        { type: 'add', to: ['iced coffee', 'like'] },
        'Lately I have gotten into iced coffee, because a friend introduced me to it, except when I am travelling for work.',
        'when I am travelling for work',
      ),
  },
];
