/**
 * Does the assistant's reply agree with the user turn it answers? Read next to every drift turn
 * and every goal turn: the reply must name what the user's turn is about (a slot keyword), and
 * after a turn that turns away from something (a new dislike, a dropped like, a goal given up)
 * no sentence naming it may be positive — praise for an abandoned goal contradicts the user.
 * Sentiment is the parser's lexicon (src/util/nlp.ts), not the realizer's phrase banks.
 */
import type { EvidenceSlot } from '../schemas/plan.js';
import { readSentences, textSentiment } from '../util/nlp.js';
import { normaliseText } from '../util/text.js';
import type { UserIndex } from './types.js';

/** A sentence at or above this sentiment (its opening reaction aside) praises what it names. */
const PRAISE = 0.5;
/** An opening reaction and vocative ("Okay, Ana, …"), which carry no stance toward what follows. */
const REACTION = /^(?:[^,;:.!?]{1,20},\s*){1,2}/;

/** What a drift or goal turn is about and whether it turns away from it; null for other slots. */
function turnStance(index: UserIndex, slot: EvidenceSlot): { names: string[]; away: boolean } | null {
  const plan = index.bundle.plan;
  if (slot.kind === 'goal') {
    const goal = plan.goals.find((g) => g.id === slot.refId);
    if (goal === undefined) return null;
    const status = goal.states.filter((entry) => entry.time <= slot.time).pop()?.status;
    return { names: slot.keywords, away: status === 'abandoned' };
  }
  if (slot.kind !== 'drift') return null;
  const drift = plan.drift.find((d) => d.id === slot.refId);
  if (drift === undefined) return null;
  const opened = plan.preferences.find((p) => p.id === drift.preferenceId);
  const closed = plan.preferences.find((p) => p.id === drift.previousPreferenceId);
  // Turning away: the preference opened is a dislike, or a like is closed with nothing opened.
  const away = opened === undefined ? closed?.polarity === 'like' : opened.polarity === 'dislike';
  const names = [...slot.keywords, ...[opened, closed].flatMap((p) => (p === undefined ? [] : [p.item]))];
  return { names, away };
}

const mentions = (text: string, names: readonly string[]) => {
  const haystack = normaliseText(text);
  return names.some((name) => haystack.includes(normaliseText(name)));
};

/** The sentence with what it names said as "it": "sweet milk tea" carries no stance of the reply's. */
function withoutNames(text: string, names: readonly string[]): string {
  let out = text;
  for (const name of [...names].sort((a, b) => b.length - a.length)) {
    if (name.trim() === '') continue;
    out = out.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), 'it');
  }
  return out;
}

/**
 * The replies of one user that do not answer their drift or goal turn: `[turn id, reason]`.
 *
 * @example replyProblems(index) // [['u1:s3:t12', 'praises "run a marathon", which the user gave up']]
 */
export function replyProblems(index: UserIndex): { checked: number; problems: Array<[string, string]> } {
  const problems: Array<[string, string]> = [];
  let checked = 0;
  for (const session of index.bundle.dialogue.sessions) {
    session.turns.forEach((turn, position) => {
      if (turn.speaker !== 'user') return;
      const reply = session.turns[position + 1];
      if (reply === undefined || reply.speaker !== 'assistant') return;
      for (const id of turn.slots) {
        const slot = index.slotsById.get(id);
        const stance = slot === undefined ? null : turnStance(index, slot);
        if (stance === null) continue;
        checked++;
        if (!mentions(reply.text, stance.names)) {
          problems.push([reply.id, `does not answer the user's turn about "${stance.names[0]}"`]);
          break;
        }
        if (!stance.away) continue;
        const praise = readSentences(reply.text).find(
          (sentence) =>
            mentions(sentence.text, stance.names) &&
            textSentiment(withoutNames(sentence.text.replace(REACTION, ''), stance.names)) >= PRAISE,
        );
        if (praise !== undefined) {
          problems.push([reply.id, `praises what the user turned away from: "${praise.text}"`]);
          break;
        }
      }
    });
  }
  return { checked, problems };
}
