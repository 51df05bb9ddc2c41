/**
 * Figures of the behaviour logs (VitaBench-style events between sessions): the share of noise
 * events realized over the run, beside the share the pipeline configured (`synth.behaviors.noiseRate`).
 */
import type { FidelityFigure } from './fidelity-figures.js';
import type { UserIndex } from './types.js';

/** Counters the meter sums over users. */
export function emptyLogCounts() {
  return { behaviorEvents: 0, behaviorNoise: 0, behaviorLogs: 0 };
}

/** Counts one user's behaviour events and the noise among them (an event with a `noise` kind). */
export function measureLogs(index: UserIndex, n: ReturnType<typeof emptyLogCounts>): void {
  if (index.bundle.dialogue.behaviors.length > 0) n.behaviorLogs++;
  for (const event of index.bundle.dialogue.behaviors) {
    n.behaviorEvents++;
    if (event.noise !== null) n.behaviorNoise++;
  }
}

/** Allowed distance (percentage points) between the realized and the configured noise share. */
export const NOISE_TOLERANCE_POINTS = 2;

/**
 * `behavior_noise_rate`: noise events over all behaviour events of the run, within 2 points of
 * the configured rate, or half an event per log when logs are so short that one event is more
 * (each log keeps within about one event of its share). Absent when the run has no behaviour
 * events or no rate is given.
 */
export function logFigures(
  n: ReturnType<typeof emptyLogCounts>,
  noiseRate: number | undefined,
): Record<string, FidelityFigure> {
  if (noiseRate === undefined || n.behaviorEvents === 0) return {};
  const value = Math.round((n.behaviorNoise / n.behaviorEvents) * 1000) / 10;
  const target = Math.round(noiseRate * 1000) / 10;
  const tolerance = Math.max(
    NOISE_TOLERANCE_POINTS,
    Math.round(((50 * n.behaviorLogs) / n.behaviorEvents) * 10) / 10,
  );
  return {
    behavior_noise_rate: {
      description: `behaviour-log events that are noise, over the run (configured: ${target}%)`,
      value,
      unit: '%',
      target,
      kind: 'about',
      tolerance,
      count: n.behaviorNoise,
      of: n.behaviorEvents,
      ok: Math.abs(value - target) <= tolerance,
    },
  };
}
