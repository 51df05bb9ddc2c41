/**
 * A semaphore whose limit adapts like TCP congestion control (AIMD): it halves when the server
 * answers 429 and grows by one after `limit` successes in a row, between `min` and `max`.
 * Shrinks only once per wave: 429s from requests that were already in flight when it shrank do
 * not shrink it again.
 *
 * @example
 * const gate = createAdaptiveConcurrency({ min: 1, max: 16 });
 * await gate.acquire(); try { … gate.onSuccess(); } finally { gate.release(); }
 */
export interface AdaptiveConcurrency {
  acquire(): Promise<void> | undefined;
  release(): void;
  /** The server said 429 (seen by the fetch wrapper, also for attempts the SDK then retries). */
  onThrottled(): void;
  onSuccess(): void;
  readonly limit: number;
  readonly inFlight: number;
  /** How many times the limit shrank. */
  readonly shrinks: number;
}

export function createAdaptiveConcurrency(options: { min: number; max: number }): AdaptiveConcurrency {
  const { min, max } = options;
  let limit = max;
  let inFlight = 0;
  let successes = 0;
  let shrinks = 0;
  let ignoreThrottles = 0;
  const queue: Array<() => void> = [];

  const drain = (): void => {
    while (inFlight < limit && queue.length > 0) {
      inFlight++;
      queue.shift()?.();
    }
  };

  return {
    acquire() {
      if (inFlight < limit && queue.length === 0) {
        inFlight++;
        return undefined;
      }
      return new Promise<void>((resolve) => queue.push(resolve));
    },
    release() {
      inFlight--;
      if (ignoreThrottles > 0) ignoreThrottles--;
      drain();
    },
    onThrottled() {
      successes = 0;
      if (ignoreThrottles > 0 || limit <= min) return;
      limit = Math.max(min, Math.floor(limit / 2));
      shrinks++;
      ignoreThrottles = inFlight;
    },
    onSuccess() {
      if (limit >= max) return;
      successes++;
      if (successes >= limit) {
        limit++;
        successes = 0;
        drain();
      }
    },
    get limit() {
      return limit;
    },
    get inFlight() {
      return inFlight;
    },
    get shrinks() {
      return shrinks;
    },
  };
}
