import { StageError } from '../errors/index.js';
import type { M2aBuilder, M2aBuilt } from '../export/systems/m2a.js';
import type { QuarantineRecord } from '../schemas/common.js';
import type { ValidateConfig, ValidationReport } from '../schemas/validate-config.js';
import type { UserCheck, UserVerdict } from './check-user.js';
import { createDeduplicator } from './dedup/dedup.js';
import { createFidelityMeter, type FidelityOptions } from './fidelity.js';
import type { createJudgeRunner } from './judges/run-judges.js';
import type { RuleCheck, UserIndex } from './types.js';
import {
  type DroppedQuestion,
  droppedQuestions,
  mergeUnits,
  type QuarantinedUnit,
  unitsForVerdict,
} from './units.js';

export interface CorpusReportOptions {
  config: ValidateConfig;
  checks: readonly RuleCheck[];
  /** The judge runner of the run (its mode is the report's; a model judge runs here). */
  judges: ReturnType<typeof createJudgeRunner>;
  fidelity: FidelityOptions;
  onQuarantine?: (record: Omit<QuarantineRecord, 'stage'>) => void;
  signal?: AbortSignal;
}

/** What folding a user may need from this thread: its index (a judge model), its M²A sample. */
export interface FoldLocal {
  index?: UserIndex;
  m2a?: { builder: M2aBuilder; built: M2aBuilt };
}

/**
 * The corpus side of validation: folds each user's `UserCheck` into the report in user order,
 * running what spans users (dedup across users, totals, examples, quarantine records, the M²A
 * builder's host order) and, with a judge model, the judges. The same report whichever thread
 * checked each user.
 *
 * @example const corpus = createCorpusReport(options); await corpus.fold(check); corpus.finish();
 */
export function createCorpusReport(options: CorpusReportOptions) {
  const { config, judges } = options;
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
      options.checks.map((check) => [
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
  const fidelity = createFidelityMeter(options.fidelity);

  async function verdictsOf(check: UserCheck, local: FoldLocal): Promise<UserVerdict[]> {
    if (check.verdicts !== null) return check.verdicts;
    const index = local.index;
    if (index === undefined)
      throw new StageError('validate', `judging ${check.userId} needs its records on this thread`);
    const offline = judges.mode === 'offline-heuristic';
    return (await judges.judgeUser(index, options.signal)).map((verdict) => ({
      verdict,
      units:
        !verdict.passed && config.judges.quarantine ? unitsForVerdict(index, verdict, config, offline) : null,
    }));
  }

  async function fold(check: UserCheck, local: FoldLocal = {}): Promise<void> {
    const { userId } = check;
    const failedChecks = new Map<string, string>();
    const perCheck: Record<string, number> = {};
    const totals = report.totals;
    totals.users++;
    totals.sessions += check.sessions;
    totals.userTurns += check.userTurns;
    totals.turns += check.turns;
    totals.imageTurns += check.imageTurns;
    totals.qaTargets += check.qa;
    totals.slots += check.slots;
    if (check.memory !== null) {
      totals.usersWithMemory++;
      totals.trajectories += check.memory.trajectories;
      totals.traces += check.memory.traces;
    }
    report.realizers[check.realizer] = (report.realizers[check.realizer] ?? 0) + 1;
    if (check.dialogueOffline) report.offline = true;

    const units: QuarantinedUnit[] = [];
    for (const rule of check.rules) {
      const entry = report.rules[rule.check]!;
      entry.failures += rule.count;
      entry.users++;
      totals.ruleFailures += rule.count;
      perCheck[rule.check] = rule.count;
      for (const example of rule.examples) {
        if (entry.examples.length >= keep) break;
        entry.examples.push({ userId, location: example.location, reason: example.reason });
      }
      if (rule.units !== null) units.push(...rule.units);
      else if (rule.userReason !== null) failedChecks.set(rule.check, rule.userReason);
    }

    fidelity.add(check.fidelity);

    const judged = await verdictsOf(check, local);
    for (const { verdict, units: found } of judged) {
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
      if (found !== null) units.push(...found);
      else
        failedChecks.set(
          `judge:${verdict.check}`,
          `${verdict.location}: ${verdict.reason} (score ${verdict.score.toFixed(2)})`,
        );
    }

    if (dedup !== null && check.signed !== null) {
      const found = dedup.addSigned(check.signed);
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
    if (merged.length > 0 && removed >= check.turns)
      for (const unit of merged) failedChecks.set(unit.check, `${unit.id}: ${unit.reason}`);
    if (failedChecks.size === 0 && units.length > 0) {
      const dropped = droppedOf(check, local, merged);
      report.units!.push(...merged);
      report.droppedQa!.push(...dropped);
      totals.quarantinedUnits! += merged.length;
      totals.droppedQa! += dropped.length;
      for (const unit of merged)
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
    if (local.m2a !== undefined && failedChecks.size === 0) local.m2a.builder.keep(local.m2a.built);
    if (failedChecks.size > 0) {
      totals.quarantinedUsers++;
      report.quarantined.push({
        userId,
        checks: [...failedChecks.keys()],
        reasons: [...failedChecks.values()],
      });
      for (const [name, reason] of failedChecks)
        options.onQuarantine?.({ inputId: userId, check: name, reason });
    }
    report.users.push({
      userId,
      split: check.split,
      sessions: check.sessions,
      turns: check.turns,
      imageTurns: check.imageTurns,
      qa: check.qa,
      failures: perCheck,
      quarantined: failedChecks.size > 0,
    });
  }

  function finish(): ValidationReport {
    for (const [check, entry] of Object.entries(report.judges)) {
      entry.meanScore =
        entry.evaluated === 0 ? null : Number(((scoreSums.get(check) ?? 0) / entry.evaluated).toFixed(4));
    }
    report.judgeUnanswered = judges.unanswered;
    report.fidelity = fidelity.finish();
    return report;
  }

  return { fold, finish };
}

/** The questions the merged units drop: computed where the user was checked, or here from its index. */
function droppedOf(
  check: UserCheck,
  local: FoldLocal,
  merged: readonly QuarantinedUnit[],
): DroppedQuestion[] {
  if (check.verdicts !== null && check.dropped !== null) return check.dropped;
  if (local.index === undefined)
    throw new StageError('validate', `the questions ${check.userId} drops need its records on this thread`);
  return droppedQuestions(local.index, merged);
}
