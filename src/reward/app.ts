import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { Hono } from 'hono';
import type { z } from 'zod';
import { isPersonaForgeError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import {
  MemoryRetrieveRequest,
  OpenRlhfRequest,
  RewardRequest,
  type RewardResponse,
  RewardServerConfig,
  type RewardServerConfigInput,
} from '../schemas/reward.js';
import { createConfiguredJudge } from './configured-judge.js';
import { type OutsideScores, trainerRewards } from './failure-policy.js';
import { GroupGate, openRlhfGroups } from './group-gate.js';
import type { Judge } from './judge.js';
import { createJudgeCache, type JudgeCache } from './judge-cache.js';
import { createJudgeHealth } from './judge-health.js';
import type { MemoryRetriever } from './memory-retrieve.js';
import { createRewardMetrics, type RewardMetrics } from './metrics.js';
import { missingLabelProblem, openRlhfItems, openRlhfResponse } from './openrlhf.js';
import { readBodyText } from './read-body.js';
import { describeRewardFunctions, REWARD_FUNCTIONS, rewardRange } from './registry.js';
import { scoreRewards } from './score-rewards.js';

export interface RewardAppOptions {
  /** The parsed `rewards.yaml` (or a partial object; defaults fill the rest). @default {} */
  config?: RewardServerConfigInput;
  /** The llm layer client whose `judge.role` serves the judge. */
  llm: LlmClient;
  /** Judge verdict cache; a memory cache of `cache.maxEntries` when omitted and enabled. */
  cache?: JudgeCache;
  /** Replaces the judge built from `llm` (tests, rescoring). */
  judge?: Judge;
  /**
   * Token required on every endpoint but `/health`; no auth when unset. Sent as
   * `Authorization: Bearer <token>`, or — for clients that send no headers (OpenRLHF) — in the
   * path (`/t/<token>/get_reward`) or the query (`?token=<token>`). Compared as a digest, never logged.
   */
  token?: string;
  /** Serves `/v1/memory/retrieve`; 503 when unset. */
  retriever?: MemoryRetriever;
  /** Monotonic milliseconds. @default performance.now */
  now?: () => number;
}

export type RewardApp = Hono & {
  readonly judge: Judge;
  readonly cache: JudgeCache | undefined;
  readonly metrics: RewardMetrics;
  readonly config: RewardServerConfig;
};

/** Error body: a code, a message naming the problem, and the zod issue paths for bad bodies. */
function fail(
  c: Context,
  status: 400 | 401 | 404 | 413 | 500 | 503,
  code: string,
  message: string,
  issues?: unknown,
) {
  return c.json({ error: issues === undefined ? { code, message } : { code, message, issues } }, status);
}

function issuesOf(error: z.ZodError) {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.') || '<root>',
    message: issue.message,
  }));
}

/**
 * The reward server as a value: Hono routes for `/v1/rewards`, `/get_reward` (OpenRLHF),
 * `/v1/rewards/functions`, `/v1/memory/retrieve`, `/health` and `/metrics`. Tests call it in
 * process with `app.request(...)`; `startRewardServer` binds it to a socket.
 *
 * @example
 * const app = createRewardApp({ llm, config: { judge: { allowOffline: true } } });
 * const response = await app.request('/v1/rewards', { method: 'POST', body: JSON.stringify({ reward: 'format', items: [{ completion: '…' }] }) });
 */
