export { closestKey } from './closest-key.js';
export { type ConfigJsonSchemaOptions, configJsonSchema, type JsonSchema } from './config-json-schema.js';
export { deepMerge } from './deep-merge.js';
export { type EnvRecord, interpolateEnv } from './interpolate-env.js';
export { loadPipeline } from './load-pipeline.js';
export { type LoadedConfig, type LoadYamlConfigOptions, loadYamlConfig } from './load-yaml-config.js';
export { shippedJsonSchemas, writeJsonSchemas } from './write-json-schemas.js';
