import { join } from 'node:path';
import { z } from 'zod';
import { writeJson } from '../util/fs.js';

/**
 * Writes one `<name>.schema.json` per zod schema (the input shape, i.e. what a user writes in
 * YAML, with defaults optional) for editor completion. Returns the written paths.
 *
 * @example await writeJsonSchemas('schemas', { pipeline: PipelineConfig, 'sft-recipe': SftRecipe });
 */
export async function writeJsonSchemas(
  outDir: string,
  schemas: Record<string, z.ZodType>,
): Promise<string[]> {
  const written: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const file = join(outDir, `${name}.schema.json`);
    const jsonSchema = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
    await writeJson(file, { title: name, ...jsonSchema });
    written.push(file);
  }
  return written;
}
