import type { UserMemory } from '../../schemas/memory.js';
import type { RuleCheck, RuleFailure } from '../types.js';

const TIME_KEYS = new Set(['time', 'timestamp', 'updatedAt', 'end', 'start']);

/**
 * Finds the latest time stamped anywhere inside a sample input (fields named time, timestamp,
 * updatedAt, start or end holding an ISO string), with the path where it sits.
 *
 * @example latestTimeIn({ turns: [{ time: '2024-01-01T00:00:00Z' }] }) // { time: 1704067200000, path: 'turns[0].time' }
 */
export function latestTimeIn(value: unknown, path = ''): { time: number; path: string } | null {
  let best: { time: number; path: string } | null = null;
  const consider = (candidate: { time: number; path: string } | null) => {
    if (candidate !== null && (best === null || candidate.time > best.time)) best = candidate;
  };
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      consider(latestTimeIn(item, `${path}[${i}]`));
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      const here = path === '' ? key : `${path}.${key}`;
      if (TIME_KEYS.has(key) && typeof inner === 'string') {
        const time = Date.parse(inner);
        if (!Number.isNaN(time)) consider({ time, path: here });
      } else consider(latestTimeIn(inner, here));
    }
  }
  return best;
}

/** The latest time stamped inside a value (as `latestTimeIn`, without building paths: the fast first pass). */
export function latestTime(value: unknown): number {
  let best = Number.NEGATIVE_INFINITY;
  if (Array.isArray(value)) {
    for (const item of value) {
      const time = latestTime(item);
      if (time > best) best = time;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key in value) {
      const inner = (value as Record<string, unknown>)[key];
      if (typeof inner === 'string') {
        if (TIME_KEYS.has(key)) {
          const time = Date.parse(inner);
          if (time > best) best = time;
        }
      } else if (inner !== null && typeof inner === 'object') {
        const time = latestTime(inner);
        if (time > best) best = time;
      }
    }
  }
  return best;
}

/** The earliest time each memory entry id existed (semantic timestamp, episodic end, procedural update). */
export function memoryEntryTimes(memory: UserMemory): Map<string, number> {
  const times = new Map<string, number>();
  const put = (id: string, iso: string) => {
    const time = Date.parse(iso);
    const known = times.get(id);
    if (known === undefined || time < known) times.set(id, time);
  };
  for (const snapshot of memory.snapshots) {
    for (const entry of snapshot.semantic) put(entry.id, entry.timestamp);
    for (const entry of snapshot.episodic) put(entry.id, entry.end);
    for (const entry of snapshot.procedural) put(entry.id, entry.updatedAt);
  }
  return times;
}

/**
 * No sample input holds information from after its own time: memory-task inputs contain no turn
 * or entry dated after the step, and reasoning trajectories retrieve no entry written after the
 * question was asked (SPEC.md §1: answers come from memory available at question time).
 *
 * @example futureInfoCheck.run(indexUser({ plan, dialogue, memory }), options)
 */
export const futureInfoCheck: RuleCheck = {
  name: 'future_info',
  description: 'no future information in any sample input',
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    const { memory } = bundle;
    if (memory === null) return failures;
    const userId = bundle.plan.userId;
    for (const trace of memory.traces) {
      if (!(latestTime(trace.input) > Date.parse(trace.time))) continue;
      const latest = latestTimeIn(trace.input);
      if (latest !== null && latest.time > Date.parse(trace.time)) {
        failures.push({
          check: 'future_info',
          userId,
          location: `traces[${trace.id}].input.${latest.path}`,
          reason: `dated ${new Date(latest.time).toISOString()}, after the step at ${trace.time}`,
        });
      }
    }
    const entryTimes = memoryEntryTimes(memory);
    for (const trajectory of memory.trajectories) {
      const asked = Date.parse(trajectory.questionTime);
      for (const [s, step] of trajectory.steps.entries()) {
        for (const id of step.retrievedIds) {
          const time = entryTimes.get(id);
          if (time === undefined) {
            failures.push({
              check: 'future_info',
              userId,
              location: `trajectories[${trajectory.qaId}].steps[${s}]`,
              reason: `retrieved entry "${id}" is in no memory snapshot`,
            });
          } else if (time > asked) {
            failures.push({
              check: 'future_info',
              userId,
              location: `trajectories[${trajectory.qaId}].steps[${s}]`,
              reason: `retrieved entry "${id}" written ${new Date(time).toISOString()}, after the question at ${trajectory.questionTime}`,
            });
          }
        }
      }
    }
    return failures;
  },
};
