import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadPipeline } from '../config/index.js';
import { answerForSchema } from '../dev/fake-llm/schema-answer.js';
import {
  applyLlmOverride,
  createLlmClient,
  estimateCost,
  estimateMessagesTokens,
  estimateTokens,
} from '../llm/index.js';
import { withPrices } from '../llm/known-prices.js';
import { schemaInfo } from '../llm/structured-output.js';
import type { ChatRequest, LlmClient, StructuredRequest, Usage } from '../llm/types.js';
import type { LlmConfig } from '../schemas/llm-config.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { sizeReply } from './estimate-reply.js';
import { defaultStages } from './registry.js';
import { runPipeline } from './runner.js';

export interface EstimateOptions {
  /** Users actually planned and walked through the model-using stages (scaled up after). @default 6 */
  sampleUsers?: number;
  llm?: { baseUrl: string; model: string; apiKeyEnv?: string };
  env?: Record<string, string | undefined>;
}

export interface EstimateRow {
  stage: string;
  role: string;
  endpoint: string;
  calls: number;
  promptTokens: number;
  /**
   * Prompt tokens a server with prefix caching (vLLM, SGLang, OpenAI) can serve from cache: the
   * leading messages identical to an earlier call's (a floor — servers also reuse part of a message).
   */
  cachedPromptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export interface EstimateReport {
  users: number;
  sampledUsers: number;
  /** User turns of the corpus (scaled from the sample's dialogues); per-turn figures divide by it. */
  userTurns: number;
  rows: EstimateRow[];
  total: {
    calls: number;
    promptTokens: number;
    cachedPromptTokens: number;
    completionTokens: number;
    costUsd: number;
  };
  /** Roles with no endpoint: they run offline and cost nothing. */
  offlineRoles: string[];
}

/**
 * Predicts model calls, tokens and cost of a pipeline before running it. It plans a small
 * sample of users and walks them through the model-using stages with the real prompts, but
 * answers every call with the offline producer instead of sending it; the counts are then
 * scaled to the configured number of users. Regenerations and judge escalations that only a
 * real model would trigger are not predicted, so treat the figure as a floor plus the retries
 * you expect.
 *
 * @example const report = await estimatePipeline('pipelines/personavlm.yaml');
 */
export async function estimatePipeline(file: string, options: EstimateOptions = {}): Promise<EstimateReport> {
  const loaded = await loadPipeline(file, options.env === undefined ? {} : { env: options.env });
  let config: PipelineConfig = loaded.config;
  if (options.llm !== undefined) config = { ...config, llm: applyLlmOverride(config.llm, options.llm) };
  // Costed as `run` bills: an endpoint with no price of its own gets its model's list price.
  config = { ...config, llm: withPrices(config.llm) };
  const personas = config.personas as { train?: number; test?: number };
  const train = personas.train ?? 0;
  const test = personas.test ?? 0;
  const users = train + test;
  const sample = Math.max(1, Math.min(users, options.sampleUsers ?? 6));
  const sampleTrain =
    users === 0 ? 0 : Math.min(train, Math.max(train > 0 ? 1 : 0, Math.round((sample * train) / users)));
  const sampleTest = Math.min(test, Math.max(0, sample - sampleTrain));
  const sampled = sampleTrain + sampleTest;
  const stages = config.stages.filter((name) => name !== 'export' && name !== 'report');
  const sampleConfig = {
    ...config,
    stages,
    personas: { ...config.personas, train: sampleTrain, test: sampleTest },
    llm: { ...config.llm, cache: { ...config.llm.cache, enabled: false } },
  } as PipelineConfig;

  const recorder = createEstimatingClient(
    config.llm,
    config.synth.replyWords,
    createLlmClient({ ...config.llm, endpoints: {}, roles: {} }, {}),
  );
  const dir = await mkdtemp(join(tmpdir(), 'pf-estimate-'));
  let sampleUserTurns = 0;
  try {
    await runPipeline({
      config: sampleConfig,
      configFile: file,
      outDir: dir,
      llm: recorder.client,
      stages: defaultStages,
      reporter: (event) => {
        if (event.type === 'stage-start') recorder.setStage(event.stage);
      },
    });
    sampleUserTurns = await countUserTurns(join(dir, 'dialogues/dialogues.jsonl'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const scale = sampled === 0 ? 0 : users / sampled;
  const rows = recorder.rows().map((row) => {
    const endpoint = config.llm.endpoints[row.endpoint];
    const promptTokens = Math.round(row.promptTokens * scale);
    const cachedPromptTokens = Math.round(row.cachedPromptTokens * scale);
    const completionTokens = Math.round(row.completionTokens * scale);
    return {
      ...row,
      calls: Math.round(row.calls * scale),
      promptTokens,
      cachedPromptTokens,
      completionTokens,
      // Cached prompt tokens at the endpoint's cached price where it has one.
      costUsd:
        endpoint === undefined
          ? 0
          : estimateCost({ promptTokens, cachedPromptTokens, completionTokens }, endpoint),
    };
  });
  const total = rows.reduce(
    (sum, row) => ({
      calls: sum.calls + row.calls,
      promptTokens: sum.promptTokens + row.promptTokens,
      cachedPromptTokens: sum.cachedPromptTokens + row.cachedPromptTokens,
      completionTokens: sum.completionTokens + row.completionTokens,
      costUsd: sum.costUsd + row.costUsd,
    }),
    { calls: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, costUsd: 0 },
  );
  const offlineRoles = ['realizer', 'judge', 'embedder'].filter(
    (role) => config.llm.roles[role] === undefined,
  );
  const userTurns = Math.round(sampleUserTurns * scale);
  return { users, sampledUsers: sampled, userTurns, rows, total, offlineRoles };
}

/** User turns in a dialogues file (0 when the pipeline has no synth stage). */
async function countUserTurns(file: string): Promise<number> {
  const text = await readFile(file, 'utf8').catch(() => '');
  let turns = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const record = JSON.parse(line) as { sessions?: Array<{ turns?: Array<{ speaker?: string }> }> };
    for (const session of record.sessions ?? [])
      for (const turn of session.turns ?? []) if (turn.speaker === 'user') turns++;
  }
  return turns;
}

/**
 * Tokens of the longest run of leading lines identical to an earlier call's (whole messages, then
 * the lines of the next one): about what a prefix cache serves — servers cache token blocks, not
 * lines, so the figure is a floor. Remembers every leading run it has seen.
 */
function createPrefixCache(): (messages: ChatRequest['messages']) => number {
  const seen = new Set<string>();
  return (messages) => {
    let cached = 0;
    let before = 0;
    let key = createHash('sha1');
    let stop = false;
    for (const message of messages) {
      const lines = message.content.split('\n');
      key.update(`\u0000${message.role}`);
      for (let index = 0; index < lines.length; index++) {
        key.update(`\u0001${lines[index]}`);
        const digest = key.copy().digest('base64');
        if (!stop && seen.has(digest)) {
          cached = before + estimateTokens(lines.slice(0, index + 1).join('\n')) + 4;
        } else stop = true;
        seen.add(digest);
      }
      before += estimateTokens(message.content) + 4;
      key = createHash('sha1').update(key.copy().digest('base64'));
    }
    return cached;
  };
}

/**
 * A client that reports roles with an endpoint as online (so stages take their model path)
 * but answers from the offline backend and records what each call would have cost.
 */
function createEstimatingClient(
  config: LlmConfig,
  replyWords: number,
  offline: LlmClient,
): { client: LlmClient; rows: () => EstimateRow[]; setStage: (stage: string) => void } {
  const rows = new Map<string, EstimateRow>();
  let currentStage = '?';
  const prefixCache = createPrefixCache();
  const record = (
    role: string,
    requestStage: string | undefined,
    prompt: number,
    completion: number,
    calls = 1,
    cached = 0,
  ) => {
    const stage = requestStage ?? currentStage;
    const endpoint = config.roles[role] ?? 'offline';
    const key = `${stage}\u0000${role}`;
    const row = rows.get(key) ?? {
      stage,
      role,
      endpoint,
      calls: 0,
      promptTokens: 0,
      cachedPromptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
    };
    row.calls += calls;
    row.promptTokens += prompt;
    row.cachedPromptTokens += cached;
    row.completionTokens += completion;
    rows.set(key, row);
  };
  const online = (role: string) => config.roles[role] !== undefined;
  const zero: Usage = {
    calls: 0,
    cacheHits: 0,
    promptTokens: 0,
    cachedPromptTokens: 0,
    completionTokens: 0,
    costUsd: 0,
    failures: 0,
  };
  const client: LlmClient = {
    async chat(role: string, request: ChatRequest) {
      const result = await offline.chat(role, request);
      if (online(role))
        record(
          role,
          request.stage,
          estimateMessagesTokens(request.messages),
          estimateTokens(result.text),
          1,
          prefixCache(request.messages),
        );
      return result;
    },
    async structured<T>(role: string, request: StructuredRequest<T>): Promise<T> {
      let value: T;
      try {
        value = await offline.structured(role, request);
      } catch (error) {
        // A caller with no offline path (the memory teacher) still costs a call: answer with a
        // schema-shaped value, as a model would, and count it.
        if (!online(role)) throw error;
        value = request.schema.parse(answerForSchema(schemaInfo(request.schema).jsonSchema));
      }
      if (online(role) && request.schemaName === 'dialogue_chunk')
        value = withModelReplies(value, replyWords);
      if (online(role))
        record(
          role,
          request.stage,
          estimateMessagesTokens(request.messages),
          estimateTokens(JSON.stringify(value)),
          1,
          prefixCache(request.messages),
        );
      return value;
    },
    async safeStructured<T>(role: string, request: StructuredRequest<T>) {
      try {
        return { ok: true as const, value: await client.structured(role, request), offline: false };
      } catch (error) {
        return { ok: false as const, error: error as Error };
      }
    },
    async embed(role: string, texts: string[], embedOptions?: { stage?: string }) {
      // The client sends one request per `embeddingBatchSize` texts.
      const batch = config.endpoints[config.roles[role] ?? '']?.embeddingBatchSize ?? 256;
      if (online(role))
        record(
          role,
          embedOptions?.stage,
          texts.reduce((sum, text) => sum + estimateTokens(text), 0),
          0,
          Math.ceil(texts.length / batch),
        );
      return offline.embed(role, texts, embedOptions);
    },
    isOffline: (role) => !online(role),
    modelFor: (role) => config.endpoints[config.roles[role] ?? '']?.model ?? 'offline',
    usage: () => ({ byStage: {}, byEndpoint: {}, total: { ...zero } }),
  };
  return {
    client,
    rows: () => [...rows.values()],
    setStage: (stage) => {
      currentStage = stage;
    },
  };
}

/** A realizer answer with each assistant reply sized as a model writes it (estimate-reply.ts). */
function withModelReplies<T>(value: T, replyWords: number): T {
  const chunk = value as { turns?: Array<{ assistant?: unknown }> };
  if (!Array.isArray(chunk.turns)) return value;
  return {
    ...chunk,
    turns: chunk.turns.map((turn) =>
      typeof turn.assistant === 'string'
        ? { ...turn, assistant: sizeReply(turn.assistant, replyWords) }
        : turn,
    ),
  } as T;
}
