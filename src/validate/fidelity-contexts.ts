/**
 * Figures of the PersonaMem contexts export builds (`placeQuestions`): their mean length beside
 * the configured target, and their lengths beside the real questions_32k.csv's range, recounted
 * here from the window's messages.
 */
import {
  PERSONAMEM_32K_MEAN_TOKENS,
  PERSONAMEM_32K_RANGE,
  personaMemMessages,
  personaMemTargets,
  placeQuestions,
} from '../export/eval/personamem-context.js';
import type { ExportConfig } from '../schemas/export-config.js';
import { countTokens } from '../util/tokens.js';
import { defect, type FidelityFigure, meanFigure } from './fidelity-figures.js';
import type { UserIndex } from './types.js';

/** Counters the meter sums over users. */
export function emptyContextCounts() {
  return {
    pmQuestions: 0,
    pmTokens: 0,
    pmOutOfRange: 0,
    /** Left out: asked before the history reaches the range's shortest context (user's whole history reaches it). */
    pmLeftOutEarly: 0,
    /** Left out: evidence sessions alone longer than the range's longest context. */
    pmLeftOutFar: 0,
    /** Questions of users whose whole history is shorter than the range's shortest context (all left out). */
    pmShortUser: 0,
  };
}

/** One user's PersonaMem contexts as export builds them (users of the exported splits). */
export function measureContexts(
  index: UserIndex,
  exportConfig: ExportConfig,
  n: ReturnType<typeof emptyContextCounts>,
): void {
  if (!exportConfig.eval.splits.includes(index.bundle.plan.split)) return;
  const targets = personaMemTargets(index.bundle, exportConfig);
  if (targets.length === 0) return;
  const messages = personaMemMessages(index.bundle);
  const target = exportConfig.eval.personamemContextTokens;
  const range = exportConfig.eval.personamemContextRange;
  const { placed, leftOut } = placeQuestions(index.bundle, messages, targets, target, range);
  const whole = messages.reduce((sum, message) => sum + message.tokens, 0);
  for (const question of leftOut) {
    if (whole < range.min) n.pmShortUser++;
    else if (question.reason === 'history-too-short') n.pmLeftOutEarly++;
    else n.pmLeftOutFar++;
  }
  for (const question of placed) {
    n.pmQuestions++;
    n.pmTokens += question.tokens;
    // The window's text counted afresh: the persona message, then every part's messages.
    const window = [messages[0]!, ...question.parts.flatMap(([from, to]) => messages.slice(from, to))];
    const tokens = window.reduce((sum, message) => sum + countTokens(message.content), 0);
    if (tokens < range.min || tokens > range.max) n.pmOutOfRange++;
  }
}

/**
 * `personamem_context_tokens` (mean vs target), `personamem_context_range` (target 0),
 * `personamem_questions_left_out` (of users whose whole history reaches the range; at most 5%) and
 * the questions left out per reason (of all; reported).
 */
export function contextFigures(
  n: ReturnType<typeof emptyContextCounts>,
  exportConfig: ExportConfig,
): Record<string, FidelityFigure> {
  const figures: Record<string, FidelityFigure> = {};
  const { min, max } = exportConfig.eval.personamemContextRange;
  if (n.pmQuestions > 0) {
    figures.personamem_context_tokens = meanFigure(
      `mean PersonaMem context length in tokens, gpt-tokenizer (real 32k file: ${PERSONAMEM_32K_MEAN_TOKENS})`,
      n.pmTokens,
      n.pmQuestions,
      exportConfig.eval.personamemContextTokens,
      'tokens',
      0,
    );
    const real = min === PERSONAMEM_32K_RANGE.min && max === PERSONAMEM_32K_RANGE.max;
    figures.personamem_context_range = defect(
      `PersonaMem contexts outside ${min}–${max} tokens, gpt-tokenizer (${real ? "the real 32k file's shortest and longest" : `configured; real 32k file: ${PERSONAMEM_32K_RANGE.min}–${PERSONAMEM_32K_RANGE.max}`})`,
      n.pmOutOfRange,
      n.pmQuestions,
      0,
    );
  }
  // Users whose whole history reaches the shortest context: each of their questions can be asked
  // late enough, so leaving one out is a defect of where it was asked (or of its evidence).
  const reaching = n.pmQuestions + n.pmLeftOutEarly + n.pmLeftOutFar;
  if (reaching > 0)
    figures.personamem_questions_left_out = defect(
      `PersonaMem questions left out of the export, of users whose whole history reaches ${min} tokens: asked before their history reaches it (${n.pmLeftOutEarly}) or with evidence sessions longer than ${max} tokens with the question's own session (${n.pmLeftOutFar})`,
      n.pmLeftOutEarly + n.pmLeftOutFar,
      reaching,
      5,
    );
  const all = reaching + n.pmShortUser;
  if (all > 0) {
    const reported = (description: string, count: number): FidelityFigure => ({
      description,
      value: Math.round((count / all) * 1000) / 10,
      unit: '%',
      // Reported: the real file has no context that short or that long.
      target: null,
      kind: 'about',
      tolerance: null,
      count,
      of: all,
      ok: null,
    });
    figures.personamem_left_out_history_too_short = reported(
      `PersonaMem questions left out because the history before them is shorter than ${min} tokens (${n.pmShortUser} of them of users whose whole history is)`,
      n.pmLeftOutEarly + n.pmShortUser,
    );
    figures.personamem_left_out_evidence_too_far = reported(
      `PersonaMem questions left out because their evidence sessions with the question's own session exceed ${max} tokens`,
      n.pmLeftOutFar,
    );
  }
  return figures;
}
