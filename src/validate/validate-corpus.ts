import type { M2aBuilder } from '../export/systems/m2a.js';
import type { LlmClient } from '../llm/types.js';
import type { QuarantineRecord } from '../schemas/common.js';
import { ExportConfig } from '../schemas/export-config.js';
import type { ValidateConfig, ValidationReport } from '../schemas/validate-config.js';
import { type CheckUserEnv, checkUser } from './check-user.js';
import { createCorpusReport } from './corpus-report.js';
import { createUserSigner } from './dedup/dedup.js';
import { createJudgeRunner } from './judges/run-judges.js';
import { RULE_CHECKS } from './rules/index.js';
import { indexUser, type RuleCheck, type RuleOptions, type UserBundle } from './types.js';

export interface ValidateCorpusOptions {
  config: ValidateConfig;
  /** Serves the `judge` role; null = offline heuristics. @default null */
  llm?: LlmClient | null;
  /** Pool-relative image path → exists (consulted only when `imagePoolDir` is set). @default () => true */
  imageExists?: (relativePath: string) => boolean;
  /** Called once per (user, check) that quarantines the user. */
  onQuarantine?: (record: Omit<QuarantineRecord, 'stage'>) => void;
  onProgress?: (done: number) => void;
  /** Rule checks to run. @default RULE_CHECKS */
  checks?: readonly RuleCheck[];
  /** The PersonaTree schema the memory stage used. @default Inside Out's English tree */
  tree?: RuleOptions['tree'];
  /** The VitaBench exporter's settings, when the pipeline exports VitaBench tasks. */
  vitabench?: RuleOptions['vitabench'];
  /** The pipeline's `plan.qa.weights` (the mixes the fidelity section measures against). */
  qaWeights?: Record<string, number>;
  /** The pipeline's behaviour-log noise rate (`synth.behaviors.noiseRate`) when logs are on. */
  behaviorNoiseRate?: number;
  /**
   * When the pipeline exports M²A: builds each user's merged conversation (users of `splits`)
   * the way export will, for the `m2a_sessions` rule and the fidelity figures.
   */
  m2a?: { builder: M2aBuilder; splits: readonly string[] };
  /** The pipeline's export settings, for figures of the exported formats (PersonaMem context length). @default ExportConfig defaults */
  exportConfig?: ExportConfig;
  signal?: AbortSignal;
}

/**
 * Validates a stream of users: rule checks, judge checks and near-duplicate detection. Never
 * edits data: a user failing a rule (or a judge / dedup limit, when configured to) is reported
 * through `onQuarantine` with the check and reason, and listed in the returned report.
 * Holds one user at a time plus the dedup signatures.
 *
 * @example const report = await validateCorpus(readRunBundles(runDir), { config: ValidateConfig.parse({}) });
 */
export async function validateCorpus(
  users: AsyncIterable<UserBundle> | Iterable<UserBundle>,
  options: ValidateCorpusOptions,
): Promise<ValidationReport> {
  const { env, corpus } = corpusSetup(options);
  let done = 0;
  for await (const bundle of users) {
    options.signal?.throwIfAborted();
    const m2a = options.m2a?.splits.includes(bundle.plan.split) ? options.m2a.builder : undefined;
    if (m2a !== undefined) bundle.m2a = await m2a.build(bundle);
    const index = indexUser(bundle);
    await corpus.fold(await checkUser(index, env), {
      index,
      ...(m2a !== undefined && bundle.m2a !== undefined ? { m2a: { builder: m2a, built: bundle.m2a } } : {}),
    });
    options.onProgress?.(++done);
  }
  return corpus.finish();
}

/**
 * What checking users needs (`checkUser`'s environment, on this thread) and the corpus report
 * they are folded into. The judges run inside `checkUser` when they are offline heuristics, at
 * fold time when they call a model.
 */
export function corpusSetup(options: ValidateCorpusOptions) {
  const { config } = options;
  const checks = options.checks ?? RULE_CHECKS;
  const judges = createJudgeRunner(config, options.llm ?? null);
  const env: CheckUserEnv = {
    config,
    checks,
    ruleOptions: {
      config,
      imageExists: options.imageExists ?? (() => true),
      ...(options.tree === undefined ? {} : { tree: options.tree }),
      ...(options.vitabench === undefined ? {} : { vitabench: options.vitabench }),
    },
    exportConfig: options.exportConfig ?? ExportConfig.parse({}),
    judges: judges.mode === 'offline-heuristic' ? judges : null,
    signUser: config.dedup.enabled ? createUserSigner(config.dedup) : null,
  };
  const corpus = createCorpusReport({
    config,
    checks,
    judges,
    fidelity: {
      ...(options.qaWeights === undefined ? {} : { qaWeights: options.qaWeights }),
      ...(options.behaviorNoiseRate === undefined ? {} : { behaviorNoiseRate: options.behaviorNoiseRate }),
      exportConfig: env.exportConfig,
    },
    ...(options.onQuarantine === undefined ? {} : { onQuarantine: options.onQuarantine }),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  return { env, corpus, judges };
}
