import { join } from 'node:path';
import { PipelineConfig } from '../schemas/pipeline.js';
import { Recipe } from '../schemas/recipe.js';
import { RewardServerConfig } from '../schemas/reward.js';
import { writeJson } from '../util/fs.js';
import { configJsonSchema, type JsonSchema } from './config-json-schema.js';

/**
 * The JSON Schemas shipped in `schemas/` by file name: pipelines, recipes, the recipes' shared
 * base file (every field optional) and the reward server config. The shipped YAML files name
 * theirs on their first line (`# yaml-language-server: $schema=../schemas/<name>`).
 */
export function shippedJsonSchemas(): Record<string, JsonSchema> {
  return {
    'pipeline.schema.json': configJsonSchema('pipeline', PipelineConfig),
    'recipe.schema.json': configJsonSchema('recipe', Recipe),
    'recipe-base.schema.json': configJsonSchema('recipe base', Recipe, { partial: true }),
    'rewards.schema.json': configJsonSchema('rewards', RewardServerConfig),
  };
}

/**
 * Writes JSON Schema files (by default the shipped ones, see `shippedJsonSchemas`) into `outDir`
 * for editor completion and validation. Returns the written paths.
 *
 * @example await writeJsonSchemas('schemas');
 */
export async function writeJsonSchemas(
  outDir: string,
  schemas: Record<string, JsonSchema> = shippedJsonSchemas(),
): Promise<string[]> {
  const written: string[] = [];
  for (const [name, schema] of Object.entries(schemas)) {
    const file = join(outDir, name);
    await writeJson(file, schema);
    written.push(file);
  }
  return written;
}
