import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * Episodic segments (memory records) reference valid turn indices of an existing session, and the
 * segments of each session together cover every one of its turns (SPEC.md §1: "episodic topics
 * reference valid, complete turn ranges"). Episodic memory is append-only, so the last snapshot
 * holds every segment.
 *
 * @example episodicCoverageCheck.run(indexUser({ plan, dialogue, memory }), options)
 */
export const episodicCoverageCheck: RuleCheck = {
  name: 'episodic_coverage',
  description: "episodic segments' turn indices valid and covering their session",
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    const { memory, dialogue } = bundle;
    if (memory === null) return failures;
    const userId = bundle.plan.userId;
    const last = memory.snapshots[memory.snapshots.length - 1];
    if (last === undefined) return failures;
    const covered = new Map<number, Set<number>>();
    for (const episode of last.episodic) {
      const session = dialogue.sessions[episode.sessionIndex];
      const where = `memory.episodic[${episode.id}]`;
      if (session === undefined) {
        failures.push({
          check: 'episodic_coverage',
          userId,
          location: where,
          reason: `session ${episode.sessionIndex} does not exist`,
        });
        continue;
      }
      if (episode.turnIndices.length === 0) {
        failures.push({
          check: 'episodic_coverage',
          userId,
          location: where,
          reason: 'segment has no turns',
        });
      }
      const set = covered.get(episode.sessionIndex) ?? new Set<number>();
      covered.set(episode.sessionIndex, set);
      for (const index of episode.turnIndices) {
        if (index >= session.turns.length) {
          failures.push({
            check: 'episodic_coverage',
            userId,
            location: where,
            reason: `turn index ${index} outside session ${episode.sessionIndex} (${session.turns.length} turns)`,
          });
        } else set.add(index);
      }
    }
    // Only sessions the memory has consolidated (a snapshot after them exists) must be covered.
    const consolidated = new Set(memory.snapshots.map((snapshot) => snapshot.sessionIndex));
    dialogue.sessions.forEach((session, s) => {
      if (!consolidated.has(s)) return;
      const set = covered.get(s);
      const missing: number[] = [];
      for (let t = 0; t < session.turns.length; t++) if (set?.has(t) !== true) missing.push(t);
      if (missing.length > 0) {
        failures.push({
          check: 'episodic_coverage',
          userId,
          location: `sessions[${s}]`,
          reason: `turns [${missing.slice(0, 10).join(', ')}${missing.length > 10 ? ', …' : ''}] belong to no episodic segment`,
        });
      }
    });
    return failures;
  },
};
