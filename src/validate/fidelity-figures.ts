/**
 * The figures of validation.json's fidelity section: a defect rate held to a maximum, a
 * proportion or a mean to match a published (or configured) figure.
 */
import { type TaskSpec, taskWeight } from '../qa/tasks.js';

export interface FidelityFigure {
  description: string;
  /** Measured on the run: a percentage unless `unit` says otherwise. */
  value: number;
  unit: '%' | 'words' | 'images' | 'tokens';
  /** Published or required value; null when there is none. */
  target: number | null;
  /** `max`: a defect rate that must not exceed the target; `about`: a proportion to match within tolerance. */
  kind: 'max' | 'about';
  /** Allowed distance for `about` figures (absolute, in the figure's unit). */
  tolerance: number | null;
  /** Numerator and denominator behind a percentage. */
  count: number;
  of: number;
  ok: boolean | null;
}

const pct = (count: number, of: number) => (of === 0 ? 0 : Math.round((count / of) * 1000) / 10);

export function defect(description: string, count: number, of: number, target: number): FidelityFigure {
  const value = pct(count, of);
  return {
    description,
    value,
    unit: '%',
    target,
    kind: 'max',
    tolerance: null,
    count,
    of,
    ok: value <= target,
  };
}

export function about(
  description: string,
  count: number,
  of: number,
  target: number,
  tolerance = 3,
): FidelityFigure {
  const value = pct(count, of);
  const ok = of === 0 ? null : Math.abs(value - target) <= Math.max(tolerance, target * 0.1);
  return { description, value, unit: '%', target, kind: 'about', tolerance, count, of, ok };
}

/** A mean (words, images, tokens) to match its published figure within 10%. */
export function meanFigure(
  description: string,
  count: number,
  of: number,
  target: number,
  unit: FidelityFigure['unit'],
  decimals = 1,
): FidelityFigure {
  const scale = 10 ** decimals;
  const value = Math.round((count / of) * scale) / scale;
  const tolerance = Math.round(target * 0.1 * scale) / scale;
  return {
    description,
    value,
    unit,
    target,
    kind: 'about',
    tolerance,
    count,
    of,
    ok: Math.abs(value - target) <= target * 0.1,
  };
}

/** Each task's share (%) of its family under the pipeline's `plan.qa.weights`. */
export function configuredShares(
  tasks: readonly TaskSpec[],
  weights: Record<string, number>,
): Map<string, number> {
  const w = tasks.map((task) => taskWeight(task, weights));
  const total = w.reduce((a, b) => a + b, 0);
  return new Map(tasks.map((task, i) => [task.task, total === 0 ? 0 : ((w[i] ?? 0) / total) * 100]));
}

export const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * One figure per task of a family: its share of the family's questions beside the share the
 * pipeline's weights give it (the published mix unless the pipeline sets its own).
 */
export function mixFigures(
  family: string,
  tasks: readonly TaskSpec[],
  counts: ReadonlyMap<string, number>,
  weights: Record<string, number>,
  key: (task: TaskSpec) => string,
  published: (task: TaskSpec) => number,
  label: (task: TaskSpec) => string,
): Record<string, FidelityFigure> {
  const figures: Record<string, FidelityFigure> = {};
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return figures;
  const shares = configuredShares(tasks, weights);
  const own = tasks.some((task) => `${task.family}:${task.task}` in weights || task.task in weights);
  for (const task of tasks) {
    const real = published(task);
    const source = own ? `configured; real file: ${real}%` : `real file: ${real}%`;
    figures[key(task)] = about(
      `${family} ${label(task)} (${source})`,
      counts.get(task.task) ?? 0,
      total,
      round1(shares.get(task.task) ?? 0),
    );
  }
  return figures;
}
