import { z } from 'zod';

/** One parsed `logging.jsonl` line (ms-swift `swift/trainers/patcher.py` callbacks, rank 0). */
export interface ProgressEvent {
  step: number;
  maxSteps: number;
  loss?: number;
  reward?: number;
  learningRate?: number;
  epoch?: number;
  elapsed?: string;
  remaining?: string;
  /** True for evaluation lines (keys prefixed `eval_`). */
  isEval: boolean;
}

/** The final line ms-swift appends when training ends (`sft.py:_save_trainer_state`). */
export interface FinalEvent {
  lastModelCheckpoint: string | null;
  bestModelCheckpoint: string | null;
  globalStep?: number;
}

const Line = z.record(z.string(), z.unknown());

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * Parses one `logging.jsonl` line into a progress or final event (undefined for anything else).
 *
 * @example
 * parseLogLine('{"loss": 1.2, "global_step/max_steps": "12/300", "learning_rate": 2e-5}');
 * // { kind: 'progress', event: { step: 12, maxSteps: 300, loss: 1.2, … } }
 */
export function parseLogLine(
  line: string,
): { kind: 'progress'; event: ProgressEvent } | { kind: 'final'; event: FinalEvent } | undefined {
  const text = line.trim();
  if (text === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const result = Line.safeParse(parsed);
  if (!result.success) return undefined;
  const o = result.data;
  if ('last_model_checkpoint' in o) {
    const gs = num(o.global_step);
    return {
      kind: 'final',
      event: {
        lastModelCheckpoint: typeof o.last_model_checkpoint === 'string' ? o.last_model_checkpoint : null,
        bestModelCheckpoint: typeof o.best_model_checkpoint === 'string' ? o.best_model_checkpoint : null,
        ...(gs === undefined ? {} : { globalStep: gs }),
      },
    };
  }
  const steps = o['global_step/max_steps'];
  const m = typeof steps === 'string' ? /^(\d+)\/(\d+)$/.exec(steps) : null;
  if (m?.[1] === undefined || m[2] === undefined) return undefined;
  const isEval = Object.keys(o).some((k) => k.startsWith('eval_'));
  const event: ProgressEvent = { step: Number(m[1]), maxSteps: Number(m[2]), isEval };
  const loss = num(isEval ? o.eval_loss : o.loss);
  const reward = num(isEval ? o.eval_reward : o.reward);
  const lr = num(o.learning_rate);
  const epoch = num(o.epoch);
  if (loss !== undefined) event.loss = loss;
  if (reward !== undefined) event.reward = reward;
  if (lr !== undefined) event.learningRate = lr;
  if (epoch !== undefined) event.epoch = epoch;
  if (typeof o.elapsed_time === 'string') event.elapsed = o.elapsed_time;
  if (typeof o.remaining_time === 'string') event.remaining = o.remaining_time;
  return { kind: 'progress', event };
}

/**
 * One plain progress line for non-TTY output.
 *
 * @example
 * formatProgress({ step: 12, maxSteps: 300, loss: 1.2, isEval: false }); // 'step 12/300 (4.0%) loss 1.2000'
 */
export function formatProgress(e: ProgressEvent): string {
  const parts = [`step ${e.step}/${e.maxSteps} (${((100 * e.step) / Math.max(1, e.maxSteps)).toFixed(1)}%)`];
  if (e.isEval) parts.unshift('eval');
  if (e.loss !== undefined) parts.push(`loss ${e.loss.toFixed(4)}`);
  if (e.reward !== undefined) parts.push(`reward ${e.reward.toFixed(4)}`);
  if (e.learningRate !== undefined) parts.push(`lr ${e.learningRate.toExponential(2)}`);
  if (e.elapsed !== undefined) parts.push(`elapsed ${e.elapsed}`);
  if (e.remaining !== undefined) parts.push(`eta ${e.remaining}`);
  return parts.join(' ');
}
