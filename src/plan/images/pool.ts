import { join } from 'node:path';
import type { ImagesConfig } from '../../schemas/images-config.js';
import type { ImageRef } from '../../schemas/plan.js';
import { writeFileAtomic } from '../../util/fs.js';
import { createRng } from '../../util/rng.js';
import { NUMBER_WORDS, SCENE_OBJECTS } from './palette.js';
import { encodePng } from './png.js';
import { backgroundFor, renderScene } from './scene.js';

/** Folder of the built-in scenes inside the pool root. */
export const BUILTIN_IMAGE_DIR = 'builtin';

function phrase(count: number, color: string, name: string, plural: string): string {
  return count === 1
    ? `${/^[aeiou]/.test(color) ? 'an' : 'a'} ${color} ${name}`
    : `${NUMBER_WORDS[count] ?? String(count)} ${color} ${plural}`;
}

/**
 * Metadata of the built-in procedural pool: `config.size` scenes, each with 1–3 object kinds in
 * distinct colours and known counts ("two red apples and a blue mug on a mint background").
 * Pure and fast; `writeImagePool` renders the pixels from exactly this metadata.
 *
 * @example buildImagePool(ImagesConfig.parse({ size: 10 }), 42)[0].caption
 */
export function buildImagePool(config: ImagesConfig, seed: number): ImageRef[] {
  const out: ImageRef[] = [];
  const digits = Math.max(5, String(config.size - 1).length);
  for (let index = 0; index < config.size; index++) {
    const rng = createRng(seed, config.seedKey, 'scene', index);
    const [minKinds, maxKinds] = config.kindsPerScene;
    const kinds = rng.sample(SCENE_OBJECTS, rng.int(minKinds, maxKinds));
    const objects = kinds.map((kind) => ({
      name: kind.name,
      color: rng.pick(kind.colors),
      count: rng.int(config.countPerKind[0], config.countPerKind[1]),
    }));
    const number = String(index).padStart(digits, '0');
    const id = `scene-${seed}-${config.seedKey}-${number}`;
    const parts = objects.map((object, at) =>
      phrase(object.count, object.color, object.name, kinds[at]?.plural ?? `${object.name}s`),
    );
    const list =
      parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
    out.push({
      id,
      path: `${BUILTIN_IMAGE_DIR}/${id}.png`,
      caption: `${list} on a ${backgroundFor(id)} background`,
      objects,
    });
  }
  return out;
}

/**
 * Renders built-in scenes as PNG files under `dir` (at each image's `path`). Deterministic:
 * same metadata → byte-identical files.
 *
 * @example await writeImagePool(buildImagePool(config, 42), 'out/images');
 */
export async function writeImagePool(
  images: ImageRef[],
  dir: string,
  options: { pixels?: number } = {},
): Promise<void> {
  const pixels = options.pixels ?? 256;
  for (const image of images) {
    const { data } = renderScene(image, pixels);
    await writeFileAtomic(join(dir, image.path), encodePng(pixels, pixels, data));
  }
}
