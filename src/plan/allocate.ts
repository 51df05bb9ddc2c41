import type { NoiseKind } from '../schemas/plan.js';
import type { PlanSettings } from '../schemas/plan-config.js';
import type { Rng } from '../util/rng.js';
import type { RoundRef } from './timeline.js';

/** What a content round must express (at most one evidence slot per round). */
export type ContentKind =
  | 'drift'
  | 'personality'
  | 'person-intro'
  | 'person-change'
  | 'goal-intro'
  | 'goal-update'
  | 'habit'
  | 'fact'
  | 'preference';

export interface EventCounts {
  drift: number;
  personality: number;
  people: number;
  personChanges: number;
  goals: number;
  goalUpdates: number;
  habitMentions: number;
  facts: number;
}

export interface RoundRoles {
  imageRounds: RoundRef[];
  /** Noise rounds in time order; a correction names the round of the misstatement it corrects. */
  noiseRounds: Array<RoundRef & { kind: NoiseKind; corrects?: number }>;
  content: Array<RoundRef & { kind: ContentKind }>;
}

/**
 * Number of multimodal rounds for `total` rounds: the drawn ratio, kept inside the configured
 * [min, max] after rounding (PersonaVLM: more than 15% multimodal).
 */
export function multimodalCount(rng: Rng, settings: PlanSettings, total: number): number {
  const [min, max] = settings.multimodal.ratio;
  const drawn = Math.round(rng.float(min, max) * total);
  return Math.max(Math.ceil(min * total), Math.min(Math.floor(max * total), drawn));
}

/**
 * Gives every correction a misstatement to correct (VitaBench's corrections fix a slip, e.g. a
 * wrong date or address): the nearest earlier unpaired noise round of its session becomes the
 * misstatement; with none before it, the nearest later one swaps places with it (the slip comes
 * first). A correction with no other noise round in its session has nothing to correct and
 * becomes an irrelevant aside. Draws nothing: the seeded streams stay as they were.
 */
export function plantMisstatements(noiseRounds: RoundRoles['noiseRounds']): void {
  const paired = new Set<number>();
  const free = (i: number, j: number) =>
    noiseRounds[j]!.sessionIndex === noiseRounds[i]!.sessionIndex &&
    !paired.has(j) &&
    noiseRounds[j]!.kind !== 'correction' &&
    noiseRounds[j]!.kind !== 'misstatement';
  for (let i = 0; i < noiseRounds.length; i++) {
    if (noiseRounds[i]!.kind !== 'correction' || paired.has(i)) continue;
    let slip = -1;
    for (let j = i - 1; j >= 0 && slip < 0; j--) if (free(i, j)) slip = j;
    let fix = i;
    if (slip < 0) {
      for (let j = i + 1; j < noiseRounds.length && slip < 0; j++) if (free(i, j)) slip = j;
      if (slip >= 0) [fix, slip] = [slip, i];
    }
    if (slip < 0) {
      noiseRounds[i] = { ...noiseRounds[i]!, kind: 'irrelevant' };
      continue;
    }
    noiseRounds[slip] = { ...noiseRounds[slip]!, kind: 'misstatement' };
    noiseRounds[fix] = { ...noiseRounds[fix]!, kind: 'correction', corrects: noiseRounds[slip]!.round };
    paired.add(slip).add(fix);
  }
}

/**
 * Splits the rounds into image rounds, noise rounds (VitaBench's ≈20%) and content rounds, and
 * gives every content round its kind. Drift events come first: they may use every content round
 * but one; the other kinds share what is left after a quarter of the content rounds is kept for
 * preference mentions (so drifted preferences are usually mentioned before they change).
 */
export function allocateRounds(
  rng: Rng,
  settings: PlanSettings,
  rounds: RoundRef[],
  imageCount: number,
  counts: EventCounts,
): RoundRoles {
  const order = rng.shuffle(rounds.map((_, index) => index));
  const imageSet = new Set(order.slice(0, imageCount));
  const noiseCount = Math.min(
    Math.round(settings.noise.ratio * rounds.length),
    rounds.length - imageCount - 1,
  );
  const noiseSet = new Set(order.slice(imageCount, imageCount + Math.max(0, noiseCount)));
  const kinds = Object.keys(settings.noise.kinds) as Array<keyof typeof settings.noise.kinds>;
  const weights = kinds.map((kind) => settings.noise.kinds[kind]);

  const imageRounds: RoundRef[] = [];
  const noiseRounds: RoundRoles['noiseRounds'] = [];
  const contentRounds: RoundRef[] = [];
  rounds.forEach((round, index) => {
    if (imageSet.has(index)) imageRounds.push(round);
    else if (noiseSet.has(index))
      noiseRounds.push({ ...round, kind: kinds[rng.weightedIndex(weights)] ?? 'irrelevant' });
    else contentRounds.push(round);
  });
  plantMisstatements(noiseRounds);

  const total = contentRounds.length;
  const drift = Math.min(counts.drift, Math.max(0, total - 1));
  const budget = Math.max(drift, total - Math.ceil(total / 4));
  const others: ContentKind[] = [];
  const push = (kind: ContentKind, n: number) => {
    for (let i = 0; i < n; i++) others.push(kind);
  };
  // Priority order: what is cut first when the dialogue is short comes last.
  push('fact', Math.min(1, counts.facts));
  push('goal-intro', counts.goals);
  push('person-intro', counts.people);
  push('habit', Math.min(counts.habitMentions, 1));
  push('personality', counts.personality);
  push('goal-update', counts.goalUpdates);
  push('person-change', counts.personChanges);
  push('habit', Math.max(0, counts.habitMentions - 1));
  push('fact', Math.max(0, counts.facts - 1));
  const list: ContentKind[] = [];
  for (let i = 0; i < drift; i++) list.push('drift');
  list.push(...others.slice(0, Math.max(0, budget - drift)));
  while (list.length < total) list.push('preference');
  const shuffled = rng.shuffle(list);
  const content = contentRounds.map((round, index) => ({ ...round, kind: shuffled[index] ?? 'preference' }));
  return { imageRounds, noiseRounds, content };
}
