import { z } from 'zod';

/**
 * Wire and config schemas of the reward server (`persona-forge serve`). HTTP bodies use the
 * snake_case names trainers send (ms-swift dataset columns, OpenRLHF fields); the YAML config
 * uses camelCase like every other config section.
 */

/** The reward functions the server knows (SPEC.md §1–2). */
export const REWARD_NAMES = [
  'format',
  'accuracy',
  'consistency',
  'tree_ops',
  'persona_consistency',
  'personavlm',
] as const;
export type RewardName = (typeof REWARD_NAMES)[number];

/** Why a reward is null. A failure is never reported as 0. */
export const RewardErrorCode = z.enum([
  'timeout',
  'judge_error',
  'parse_error',
  'not_applicable',
  'invalid_item',
]);
export type RewardErrorCode = z.infer<typeof RewardErrorCode>;

/** A chat message as trainers send it (content may be multimodal parts or null). */
export const RewardMessage = z
  .object({
    role: z.string(),
    content: z.union([z.string(), z.array(z.unknown()), z.null()]),
  })
  .passthrough();
export type RewardMessage = z.infer<typeof RewardMessage>;

/** One rollout to score: the completion plus any dataset columns (kept as sent). */
export const RewardItem = z
  .object({
    completion: z.string(),
    messages: z.array(RewardMessage).optional(),
    solution: z.union([z.string(), z.number(), z.null()]).optional(),
  })
  .catchall(z.unknown());
export type RewardItem = z.infer<typeof RewardItem>;

export const RewardRequest = z
  .object({
    reward: z
      .union([z.string().min(1), z.array(z.string().min(1)).min(1)])
      .describe('One reward name or several (combined with `weights`).'),
    weights: z.array(z.number().finite()).min(1).optional(),
    items: z.array(RewardItem).min(1, 'items must hold at least one item (empty batch)'),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Per-request deadline; capped by `limits.maxRequestTimeoutMs`.'),
  })
  .strict();
export type RewardRequest = z.infer<typeof RewardRequest>;

export const RewardItemError = z
  .object({ index: z.number().int(), reward: z.string(), code: RewardErrorCode, message: z.string() })
  .strict();
export type RewardItemError = z.infer<typeof RewardItemError>;

export const RewardUsage = z
  .object({
    items: z.number().int(),
    judge_calls: z.number().int(),
    judge_items: z.number().int(),
    cache_hits: z.number().int(),
    judge_failed: z
      .number()
      .int()
      .optional()
      .describe(
        'Judge items whose call failed (after the single-item retry): equal to the judge items when the judge is down.',
      ),
    offline: z
      .boolean()
      .describe('True when any judge answer in this response came from the offline heuristic judges.'),
    scorers: z
      .record(z.string(), z.string())
      .describe(
        'Per reward function: how its value was produced (`rule`, `llm-judge`, `offline-heuristic`, …).',
      ),
    judge_model: z.string(),
    prompt_version: z.string(),
    elapsed_ms: z.number(),
    timed_out: z.boolean(),
  })
  .strict();
export type RewardUsage = z.infer<typeof RewardUsage>;

/** The rewards a trainer should use: every failure resolved by the configured `onFailure` policy. */
export const TrainerRewardsBody = z
  .object({
    rewards: z
      .array(z.number())
      .nullable()
      .describe(
        'Finite numbers in item order, or null when the policy refuses the batch (the plugin raises).',
      ),
    policy: z.enum(['none', 'neutral', 'fail', 'value']),
    filled: z.number().int().describe('Items whose value came from the policy.'),
    codes: z.record(z.string(), z.number().int()).describe('Failure codes of those items, counted.'),
    reason: z.string().optional(),
  })
  .strict();
export type TrainerRewardsBody = z.infer<typeof TrainerRewardsBody>;

export const RewardResponse = z
  .object({
    rewards: z
      .array(z.number().nullable())
      .describe('Raw rewards: null where the item failed or the reward does not apply (see `errors`).'),
    components: z.record(z.string(), z.array(z.number().nullable())),
    errors: z.array(RewardItemError),
    usage: RewardUsage,
    trainer: TrainerRewardsBody.optional().describe(
      'What a trainer should train on (set by the server; absent from the bare scoring library).',
    ),
  })
  .strict();
export type RewardResponse = z.infer<typeof RewardResponse>;

/** OpenRLHF's remote reward contract (v0.11 `--reward.remote_url`; `--remote_rm_url` before). */
export const OpenRlhfRequest = z
  .object({
    query: z.array(z.string()).min(1, 'query must hold at least one item (empty batch)'),
    prompts: z.array(z.string()).optional(),
    labels: z
      .array(z.unknown())
      .optional()
      .describe(
        "The dataset's label column: any JSON value (a string is the solution; an object is spread into columns).",
      ),
  })
  .passthrough()
  .superRefine((value, context) => {
    // One prompt and one label per query: a shorter list would pair rewards with the wrong rows.
    for (const key of ['prompts', 'labels'] as const) {
      const list = value[key];
      if (list !== undefined && list.length !== value.query.length)
        context.addIssue({
          code: 'custom',
          path: [key],
          message: `${key} has ${list.length} items but query has ${value.query.length}; send one per query`,
        });
    }
  });
export type OpenRlhfRequest = z.infer<typeof OpenRlhfRequest>;

/** True when a `memory_snapshot` field carries a snapshot (not absent, null or an empty string). */
export function hasSnapshot(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/** `/v1/memory/retrieve`: one of `user_id` (looked up in the run dir) or `memory_snapshot`. */
export const MemoryRetrieveRequest = z
  .object({
    user_id: z.string().min(1).optional(),
    memory_snapshot: z.unknown().optional(),
    keywords: z.string(),
    start_time: z.string().nullable().optional(),
    end_time: z.string().nullable().optional(),
    time: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Point in time the snapshot is taken at (for `user_id`); defaults to `end_time` or the latest.',
      ),
    k: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .describe('Sets the semantic k (SPEC.md §1 default 4); episodic and procedural keep their defaults.'),
    top_k: z
      .object({
        semantic: z.number().int().min(0).max(50).optional(),
        episodic: z.number().int().min(0).max(50).optional(),
        procedural: z.number().int().min(0).max(50).optional(),
      })
      .strict()
      .optional()
      .describe('Full per-type control; wins over `k`.'),
    exclude: z
      .array(z.string())
      .optional()
      .describe('Entry ids already returned in this trajectory (never returned twice, SPEC.md §1).'),
  })
  .strict()
  // Exported RL rows carry `memory_snapshot: ""` when there is none: that counts as absent.
  .refine((value) => value.user_id !== undefined || hasSnapshot(value.memory_snapshot), {
    message: 'give user_id or memory_snapshot',
    path: ['user_id'],
  });
export type MemoryRetrieveRequest = z.infer<typeof MemoryRetrieveRequest>;

export {
  DEFAULT_STRIP_TOKENS,
  FailurePolicyConfig,
  RewardServerConfig,
  type RewardServerConfigInput,
} from './reward-server-config.js';
