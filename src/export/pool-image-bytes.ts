import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImageBytes } from './parquet-columns.js';

/**
 * Reads the image an exported `images` path names (`<imageRoot>/<pool path>`, see `joinPath`)
 * from the run's image pool, for the Parquet Image feature. A path outside `imageRoot` or a file
 * missing from the pool has no bytes (the card counts pool misses); any other read error throws.
 *
 * @example poolImageBytes('out/run/plan/images', 'images')('images/scene-0001.png')?.byteLength
 */
export function poolImageBytes(poolDir: string, imageRoot: string): ImageBytes {
  const prefix = imageRoot === '' ? '' : `${imageRoot.replace(/\/+$/, '')}/`;
  return (path) => {
    if (!path.startsWith(prefix)) return undefined;
    try {
      return readFileSync(join(poolDir, path.slice(prefix.length)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  };
}
