import { buildVitaBenchTask, type PersonalizationTask } from '../../export/systems/vitabench.js';
import type { RuleCheck, UserIndex } from '../types.js';

/** Domains each preference category is exercised in (mirrors the exporter's table). */
const DOMAIN_OF: Readonly<Record<string, readonly string[]>> = {
  food: ['delivery', 'instore'],
  shopping: ['delivery'],
  travel: ['ota'],
  entertainment: ['instore', 'ota'],
  lifestyle: ['instore'],
  longtail: ['delivery'],
};

const parseVita = (time: string) => Date.parse(`${time.replace(' ', 'T')}Z`);

/**
 * The VitaBench 2.0 tasks the export will write for this user, built and checked before export
 * (only when `export.systems.vitabench` is enabled): every subtask has an expected state whose
 * order is at a store of its environment, one domain that fits its one focal preference, and
 * a user turn of the dialogue said that preference before the task.
 *
 * @example vitabenchTasksCheck.run(indexUser(bundle), { ...options, vitabench: { config, seed } })
 */
export const vitabenchTasksCheck: RuleCheck = {
  name: 'vitabench_tasks',
  description:
    'VitaBench subtasks: expected state in its environment, one domain and focus, said in the dialogue first',
  run(index, options) {
    if (options.vitabench === undefined) return [];
    const task = buildVitaBenchTask(index.bundle, options.vitabench.config, options.vitabench.seed);
    return vitabenchTaskProblems(task, index).map(([location, reason]) => ({
      check: 'vitabench_tasks',
      userId: index.bundle.plan.userId,
      location,
      reason,
    }));
  },
};

/**
 * What is wrong with one user's VitaBench task, read against the dialogue (not the plan the
 * builder used): `[location, reason]` pairs, empty when every subtask holds.
 */
export function vitabenchTaskProblems(task: PersonalizationTask, index: UserIndex): Array<[string, string]> {
  const prefs = new Map(index.bundle.plan.preferences.map((p) => [p.id, p]));
  const opens = new Map(index.bundle.plan.drift.map((d) => [d.id, d.preferenceId]));
  // When the dialogue first says each preference: a user turn listing its slot (or the drift opening it).
  const said = new Map<string, number>();
  for (const slot of index.slotsById.values()) {
    const id = slot.kind === 'preference' ? slot.refId : slot.kind === 'drift' ? opens.get(slot.refId) : null;
    const turn = id == null ? undefined : index.turnBySlot.get(slot.id)?.turn;
    if (id == null || turn === undefined || turn.speaker !== 'user') continue;
    said.set(id, Math.min(said.get(id) ?? Number.POSITIVE_INFINITY, Date.parse(turn.time)));
  }
  const problems: Array<[string, string]> = [];
  for (const sub of task.subtasks) {
    const where = `vitabench[${sub.subtask_id}]`;
    const order = sub.evaluation_criteria.expected_states[0]?.required_orders[0];
    const stores = (sub.environment.stores ?? sub.environment.shops ?? {}) as Record<string, unknown>;
    if (order === undefined) problems.push([where, 'expected_states has no required order']);
    else if (!(String(order.store_id) in stores))
      problems.push([
        where,
        `the expected order's store ${String(order.store_id)} is not in the environment`,
      ]);
    const focal = prefs.get(sub.focal_preference);
    if (focal === undefined) {
      problems.push([where, `focal preference "${sub.focal_preference}" is not in the plan`]);
      continue;
    }
    if (!(DOMAIN_OF[focal.category] ?? []).includes(sub.domain))
      problems.push([
        where,
        `domain ${sub.domain} does not fit the focal ${focal.category} preference "${focal.item}"`,
      ]);
    if (!((said.get(focal.id) ?? Number.POSITIVE_INFINITY) < parseVita(sub.environment.time)))
      problems.push([
        where,
        `the dialogue does not say "${focal.item}" before the task (${sub.environment.time})`,
      ]);
  }
  return problems;
}
