import { EXPLANATION_LEVELS, explanationLevel } from './life-kernels.js';

/**
 * The share of each explanation level's users a tiered-explanation question is asked of: the
 * rarest level's count over each level's, so the asked levels come out even (a question-only
 * reader gains nothing from the corpus's education mix). Unknown educations count for nothing.
 *
 * @example explanationShares(['doctorate', 'doctorate', 'secondary school'])['A detailed, technical explanation'] // 0.5
 */
export function explanationShares(educations: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>(EXPLANATION_LEVELS.map((level) => [level, 0]));
  for (const education of educations)
    if (education.trim() !== '' && !/unknown/i.test(education)) {
      const level = explanationLevel(education);
      counts.set(level, (counts.get(level) ?? 0) + 1);
    }
  const present = [...counts.values()].filter((n) => n > 0);
  const least = present.length === 0 ? 0 : Math.min(...present);
  return Object.fromEntries([...counts].map(([level, n]) => [level, n === 0 ? 1 : least / n]));
}
