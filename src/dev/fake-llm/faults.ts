import { createRng } from '../../util/rng.js';

/** Ways the fake server misbehaves on purpose. */
export const FAULT_KINDS = ['429', '500', 'hang', 'truncated', 'non-json', 'schema-invalid'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface FaultOptions {
  /** Share of chat/embedding requests that get a fault, 0..1. @default 0 */
  rate: number;
  /** Which faults to draw from, uniformly. @default all of FAULT_KINDS */
  kinds?: readonly FaultKind[];
  /** Seed of the fault sequence: request n gets the same decision on every run. @default 0 */
  seed?: number;
  /** `Retry-After` (seconds) sent with 429s. @default 1 */
  retryAfterSeconds?: number;
  /** Also send `retry-after-ms` with 429 and 500 (the SDK prefers it): keeps tests fast. @default not sent */
  retryAfterMs?: number;
  /** Scripted faults for the first requests, by arrival: `['429', null, '500']`; rate applies after. @default [] */
  script?: ReadonlyArray<FaultKind | null>;
  /** How long a hung request waits before answering (clients should time out first). @default 30000 */
  hangMs?: number;
}

/**
 * The fault (if any) for the n-th request: a pure function of (seed, n), so a run's fault
 * sequence is reproducible; which concurrent request gets number n depends on arrival order.
 *
 * @example faultFor({ rate: 0.2, seed: 7 }, 12) // '429' or undefined, the same on every run
 */
export function faultFor(options: FaultOptions | undefined, index: number): FaultKind | undefined {
  if (options === undefined) return undefined;
  const scripted = options.script?.[index];
  if (options.script !== undefined && index < options.script.length) return scripted ?? undefined;
  if (options.rate <= 0) return undefined;
  const rng = createRng(options.seed ?? 0, 'fake-llm-fault', index);
  if (!rng.chance(options.rate)) return undefined;
  return rng.pick(options.kinds ?? FAULT_KINDS);
}
