import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * Ids are unique and sequential: session `index` equals its position, turn `index` equals its
 * position in the session, turn ids read `<userId>:S<session>:T<turn>` (both 0-based), rounds
 * never decrease, and the plan's own ids (slots, QA targets, preferences, images) are unique.
 *
 * @example idsCheck.run(indexUser(bundle), options)
 */
export const idsCheck: RuleCheck = {
  name: 'ids',
  description: 'ids unique and sequential',
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    const { plan, dialogue } = bundle;
    const userId = plan.userId;
    const fail = (location: string, reason: string) =>
      failures.push({ check: 'ids', userId, location, reason });
    if (dialogue.userId !== userId) fail('dialogue.userId', `dialogue belongs to "${dialogue.userId}"`);
    const seen = new Set<string>();
    dialogue.sessions.forEach((session, s) => {
      if (session.index !== s) fail(`sessions[${s}]`, `index ${session.index}, expected ${s}`);
      let round = -1;
      session.turns.forEach((turn, t) => {
        const expected = `${userId}:S${s}:T${t}`;
        if (seen.has(turn.id)) fail(turn.id, 'duplicate turn id');
        seen.add(turn.id);
        if (turn.id !== expected)
          fail(`sessions[${s}].turns[${t}]`, `id "${turn.id}", expected "${expected}"`);
        if (turn.index !== t) fail(turn.id, `index ${turn.index}, expected ${t}`);
        if (turn.round < round) fail(turn.id, `round ${turn.round} after round ${round}`);
        round = turn.round;
      });
    });
    const groups: Array<[string, Array<{ id: string }>]> = [
      ['slots', plan.slots],
      ['qa', plan.qa],
      ['preferences', plan.preferences],
      ['images', plan.images],
      ['drift', plan.drift],
    ];
    for (const [name, items] of groups) {
      const ids = new Set<string>();
      for (const item of items) {
        if (ids.has(item.id)) fail(`plan.${name}`, `duplicate id "${item.id}"`);
        ids.add(item.id);
      }
    }
    return failures;
  },
};
