/** Time source for rate limiters; injected so tests need no fake timers. */
export interface Clock {
  /** Milliseconds, monotonic enough for rate limiting. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

/**
 * The real clock (`Date.now`, `setTimeout`). Only used for pacing, never written into data.
 *
 * @example await systemClock.sleep(10);
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};
