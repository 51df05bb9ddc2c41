import { z } from 'zod';
import { LlmConfig } from './llm-config.js';

/** The reward server's config file (`rewards.yaml`, `persona-forge serve --config`) and its parts. */

const FormatWeights = z
  .object({
    think: z.number().min(0).default(0.25).describe('Credit for a non-empty leading `<think>…</think>`.'),
    action: z
      .number()
      .min(0)
      .default(0.25)
      .describe('Credit for exactly one `<answer>` or `<retrieve>` block after it, nothing else around.'),
    payload: z
      .number()
      .min(0)
      .default(0.5)
      .describe('Credit for a valid payload (non-empty answer, or retrieve JSON with valid fields).'),
    partialPayload: z
      .number()
      .min(0)
      .default(0.25)
      .describe('Payload credit kept when retrieve JSON parses but a field is invalid.'),
    duplicatePathFactor: z
      .number()
      .min(0)
      .max(1)
      .default(0.5)
      .describe(
        'Op-list tasks: factor applied when two operations touch the same path (one op per attribute, SPEC.md §2).',
      ),
  })
  .strict();

/** A failed item's value for trainers: `neutral` (its group's mean), `fail` (refuse the batch) or a fixed value. */
export const FailurePolicyConfig = z.union([
  z.enum(['neutral', 'fail']),
  z.object({ value: z.number().finite().describe('The reward a failed item gets.') }).strict(),
]);

/**
 * End and pad tokens OpenRLHF leaves in `query` (it decodes with `skip_special_tokens=False`):
 * Qwen/ChatML, Llama 3, Llama 2/Mistral, Gemma and the common pad tokens.
 */
export const DEFAULT_STRIP_TOKENS = [
  '<|im_end|>',
  '<|endoftext|>',
  '<|eot_id|>',
  '<|end_of_text|>',
  '<|finetune_right_pad_id|>',
  '</s>',
  '<end_of_turn>',
  '<eos>',
  '<pad>',
  '[PAD]',
];

