import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { offlineEmbedding } from '../../src/llm/offline-backend.js';
import type { LlmClient, SafeResult, StructuredRequest } from '../../src/llm/types.js';
import { loadMemorySnapshot, MEMORY_OUTPUT, memoryStage } from '../../src/memory/index.js';
import type { StageContext } from '../../src/pipeline/types.js';
import { buildUserPlan } from '../../src/plan/build-user-plan.js';
import { UserMemory } from '../../src/schemas/memory.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';
import { createOfflineRealizer } from '../../src/synth/offline/realizer.js';
import { realizeDialogue } from '../../src/synth/realize-dialogue.js';
import { writeJsonl } from '../../src/util/fs.js';
import { createRng } from '../../src/util/rng.js';
import { fixtureImages, fixtureUsers } from '../plan/fixtures.js';

/** A fake client whose `judge` role has an "endpoint": it always says "write" and answers all-3 scores and NO_OP. */
function fakeLlm(calls: string[]): LlmClient {
  const answer = (name: string): unknown => {
    if (name === 'semantic_write')
      return { reason: 'fake', decision: true, content: 'something', keywords: ['x'] };
    if (name === 'personality_inference')
      return { openness: 3, conscientiousness: 3, extraversion: 3, agreeableness: 3, neuroticism: 3 };
    return { ops: 'NO_OP()' };
  };
  return {
    isOffline: (role: string) => role !== 'judge',
    modelFor: (role: string) => (role === 'judge' ? 'fake-judge' : 'offline'),
    embed: async (_role: string, texts: string[]) => texts.map((text) => offlineEmbedding(text, 384)),
    safeStructured: async <T>(role: string, request: StructuredRequest<T>): Promise<SafeResult<T>> => {
      calls.push(`${role}:${request.schemaName}`);
      return { ok: true, value: request.schema.parse(answer(request.schemaName)), offline: false };
    },
  } as unknown as LlmClient;
}

describe('memoryStage', async () => {
  const [user] = fixtureUsers(1, 5);
  const plan = buildUserPlan({ ...user!, images: fixtureImages() }, { config: {}, seed: 3 });
  const synth = await realizeDialogue(plan, { realizer: createOfflineRealizer({ seed: 3 }), seed: 3 });
  const calls: string[] = [];
  const config = PipelineConfig.parse({
    name: 'memory-test',
    stages: ['memory'],
    memory: { teacherTasks: ['semantic_write', 'tree_ops'], teacherSpan: 'trace' },
  });
  const runDir = await mkdtemp(join(tmpdir(), 'pf-memory-'));
  const ctx = {
    runDir,
    seed: 3,
    config,
    llm: fakeLlm(calls),
    shard: null,
    rng: (...parts: Array<string | number>) => createRng(3, 'memory', ...parts),
    quarantine: () => {},
    progress: () => {},
    signal: new AbortController().signal,
  } satisfies StageContext;
  const record = await memoryStage.process({ plan, synth }, ctx);
  afterAll(() => rm(runDir, { recursive: true, force: true }));

  it('joins plan and synth and returns a schema-valid record', () => {
    expect(memoryStage).toMatchObject({
      kind: 'map',
      name: 'memory',
      inputs: ['plan', 'synth'],
      output: 'memory/memory.jsonl',
    });
    expect(UserMemory.safeParse(record).success).toBe(true);
  });

  it('asks the teacher role only for the configured tasks and records agreement', () => {
    expect(record.offline).toBe(false);
    expect(new Set(calls)).toEqual(new Set(['judge:semantic_write', 'judge:tree_ops']));
    const semantic = record.traces.filter((trace) => trace.task === 'semantic_write');
    const positives = semantic.filter((trace) => (trace.gold.value as { decision: boolean }).decision).length;
    expect(semantic.every((trace) => trace.teacher?.model === 'fake-judge')).toBe(true);
    expect(
      record.traces.filter((trace) => trace.task === 'core_update').every((trace) => trace.teacher === null),
    ).toBe(true);
    // The fake always writes: it agrees exactly on the positive semantic steps and on NO_OP chunks.
    const noOpChunks = record.traces.filter(
      (trace) => trace.task === 'tree_ops' && trace.gold.text === 'NO_OP()',
    ).length;
    const judged = record.traces.filter((trace) => trace.teacher !== null).length;
    expect(record.stats.teacherAgreement).toBeCloseTo((positives + noOpChunks) / judged, 10);
    expect(record.stats.teacherAgreement).toBeGreaterThan(0);
    expect(record.stats.teacherAgreement).toBeLessThan(1);
  });

  it('serves snapshots by user and time from the written output', async () => {
    await writeJsonl(join(runDir, MEMORY_OUTPUT), [record]);
    const mid = record.snapshots[1]!;
    const snapshot = await loadMemorySnapshot(runDir, plan.userId, mid.time.slice(0, 16).replace('T', ' '));
    // A minute-granular time reads as the start of that minute, which may precede the snapshot's second.
    expect([mid.sessionIndex, mid.sessionIndex - 1]).toContain(snapshot?.sessionIndex);
    expect((await loadMemorySnapshot(runDir, plan.userId, '2100-01-01 00:00'))?.sessionIndex).toBe(
      record.snapshots.at(-1)!.sessionIndex,
    );
    expect(await loadMemorySnapshot(runDir, 'nobody', '2100-01-01 00:00')).toBeNull();
  });
});
