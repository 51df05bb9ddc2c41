import { z } from 'zod';

/**
 * The image pool: built-in procedural scenes (objects, colours and counts known, so
 * visual-detail questions have checkable answers) or a user directory with a captions jsonl.
 * Meant to sit under the `plan:` section (`plan.images`).
 *
 * @example
 * ImagesConfig.parse({ source: 'builtin', size: 300 });
 */
export const ImagesConfig = z
  .object({
    source: z
      .enum(['builtin', 'directory'])
      .default('builtin')
      .describe(
        '`builtin`: procedural scenes made from the seed; `directory`: your images with a captions jsonl.',
      ),
    size: z.number().int().min(1).max(100_000).default(400).describe('Built-in scenes in the pool.'),
    seedKey: z
      .string()
      .default('images')
      .describe('Extra key mixed into the pool seed so pools can vary independently of the run seed.'),
    pixels: z
      .number()
      .int()
      .min(32)
      .max(1024)
      .default(256)
      .describe('Width and height of the square built-in PNGs, in pixels.'),
    kindsPerScene: z
      .tuple([z.number().int().min(1).max(8), z.number().int().min(1).max(8)])
      .default([1, 3])
      .describe('Distinct object kinds per built-in scene, inclusive range (8 kinds exist).'),
    countPerKind: z
      .tuple([z.number().int().min(1), z.number().int().min(1)])
      .default([1, 4])
      .describe('Count of each object kind, inclusive range.'),
    dir: z
      .string()
      .min(1)
      .optional()
      .describe('Pool root for `directory`, relative to the working directory.'),
    captionsFile: z
      .string()
      .min(1)
      .default('captions.jsonl')
      .describe('Captions/attributes jsonl for `directory`, relative to `dir`.'),
  })
  .strict()
  .refine((config) => config.kindsPerScene[0] <= config.kindsPerScene[1], 'kindsPerScene must be [min, max]')
  .refine((config) => config.countPerKind[0] <= config.countPerKind[1], 'countPerKind must be [min, max]')
  .refine((config) => config.source !== 'directory' || config.dir !== undefined, {
    message: 'source "directory" needs `dir`',
    path: ['dir'],
  });
export type ImagesConfig = z.infer<typeof ImagesConfig>;
export type ImagesConfigInput = z.input<typeof ImagesConfig>;
