import type { LlmClient } from '../../llm/types.js';
import type { JudgeCheckName, ValidateConfig } from '../../schemas/validate-config.js';
import type { UserIndex } from '../types.js';
import { createHeuristicJudges } from './heuristics.js';
import { judgementScore } from './llm-judge.js';
import { type JudgeItem, judgeSessions } from './llm-judge-batch.js';
import { combineFactShare, sessionFacts } from './settled-facts.js';
import type { JudgeMode, JudgeVerdict } from './types.js';

/** Evenly spaced session indices, at most `count` (deterministic: no sampling). */
export function pickSessions(total: number, count: number): number[] {
  if (total <= count) return Array.from({ length: total }, (_, i) => i);
  if (count === 1) return [0];
  return Array.from({ length: count }, (_, i) => Math.round((i * (total - 1)) / (count - 1)));
}

/**
 * Creates the judge runner: offline (no `judge` endpoint, or no client) every session goes
 * through the heuristics; online up to `sessionsPerUser` sessions per user go to the model, with
 * the heuristic answer as its offline fallback. The per-user score of a check is its worst session.
 *
 * @example const judges = createJudgeRunner(config, llm); const verdicts = await judges.judgeUser(index);
 */
export function createJudgeRunner(config: ValidateConfig, llm: LlmClient | null) {
  const heuristics = createHeuristicJudges(config);
  const offline = llm === null || llm.isOffline('judge');
  const mode: JudgeMode = offline ? 'offline-heuristic' : `llm:${llm.modelFor('judge')}`;
  const checks = config.judges.enabled ? config.judges.checks : [];
  let unanswered = 0;
  return {
    mode,
    checks: checks as readonly JudgeCheckName[],
    get unanswered() {
      return unanswered;
    },
    async judgeUser(index: UserIndex, signal?: AbortSignal): Promise<JudgeVerdict[]> {
      if (checks.length === 0) return [];
      const userId = index.bundle.plan.userId;
      const all = index.bundle.dialogue.sessions.map((_, s) => s);
      if (offline || llm === null) {
        return checks.map((check) => {
          const result = heuristics[check](index, all);
          return {
            check,
            userId,
            score: result.score,
            passed: result.violations === 0 && result.score >= config.judges.minScore,
            location: result.location,
            reason: result.reason,
          };
        });
      }
      const worst = new Map<JudgeCheckName, JudgeVerdict>();
      const items: JudgeItem[] = pickSessions(all.length, config.judges.sessionsPerUser).map((s) => ({
        session: s,
        facts: sessionFacts(index, s, !config.judges.askSettled),
        offline: () => ({
          coherence: heuristics.coherence(index, [s]).score,
          safe: heuristics.safety(index, [s]).score === 1,
          persona_consistency: heuristics.persona_consistency(index, [s]).score,
          fact_expressed: heuristics.fact_expressed(index, [s]).score,
          reason: 'offline heuristic',
        }),
      }));
      const answers = await judgeSessions(llm, index, items, config.judges.sessionsPerCall, signal);
      for (const { session: s, facts } of items) {
        const answer = answers.get(s) ?? null;
        if (answer === null) {
          unanswered++;
          continue;
        }
        const judgement = { ...answer, fact_expressed: combineFactShare(answer.fact_expressed, facts) };
        for (const check of checks) {
          const score = judgementScore(judgement, check);
          const known = worst.get(check);
          if (known === undefined || score < known.score) {
            worst.set(check, {
              check,
              userId,
              score,
              passed: score >= config.judges.minScore,
              location: `sessions[${s}]`,
              reason: judgement.reason ?? '',
            });
          }
        }
      }
      return [...worst.values()];
    },
  };
}
