import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MemorySnapshot, UserMemory } from '../../../src/schemas/memory.js';

/** A small memory state: hotpot (March), hiking (April), one episode and one procedural habit. */
export function memorySnapshot(time = '2024-04-30T23:00:00.000Z'): MemorySnapshot {
  return {
    time,
    sessionIndex: 1,
    core: {
      human: { name: 'Mara', preferences: 'spicy food' },
      persona: { identity: 'assistant', roles: 'friend', interactionStyle: 'brief' },
    },
    semantic: [
      {
        id: 's1',
        reason: 'preference',
        content: 'Mara loves spicy Sichuan hotpot',
        keywords: ['hotpot', 'spicy'],
        timestamp: '2024-03-05T14:07:00.000Z',
        turnId: 't1',
        sessionIndex: 0,
        imageIds: [],
        slotIds: [],
      },
      {
        id: 's2',
        reason: 'hobby',
        content: 'Mara started hiking on weekends',
        keywords: ['hiking', 'weekend'],
        timestamp: '2024-04-10T09:00:00.000Z',
        turnId: 't9',
        sessionIndex: 1,
        imageIds: [],
        slotIds: [],
      },
    ],
    episodic: [
      {
        id: 'e1',
        sessionIndex: 0,
        summary: 'Talked about dinner plans and hotpot restaurants',
        keywords: ['dinner', 'hotpot'],
        turnIndices: [0, 1],
        start: '2024-03-05T14:00:00.000Z',
        end: '2024-03-05T14:30:00.000Z',
        slotIds: [],
      },
    ],
    procedural: [
      {
        id: 'p1',
        key: 'exercise',
        sentence: 'Hikes every Saturday morning',
        updatedAt: '2024-04-10T09:00:00.000Z',
        slotIds: [],
      },
    ],
    personality: {
      p: { openness: 4, conscientiousness: 3, extraversion: 3, agreeableness: 4, neuroticism: 2 },
      turns: 12,
    },
  };
}

/** A run directory whose `memory/memory.jsonl` holds user `u-1` with two snapshots. */
export async function memoryRunDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'pf-reward-memory-'));
  const before = {
    ...memorySnapshot('2024-03-01T00:00:00.000Z'),
    sessionIndex: -1,
    semantic: [],
    episodic: [],
    procedural: [],
  };
  const record: UserMemory = {
    schemaVersion: 1,
    userId: 'u-1',
    offline: true,
    snapshots: [before, memorySnapshot()],
    traces: [],
    tree: { schemaId: 'test', chunkTurns: 3, initial: {}, versions: [], final: {} },
    trajectories: [],
    stats: { traces: {}, teacherAgreement: null, firstRetrievalHitRate: null, sessionBoundaryMismatches: 0 },
  };
  await mkdir(join(dir, 'memory'), { recursive: true });
  await writeFile(join(dir, 'memory', 'memory.jsonl'), `${JSON.stringify(record)}\n`);
  return dir;
}
