import type { M2aBuilder } from '../export/systems/m2a.js';
import type { LlmClient } from '../llm/types.js';
import type { QuarantineRecord } from '../schemas/common.js';
import type { ExportConfig } from '../schemas/export-config.js';
import type { ValidateConfig, ValidationReport } from '../schemas/validate-config.js';
import { createDeduplicator } from './dedup/dedup.js';
import { createFidelityMeter } from './fidelity.js';
import { createJudgeRunner } from './judges/run-judges.js';
import { RULE_CHECKS } from './rules/index.js';
import { indexUser, type RuleCheck, type RuleFailure, type RuleOptions, type UserBundle } from './types.js';
import { droppedQuestions, mergeUnits, type QuarantinedUnit, unitsForVerdict } from './units.js';

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
  const { config } = options;
  const checks = options.checks ?? RULE_CHECKS;
  const ruleOptions: RuleOptions = {
    config,
    imageExists: options.imageExists ?? (() => true),
    ...(options.tree === undefined ? {} : { tree: options.tree }),
    ...(options.vitabench === undefined ? {} : { vitabench: options.vitabench }),
  };
  const judges = createJudgeRunner(config, options.llm ?? null);
  const dedup = config.dedup.enabled ? createDeduplicator(config.dedup) : null;
  const keep = config.maxExamplesPerCheck;
  const report: ValidationReport = {
    schemaVersion: 1,
    offline: judges.mode === 'offline-heuristic',
    judgeMode: judges.mode,
    realizers: {},
    totals: {
      users: 0,
      sessions: 0,
      turns: 0,
      userTurns: 0,
      imageTurns: 0,
      qaTargets: 0,
      slots: 0,
      trajectories: 0,
      traces: 0,
      usersWithMemory: 0,
      quarantinedUsers: 0,
      quarantinedUnits: 0,
      droppedQa: 0,
      ruleFailures: 0,
      judgeFailures: 0,
    },
    rules: Object.fromEntries(
      checks.map((check) => [
        check.name,
        { description: check.description, failures: 0, users: 0, examples: [] },
      ]),
    ),
    judges: Object.fromEntries(
      judges.checks.map((check) => [
        check,
        { mode: judges.mode, evaluated: 0, failures: 0, meanScore: null, examples: [] },
      ]),
    ),
    judgeUnanswered: 0,
    dedup: {
      enabled: dedup !== null,
      utterancesChecked: 0,
      duplicateUtterances: 0,
      withinUser: 0,
      acrossUsers: 0,
      duplicateDialogues: 0,
      examples: [],
    },
    units: [],
    droppedQa: [],
    quarantined: [],
    users: [],
  };
  const scoreSums = new Map<string, number>();
  const fidelity = createFidelityMeter({
    ...(options.qaWeights === undefined ? {} : { qaWeights: options.qaWeights }),
    ...(options.exportConfig === undefined ? {} : { exportConfig: options.exportConfig }),
  });
  let done = 0;
  for await (const bundle of users) {
    options.signal?.throwIfAborted();
    const userId = bundle.plan.userId;
    const m2a = options.m2a?.splits.includes(bundle.plan.split) ? options.m2a.builder : undefined;
    if (m2a !== undefined) bundle.m2a = await m2a.build(bundle);
    const index = indexUser(bundle);
    const failedChecks = new Map<string, string>();
    const perCheck: Record<string, number> = {};
    const totals = report.totals;
    totals.users++;
    totals.sessions += bundle.dialogue.sessions.length;
    let turns = 0;
    let imageTurns = 0;
    for (const session of bundle.dialogue.sessions) {
      turns += session.turns.length;
      for (const turn of session.turns) {
        if (turn.speaker === 'user') totals.userTurns++;
        if (turn.images.length > 0) imageTurns++;
      }
    }
    totals.turns += turns;
    totals.imageTurns += imageTurns;
    totals.qaTargets += bundle.plan.qa.length;
    totals.slots += bundle.plan.slots.length;
    if (bundle.memory !== null) {
      totals.usersWithMemory++;
      totals.trajectories += bundle.memory.trajectories.length;
      totals.traces += bundle.memory.traces.length;
    }
    const realizer = bundle.dialogue.offline ? 'offline' : bundle.dialogue.realizer;
    report.realizers[realizer] = (report.realizers[realizer] ?? 0) + 1;
    if (bundle.dialogue.offline) report.offline = true;

    const units: QuarantinedUnit[] = [];
    const failuresByCheck = new Map<string, RuleFailure[]>();
    for (const check of checks) {
      const failures = check.run(index, ruleOptions);
      if (failures.length === 0) continue;
      failuresByCheck.set(check.name, failures);
      const entry = report.rules[check.name]!;
      entry.failures += failures.length;
      entry.users++;
      totals.ruleFailures += failures.length;
      perCheck[check.name] = failures.length;
      for (const failure of failures) {
        if (entry.examples.length >= keep) break;
        entry.examples.push({ userId, location: failure.location, reason: failure.reason });
      }
      // A defect inside rounds the rule can name removes those rounds, not the user.
      const found = check.units?.(index, failures) ?? null;
      if (found !== null && found.length > 0) {
        units.push(...found);
        continue;
      }
      const first = failures[0]!;
      failedChecks.set(
        check.name,
        `${first.location}: ${first.reason}${failures.length > 1 ? ` (+${failures.length - 1} more)` : ''}`,
      );
    }

    fidelity.addUser(index, failuresByCheck);

    for (const verdict of await judges.judgeUser(index, options.signal)) {
      const entry = report.judges[verdict.check]!;
      entry.evaluated++;
      scoreSums.set(verdict.check, (scoreSums.get(verdict.check) ?? 0) + verdict.score);
      if (verdict.passed) continue;
      entry.failures++;
      totals.judgeFailures++;
      perCheck[`judge:${verdict.check}`] = 1;
      if (entry.examples.length < keep)
        entry.examples.push({
          userId,
          location: verdict.location,
          reason: verdict.reason,
          score: verdict.score,
        });
      if (!config.judges.quarantine) continue;
      // A defect inside one round or session removes that unit, not the user.
      const found = unitsForVerdict(index, verdict, config, judges.mode === 'offline-heuristic');
      if (found !== null) units.push(...found);
      else
        failedChecks.set(
          `judge:${verdict.check}`,
          `${verdict.location}: ${verdict.reason} (score ${verdict.score.toFixed(2)})`,
        );
    }

    if (dedup !== null) {
      const found = dedup.addUser(bundle);
      const summary = report.dedup;
      summary.utterancesChecked += found.utterancesChecked;
      summary.duplicateUtterances += found.duplicateUtterances.length;
      for (const duplicate of found.duplicateUtterances) {
        if (duplicate.duplicateOfUser === userId) summary.withinUser++;
        else summary.acrossUsers++;
        if (summary.examples.length < keep) summary.examples.push({ ...duplicate });
      }
      if (found.duplicateUtterances.length > 0) perCheck.dedup_utterance = found.duplicateUtterances.length;
      if (found.duplicateRatio > config.dedup.maxDuplicateUtteranceRatio) {
        failedChecks.set(
          'dedup_utterance',
          `${(found.duplicateRatio * 100).toFixed(0)}% of user utterances near-duplicate earlier ones (max ${(config.dedup.maxDuplicateUtteranceRatio * 100).toFixed(0)}%)`,
        );
      }
      if (found.duplicateDialogue !== null) {
        summary.duplicateDialogues++;
        perCheck.dedup_dialogue = 1;
        if (summary.examples.length < keep) summary.examples.push({ ...found.duplicateDialogue });
        if (config.dedup.quarantineDuplicateDialogues) {
          failedChecks.set(
            'dedup_dialogue',
            `dialogue near-duplicates user ${found.duplicateDialogue.duplicateOf} (Jaccard ≈ ${found.duplicateDialogue.similarity.toFixed(2)})`,
          );
        }
      }
    }

    const merged = mergeUnits(units);
    const removed = new Set(merged.flatMap((unit) => unit.turns)).size;
    // Units that would remove every turn are the user's defect: the user goes.
    if (merged.length > 0 && removed >= turns)
      for (const unit of merged) failedChecks.set(unit.check, `${unit.id}: ${unit.reason}`);
    if (failedChecks.size === 0 && units.length > 0) {
      units.length = 0;
      units.push(...merged);
      const dropped = droppedQuestions(index, units);
      report.units!.push(...units);
      report.droppedQa!.push(...dropped);
      totals.quarantinedUnits! += units.length;
      totals.droppedQa! += dropped.length;
      for (const unit of units)
        options.onQuarantine?.({
          inputId: unit.id,
          check: unit.check,
          reason: `${unit.unit} quarantined, the rest of the user kept: ${unit.reason}`,
          details: { userId, unit: unit.unit, turns: unit.turns },
        });
      for (const qa of dropped)
        options.onQuarantine?.({
          inputId: `${userId}:${qa.qaId}`,
          check: 'evidence_quarantined',
          reason: `question dropped: ${qa.reason}`,
          details: { userId, unit: 'question' },
        });
    }
    // Export leaves quarantined users out: only the others take a host record.
    if (m2a !== undefined && bundle.m2a !== undefined && failedChecks.size === 0) m2a.keep(bundle.m2a);
    if (failedChecks.size > 0) {
      totals.quarantinedUsers++;
      report.quarantined.push({
        userId,
        checks: [...failedChecks.keys()],
        reasons: [...failedChecks.values()],
      });
      for (const [check, reason] of failedChecks) options.onQuarantine?.({ inputId: userId, check, reason });
    }
    report.users.push({
      userId,
      split: bundle.plan.split,
      sessions: bundle.dialogue.sessions.length,
      turns,
      imageTurns,
      qa: bundle.plan.qa.length,
      failures: perCheck,
      quarantined: failedChecks.size > 0,
    });
    options.onProgress?.(++done);
  }
  for (const [check, entry] of Object.entries(report.judges)) {
    entry.meanScore =
      entry.evaluated === 0 ? null : Number(((scoreSums.get(check) ?? 0) / entry.evaluated).toFixed(4));
  }
  report.judgeUnanswered = judges.unanswered;
  report.fidelity = fidelity.finish();
  return report;
}
