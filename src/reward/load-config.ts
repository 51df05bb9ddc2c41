import { loadYamlConfig } from '../config/index.js';
import { RewardServerConfig } from '../schemas/reward.js';

export interface LoadRewardConfigOptions {
  /** Values deep-merged over the file (CLI flags), e.g. `{ server: { port: 9000 } }`. */
  overrides?: unknown;
  /** Variables for `${VAR}` interpolation. @default process.env */
  env?: Record<string, string | undefined>;
}

/**
 * Loads `rewards.yaml` (or defaults when no path is given), with `${VAR}` interpolation and
 * `extends:`; a bad file throws a `ConfigError` naming the file and each YAML path.
 *
 * @example const config = await loadRewardConfig('configs/rewards.yaml', { overrides: { server: { port: 0 } } });
 */
export async function loadRewardConfig(
  path: string | undefined,
  options: LoadRewardConfigOptions = {},
): Promise<RewardServerConfig> {
  if (path === undefined) return RewardServerConfig.parse(options.overrides ?? {});
  const loaded = await loadYamlConfig(path, RewardServerConfig, {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.overrides === undefined ? {} : { overrides: options.overrides }),
  });
  return loaded.config;
}
