import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../errors/index.js';
import { ImagesConfig } from '../../schemas/images-config.js';
import { ImageRef } from '../../schemas/plan.js';
import { loadImageDirectory } from './directory.js';
import { buildImagePool, writeImagePool } from './pool.js';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-images-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('image directories', () => {
  it('writes the built-in pool and reads a user directory with a captions jsonl', async () => {
    const pool = buildImagePool(ImagesConfig.parse({ size: 3 }), 1);
    await writeImagePool(pool, dir, { pixels: 64 });
    const lines = pool.map((image, index) =>
      JSON.stringify(
        index === 0
          ? { file: image.path, caption: image.caption }
          : { file: image.path, caption: image.caption, id: `mine-${index}`, objects: image.objects },
      ),
    );
    await writeFile(join(dir, 'captions.jsonl'), `${lines.join('\n')}\n`);
    const loaded = await loadImageDirectory(dir, 'captions.jsonl');
    expect(loaded.map((image) => ImageRef.parse(image).path)).toEqual(pool.map((image) => image.path));
    expect(loaded[0]?.id).toBe(`dir-${pool[0]?.id}`);
    expect(loaded[0]?.objects).toEqual([]);
    expect(loaded[2]).toEqual({ ...pool[2], id: 'mine-2' });
  });

  it('names the captions file and entry when an image is missing', async () => {
    await writeFile(join(dir, 'bad.jsonl'), `${JSON.stringify({ file: 'nope.png', caption: 'x' })}\n`);
    const error = await loadImageDirectory(dir, 'bad.jsonl').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).message).toMatch(/bad\.jsonl.*entry 1.*nope\.png/);
  });
});
