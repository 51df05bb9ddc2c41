import { join } from 'node:path';
import { z } from 'zod';
import { BudgetExceededError } from '../../src/errors/index.js';
import type { LlmClient, Usage } from '../../src/llm/types.js';
import type { MapStage, ReduceStage, StageEntry } from '../../src/pipeline/types.js';
import type { PipelineConfig } from '../../src/schemas/pipeline.js';
import { readJsonlAll, writeJson } from '../../src/util/fs.js';

/**
 * Small stages for runner tests: `plan` lists users and draws a seeded value per user, `synth`
 * transforms it (failing on purpose for some users), `validate` sums the corpus.
 */
export interface TestStageOptions {
  users: number;
  /** Milliseconds each per-user call waits (to make a kill land mid-stage). */
  delayMs?: number;
  /** Users whose synth step throws (quarantined). */
  failUsers?: string[];
  /** LLM calls each synth step makes (for budget tests). */
  llmCalls?: number;
}

const Numbered = z.object({ userId: z.string(), value: z.number(), history: z.array(z.number()) }).strict();
type Numbered = z.infer<typeof Numbered>;

export function createTestStages(options: TestStageOptions): Record<string, StageEntry> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const plan: MapStage<Numbered> = {
    kind: 'map',
    name: 'plan',
    inputs: [],
    output: 'plan/plan.jsonl',
    schema: Numbered,
    source: async () =>
      Array.from({ length: options.users }, (_, i) => ({
        userId: `user-${String(i).padStart(4, '0')}`,
      })).reverse(),
    process: async (inputs, ctx) => {
      const { userId } = inputs.source as { userId: string };
      // Finish out of order so the runner's re-ordering is exercised.
      await sleep((options.delayMs ?? 0) * (1 + (userId.charCodeAt(userId.length - 1) % 3)));
      const rng = ctx.rng(userId);
      return { userId, value: rng.int(0, 1000), history: [rng.int(0, 9), rng.int(0, 9)] };
    },
  };
  const synth: MapStage<Numbered> = {
    kind: 'map',
    name: 'synth',
    inputs: ['plan'],
    output: 'dialogues/dialogues.jsonl',
    schema: Numbered,
    process: async (inputs, ctx) => {
      const record = inputs.plan as Numbered;
      if (options.failUsers?.includes(record.userId))
        throw new Error(`cannot realize ${record.userId} on purpose`);
      for (let i = 0; i < (options.llmCalls ?? 0); i++)
        await ctx.llm.chat('realizer', {
          messages: [{ role: 'user', content: record.userId }],
          stage: 'synth',
        });
      await sleep(options.delayMs ?? 0);
      return { ...record, value: record.value * 2, history: [...record.history, record.value] };
    },
  };
  const validate: ReduceStage = {
    kind: 'reduce',
    name: 'validate',
    inputs: ['synth'],
    outputs: ['validation.json'],
    run: async (ctx) => {
      const records = (await readJsonlAll(join(ctx.runDir, 'dialogues/dialogues.jsonl'))) as Numbered[];
      const odd = records.filter((r) => r.value % 4 === 2);
      for (const r of odd) ctx.quarantine({ inputId: r.userId, reason: 'value is 2 mod 4', check: 'parity' });
      await writeJson(join(ctx.runDir, 'validation.json'), {
        total: records.reduce((s, r) => s + r.value, 0),
        odd: odd.length,
      });
      return { in: records.length, out: records.length - odd.length, quarantined: odd.length };
    },
  };
  return {
    plan: { stage: plan as MapStage, roles: ['realizer'] },
    synth: { stage: synth as MapStage, roles: ['realizer'] },
    validate: { stage: validate, roles: [] },
  };
}

export function testConfig(overrides: Partial<PipelineConfig> = {}): PipelineConfig {
  return {
    name: 'runner-test',
    seed: 7,
    concurrency: 4,
    stages: ['plan', 'synth', 'validate'],
    llm: { endpoints: {}, roles: {}, cache: { enabled: false, dir: '.pf-cache/llm' } },
    personas: {},
    plan: {},
    synth: {},
    memory: {},
    validate: {},
    export: {},
    report: {},
    ...overrides,
  } as PipelineConfig;
}

const zeroUsage = (): Usage => ({
  calls: 0,
  cacheHits: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
  failures: 0,
});

/** An offline stand-in LLM that bills $0.01 per call and stops at `budgetUsd`. */
export function createCountingLlm(budgetUsd = Number.POSITIVE_INFINITY): LlmClient & { calls: number } {
  const total = zeroUsage();
  const client = {
    calls: 0,
    async chat() {
      if (total.costUsd + 0.01 > budgetUsd + 1e-12) throw new BudgetExceededError(budgetUsd, total.costUsd);
      client.calls++;
      total.calls++;
      total.costUsd += 0.01;
      return {
        text: 'ok',
        usage: { promptTokens: 1, completionTokens: 1 },
        cached: false,
        offline: true,
        model: 'offline',
      };
    },
    async structured<T>(): Promise<T> {
      throw new Error('not used');
    },
    async safeStructured() {
      return { ok: false as const, error: new Error('not used') };
    },
    async embed(_role: string, texts: string[]) {
      return texts.map(() => [1]);
    },
    isOffline: () => true,
    modelFor: () => 'offline',
    usage: () => ({ byStage: {}, byEndpoint: {}, total: { ...total } }),
  };
  return client;
}
