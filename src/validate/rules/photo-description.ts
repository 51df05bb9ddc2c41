import type { ImageRef } from '../../schemas/plan.js';
import type { RuleCheck, RuleFailure, UserIndex } from '../types.js';
import { claimProblem, photoClaims, photoVocabulary } from './photo-words.js';

/**
 * What each user turn with photos gets wrong about them: every colour or count the text gives an
 * object ("my red ball", "three blue mugs") must be what the turn's images show (their planned
 * objects, from which the procedural pixels are drawn). One entry per contradicting turn.
 *
 * @example photoDescriptionProblems(indexUser(bundle)) // [{ turnId, problems: ['says "red ball" but …'] }]
 */
export function photoDescriptionProblems(index: UserIndex): readonly PhotoTurnProblems[] {
  let found = described.get(index);
  if (found === undefined) {
    found = findProblems(index);
    described.set(index, found);
  }
  return found;
}

interface PhotoTurnProblems {
  turnId: string;
  problems: string[];
}

/** Read once per user: the rule and the fidelity meter both ask. */
const described = new WeakMap<UserIndex, readonly PhotoTurnProblems[]>();

function findProblems(index: UserIndex): PhotoTurnProblems[] {
  const { plan, dialogue } = index.bundle;
  const vocabulary = photoVocabulary(plan);
  const out: PhotoTurnProblems[] = [];
  for (const session of dialogue.sessions) {
    for (const turn of session.turns) {
      if (turn.speaker !== 'user' || turn.images.length === 0) continue;
      const images = turn.images.flatMap((id) => index.imagesById.get(id) ?? []) as ImageRef[];
      if (images.length === 0) continue; // image_refs reports it
      const problems = photoClaims(turn.text, vocabulary).flatMap(
        (claim) => claimProblem(claim, images) ?? [],
      );
      if (problems.length > 0) out.push({ turnId: turn.id, problems });
    }
  }
  return out;
}

/**
 * A user's words about their photo say only what the photo shows.
 *
 * @example photoDescriptionCheck.run(indexUser(bundle), options)
 */
export const photoDescriptionCheck: RuleCheck = {
  name: 'photo_description',
  description: "the colours and counts a user's message gives the objects in its photo are the photo's",
  run(index) {
    return photoDescriptionProblems(index).map(
      ({ turnId, problems }): RuleFailure => ({
        check: 'photo_description',
        userId: index.bundle.plan.userId,
        location: turnId,
        reason: problems.join('; '),
      }),
    );
  },
};
