import type { EvidenceSlot, ImageRef, VisualConcept } from '../schemas/plan.js';
import type { PlanSettings } from '../schemas/plan-config.js';
import type { Rng } from '../util/rng.js';
import { drawConcepts, poolIndex } from './life.js';
import type { RoundRef } from './timeline.js';

export interface ImagePlan {
  /** Concepts with at least one image shown (image ids limited to the shown ones). */
  concepts: VisualConcept[];
  /** One image slot per multimodal round. */
  slots: Array<{ round: RoundRef; slot: Omit<EvidenceSlot, 'id' | 'sessionIndex' | 'round' | 'time'> }>;
  /** The pool images the user shows, in id order. */
  images: ImageRef[];
}

/**
 * Binds images to the multimodal rounds: an M²A concept group first (3–4 named concepts, 2–3
 * images each), then other pool images drawn without replacement. A concept's image slot names
 * it as `<Name>`, so the realizer can introduce it the way M²A's first messages do.
 *
 * @example const { slots } = planImages(rng, settings, { pool, rounds: roles.imageRounds, name: 'Mia' });
 */
export function planImages(
  rng: Rng,
  settings: PlanSettings,
  input: { pool: ImageRef[]; rounds: RoundRef[]; name: string },
): ImagePlan {
  const { pool, rounds, name } = input;
  if (pool.length === 0 || rounds.length === 0) return { concepts: [], slots: [], images: [] };
  const concepts = drawConcepts(
    rng,
    pool,
    rng.int(...settings.concepts.count),
    settings.concepts.imagesPerConcept,
  );
  const uses: Array<{ imageId: string; conceptId: string | null }> = [];
  for (const concept of concepts) {
    for (const imageId of concept.imageIds) uses.push({ imageId, conceptId: concept.id });
  }
  const usedIds = new Set(uses.map((use) => use.imageId));
  // Draw without replacement by rejection: pools are large, a user needs only a few images.
  const wanted = Math.min(rounds.length, pool.length);
  for (let attempts = 0; uses.length < wanted && attempts < wanted * 20; attempts++) {
    const image = rng.pick(pool);
    if (usedIds.has(image.id)) continue;
    usedIds.add(image.id);
    uses.push({ imageId: image.id, conceptId: null });
  }
  const shown = rng.shuffle(uses.slice(0, rounds.length));
  const shownIds = new Set(shown.map((use) => use.imageId));
  const kept = concepts
    .map((concept) => ({ ...concept, imageIds: concept.imageIds.filter((id) => shownIds.has(id)) }))
    .filter((concept) => concept.imageIds.length > 0);
  const byId = poolIndex(pool).byId;
  const slots: ImagePlan['slots'] = rounds.map((round, index) => {
    // A pool smaller than the multimodal rounds repeats images.
    const use = shown[index] ?? { imageId: (pool[index % pool.length] as ImageRef).id, conceptId: null };
    const image = byId.get(use.imageId) as ImageRef;
    const concept = kept.find((item) => item.id === use.conceptId);
    const objects = image.objects.map((object) => object.name);
    return {
      round,
      slot: {
        kind: 'image',
        refId: concept?.id ?? image.id,
        statement:
          concept === undefined
            ? `${name} shares a photo: ${image.caption}`
            : `${name} shares a photo of <${concept.name}> (${concept.objectClass}): ${image.caption}`,
        keywords:
          concept === undefined ? (objects.length > 0 ? objects.slice(0, 2) : ['photo']) : [concept.name],
        imageId: image.id,
      },
    };
  });
  const images = [...new Set(slots.map(({ slot }) => slot.imageId as string))]
    .sort()
    .map((id) => byId.get(id) as ImageRef);
  return { concepts: kept, slots, images };
}

/**
 * What a slot asks the user to say: a photo slot's statement without the caption that ends it
 * (the photo and its subject only), so a model writing or judging the turn never sees the colours
 * and counts a visual question asks about.
 */
export function spokenStatement(slot: { kind: string; statement: string }): string {
  return slot.kind === 'image' ? slot.statement.replace(/: .*$/s, '') : slot.statement;
}
