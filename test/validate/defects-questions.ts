/**
 * Planted defects of issue 27's question and gold classes: drift causes that run against the
 * change, first-mention dates that skip a drift turn, preference histories missing a deletion.
 */
import type { Preference } from '../../src/schemas/plan.js';
import type { UserBundle } from '../../src/validate/types.js';
import type { Defect } from './types.js';

const userTurns = (b: UserBundle) =>
  b.dialogue.sessions.flatMap((s) => s.turns).filter((t) => t.speaker === 'user');

/** A preference on the fixture's "fruit" slot. */
function preference(id: string, item: string, polarity: Preference['polarity'], from: string): Preference {
  return {
    id,
    category: 'food',
    slot: 'food.fruit',
    item,
    polarity,
    keywords: [item],
    validFrom: from,
    validUntil: null,
    origin: 'drift',
    condition: null,
  };
}

/**
 * Likes mango from the first turn (said by a drift turn), said again by a plain mention in a
 * later session; returns the two turns' times.
 */
function plantMango(b: UserBundle): [string, string] {
  const [first, , later] = userTurns(b).filter((t) => t.slots.length > 0);
  b.plan.preferences.push(preference('pref-mango', 'mango', 'like', first!.time));
  b.plan.drift.push({
    id: 'drift-mango',
    type: 'add',
    time: first!.time,
    preferenceId: 'pref-mango',
    previousPreferenceId: null,
    cause: 'a friend introduced me to it',
    visibility: 'explicit',
  });
  for (const [id, kind, refId, turn] of [
    ['slot-mango-drift', 'drift', 'drift-mango', first!],
    ['slot-mango-again', 'preference', 'pref-mango', later!],
  ] as const) {
    b.plan.slots.push({
      id,
      kind,
      refId,
      sessionIndex: 0,
      round: 0,
      time: turn.time,
      statement: 'likes mango',
      keywords: ['mango'],
      imageId: null,
    });
    turn.slots.push(id);
  }
  return [first!.time, later!.time];
}

const day = (iso: string) =>
  new Date(iso).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

/** A visual-detail question about the fixture's photo (one grey cat). */
function askCatColour(b: UserBundle): void {
  const slot = b.plan.slots.find((s) => s.imageId !== null)!;
  b.plan.qa.push({
    ...b.plan.qa[0]!,
    id: 'qa-cat',
    task: 'visual_detail_recall',
    question: 'In the photo I showed you, what colour was the cat?',
    answer: 'Grey',
    choices: ['Grey', 'Black', 'White', 'Brown'],
    correctIndex: 0,
    evidenceSlotIds: [slot.id],
  });
}

export const QUESTION_DEFECTS: Defect[] = [
  {
    name: "the user's photo turn says the colour a visual question asks",
    check: 'visual_answer_text',
    apply(b) {
      askCatColour(b);
      const shown = userTurns(b).find((t) => t.images.length > 0)!;
      shown.text = `${shown.text} This is my gray cat on the sofa.`;
    },
  },
  {
    name: "the assistant's reply spells out the count a visual question asks",
    check: 'visual_answer_text',
    apply(b) {
      askCatColour(b);
      const qa = b.plan.qa.at(-1)!;
      Object.assign(qa, {
        question: 'How many cats could you see in the photo I shared?',
        answer: '1',
        choices: ['1', '2', '3', '4'],
      });
      const turns = b.dialogue.sessions.flatMap((s) => s.turns);
      const reply = turns[turns.findIndex((t) => t.images.length > 0) + 1]!;
      reply.text = 'What a lovely photo, a single sleepy cat on the sofa!';
    },
  },
  {
    name: 'a new dislike explained by a cause for taking something up',
    check: 'drift_causes',
    apply(b) {
      const at = userTurns(b)[0]!.time;
      b.plan.preferences.push(preference('pref-fashion', 'fast fashion', 'dislike', at));
      b.plan.drift.push({
        id: 'drift-fashion',
        type: 'add',
        time: at,
        preferenceId: 'pref-fashion',
        previousPreferenceId: null,
        cause: 'I tried it on a recent trip and loved it',
        visibility: 'explicit',
      });
    },
  },
  {
    name: 'a like given up because a partner got the user into it',
    check: 'drift_causes',
    apply(b) {
      const at = userTurns(b)[0]!.time;
      b.plan.preferences.push({ ...preference('pref-wine', 'wine', 'like', at), validUntil: at });
      b.plan.drift.push({
        id: 'drift-wine',
        type: 'delete',
        time: at,
        preferenceId: null,
        previousPreferenceId: 'pref-wine',
        cause: 'my partner got me into it',
        visibility: 'explicit',
      });
    },
  },
  {
    name: '"when did I first mention" skips the drift turn that said it',
    check: 'question_golds',
    apply(b) {
      const [, later] = plantMango(b);
      b.plan.qa.push({
        ...b.plan.qa[2]!,
        id: 'qa-first',
        task: 'temporal',
        question: 'When did I first tell you that I like mango?',
        answer: day(later),
        evidenceSlotIds: ['slot-mango-again'],
        locomoCategory: 2,
      });
    },
  },
  {
    name: 'a preference history drops a deletion in the middle ("likes X -> likes X")',
    check: 'question_golds',
    apply(b) {
      b.plan.qa.push({
        ...b.plan.qa[1]!,
        id: 'qa-history',
        task: 'track_full_preference_evolution',
        question: 'How have my feelings about mango developed over time?',
        answer: 'likes mango -> likes mango',
        choices: [
          'likes mango -> likes mango',
          'dislikes mango',
          'likes kiwi',
          'likes mango -> dislikes mango',
        ],
        correctIndex: 0,
      });
    },
  },
];

/** The visual question with a photo turn that names only the photo and its subject, for the negative case. */
export function askCatColourClean(b: UserBundle): void {
  askCatColour(b);
  const shown = userTurns(b).find((t) => t.images.length > 0)!;
  shown.text = `${shown.text} Meet Tom, my cat - a new photo.`;
}

/** The same first-mention question with the right date (the drift turn's), for the negative case. */
export function plantFirstMentionRight(b: UserBundle): void {
  const [first] = plantMango(b);
  b.plan.qa.push({
    ...b.plan.qa[2]!,
    id: 'qa-first',
    task: 'temporal',
    question: 'When did I first tell you that I like mango?',
    answer: day(first),
    evidenceSlotIds: ['slot-mango-drift'],
    locomoCategory: 2,
  });
}
