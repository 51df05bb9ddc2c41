import { hash } from 'node:crypto';
import { LlmSchemaError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import type { JudgeCache } from './judge-cache.js';
import { JUDGE_KINDS, JUDGE_PROMPT_VERSION, type JudgeKind, renderBatch } from './judge-kinds.js';

/**
 * The judge: packs items of one kind into batch calls on the llm layer's `judge` role (which owns
 * concurrency, RPM/TPM limits and retries), caches verdicts by content, and shares in-flight
 * calls for identical items. A failure is an outcome with a code, never a score.
 *
 * @example
 * const judge = createJudge({ llm, cache });
 * const outcome = await judge.evaluate('accuracy', { question: 'q', reference: 'Paris', answer: 'paris' });
 */
export type JudgeOutcome =
  | { ok: true; value: number; source: 'llm-judge' | 'offline-heuristic'; cached: boolean; batch: number }
  | { ok: false; code: 'judge_error' | 'parse_error'; message: string; batch: number };

export interface JudgeStats {
  calls: number;
  /** Calls handed to the llm layer and not yet answered (queued at its concurrency gate or in flight). */
  pendingCalls: number;
  failedCalls: number;
  items: number;
  cacheHits: number;
  cacheMisses: number;
  /** Items re-asked alone after their packed call failed. */
  singleRetries: number;
  /** `performance.now()` of the last call the judge answered, or null before any. */
  lastAnswerAt: number | null;
}

export interface Judge {
  /** True when verdicts come from the offline heuristics (no judge endpoint, offline allowed). */
  readonly offline: boolean;
  /** True when judge-backed rewards cannot run (no endpoint and offline not allowed). */
  readonly unavailable: boolean;
  readonly model: string;
  evaluate(kind: JudgeKind, input: Record<string, string>): Promise<JudgeOutcome>;
  stats(): JudgeStats;
}

export interface JudgeOptions {
  llm: LlmClient;
  cache?: JudgeCache | undefined;
  /** @default 'judge' */
  role?: string;
  /** Items per judge call. @default 8 */
  batchSize?: number;
  /** @default 0 */
  temperature?: number;
  /** @default 1024 */
  maxTokens?: number;
  /** Serve the offline heuristics when the role has no endpoint. @default false */
  allowOffline?: boolean;
  /** Offline open-ended accuracy threshold on token F1. @default 0.5 */
  offlineF1Threshold?: number;
}

interface Pending {
  key: string;
  input: Record<string, string>;
  resolve(outcome: JudgeOutcome): void;
}

export function createJudge(options: JudgeOptions): Judge {
  const { llm, cache } = options;
  const role = options.role ?? 'judge';
  const batchSize = options.batchSize ?? 8;
  const roleOffline = llm.isOffline(role);
  const allowOffline = options.allowOffline ?? false;
  const model = roleOffline ? 'offline' : llm.modelFor(role);
  const f1Threshold = options.offlineF1Threshold ?? 0.5;
  const stats: JudgeStats = {
    calls: 0,
    pendingCalls: 0,
    failedCalls: 0,
    items: 0,
    cacheHits: 0,
    cacheMisses: 0,
    singleRetries: 0,
    lastAnswerAt: null,
  };
  const queues = new Map<JudgeKind, Pending[]>();
  const inFlight = new Map<string, Promise<JudgeOutcome>>();
  let scheduled = false;
  let nextBatch = 0;

  // A failed call of several items is retried item by item before any of them fails: one bad item
  // (or one unlucky call) must not fail the seven packed with it.
  const runBatch = async (kind: JudgeKind, batch: Pending[]) => {
    const batchId = ++nextBatch;
    const spec = JUDGE_KINDS[kind];
    stats.calls++;
    stats.items += batch.length;
    const inputs = batch.map((entry) => entry.input);
    const retrySingly = (entries: Pending[]) => {
      stats.singleRetries += entries.length;
      for (const entry of entries) void runBatch(kind, [entry]);
    };
    const fail = (code: 'judge_error' | 'parse_error', message: string) => {
      if (batch.length > 1) return retrySingly(batch);
      for (const entry of batch) entry.resolve({ ok: false, code, message, batch: batchId });
    };
    let answer: { results: Array<{ id: number } & Record<string, unknown>> };
    stats.pendingCalls++;
    try {
      answer = await llm.structured(role, {
        messages: [
          { role: 'system', content: spec.system },
          { role: 'user', content: renderBatch(kind, inputs) },
        ],
        schema: spec.answer,
        schemaName: `judge_${kind}`,
        temperature: options.temperature ?? 0,
        maxTokens: options.maxTokens ?? 1024,
        stage: 'reward',
      });
    } catch (error) {
      stats.pendingCalls--;
      stats.failedCalls++;
      if (error instanceof LlmSchemaError) return fail('parse_error', error.message);
      return fail('judge_error', `judge call failed: ${(error as Error).message}`);
    }
    stats.pendingCalls--;
    stats.lastAnswerAt = performance.now();
    const byId = new Map(answer.results.map((result) => [result.id, result]));
    const missing: Pending[] = [];
    batch.forEach((entry, id) => {
      const raw = byId.get(id);
      const judged = raw === undefined ? null : spec.value(raw);
      if (judged === null) {
        if (batch.length > 1) {
          missing.push(entry);
          return;
        }
        entry.resolve({
          ok: false,
          code: 'parse_error',
          message: `judge answer has no valid result for item ${id}: ${JSON.stringify(raw ?? null)}`,
          batch: batchId,
        });
        return;
      }
      const value = Math.max(spec.range[0], Math.min(spec.range[1], judged));
      cache?.set(entry.key, value);
      entry.resolve({ ok: true, value, source: 'llm-judge', cached: false, batch: batchId });
    });
    if (missing.length > 0) retrySingly(missing);
  };

  const flush = () => {
    scheduled = false;
    for (const [kind, queue] of queues) {
      queues.delete(kind);
      for (let start = 0; start < queue.length; start += batchSize) {
        void runBatch(kind, queue.slice(start, start + batchSize));
      }
    }
  };

  return {
    offline: roleOffline && allowOffline,
    unavailable: roleOffline && !allowOffline,
    model,
    stats: () => ({ ...stats }),
    evaluate(kind, input) {
      if (roleOffline) {
        if (!allowOffline) {
          return Promise.resolve({
            ok: false,
            code: 'judge_error',
            message: `no judge endpoint: llm role "${role}" has none (set llm.roles.${role}, or judge.allowOffline: true for the offline heuristic judges)`,
            batch: 0,
          });
        }
        const value = JUDGE_KINDS[kind].offline(input, { f1Threshold });
        return Promise.resolve({ ok: true, value, source: 'offline-heuristic', cached: false, batch: 0 });
      }
      // Inputs are built with a fixed key order by each reward, so plain JSON is a stable content key.
      const key = hash(
        'sha256',
        `${kind}\u0000${JUDGE_PROMPT_VERSION}\u0000${model}\u0000${JSON.stringify(input)}`,
      );
      const hit = cache?.get(key);
      if (hit !== undefined) {
        stats.cacheHits++;
        return Promise.resolve({ ok: true, value: hit, source: 'llm-judge', cached: true, batch: 0 });
      }
      const shared = inFlight.get(key);
      if (shared !== undefined) return shared;
      stats.cacheMisses++;
      const promise = new Promise<JudgeOutcome>((resolve) => {
        const queue = queues.get(kind) ?? [];
        queues.set(kind, queue);
        queue.push({ key, input, resolve });
        // Collect the items of this tick (one request's batch) before cutting calls.
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      }).finally(() => inFlight.delete(key));
      inFlight.set(key, promise);
      return promise;
    },
  };
}
