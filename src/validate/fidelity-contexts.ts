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
  return { pmQuestions: 0, pmTokens: 0, pmOutOfRange: 0, pmLeftOut: 0 };
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
  n.pmLeftOut += leftOut.length;
  for (const question of placed) {
    n.pmQuestions++;
    n.pmTokens += question.tokens;
    // The window's text counted afresh: the persona message, then every part's messages.
    const window = [messages[0]!, ...question.parts.flatMap(([from, to]) => messages.slice(from, to))];
    const tokens = window.reduce((sum, message) => sum + countTokens(message.content), 0);
    if (tokens < range.min || tokens > range.max) n.pmOutOfRange++;
  }
}

/** `personamem_context_tokens` (mean vs target), `personamem_context_range` (target 0), questions left out. */
export function contextFigures(
  n: ReturnType<typeof emptyContextCounts>,
  exportConfig: ExportConfig,
): Record<string, FidelityFigure> {
  const figures: Record<string, FidelityFigure> = {};
  if (n.pmQuestions > 0) {
    figures.personamem_context_tokens = meanFigure(
      `mean PersonaMem context length in tokens, gpt-tokenizer (real 32k file: ${PERSONAMEM_32K_MEAN_TOKENS})`,
      n.pmTokens,
      n.pmQuestions,
      exportConfig.eval.personamemContextTokens,
      'tokens',
      0,
    );
    const { min, max } = exportConfig.eval.personamemContextRange;
    const real = min === PERSONAMEM_32K_RANGE.min && max === PERSONAMEM_32K_RANGE.max;
    figures.personamem_context_range = defect(
      `PersonaMem contexts outside ${min}–${max} tokens, gpt-tokenizer (${real ? "the real 32k file's shortest and longest" : `configured; real 32k file: ${PERSONAMEM_32K_RANGE.min}–${PERSONAMEM_32K_RANGE.max}`})`,
      n.pmOutOfRange,
      n.pmQuestions,
      0,
    );
  }
  if (n.pmQuestions + n.pmLeftOut > 0) {
    const of = n.pmQuestions + n.pmLeftOut;
    figures.personamem_questions_left_out = {
      description:
        "PersonaMem questions left out of the export: the history before them is shorter than the real file's shortest context, or their evidence sessions alone exceed its longest",
      value: Math.round((n.pmLeftOut / of) * 1000) / 10,
      unit: '%',
      // Reported, not a defect: the real file has no context that short or that long.
      target: null,
      kind: 'about',
      tolerance: null,
      count: n.pmLeftOut,
      of,
      ok: null,
    };
  }
  return figures;
}
