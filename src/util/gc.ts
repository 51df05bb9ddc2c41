import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** V8's full collection, made available once (null where the engine refuses). */
let fullCollection: (() => void) | null | undefined;

/**
 * Runs a full garbage collection of this thread's heap, so what a finished stage left behind
 * (its records, its pool's buffers) is freed and its pages given back before the next stage
 * starts, instead of whenever V8's heuristics next look: a stage that starts on the last one's
 * garbage peaks at the sum of both. Without `--expose-gc`, the flag is set at the first call and
 * the collector taken from a fresh context; where that fails, this does nothing.
 *
 * @example collectGarbage(); // between two stages
 */
export function collectGarbage(): void {
  if (fullCollection === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      const collector = runInNewContext('gc') as unknown;
      fullCollection = typeof collector === 'function' ? (collector as () => void) : null;
    } catch {
      fullCollection = null;
    }
  }
  fullCollection?.();
}
