import { z } from 'zod';
import { ExportConfig } from './export-config.js';
import { LlmConfig } from './llm-config.js';
import { MemoryConfig } from './memory-config.js';
import { PersonasConfig } from './personas-config.js';
import { PlanConfig } from './plan-config.js';
import { ReportConfig } from './report-config.js';
import { SynthConfig } from './synth-config.js';
import { ValidateConfig } from './validate-config.js';

export const STAGE_NAMES = ['plan', 'synth', 'memory', 'validate', 'export', 'report'] as const;
export const StageName = z.enum(STAGE_NAMES);

/**
 * The model roles each built-in stage may call: the one list the stage registry, the manifest's
 * offline flags and the report's per-stage usage read.
 */
export const STAGE_ROLES: Readonly<Record<string, readonly string[]>> = {
  plan: ['realizer'],
  synth: ['realizer', 'judge'],
  memory: ['judge', 'embedder'],
  validate: ['judge'],
  export: ['realizer'],
  report: [],
};
export type StageName = z.infer<typeof StageName>;

/**
 * A pipeline file: which stages run and the settings of each. Loaded by `loadPipeline`
 * (env interpolation, `extends:`), validated strictly so a typo names its path.
 */
export const PipelineConfig = z
  .object({
    name: z
      .string()
      .min(1)
      .describe('Name of the pipeline, recorded in the run manifest and the dataset card.'),
    description: z
      .string()
      .optional()
      .describe('One line on what this pipeline makes (for people reading the file).'),
    seed: z
      .number()
      .int()
      .min(0)
      .default(42)
      .describe('Seed of every random choice: the same file, seed and inputs give the same bytes.'),
    concurrency: z
      .number()
      .int()
      .min(1)
      .default(8)
      .describe('Users processed at once by per-user stages (raise it for remote LLM endpoints).'),
    stages: z
      .array(StageName)
      .min(1)
      .superRefine((stages, ctx) => {
        stages.forEach((stage, i) => {
          if (stages.indexOf(stage) !== i) {
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `"${stage}" is listed twice: each stage runs once`,
            });
          } else if (i > 0 && STAGE_NAMES.indexOf(stage) < STAGE_NAMES.indexOf(stages[i - 1] as StageName)) {
            ctx.addIssue({
              code: 'custom',
              path: [i],
              message: `"${stage}" cannot come after "${stages[i - 1]}": stages run in the order ${STAGE_NAMES.join(' → ')}`,
            });
          }
        });
      })
      .describe('A subsequence of plan → synth → memory → validate → export → report, each at most once.'),
    llm: LlmConfig.prefault({}).describe(
      'Model endpoints and which role (realizer, judge, embedder) uses which; roles without one run offline.',
    ),
    personas: PersonasConfig.prefault({}).describe(
      'Where the simulated users come from and how many go to train and test.',
    ),
    plan: PlanConfig.prefault({}).describe(
      'The plan stage: timelines of sessions, drift events, QA targets and the image pool.',
    ),
    synth: SynthConfig.prefault({}).describe(
      'The synth stage: how planned sessions become dialogue turns (realizer, checks, system-specific data).',
    ),
    memory: MemoryConfig.prefault({}).describe(
      'The memory stage: memory supervision (PersonaVLM memory types, PersonaTree operations, retrieval).',
    ),
    validate: ValidateConfig.prefault({}).describe(
      'The validate stage: rule checks, judge checks and near-duplicate detection before export.',
    ),
    export: ExportConfig.prefault({}).describe(
      'The export stage: SFT / RL mixes, splits, evaluation sets, Parquet and the dataset card.',
    ),
    report: ReportConfig.prefault({}).describe('The report stage: report.html and report.json.'),
  })
  .strict();
export type PipelineConfig = z.infer<typeof PipelineConfig>;
export type PipelineConfigInput = z.input<typeof PipelineConfig>;
