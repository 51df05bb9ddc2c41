import { describe, expect, it } from 'vitest';
import type { LlmClient, SafeResult, StructuredRequest } from '../../llm/types.js';
import type { EpisodicEntry, ProceduralEntry } from '../../schemas/memory.js';
import { askTeacher } from './teacher.js';

function fake(answer: unknown): LlmClient {
  return {
    modelFor: () => 'fake',
    safeStructured: async <T>(_role: string, request: StructuredRequest<T>): Promise<SafeResult<T>> => {
      const parsed = request.schema.safeParse(answer);
      return parsed.success
        ? { ok: true, value: parsed.data, offline: false }
        : { ok: false, error: new Error('schema') };
    },
  } as unknown as LlmClient;
}
const context = (answer: unknown) => ({
  llm: fake(answer),
  role: 'judge',
  stage: 'memory',
  treeAgreement: 0.5,
});

const episode = (indices: number[]): EpisodicEntry => ({
  id: 'e',
  sessionIndex: 0,
  summary: 's',
  keywords: [],
  turnIndices: indices,
  start: '2024-01-01T00:00:00.000Z',
  end: '2024-01-01T00:00:00.000Z',
  slotIds: [],
});
const habit = (sentence: string): ProceduralEntry => ({
  id: 'p',
  key: 'k',
  sentence,
  updatedAt: '2024-01-01T00:00:00.000Z',
  slotIds: [],
});

const big = (o: number, c: number, e: number, a: number, n: number) => ({
  openness: o,
  conscientiousness: c,
  extraversion: e,
  agreeableness: a,
  neuroticism: n,
});

describe('askTeacher agreement', () => {
  it.each([
    ['semantic_write', { decision: true, content: 'x' }, { decision: true }, true],
    ['semantic_write', { decision: false }, { decision: true }, false],
    ['tree_ops', { ops: 'ADD(a.b, "tea")' }, 'ADD(a.b, "tea")', true],
    ['tree_ops', { ops: 'NO_OP()' }, 'ADD(a.b, "tea")', false],
    [
      'core_update',
      { human: { name: 'Ana', preferences: 'Likes tea; likes jazz' } },
      { human: { name: 'Ana', preferences: 'likes jazz; likes tea' }, persona: {} },
      true,
    ],
    [
      'core_update',
      { human: { name: 'Ana', preferences: 'likes tea' } },
      { human: { name: 'Ana', preferences: 'likes jazz' }, persona: {} },
      false,
    ],
    [
      'episodic_summary',
      { episodes: [{ topic_summary: 'a', source_dialog_indices: [0, 1, 2, 3] }] },
      [episode([0, 1]), episode([2, 3])],
      true,
    ],
    [
      'episodic_summary',
      { episodes: [{ topic_summary: 'a', source_dialog_indices: [0, 1] }] },
      [episode([0, 1]), episode([2, 3])],
      false,
    ],
    [
      'procedural_update',
      { entries: [{ key: 'run', sentence: 'Runs every morning in the park' }] },
      [habit('runs every morning in the park')],
      true,
    ],
    ['procedural_update', { entries: [] }, [habit('runs every morning')], false],
    ['personality_inference', big(4, 3, 3, 3, 3), big(5, 3, 3, 3, 3), true],
    // One step from the gold but on the other side of "no evidence": a reading the text does not show.
    ['personality_inference', big(3, 3, 4, 3, 3), big(3, 3, 3, 3, 3), false],
    ['personality_inference', big(3, 2, 3, 3, 3), big(3, 3, 3, 3, 3), false],
  ] as const)('%s: %j vs gold → agrees %s', async (task, answer, gold, agrees) => {
    const result = await askTeacher(context(answer), task, {}, gold);
    expect(result?.agrees).toBe(agrees);
    expect(result?.model).toBe('fake');
    expect(result?.text.length).toBeGreaterThanOrEqual(task === 'procedural_update' && !agrees ? 0 : 1);
  });

  it('returns null when the teacher answer fails its schema', async () => {
    expect(await askTeacher(context({ nope: 1 }), 'semantic_write', {}, { decision: true })).toBeNull();
  });
});
