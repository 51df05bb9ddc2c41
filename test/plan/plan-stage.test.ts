import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PersonaForgeError } from '../../src/errors/index.js';
import type { LlmClient } from '../../src/llm/types.js';
import type { StageContext } from '../../src/pipeline/types.js';
import { findUserPlan } from '../../src/plan/find-user-plan.js';
import { formatPlanTimeline } from '../../src/plan/format-timeline.js';
import { planStage } from '../../src/plan/stage.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';
import { UserPlan } from '../../src/schemas/plan.js';
import { writeJsonl } from '../../src/util/fs.js';
import { createRng } from '../../src/util/rng.js';

/** An LLM client whose every role is offline: structured calls answer with `request.offline()`. */
const offlineLlm: LlmClient = {
  async chat() {
    throw new Error('chat is not used by the plan stage');
  },
  async structured(_role, request) {
    if (request.offline === undefined) throw new Error('no offline answer');
    return request.offline();
  },
  async safeStructured(_role, request) {
    return { ok: true, value: (request.offline as () => never)(), offline: true };
  },
  async embed(_role, texts) {
    return texts.map(() => [0]);
  },
  isOffline: () => true,
  modelFor: () => 'offline',
  usage: () => {
    const zero = { calls: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, costUsd: 0, failures: 0 };
    return { byStage: {}, byEndpoint: {}, total: zero };
  },
};

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

async function runStage(seed: number, images: boolean) {
  const runDir = await mkdtemp(join(tmpdir(), 'pf-plan-'));
  dirs.push(runDir);
  const config = PipelineConfig.parse({
    name: 'plan-test',
    seed,
    stages: ['plan'],
    personas: { train: 4, test: 2 },
    plan: { images: { size: 24, pixels: 32 }, multimodal: { enabled: images } },
  });
  const ctx: StageContext = {
    runDir,
    seed,
    config,
    llm: offlineLlm,
    shard: null,
    rng: (...parts) => createRng(seed, 'plan', ...parts),
    quarantine: () => undefined,
    progress: () => undefined,
    signal: new AbortController().signal,
  };
  const items = await (planStage.source as NonNullable<typeof planStage.source>)(ctx);
  const plans: UserPlan[] = [];
  for (const item of items) plans.push(await planStage.process({ source: item }, ctx));
  await writeJsonl(join(runDir, planStage.output), plans);
  return { runDir, plans };
}

describe('planStage', () => {
  it('samples, enriches offline and plans every user; renders the image pool once', async () => {
    const { runDir, plans } = await runStage(3, true);
    expect(plans).toHaveLength(6);
    expect(plans.filter((plan) => plan.split === 'test')).toHaveLength(2);
    for (const plan of plans) {
      expect(UserPlan.safeParse(plan).success).toBe(true);
      expect(plan.enriched.enrichedBy).toBe('offline');
    }
    const files = await readdir(join(runDir, 'plan', 'images', 'builtin'));
    expect(files.filter((file) => file.endsWith('.png'))).toHaveLength(24);
    for (const plan of plans)
      for (const image of plan.images)
        expect(existsSync(join(runDir, 'plan', 'images', image.path))).toBe(true);
  });

  it('gives identical plans for the same seed', async () => {
    const first = await runStage(9, false);
    const second = await runStage(9, false);
    expect(JSON.stringify(second.plans)).toBe(JSON.stringify(first.plans));
    expect(existsSync(join(first.runDir, 'plan', 'images'))).toBe(false);
  });
});

describe('inspect plan', () => {
  it('finds a user and prints a chronological timeline', async () => {
    const { runDir, plans } = await runStage(4, true);
    const wanted = plans[1] as UserPlan;
    const plan = await findUserPlan(runDir, wanted.userId);
    expect(plan).toEqual(wanted);
    const text = formatPlanTimeline(plan);
    expect(text).toContain(plan.enriched.persona.name);
    expect(text).toContain('── session 0');
    for (const event of plan.drift) expect(text).toContain(event.cause);
    const times = text
      .split('\n')
      .filter((line) => /^\d{4}-\d\d-\d\d \d\d:\d\d /.test(line))
      .map((line) => line.slice(0, 16));
    expect(times).toEqual([...times].sort());
  });

  it('names some existing ids when the user is absent', async () => {
    const { runDir, plans } = await runStage(5, false);
    const error = await findUserPlan(runDir, 'nobody').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PersonaForgeError);
    expect((error as PersonaForgeError).code).toBe('NOT_FOUND');
    expect((error as Error).message).toContain(plans[0]?.userId);
  });
});
