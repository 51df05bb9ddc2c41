/**
 * Progress events the runner emits. Reporters (TTY bars, plain lines, JSON events, quiet) turn
 * them into output; the runner itself never prints.
 */
export type RunEvent =
  | { type: 'run-start'; runDir: string; stages: string[]; seed: number; shard: string | null }
  | { type: 'stage-start'; stage: string; total: number; resumed: number; unit: string }
  | {
      type: 'stage-progress';
      stage: string;
      /** What `done` and `total` count (`users`). */
      unit: string;
      done: number;
      total: number;
      failures: number;
      ratePerSec: number;
      etaSec: number | null;
      tokens: number;
      costUsd: number;
      cacheHits: number;
    }
  | { type: 'stage-skip'; stage: string; reason: string }
  | {
      type: 'stage-end';
      stage: string;
      in: number;
      out: number;
      /** What `in` and `out` count (`users` in; `users` or `samples` out). */
      units: { in: string; out: string };
      quarantined: number;
      seconds: number;
      offline: boolean;
    }
  | {
      type: 'run-end';
      ok: boolean;
      runDir: string;
      seconds: number;
      /** `complete`, `empty` (a stage left no records), `stopped` or `failed`. */
      status: string;
      message?: string;
    };

export type RunReporter = (event: RunEvent) => void;

/** Tracks done/total for one stage and derives rate and ETA (from an injected clock). */
export class StageMeter {
  private readonly startedAt: number;
  done = 0;
  failures = 0;

  constructor(
    readonly total: number,
    readonly resumed: number,
    private readonly now: () => number,
  ) {
    this.startedAt = now();
    this.done = resumed;
  }

  /** Items per second over this process's lifetime (resumed items excluded). */
  rate(): number {
    const seconds = (this.now() - this.startedAt) / 1000;
    return seconds <= 0 ? 0 : (this.done - this.resumed) / seconds;
  }

  eta(): number | null {
    const rate = this.rate();
    return rate <= 0 ? null : (this.total - this.done) / rate;
  }
}
