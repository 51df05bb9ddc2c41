/**
 * A semaphore whose limit adapts like TCP congestion control: it halves when the server answers
 * 429, then recovers — one step per success back up to the highest limit it had (fast
 * recovery, so scattered 429s do not ratchet it down to `min`), and beyond that one step per
 * `limit` successes (additive increase) up to `max`. Shrinks only once per wave: 429s from
 * requests that were already in flight when it shrank do not shrink it again. A request waiting
 * out a Retry-After holds no slot (see `pause`/`resume`).
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
  /** A request gives its slot back while it waits (a Retry-After); `resume` takes one again. */
  pause(): void;
  resume(): Promise<void> | undefined;
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
  /** The highest limit reached: after a shrink, recovery is fast (one step per success) up to it. */
  let recoverTo = max;
  const queue: Array<() => void> = [];

  const drain = (): void => {
    while (inFlight < limit && queue.length > 0) {
      inFlight++;
      queue.shift()?.();
    }
  };

  const acquire = (): Promise<void> | undefined => {
    if (inFlight < limit && queue.length === 0) {
      inFlight++;
      return undefined;
    }
    return new Promise<void>((resolve) => queue.push(resolve));
  };
  const release = (): void => {
    inFlight--;
    if (ignoreThrottles > 0) ignoreThrottles--;
    drain();
  };
  return {
    acquire,
    release,
    pause: release,
    resume: acquire,
    onThrottled() {
      successes = 0;
      if (ignoreThrottles > 0 || limit <= min) return;
      // Fast recovery aims at the highest limit reached so far: scattered 429s (a gateway
      // throttling a share of requests) must not ratchet the limit down wave after wave.
      recoverTo = Math.max(recoverTo, limit);
      limit = Math.max(min, Math.floor(limit / 2));
      shrinks++;
      ignoreThrottles = inFlight;
    },
    onSuccess() {
      if (limit >= max) return;
      if (limit < recoverTo) {
        limit++;
        drain();
        return;
      }
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
