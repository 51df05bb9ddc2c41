import type { RuleCheck, RuleFailure } from '../types.js';

/** Counts `<image>` placeholders in a text. */
export function countImagePlaceholders(text: string): number {
  let count = 0;
  let at = text.indexOf('<image>');
  while (at !== -1) {
    count++;
    at = text.indexOf('<image>', at + 7);
  }
  return count;
}

/**
 * Image references resolve: every image id used by turns, planned sessions, slots, concepts and
 * semantic memory exists in the plan's pool (and its file exists when `imagePoolDir` is set), and
 * each turn carries one `<image>` placeholder per image.
 *
 * @example imageRefsCheck.run(indexUser(bundle), { config, imageExists: (p) => existsSync(join(dir, p)) })
 */
export const imageRefsCheck: RuleCheck = {
  name: 'image_refs',
  description: 'image references resolve and placeholder counts match',
  run({ bundle, imagesById }, { config, imageExists }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    const resolve = (imageId: string, location: string) => {
      const image = imagesById.get(imageId);
      if (image === undefined) {
        failures.push({
          check: 'image_refs',
          userId,
          location,
          reason: `image "${imageId}" is not in the plan's pool`,
        });
      }
    };
    if (config.imagePoolDir !== null) {
      for (const image of bundle.plan.images) {
        if (!imageExists(image.path)) {
          failures.push({
            check: 'image_refs',
            userId,
            location: `plan.images[${image.id}]`,
            reason: `file "${image.path}" not found in ${config.imagePoolDir}`,
          });
        }
      }
    }
    for (const session of bundle.dialogue.sessions) {
      for (const turn of session.turns) {
        for (const imageId of turn.images) resolve(imageId, turn.id);
        const placeholders = countImagePlaceholders(turn.text);
        if (placeholders !== turn.images.length) {
          failures.push({
            check: 'image_refs',
            userId,
            location: turn.id,
            reason: `${placeholders} <image> placeholders for ${turn.images.length} images`,
          });
        }
      }
    }
    for (const session of bundle.plan.sessions) {
      for (const image of session.images) resolve(image.imageId, `plan.sessions[${session.index}]`);
    }
    for (const slot of bundle.plan.slots)
      if (slot.imageId !== null) resolve(slot.imageId, `plan.slots[${slot.id}]`);
    for (const concept of bundle.plan.concepts) {
      for (const imageId of concept.imageIds) resolve(imageId, `plan.concepts[${concept.id}]`);
    }
    const last = bundle.memory?.snapshots[bundle.memory.snapshots.length - 1];
    for (const entry of last?.semantic ?? []) {
      for (const imageId of entry.imageIds) resolve(imageId, `memory.semantic[${entry.id}]`);
    }
    return failures;
  },
};
