import type { LlmClient } from '../llm/types.js';
import type { Judge } from './judge.js';

/** What `/health` reports about the judge. */
export interface JudgeHealth {
  model: string;
  offline: boolean;
  /** False when the judge endpoint did not answer the probe (or there is no endpoint). */
  available: boolean;
  /** Why it is unavailable. */
  error?: string;
  /** Milliseconds since the probe that gave this answer. */
  checked_ms_ago: number;
}

export interface JudgeHealthOptions {
  llm: LlmClient;
  judge: Judge;
  role: string;
  /** How long a probe's answer is reused. @default 5000 */
  ttlMs?: number;
  /** Longest wait for the probe. @default 10000 */
  timeoutMs?: number;
  /** Monotonic milliseconds. @default performance.now */
  now?: () => number;
}

/**
 * Probes the judge endpoint with one tiny chat request (`ping`, one token, never cached) and
 * reuses the answer for `ttlMs` (a judge that answered a scoring call within `ttlMs` counts as up
 * without a probe), so `/health` says `available: false` with the error when the
 * judge is down instead of trusting the configuration. Concurrent health checks share one probe.
 *
 * @example const health = createJudgeHealth({ llm, judge, role: 'judge' }); (await health()).available
 */
export function createJudgeHealth(options: JudgeHealthOptions): () => Promise<JudgeHealth> {
  const { llm, judge, role } = options;
  const ttlMs = options.ttlMs ?? 5000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const now = options.now ?? (() => performance.now());
  let last: { at: number; available: boolean; error?: string } | undefined;
  let probing: Promise<void> | undefined;

  const probe = async () => {
    try {
      await llm.chat(role, {
        messages: [{ role: 'user', content: 'ping' }],
        maxTokens: 1,
        temperature: 0,
        noCache: true,
        stage: 'reward-health',
        signal: AbortSignal.timeout(timeoutMs),
      });
      last = { at: now(), available: true };
    } catch (error) {
      last = { at: now(), available: false, error: `judge probe failed: ${(error as Error).message}` };
    }
  };

  return async () => {
    const base = { model: judge.model, offline: judge.offline };
    if (judge.offline) return { ...base, available: true, checked_ms_ago: 0 };
    if (judge.unavailable) {
      return {
        ...base,
        available: false,
        error: `no judge endpoint: llm role "${role}" has none (set llm.roles.${role}, or judge.allowOffline: true)`,
        checked_ms_ago: 0,
      };
    }
    // A judge that answered a scoring call within the TTL is up: a probe would only queue behind
    // the training's own judge calls (the llm layer's concurrency gate) and could time out.
    const answered = judge.stats().lastAnswerAt;
    if (answered !== null && performance.now() - answered <= ttlMs) {
      return { ...base, available: true, checked_ms_ago: Math.round(performance.now() - answered) };
    }
    if (last === undefined || now() - last.at > ttlMs) {
      probing ??= probe().finally(() => {
        probing = undefined;
      });
      await probing;
    }
    const answer = last as { at: number; available: boolean; error?: string };
    return {
      ...base,
      available: answer.available,
      ...(answer.error === undefined ? {} : { error: answer.error }),
      checked_ms_ago: Math.max(0, Math.round(now() - answer.at)),
    };
  };
}
