import type { Clock } from './clock.js';

/**
 * A token bucket refilled continuously at `perMinute` units per minute, holding at most one
 * minute's worth. Waiters are served in arrival order. A request larger than the bucket waits
 * for a full bucket and then drains it, so huge prompts still pass, just slowly.
 *
 * @example
 * const rpm = createRateLimiter(600, systemClock);
 * await rpm.take(1);
 */
export interface RateLimiter {
  /** Resolves when `amount` units were taken. */
  take(amount: number): Promise<void>;
}

export function createRateLimiter(perMinute: number, clock: Clock): RateLimiter {
  const perMs = perMinute / 60_000;
  let available = perMinute;
  let last = clock.now();
  let tail: Promise<void> = Promise.resolve();
  let waiting = 0;

  const refill = (): void => {
    const now = clock.now();
    available = Math.min(perMinute, available + (now - last) * perMs);
    last = now;
  };

  const takeInOrder = async (amount: number): Promise<void> => {
    const need = Math.min(amount, perMinute);
    for (;;) {
      refill();
      if (available >= need) {
        available -= amount;
        return;
      }
      await clock.sleep(Math.max(1, Math.ceil((need - available) / perMs)));
    }
  };

  return {
    take(amount) {
      if (waiting === 0) {
        refill();
        if (available >= Math.min(amount, perMinute)) {
          available -= amount;
          return Promise.resolve();
        }
      }
      waiting++;
      const turn = tail.then(() => takeInOrder(amount));
      tail = turn.finally(() => {
        waiting--;
      });
      return turn;
    },
  };
}
