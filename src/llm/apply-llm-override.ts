import { EndpointConfig, type LlmConfig } from '../schemas/llm-config.js';

/** Roles persona-forge stages use; other role names are allowed and map the same way. */
export const KNOWN_ROLES = ['realizer', 'judge', 'embedder'] as const;

/** Name of the endpoint `applyLlmOverride` adds. */
export const OVERRIDE_ENDPOINT = 'cli';

export interface LlmOverride {
  baseUrl: string;
  model: string;
  /** Environment variable holding the API key. @default none (servers such as vLLM need none) */
  apiKeyEnv?: string;
  /** Roles to point at the endpoint. @default the known roles plus every role the file maps */
  roles?: readonly string[];
}

/**
 * Points every model role at one OpenAI-compatible endpoint, as `run --llm-base-url URL
 * --llm-model NAME [--llm-api-key-env VAR]` does. Other settings (cache, offline) are kept.
 *
 * @example applyLlmOverride(config.llm, { baseUrl: 'http://127.0.0.1:8000/v1', model: 'Qwen/Qwen2.5-7B-Instruct' })
 */
export function applyLlmOverride(config: LlmConfig, override: LlmOverride): LlmConfig {
  const endpoint = EndpointConfig.parse({
    baseUrl: override.baseUrl,
    model: override.model,
    ...(override.apiKeyEnv === undefined ? {} : { apiKeyEnv: override.apiKeyEnv }),
  });
  const roles = override.roles ?? [...new Set([...KNOWN_ROLES, ...Object.keys(config.roles)])];
  return {
    ...config,
    endpoints: { ...config.endpoints, [OVERRIDE_ENDPOINT]: endpoint },
    roles: { ...config.roles, ...Object.fromEntries(roles.map((role) => [role, OVERRIDE_ENDPOINT])) },
  };
}