/** The reward server config file (`rewards.yaml`). */
export const RewardServerConfig = z
  .object({
    server: z
      .object({
        host: z
          .string()
          .default('127.0.0.1')
          .describe('Interface to listen on; 127.0.0.1 unless trainers on other machines must reach it.'),
        port: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .default(8000)
          .describe('Port to listen on (0 picks a free one).'),
        tokenEnv: z
          .string()
          .optional()
          .describe('Environment variable holding the bearer token; no auth when unset.'),
      })
      .strict()
      .prefault({})
      .describe('Where `persona-forge serve` listens and whether it asks for a bearer token.'),
    limits: z
      .object({
        bodyLimitBytes: z
          .number()
          .int()
          .min(1024)
          .default(8 * 1024 * 1024)
          .describe('Largest request body in bytes; a larger one is answered 413.'),
        maxItems: z
          .number()
          .int()
          .min(1)
          .default(4096)
          .describe('Most items per request; more are answered 413.'),
        requestTimeoutMs: z
          .number()
          .int()
          .min(1)
          .default(60_000)
          .describe('Time a request may take; unfinished items come back null with code `timeout`.'),
        maxRequestTimeoutMs: z
          .number()
          .int()
          .min(1)
          .default(600_000)
          .describe('Upper bound of a per-request timeout a client asks for.'),
      })
      .strict()
      .prefault({})
      .describe('Request size and time limits.'),
    llm: LlmConfig.prefault({}).describe(
      "Model endpoints and roles, as in a pipeline file's `llm:` section (the judge role's endpoint).",
    ),
    judge: z
      .object({
        role: z.string().default('judge').describe('The llm layer role that serves the judge.'),
        allowOffline: z
          .boolean()
          .default(false)
          .describe(
            'Use the labelled offline heuristic judges when the role has no endpoint. Off for training.',
          ),
        batchSize: z.number().int().min(1).max(64).default(8).describe('Items packed into one judge call.'),
        temperature: z.number().min(0).max(2).default(0).describe('Sampling temperature of judge calls.'),
        maxTokens: z.number().int().min(16).default(1024).describe('Completion-token cap of one judge call.'),
        healthTtlMs: z
          .number()
          .int()
          .min(0)
          .default(5000)
          .describe('How long `/health` reuses its judge probe.'),
      })
      .strict()
      .prefault({})
      .describe(
        'The model judge behind the judged rewards (accuracy of open answers, consistency, tree_ops).',
      ),
    cache: z
      .object({
        enabled: z.boolean().default(true).describe('Reuse judge results for identical items.'),
        maxEntries: z.number().int().min(1).default(200_000).describe('Most judge results kept in memory.'),
        file: z
          .string()
          .optional()
          .describe('JSONL file judge results are appended to and replayed from at start.'),
      })
      .strict()
      .prefault({})
      .describe('Cache of judge results, in memory and optionally in a file.'),
    functions: z
      .object({
        format: FormatWeights.prefault({}).describe("Credits of the `format` reward's parts."),
        accuracy: z
          .object({
            offlineF1Threshold: z
              .number()
              .min(0)
              .max(1)
              .default(0.5)
              .describe('Offline open-ended heuristic: token F1 at or above this counts as correct.'),
          })
          .strict()
          .prefault({})
          .describe('The `accuracy` reward.'),
        tree_ops: z
          .object({
            judgeWeight: z
              .number()
              .min(0)
              .default(0.7)
              .describe(
                'Blend of the judge score and the structural score (SPEC.md §2); offline uses structure only.',
              ),
            structuralWeight: z
              .number()
              .min(0)
              .default(0.3)
              .describe('Weight of the structural score (paths and operations match) in the blend.'),
          })
          .strict()
          .prefault({})
          .describe('The `tree_ops` reward (PersonaTree operation lists).'),
        personavlm: z
          .object({
            accuracy: z
              .number()
              .default(1)
              .describe('r = f_acc + f_cons + 0.5·f_format (SPEC.md §1, PersonaVLM RL reward).'),
            consistency: z
              .number()
              .default(1)
              .describe('Weight of f_cons (consistency with the memory snapshot).'),
            format: z.number().default(0.5).describe('Weight of f_format (SPEC.md §1: 0.5).'),
          })
          .strict()
          .prefault({})
          .describe(
            'Weights of the combined `personavlm` reward r = accuracy·f_acc + consistency·f_cons + format·f_format.',
          ),
      })
      .strict()
      .prefault({})
      .describe('Weights and thresholds of the reward functions.'),
    onFailure: z
      .object({
        default: FailurePolicyConfig.default('neutral').describe(
          'Policy for every reward without its own: `neutral`, `fail` or `{ value: N }`.',
        ),
        whenAllFailed: z
          .enum(['fail', 'neutral'])
          .default('fail')
          .describe(
            'A batch with no scored item at all: `fail` (the plugin raises, `/get_reward` answers 503) or `neutral` (one constant).',
          ),
        rewards: z
          .record(z.string(), FailurePolicyConfig)
          .default({})
          .describe('Per-reward policies, keyed by reward name.'),
      })
      .strict()
      .prefault({})
      .describe(
        "What trainers get for an item whose reward failed (ms-swift's `nansum` would count a null as 0). `rewards` overrides `default` per reward name (a list of rewards: names joined with `+`).",
      ),
    openrlhf: z
      .object({
        reward: z.string().default('personavlm').describe('Which reward to compute for each query.'),
        groupSize: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe(
            "OpenRLHF's `--rollout.n_samples_per_prompt`: completions of one prompt arrive in separate requests, so a failed one waits for its group to fill it from its siblings (advantage 0). A `group_size` query parameter on the reward URL wins. Unset: groups never span requests.",
          ),
        groupWaitMs: z
          .number()
          .int()
          .min(1)
          .default(120_000)
          .describe("Longest wait for the rest of a group (OpenRLHF's client gives up after 180 s)."),
        stripTokens: z
          .array(z.string().min(1))
          .default(DEFAULT_STRIP_TOKENS)
          .describe('Special tokens removed from `query` and `prompts` before scoring (end and pad tokens).'),
      })
      .strict()
      .prefault({})
      .describe('`/get_reward` (OpenRLHF).'),
    memory: z
      .object({
        runDir: z
          .string()
          .optional()
          .describe(
            'Run directory whose `memory/memory.jsonl` holds per-user snapshots for `user_id` lookups.',
          ),
        cacheEntries: z
          .number()
          .int()
          .min(1)
          .default(64)
          .describe('Memories built from snapshots kept ready (their indexes are built once).'),
      })
      .strict()
      .prefault({})
      .describe("Memory lookups of `/memory/retrieve` by `user_id` (the run's memory snapshots)."),
  })
  .strict();
export type RewardServerConfig = z.infer<typeof RewardServerConfig>;
export type RewardServerConfigInput = z.input<typeof RewardServerConfig>;
