import type { SynthConfig } from '../../schemas/synth-config.js';
import type { Rng } from '../../util/rng.js';
import type { ConceptMember } from './schema.js';

/** One photo shown in a user turn: which image, in which session, and whether it was shown before. */
export interface Show {
  session: number;
  concept: ConceptMember;
  imageId: string;
  /** True when the same image was already shown in an earlier turn. */
  again: boolean;
}

/**
 * How many photos a conversation shows: `imagesPerConversation` is a mean (M²A: 214 images over
 * 10 conversations = 21.4), so a conversation shows ⌊x⌋ or ⌈x⌉ with the fractional part as the
 * chance of the larger one, and never more than its user turns can carry.
 *
 * @example imageShowCount(21.4, 40, rng) // 21 or 22
 */
export function imageShowCount(mean: number, capacity: number, rng: Rng): number {
  const base = Math.floor(mean);
  const count = base + (rng.chance(mean - base) ? 1 : 0);
  return Math.max(0, Math.min(capacity, count));
}

/**
 * The photos of a concept conversation and the turn count of each session: every image of the
 * group is shown once (in group order), then images are shown again (seeded order) until the
 * conversation's image count is reached; shows are spread evenly over the sessions, in order, so
 * an image is always shown for the first time before it is shown again. Each session gets at
 * least one user turn per photo plus one turn pair without a photo when the range allows.
 *
 * @example const { shows, turns } = planImageShows(group, 5, config.concepts, rng);
 */
export function planImageShows(
  group: readonly ConceptMember[],
  sessions: number,
  config: SynthConfig['concepts'],
  rng: Rng,
): { shows: Show[]; turns: number[] } {
  const [min, max] = config.turnsPerSession;
  const userTurns = Math.ceil(max / 2);
  const images = group.flatMap((concept) => concept.imageIds.map((imageId) => ({ concept, imageId })));
  const total = imageShowCount(config.imagesPerConversation, sessions * userTurns, rng);
  const order: Array<{ concept: ConceptMember; imageId: string; again: boolean }> = images
    .slice(0, total)
    .map((image) => ({ ...image, again: false }));
  let round = rng.shuffle(images);
  while (order.length < total && images.length > 0) {
    if (round.length === 0) round = rng.shuffle(images);
    order.push({ ...round.shift()!, again: true });
  }
  const shows: Show[] = [];
  const turns: number[] = [];
  let next = 0;
  for (let s = 0; s < sessions; s++) {
    const here = Math.floor(total / sessions) + (s < total % sessions ? 1 : 0);
    for (let k = 0; k < here; k++) shows.push({ session: s, ...order[next++]! });
    turns.push(Math.max(rng.int(min, max), Math.min(max, 2 * here + 2)));
  }
  return { shows, turns };
}
