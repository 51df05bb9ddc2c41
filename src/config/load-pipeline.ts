import { type PipelineConfig, PipelineConfig as PipelineSchema } from '../schemas/pipeline.js';
import { type LoadedConfig, type LoadYamlConfigOptions, loadYamlConfig } from './load-yaml-config.js';

/**
 * Loads and validates a pipeline file (env interpolation, `extends:`, overrides from flags).
 *
 * @example
 * const { config, resolvedHash } = await loadPipeline('pipelines/quickstart.yaml');
 */
export function loadPipeline(
  path: string,
  options: LoadYamlConfigOptions = {},
): Promise<LoadedConfig<PipelineConfig>> {
  return loadYamlConfig(path, PipelineSchema, options);
}
