import { join } from 'node:path';
import { writeJson, writeJsonl } from '../../src/util/fs.js';

const bigFive = (o: number) => ({
  openness: o,
  conscientiousness: 3,
  extraversion: 4,
  agreeableness: 3,
  neuroticism: 2,
});

/**
 * A small run directory with just the fields the report reads (plan, dialogues, memory,
 * validation.json, manifest.json, quarantine.jsonl).
 */
export async function buildReportFixture(dir: string): Promise<void> {
  const start = '2024-03-01T09:00:00.000Z';
  const plans = [0, 1, 2].map((i) => ({
    userId: `train-0000${i}`,
    horizon: { start, end: '2024-03-30T09:00:00.000Z' },
    preferences: [
      { id: 'p1', category: 'food', item: 'ramen' },
      { id: 'p2', category: 'travel', item: 'hiking trips' },
      { id: 'p3', category: 'food', item: 'spicy curry' },
    ],
    drift: [
      {
        id: 'd1',
        type: 'modify',
        time: '2024-03-10T10:00:00.000Z',
        preferenceId: 'p3',
        previousPreferenceId: 'p1',
        cause: 'a doctor advised less salt',
      },
    ],
    personality: [
      { time: start, bigFive: bigFive(3), cause: 'initial' },
      { time: '2024-03-15T09:00:00.000Z', bigFive: bigFive(4), cause: 'new job' },
    ],
    sessions: [
      { start, rounds: 10 + i },
      { start: '2024-03-12T18:00:00.000Z', rounds: 6 },
    ],
    qa: [
      { family: 'persona-mme', task: 'latest_preference_recognition' },
      { family: 'locomo', task: 'temporal' },
    ],
  }));
  await writeJsonl(join(dir, 'plan/plan.jsonl'), plans);
  const turn = (speaker: string, images: string[]) => ({ speaker, images });
  await writeJsonl(
    join(dir, 'dialogues/dialogues.jsonl'),
    plans.map((plan, i) => ({
      userId: plan.userId,
      sessions: [
        {
          turns: [
            turn('user', i === 0 ? ['img-1'] : []),
            turn('assistant', []),
            turn('user', []),
            turn('assistant', []),
          ],
        },
      ],
    })),
  );
  await writeJsonl(
    join(dir, 'memory/memory.jsonl'),
    plans.map((plan) => ({
      userId: plan.userId,
      snapshots: [
        { time: start, personality: { p: bigFive(3), turns: 0 } },
        { time: '2024-03-20T09:00:00.000Z', personality: { p: bigFive(3.6), turns: 30 } },
      ],
    })),
  );
  await writeJson(join(dir, 'validation.json'), {
    checks: { chronology: { failures: 2 }, slot_expressed: { failures: 0 } },
    judgeMode: 'offline-heuristic',
    fidelity: {
      drift_meaning_errors: {
        description: 'drift turns contradicting the plan',
        value: 1.5,
        unit: '%',
        target: 0,
        kind: 'max',
        ok: false,
      },
      assistant_repeated_openings: {
        description: 'repeated openings',
        value: 2,
        unit: '%',
        target: 5,
        kind: 'max',
        ok: true,
      },
      persona_mme_image_questions: {
        description: 'image questions',
        value: 19.3,
        unit: '%',
        target: 34,
        kind: 'about',
        ok: false,
      },
    },
  });
  await writeJson(join(dir, 'manifest.json'), {
    pipeline: { name: 'fixture' },
    offline: { realizer: true },
    usage: { byEndpoint: {}, total: { costUsd: 0 } },
  });
  await writeJsonl(join(dir, 'quarantine.jsonl'), [
    { stage: 'validate', inputId: 'train-00001', reason: 'x' },
  ]);
}
