import type { ExportConfig } from '../schemas/export-config.js';
import type { ValidateConfig } from '../schemas/validate-config.js';
import type { SignedUser } from './dedup/dedup.js';
import { type FidelityPartial, measureUserFidelity } from './fidelity-measure.js';
import type { createJudgeRunner } from './judges/run-judges.js';
import type { JudgeVerdict } from './judges/types.js';
import type { RuleCheck, RuleFailure, RuleOptions, UserIndex } from './types.js';
import {
  type DroppedQuestion,
  droppedQuestions,
  mergeUnits,
  type QuarantinedUnit,
  unitsForVerdict,
} from './units.js';

/** What one rule found on one user. */
export interface UserRuleResult {
  check: string;
  /** Every failure of the check on this user. */
  count: number;
  /** The first failures (at most `maxExamplesPerCheck`), as validation.json lists them. */
  examples: Array<{ location: string; reason: string }>;
  /** The rounds or sessions the failures sit in; null when the defect is the user's. */
  units: QuarantinedUnit[] | null;
  /** Why the user goes (the first failure, `(+n more)`); null when units remove the failures. */
  userReason: string | null;
}

/** One judge verdict and, when it failed and judges quarantine, the units that remove it. */
export interface UserVerdict {
  verdict: JudgeVerdict;
  /** Null when the verdict's defect is the user's (or the verdict passed). */
  units: QuarantinedUnit[] | null;
}

/**
 * Everything validation learns from one user alone, as plain data: a worker thread computes
 * it, the main thread folds it into the report in user order (`createCorpusReport`) together with
 * what needs the whole corpus (dedup across users, totals, quarantine records).
 */
export interface UserCheck {
  userId: string;
  split: UserIndex['bundle']['plan']['split'];
  sessions: number;
  turns: number;
  userTurns: number;
  imageTurns: number;
  qa: number;
  slots: number;
  memory: { trajectories: number; traces: number } | null;
  /** `offline` for the offline realizer, else the realizer's name. */
  realizer: string;
  dialogueOffline: boolean;
  /** The checks that failed, in check order. */
  rules: UserRuleResult[];
  fidelity: FidelityPartial;
  /** The judges' verdicts; null when the judges run on the main thread (a judge model). */
  verdicts: UserVerdict[] | null;
  /** The removed questions for the rule and judge units merged, when there are units (null otherwise, or when the judges are still to run). */
  dropped: DroppedQuestion[] | null;
  /** The user's part of dedup; null when dedup is off. */
  signed: SignedUser | null;
}

/** What checking a user needs besides the user. */
export interface CheckUserEnv {
  config: ValidateConfig;
  checks: readonly RuleCheck[];
  ruleOptions: RuleOptions;
  exportConfig: ExportConfig;
  /** An offline judge runner (judges run here), or null (the main thread runs a judge model). */
  judges: ReturnType<typeof createJudgeRunner> | null;
  signUser: ((bundle: UserIndex['bundle']) => SignedUser) | null;
}

/**
 * Runs the per-user part of validation: rule checks (and the units that remove their failures),
 * the user's fidelity measurement, offline judges and dedup signatures.
 *
 * @example const check = await checkUser(indexUser(bundle), env);
 */
export async function checkUser(index: UserIndex, env: CheckUserEnv): Promise<UserCheck> {
  const { bundle } = index;
  const keep = env.config.maxExamplesPerCheck;
  let turns = 0;
  let userTurns = 0;
  let imageTurns = 0;
  for (const session of bundle.dialogue.sessions) {
    turns += session.turns.length;
    for (const turn of session.turns) {
      if (turn.speaker === 'user') userTurns++;
      if (turn.images.length > 0) imageTurns++;
    }
  }
  const rules: UserRuleResult[] = [];
  const units: QuarantinedUnit[] = [];
  const failuresByCheck = new Map<string, RuleFailure[]>();
  for (const check of env.checks) {
    const failures = check.run(index, env.ruleOptions);
    if (failures.length === 0) continue;
    failuresByCheck.set(check.name, failures);
    // A defect inside rounds the rule can name removes those rounds, not the user.
    const found = check.units?.(index, failures) ?? null;
    const first = failures[0]!;
    const own = found !== null && found.length > 0;
    if (own) units.push(...found);
    rules.push({
      check: check.name,
      count: failures.length,
      examples: failures.slice(0, keep).map((f) => ({ location: f.location, reason: f.reason })),
      units: own ? found : null,
      userReason: own
        ? null
        : `${first.location}: ${first.reason}${failures.length > 1 ? ` (+${failures.length - 1} more)` : ''}`,
    });
  }
  const fidelity = measureUserFidelity(index, failuresByCheck, env.exportConfig, env.ruleOptions.vitabench);
  let verdicts: UserVerdict[] | null = null;
  if (env.judges !== null) {
    verdicts = [];
    for (const verdict of await env.judges.judgeUser(index)) {
      const quarantines = !verdict.passed && env.config.judges.quarantine;
      // A defect inside one round or session removes that unit, not the user.
      const found = quarantines ? unitsForVerdict(index, verdict, env.config, true) : null;
      if (found !== null) units.push(...found);
      verdicts.push({ verdict, units: found });
    }
  }
  return {
    userId: bundle.plan.userId,
    split: bundle.plan.split,
    sessions: bundle.dialogue.sessions.length,
    turns,
    userTurns,
    imageTurns,
    qa: bundle.plan.qa.length,
    slots: bundle.plan.slots.length,
    memory:
      bundle.memory === null
        ? null
        : { trajectories: bundle.memory.trajectories.length, traces: bundle.memory.traces.length },
    realizer: bundle.dialogue.offline ? 'offline' : bundle.dialogue.realizer,
    dialogueOffline: bundle.dialogue.offline,
    rules,
    fidelity,
    verdicts,
    dropped: verdicts !== null && units.length > 0 ? droppedQuestions(index, mergeUnits(units)) : null,
    signed: env.signUser?.(bundle) ?? null,
  };
}
