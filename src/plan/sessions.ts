import type { EvidenceSlot, SessionPlan } from '../schemas/plan.js';
import type { Rng } from '../util/rng.js';
import { slotTopic } from '../util/round-topics.js';
import type { RoundRoles } from './allocate.js';
import { NOISE_NOTES, SLIPS, SMALL_TALK_TOPICS } from './catalogue/life-catalogue.js';
import { iso } from './statements.js';
import type { SessionDraft } from './timeline.js';

/**
 * Session records: topics from the session's evidence slots (small talk when it has none), its
 * noise rounds with a note, and its image rounds.
 *
 * @example const sessions = assembleSessions(timeline.sessions, slots, roles, rng);
 */
export function assembleSessions(
  drafts: SessionDraft[],
  slots: EvidenceSlot[],
  roles: RoundRoles,
  rng: Rng,
): SessionPlan[] {
  const bySession = drafts.map((): EvidenceSlot[] => []);
  for (const slot of slots) bySession[slot.sessionIndex]?.push(slot);
  return drafts.map((draft) => {
    const inSession = bySession[draft.index] ?? [];
    const topics = [...new Set(inSession.map((slot) => slotTopic(slot)))];
    const fixes = new Set<string>();
    const noise: SessionPlan['noise'] = roles.noiseRounds
      .filter((round) => round.sessionIndex === draft.index)
      .map((round) => {
        if (round.kind === 'misstatement') return { round: round.round, kind: round.kind, note: '' };
        if (round.kind !== 'correction')
          return { round: round.round, kind: round.kind, note: rng.pick(NOISE_NOTES[round.kind]) };
        // Two corrections in one session fix different details.
        const fresh = SLIPS.filter((slip) => !fixes.has(slip.fix));
        const note = rng.pick(fresh.length > 0 ? fresh : SLIPS).fix;
        fixes.add(note);
        return { round: round.round, kind: round.kind, note, corrects: round.corrects! };
      });
    // A misstatement's note is the slip its correction fixes.
    for (const fix of noise) {
      if (fix.corrects === undefined) continue;
      const slip = noise.find((item) => item.round === fix.corrects);
      if (slip !== undefined) slip.note = SLIPS.find((s) => s.fix === fix.note)?.slip ?? '';
    }
    return {
      index: draft.index,
      start: iso(draft.start),
      rounds: draft.rounds,
      roundGapMinutes: draft.roundGapMinutes,
      topics: topics.length > 0 ? topics : [rng.pick(SMALL_TALK_TOPICS)],
      noise,
      images: inSession
        .filter((slot) => slot.imageId !== null)
        .map((slot) => ({ round: slot.round, imageId: slot.imageId as string })),
    };
  });
}

export { slotTopic } from '../util/round-topics.js';
