import { access } from 'node:fs/promises';
import { basename, extname, join, normalize } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors/index.js';
import type { ImageRef } from '../../schemas/plan.js';
import { readJsonl } from '../../util/fs.js';

/** One line of a user's captions/attributes jsonl. */
export const ImageCaptionLine = z
  .object({
    /** Image file relative to the pool directory. */
    file: z.string().min(1),
    caption: z.string().min(1),
    id: z.string().min(1).optional(),
    objects: z
      .array(
        z
          .object({
            name: z.string().min(1),
            color: z.string().min(1),
            count: z.number().int().min(1).default(1),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

/**
 * Loads a user directory of images described by a captions/attributes jsonl (one
 * `{file, caption, id?, objects?: [{name, color, count}]}` per line). Every file must exist
 * inside `dir`; a bad line throws an `InputError` naming the jsonl and line.
 *
 * @example const images = await loadImageDirectory('my-photos', 'captions.jsonl');
 */
export async function loadImageDirectory(dir: string, captionsFile: string): Promise<ImageRef[]> {
  const captionsPath = join(dir, captionsFile);
  const out: ImageRef[] = [];
  const ids = new Set<string>();
  let line = 0;
  for await (const value of readJsonl(captionsPath)) {
    line++;
    const parsed = ImageCaptionLine.safeParse(value);
    if (!parsed.success) {
      throw new InputError(captionsPath, `entry ${line}: ${z.prettifyError(parsed.error)}`);
    }
    const entry = parsed.data;
    const path = normalize(entry.file).replaceAll('\\', '/');
    if (path.startsWith('../') || path.startsWith('/')) {
      throw new InputError(captionsPath, `entry ${line}: "${entry.file}" is outside the image directory`, {
        field: 'file',
      });
    }
    try {
      await access(join(dir, path));
    } catch {
      throw new InputError(captionsPath, `entry ${line}: image "${entry.file}" does not exist in ${dir}`, {
        field: 'file',
      });
    }
    const id = entry.id ?? `dir-${basename(path, extname(path))}`;
    if (ids.has(id))
      throw new InputError(captionsPath, `entry ${line}: duplicate image id "${id}"`, { field: 'id' });
    ids.add(id);
    out.push({ id, path, caption: entry.caption, objects: entry.objects });
  }
  return out;
}
