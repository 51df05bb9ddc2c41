import { describe, expect, it } from 'vitest';
import { createLlmClient } from '../../src/llm/index.js';
import type { LlmClient } from '../../src/llm/types.js';
import type { StageContext } from '../../src/pipeline/types.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';
import { synthStage } from '../../src/synth/stage.js';
import { createRng } from '../../src/util/rng.js';
import { makePlanFixture } from '../support/plan-fixture.js';
import { chunkResponder, createStubLlm } from './stub-llm.js';

function context(llm: LlmClient): StageContext {
  return {
    runDir: '/nonexistent',
    seed: 42,
    config: PipelineConfig.parse({
      name: 'synth-test',
      stages: ['plan', 'synth'],
      synth: { chunkRounds: 3 },
    }),
    llm,
    shard: null,
    rng: (...parts) => createRng(42, 'synth', ...parts),
    quarantine: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  };
}

describe('synthStage', () => {
  const plan = makePlanFixture({ seed: 3, rounds: 50 });

  it('declares its contract', () => {
    expect(synthStage).toMatchObject({
      kind: 'map',
      name: 'synth',
      inputs: ['plan'],
      output: 'dialogues/dialogues.jsonl',
    });
  });

  it('uses the offline realizer when the realizer role is offline', async () => {
    const llm = createStubLlm(
      () => {
        throw new Error('no call expected');
      },
      { offlineRoles: ['realizer', 'judge'] },
    );
    const dialogue = await synthStage.process({ plan }, context(llm));
    expect(synthStage.schema.parse(dialogue)).toMatchObject({
      userId: plan.userId,
      realizer: 'offline',
      offline: true,
    });
    expect(llm.calls).toHaveLength(0);
  });

  it('runs offline with the real client when no endpoint serves the realizer role', async () => {
    const llm = createLlmClient(LlmConfig.parse({}), { cache: false, env: {} });
    const dialogue = await synthStage.process({ plan }, context(llm));
    expect(dialogue).toMatchObject({ realizer: 'offline', offline: true });
    expect(llm.usage().total.calls).toBe(0);
  });

  it('uses the LLM realizer with the model name otherwise, chunked by synth.chunkRounds', async () => {
    const llm = createStubLlm(chunkResponder('keywords'), { model: 'realizer-7b' });
    const dialogue = await synthStage.process({ plan }, context(llm));
    expect(dialogue).toMatchObject({ realizer: 'realizer-7b', offline: false });
    const expectedCalls = plan.sessions.reduce((n, s) => n + Math.ceil(s.rounds / 3), 0);
    expect(llm.calls.filter((c) => c.role === 'realizer')).toHaveLength(expectedCalls);
  });

  it('throws (so the runner quarantines) when slots are never expressed', async () => {
    const llm = createStubLlm(chunkResponder('omit'));
    await expect(synthStage.process({ plan }, context(llm))).rejects.toMatchObject({
      code: 'SYNTH_FAILED',
      reason: 'slots_not_expressed',
    });
  });

  it('rejects an input that is not a plan', async () => {
    await expect(
      synthStage.process({ plan: { userId: 'x' } }, context(createStubLlm(() => '{}'))),
    ).rejects.toThrow();
  });
});

describe('plan invariants', () => {
  it('quarantines a plan whose slot points at a round that does not exist, instead of dropping it', async () => {
    const plan = makePlanFixture({ seed: 4, rounds: 50 });
    const broken = { ...plan, slots: [...plan.slots, { ...plan.slots[0]!, id: 'orphan', round: 999 }] };
    const llm = createStubLlm(() => '{}', { offlineRoles: ['realizer', 'judge'] });
    await expect(synthStage.process({ plan: broken }, context(llm))).rejects.toMatchObject({
      reason: 'invalid_plan_slots',
    });
  });

  it('quarantines overlapping sessions', async () => {
    const plan = makePlanFixture({ seed: 4, rounds: 50 });
    const sessions = plan.sessions.map((s, i) => (i === 1 ? { ...s, start: plan.sessions[0]!.start } : s));
    const llm = createStubLlm(() => '{}', { offlineRoles: ['realizer', 'judge'] });
    await expect(synthStage.process({ plan: { ...plan, sessions } }, context(llm))).rejects.toMatchObject({
      reason: 'invalid_plan_times',
    });
  });
});

describe('abort', () => {
  it('stops between chunks when the stage signal aborts', async () => {
    const plan = makePlanFixture({ seed: 4, rounds: 50 });
    const controller = new AbortController();
    controller.abort(new Error('run cancelled'));
    const llm = createStubLlm(chunkResponder('keywords'));
    await expect(
      synthStage.process({ plan }, { ...context(llm), signal: controller.signal }),
    ).rejects.toThrow('run cancelled');
    expect(llm.calls).toHaveLength(0);
  });
});