export function createRewardApp(options: RewardAppOptions): RewardApp {
  const config = RewardServerConfig.parse(options.config ?? {});
  const now = options.now ?? (() => performance.now());
  const cache =
    options.cache ??
    (config.cache.enabled ? createJudgeCache({ maxEntries: config.cache.maxEntries }) : undefined);
  const judge = options.judge ?? createConfiguredJudge(options.llm, config, cache);
  const metrics = createRewardMetrics();
  const gate = new GroupGate(config.openrlhf.groupWaitMs);
  const judgeHealth = createJudgeHealth({
    llm: options.llm,
    judge,
    role: config.judge.role,
    ttlMs: config.judge.healthTtlMs,
    now,
  });
  const app = new Hono();
  // Compared as sha256 digests: equal length always, so the comparison time says nothing about the token.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const token = options.token === undefined ? undefined : digest(options.token);

  app.use(async (c, next) => {
    const started = now();
    await next();
    metrics.observeRequest(
      c.req.routePath === '/*' ? 'other' : c.req.routePath,
      c.res.status,
      (now() - started) / 1000,
    );
  });
  app.use(async (c, next) => {
    if (token === undefined || c.req.path === '/health') return next();
    const sent =
      /^Bearer (.+)$/.exec(c.req.header('authorization') ?? '')?.[1] ??
      PATH_TOKEN.exec(c.req.path)?.[1] ??
      c.req.query('token') ??
      '';
    let decoded = sent;
    try {
      decoded = decodeURIComponent(sent);
    } catch {}
    if (!timingSafeEqual(digest(decoded), token)) {
      metrics.observeError('unauthorized');
      return fail(
        c,
        401,
        'unauthorized',
        'missing or wrong token (Authorization: Bearer <token>, or /t/<token>/… in the URL, or ?token=<token>)',
      );
    }
    return next();
  });

  /** Reads and validates a JSON body (size, then nesting depth, then the schema); 4xx with the reason. */
  const readBody = async <T>(
    c: Context,
    schema: z.ZodType<T>,
  ): Promise<{ ok: true; value: T } | { ok: false; response: Response }> => {
    const body = await readBodyText(c, config.limits.bodyLimitBytes);
    if (!body.ok) {
      metrics.observeError('body_too_large');
      return {
        ok: false,
        response: fail(
          c,
          413,
          'body_too_large',
          `request too large: ${body.size} bytes exceed limits.bodyLimitBytes=${config.limits.bodyLimitBytes}; send fewer items per request (or only the columns the reward reads: GET /v1/rewards/functions)`,
        ),
      };
    }
    const depth = jsonDepth(body.text);
    if (depth > MAX_JSON_DEPTH) {
      metrics.observeError('invalid_json');
      return {
        ok: false,
        response: fail(c, 400, 'invalid_json', `body nests deeper than ${MAX_JSON_DEPTH} levels (${depth})`),
      };
    }
    let json: unknown;
    try {
      json = JSON.parse(body.text);
    } catch (error) {
      metrics.observeError('invalid_json');
      return {
        ok: false,
        response: fail(c, 400, 'invalid_json', `body is not valid JSON: ${(error as Error).message}`),
      };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      metrics.observeError('invalid_request');
      const issues = issuesOf(parsed.error);
      const message = issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
      return { ok: false, response: fail(c, 400, 'invalid_request', message, issues) };
    }
    return { ok: true, value: parsed.data };
  };

  const timeoutFor = (requested: number | undefined) =>
    Math.min(requested ?? config.limits.requestTimeoutMs, config.limits.maxRequestTimeoutMs);

  const score = async (
    c: Context,
    request: RewardRequest,
    preset?: Array<{ problem?: string }>,
    outside?: (response: RewardResponse) => Promise<OutsideScores | undefined>,
  ) => {
    if (request.items.length > config.limits.maxItems) {
      metrics.observeError('too_many_items');
      return {
        error: fail(
          c,
          413,
          'too_many_items',
          `${request.items.length} items exceed limits.maxItems=${config.limits.maxItems}`,
        ),
      };
    }
    try {
      const response = await scoreRewards(request, {
        judge,
        functions: config.functions,
        timeoutMs: timeoutFor(request.timeout_ms),
        now,
        invalid: preset?.map((entry) => entry.problem),
      });
      metrics.observeResponse(response);
      const trainer = trainerRewards(
        response,
        request.items,
        request.reward,
        config.onFailure,
        await outside?.(response),
      );
      metrics.observeFallback(
        Array.isArray(request.reward) ? request.reward.join('+') : request.reward,
        trainer,
      );
      return { response: { ...response, trainer } };
    } catch (error) {
      if (isPersonaForgeError(error) && error.code === 'INPUT_INVALID') {
        metrics.observeError('invalid_request');
        return { error: fail(c, 400, 'invalid_request', error.message) };
      }
      throw error;
    }
  };

  const rewards = async (c: Context) => {
    const body = await readBody(c, RewardRequest);
    if (!body.ok) return body.response;
    const result = await score(c, body.value);
    return result.error ?? c.json(result.response);
  };
  app.post('/v1/rewards', rewards);
  app.post('/t/:token/v1/rewards', rewards);

  const getReward = async (c: Context) => {
    const body = await readBody(c, OpenRlhfRequest);
    if (!body.ok) return body.response;
    const rewardName = config.openrlhf.reward;
    const problem = missingLabelProblem(
      body.value,
      rewardName,
      REWARD_FUNCTIONS[rewardName]?.requiredColumns ?? [],
    );
    if (problem !== undefined) {
      metrics.observeError('invalid_request');
      reason(c, 'labels are empty: set --data.label_key solution');
      return fail(c, 400, 'missing_label', problem);
    }
    const parsed = openRlhfItems(body.value, config.openrlhf.stripTokens);
    const request: RewardRequest = { reward: rewardName, items: parsed.map((entry) => entry.item) };
    const sizeParam = Number(c.req.query('group_size') ?? Number.NaN);
    const groupSize = Number.isInteger(sizeParam) && sizeParam > 0 ? sizeParam : config.openrlhf.groupSize;
    const result = await score(c, request, parsed, (response) =>
      groupSize === undefined
        ? Promise.resolve(undefined)
        : openRlhfGroups(gate, groupSize, request, response),
    );
    if (result.error) return result.error;
    const { trainer } = result.response;
    if (trainer?.rewards == null) {
      const why = trainer?.reason ?? 'the batch could not be scored';
      reason(c, `reward failed: ${why}`);
      return fail(c, 503, 'reward_failed', why);
    }
    return c.json(
      openRlhfResponse(
        result.response,
        { ...trainer, rewards: trainer.rewards },
        rewardRange(rewardName, config.functions),
      ),
    );
  };
  app.post('/get_reward', getReward);
  app.post('/t/:token/get_reward', getReward);

  // 200 while the server runs; `judge.available` says whether judge-backed rewards can score.
  app.get('/health', async (c) => {
    const judgeStatus = await judgeHealth();
    return c.json({
      status: judgeStatus.available ? 'ok' : 'degraded',
      judge: judgeStatus,
      cache: { entries: cache?.size ?? 0 },
    });
  });
  const functions = (c: Context) => c.json(describeRewardFunctions(config.limits));
  app.get('/v1/rewards/functions', functions);
  app.get('/t/:token/v1/rewards/functions', functions);
  app.get('/t/:token/metrics', (c) =>
    c.body(metrics.render(judge.stats()), 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    }),
  );
  app.get('/metrics', (c) =>
    c.body(metrics.render(judge.stats()), 200, {
      'content-type': 'text/plain; version=0.0.4; charset=utf-8',
    }),
  );

  const retrieve = async (c: Context) => {
    const body = await readBody(c, MemoryRetrieveRequest);
    if (!body.ok) return body.response;
    if (options.retriever === undefined) {
      return fail(
        c,
        503,
        'memory_unavailable',
        'memory retrieval is not configured (set memory.runDir in rewards.yaml)',
      );
    }
    try {
      return c.json(await options.retriever(body.value));
    } catch (error) {
      if (isPersonaForgeError(error)) {
        const status = error.code === 'NOT_FOUND' ? 404 : 400;
        metrics.observeError('memory_request');
        return fail(c, status, error.code === 'NOT_FOUND' ? 'not_found' : 'invalid_request', error.message);
      }
      throw error;
    }
  };
  app.post('/v1/memory/retrieve', retrieve);
  app.post('/t/:token/v1/memory/retrieve', retrieve);

  // The path may carry a token (`/t/<token>/…`): it is never echoed.
  app.notFound((c) =>
    fail(c, 404, 'not_found', `no route ${c.req.method} ${c.req.path.replace(PATH_TOKEN, '/t/<token>$2')}`),
  );
  app.onError((error, c) => {
    metrics.observeError('internal');
    return fail(c, 500, 'internal', `reward server error: ${error.message}`);
  });

  return Object.assign(app, { judge, cache, metrics, config });
}

/** A token in the path: `/t/<token>/get_reward`. */
const PATH_TOKEN = /^\/t\/([^/]+)(\/.*)?$/;

/** Sets the HTTP reason phrase (what aiohttp, OpenRLHF's client, logs): printable ASCII only. */
function reason(c: Context, text: string): void {
  const outgoing = (c.env as { outgoing?: { statusMessage?: string } } | undefined)?.outgoing;
  if (outgoing !== undefined) outgoing.statusMessage = text.replace(/[^\x20-\x7e]/g, ' ').slice(0, 200);
}

/** Deepest JSON nesting a request may have: the real shapes need under 10. */
export const MAX_JSON_DEPTH = 64;

/**
 * The deepest nesting of brackets in a JSON text (outside strings), found in one pass without
 * parsing, so a hostile deeply nested body is refused before it costs anything.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 92)
        i++; // backslash: skip the escaped character
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 91 || code === 123) {
      depth++;
      if (depth > max) max = depth;
    } else if (code === 93 || code === 125) depth--;
  }
  return max;
}
