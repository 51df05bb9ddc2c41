import type { RewardRequest, RewardResponse } from '../schemas/reward.js';
import { groupKey, type OutsideScores } from './failure-policy.js';

/**
 * OpenRLHF's prompt groups across requests. OpenRLHF (v0.11 `SingleTurnAgentExecutor`) scores each
 * of a prompt's `n_samples_per_prompt` completions in its own `/get_reward` request, all at once
 * (`generate_responses` gathers them). When the trainer declares the group size (`group_size` in
 * the reward URL's query, or `openrlhf.groupSize`), a request with a failed item waits until the
 * whole group has been scored and fills the item from its siblings' scores, so its advantage
 * within the group is 0. A group closes once `groupSize` completions arrived: the same prompt in a
 * later step is a new group, and no score leaks from one group into another.
 *
 * @example
 * const gate = new GroupGate(60_000);
 * gate.arrive(key, 8, [0.5], 1);           // a scored sibling
 * const outside = await gate.wait(key, 8, [], 1); // a failed one: the siblings' sums once all 8 arrived
 */
export class GroupGate {
  private readonly groups = new Map<string, OpenGroup>();

  /**
   * @param waitMs longest wait for the rest of a group before filling from what arrived.
   * @param capacity open groups kept at most (the oldest is dropped first).
   */
  constructor(
    private readonly waitMs: number,
    private readonly capacity = 50_000,
  ) {}

  /** Records a request's completions of group `key` (its scored values and its item count). */
  arrive(key: string, groupSize: number, scored: readonly number[], items: number): void {
    const group = this.open(key);
    group.arrived += items;
    for (const value of scored) {
      group.sum += value;
      group.count++;
    }
    if (group.arrived >= groupSize) this.close(key, group);
  }

  /**
   * Records a request that has failed items and resolves with the scores of the group's other
   * requests once the group is complete (or after `waitMs`, with what arrived by then).
   */
  async wait(
    key: string,
    groupSize: number,
    scored: readonly number[],
    items: number,
  ): Promise<{ sum: number; count: number }> {
    const group = this.open(key);
    const own = { sum: scored.reduce((a, b) => a + b, 0), count: scored.length };
    const done = new Promise<{ sum: number; count: number }>((resolve) => {
      const timer = setTimeout(() => {
        group.waiters.delete(waiter);
        resolve({ sum: group.sum - own.sum, count: group.count - own.count });
      }, this.waitMs);
      timer.unref?.();
      const waiter = (total: { sum: number; count: number }) => {
        clearTimeout(timer);
        resolve({ sum: total.sum - own.sum, count: total.count - own.count });
      };
      group.waiters.add(waiter);
    });
    this.arrive(key, groupSize, scored, items);
    return done;
  }

  /** Groups not yet complete. */
  get size(): number {
    return this.groups.size;
  }

  private open(key: string): OpenGroup {
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { arrived: 0, sum: 0, count: 0, waiters: new Set() };
      this.groups.set(key, group);
      if (this.groups.size > this.capacity) {
        const [oldestKey, oldest] = this.groups.entries().next().value as [string, OpenGroup];
        this.close(oldestKey, oldest);
      }
    }
    return group;
  }

  private close(key: string, group: OpenGroup): void {
    if (this.groups.get(key) === group) this.groups.delete(key);
    for (const waiter of group.waiters) waiter({ sum: group.sum, count: group.count });
    group.waiters.clear();
  }
}

interface OpenGroup {
  arrived: number;
  sum: number;
  count: number;
  waiters: Set<(total: { sum: number; count: number }) => void>;
}

/**
 * Registers a `/get_reward` request with the OpenRLHF group gate: each group (the prompt) adds
 * its scored values; a request with a failed item waits for the rest of its group and gets the
 * siblings' scores to be neutral against.
 */
export async function openRlhfGroups(
  gate: GroupGate,
  groupSize: number,
  request: RewardRequest,
  response: RewardResponse,
): Promise<OutsideScores> {
  const byGroup = new Map<string, { scored: number[]; items: number; failed: boolean }>();
  request.items.forEach((item, index) => {
    const key = groupKey(item);
    if (key === undefined) return;
    const entry = byGroup.get(key) ?? { scored: [], items: 0, failed: false };
    const value = response.rewards[index];
    entry.items++;
    if (value === null || value === undefined) entry.failed = true;
    else entry.scored.push(value);
    byGroup.set(key, entry);
  });
  const outside = new Map<string, { sum: number; count: number }>();
  await Promise.all(
    [...byGroup].map(async ([key, entry]) => {
      if (!entry.failed) return gate.arrive(key, groupSize, entry.scored, entry.items);
      outside.set(key, await gate.wait(key, groupSize, entry.scored, entry.items));
    }),
  );
  return outside;
}
