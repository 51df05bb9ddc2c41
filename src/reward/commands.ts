import { InputError } from '../errors/index.js';
import { createLlmClient } from '../llm/index.js';
import type { LlmClient } from '../llm/types.js';
import type { LlmConfig } from '../schemas/llm-config.js';
import type { RewardServerConfig } from '../schemas/reward.js';
import { createConfiguredJudge } from './configured-judge.js';
import { loadJudgeCache } from './judge-cache.js';
import { loadRewardConfig } from './load-config.js';
import { type RescoreSummary, rescoreRollouts } from './rescore.js';
import { type RewardServer, startRewardServer } from './server.js';

/** Builds the llm layer client from the config's `llm:` section. */
export type CreateLlm = (config: LlmConfig) => LlmClient;

export interface ServeRewardsOptions {
  /** `--config rewards.yaml`; defaults apply without it. */
  configPath?: string;
  /** `--host` (wins over the file). @default '127.0.0.1' */
  host?: string;
  /** `--port` (wins over the file). @default 8000 */
  port?: number;
  /** `--token-env VAR`: the environment variable holding the bearer token. */
  tokenEnv?: string;
  /** @default process.env */
  env?: Record<string, string | undefined>;
  /** @default the llm layer's `createLlmClient(config.llm)` */
  createLlm?: CreateLlm;
}

/** Whether a bind address only accepts connections from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * `persona-forge serve [--config rewards.yaml] [--host 127.0.0.1] [--port 8000] [--token-env VAR]`:
 * loads the config, reads the token from the named variable (an unset variable is an error, never
 * silently no auth) and starts the server. The caller stops it with `server.close()` on a signal.
 *
 * @example
 * const { server } = await serveRewards({ configPath: 'configs/rewards.yaml', port: 8000 });
 * process.once('SIGTERM', () => void server.close());
 */
export async function serveRewards(
  options: ServeRewardsOptions,
): Promise<{ server: RewardServer; config: RewardServerConfig; warnings: string[] }> {
  const env = options.env ?? process.env;
  const server: Record<string, unknown> = {};
  if (options.host !== undefined) server.host = options.host;
  if (options.port !== undefined) server.port = options.port;
  if (options.tokenEnv !== undefined) server.tokenEnv = options.tokenEnv;
  const config = await loadRewardConfig(options.configPath, { env, overrides: { server } });
  const tokenEnv = config.server.tokenEnv;
  const token = tokenEnv === undefined ? undefined : env[tokenEnv];
  if (tokenEnv !== undefined && (token === undefined || token === '')) {
    throw new InputError('--token-env', `environment variable ${tokenEnv} is unset or empty`, {
      field: tokenEnv,
      hint: `export ${tokenEnv}=<token>, or drop --token-env to serve without auth on 127.0.0.1`,
    });
  }
  const started = await startRewardServer({
    llm: (options.createLlm ?? defaultCreateLlm(env))(config.llm),
    config,
    ...(token === undefined ? {} : { token }),
  });
  const warnings: string[] = [];
  if (token === undefined && !isLoopback(config.server.host)) {
    warnings.push(
      `the reward server listens on ${config.server.host} without a token: anyone who can reach this port can use it (and its judge budget); start it with --token-env VAR`,
    );
  }
  return { server: started, config, warnings };
}

export interface RescoreFileOptions {
  /** `<rollouts.jsonl>` (ms-swift `completions.jsonl` or exported RL rows with completions). */
  file: string;
  /** `--reward name[,name…]`. */
  reward: string | string[];
  weights?: number[];
  /** `--out rescored.jsonl`. */
  out?: string;
  configPath?: string;
  env?: Record<string, string | undefined>;
  /** @default the llm layer's `createLlmClient(config.llm)` */
  createLlm?: CreateLlm;
}

/**
 * `persona-forge rescore <rollouts.jsonl> --reward … [--config rewards.yaml] [--out file]`:
 * re-scores saved rollouts with the configured judge, reusing (and extending) the verdict cache file.
 *
 * @example const summary = await rescoreFile({ file: 'output/v1/completions.jsonl', reward: 'personavlm' });
 */
export async function rescoreFile(options: RescoreFileOptions): Promise<RescoreSummary> {
  const config = await loadRewardConfig(options.configPath, { env: options.env ?? process.env });
  const cache = config.cache.enabled
    ? await loadJudgeCache({
        maxEntries: config.cache.maxEntries,
        ...(config.cache.file === undefined ? {} : { file: config.cache.file }),
      })
    : undefined;
  const createLlm = options.createLlm ?? defaultCreateLlm(options.env ?? process.env);
  const judge = createConfiguredJudge(createLlm(config.llm), config, cache);
  try {
    return await rescoreRollouts(options.file, {
      reward: options.reward,
      judge,
      functions: config.functions,
      timeoutMs: config.limits.maxRequestTimeoutMs,
      ...(options.weights === undefined ? {} : { weights: options.weights }),
      ...(options.out === undefined ? {} : { out: options.out }),
    });
  } finally {
    await cache?.flush();
  }
}

function defaultCreateLlm(env: Record<string, string | undefined>): CreateLlm {
  return (config) => createLlmClient(config, { env });
}
