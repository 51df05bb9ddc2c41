import { describe, expect, it } from 'vitest';
import { createRng } from '../../util/rng.js';
import { createPersonaMemory } from '../persona/persona-memory.js';
import type { MemoryEntryType } from '../types.js';
import { formatMemoryBlock } from './format-block.js';
import { createOfflineEmbedder } from './offline-embedder.js';
import { drawTopK, retrieve } from './retrieve.js';

const day = (d: number, h = 12) => new Date(Date.UTC(2024, 2, d, h)).toISOString();

function memoryWithEntries() {
  const memory = createPersonaMemory({ embedder: createOfflineEmbedder(256) });
  for (let d = 1; d <= 9; d++) {
    memory.addSemantic({
      id: `s${d}`,
      reason: 'r',
      content: `The user had hotpot with friends on day ${d}`,
      keywords: ['hotpot'],
      timestamp: day(d),
      turnId: `t${d}`,
      sessionIndex: d,
      imageIds: [],
      slotIds: [`slot-${d}`],
    });
  }
  memory.addEpisodes(
    [1, 2, 3].map((d) => ({
      id: `e${d}`,
      sessionIndex: d,
      summary: `Talked about hotpot restaurants on day ${d}`,
      keywords: ['hotpot'],
      turnIndices: [0, 1],
      start: day(d, 10),
      end: day(d, 11),
      slotIds: [],
    })),
  );
  memory.setProcedural([
    { id: 'p1', key: 'habit hotpot', sentence: 'Eats hotpot every Friday', updatedAt: day(2), slotIds: [] },
  ]);
  return memory;
}

const ids = (result: { byType: Record<MemoryEntryType, Array<{ id: string }>> }, type: MemoryEntryType) =>
  result.byType[type].map((entry) => entry.id);

describe('retrieve (PersonaVLM)', () => {
  it('returns the default per-type top-k (semantic 4, episodic 2, procedural 2)', async () => {
    const result = await retrieve(memoryWithEntries(), { keywords: 'hotpot' });
    expect(result.byType.semantic).toHaveLength(4);
    expect(result.byType.episodic).toHaveLength(2);
    expect(result.byType.procedural).toHaveLength(1);
  });

  it('filters by the time window with inclusive minute boundaries', async () => {
    const memory = memoryWithEntries();
    const result = await retrieve(memory, {
      keywords: 'hotpot',
      startTime: '2024-03-03 12:00',
      endTime: '2024-03-05 12:00',
      topK: { semantic: 9 },
    });
    expect(ids(result, 'semantic').sort()).toEqual(['s3', 's4', 's5']);
    const narrow = await retrieve(memory, {
      keywords: 'hotpot',
      startTime: '2024-03-03 12:01',
      endTime: '2024-03-05 11:59',
      topK: { semantic: 9 },
    });
    expect(ids(narrow, 'semantic')).toEqual(['s4']);
    // An episode passes when its span [10:00, 11:00] overlaps the window.
    const episodes = await retrieve(memory, {
      keywords: 'hotpot',
      startTime: '2024-03-02 11:00',
      endTime: '2024-03-02 11:00',
    });
    expect(ids(episodes, 'episodic')).toEqual(['e2']);
  });

  it('only sees entries written by asOf and never the excluded ones', async () => {
    const memory = memoryWithEntries();
    const result = await retrieve(memory, {
      keywords: 'hotpot',
      asOf: day(3),
      exclude: ['s1'],
      topK: { semantic: 9 },
    });
    expect(ids(result, 'semantic').sort()).toEqual(['s2', 's3']);
  });

  it('never repeats an entry across the calls of one trajectory when ids are excluded', async () => {
    const memory = memoryWithEntries();
    const seen = new Set<string>();
    for (let call = 0; call < 3; call++) {
      const result = await retrieve(memory, { keywords: 'hotpot friends', exclude: seen });
      for (const entry of result.entries) {
        expect(seen.has(entry.id)).toBe(false);
        seen.add(entry.id);
      }
    }
    expect(seen.size).toBe(9 + 3 + 1);
  });

  it('draws per-call k inside the training ranges', () => {
    const rng = createRng(1, 'k');
    const config = memoryWithEntries().config.retrieval;
    for (let i = 0; i < 200; i++) {
      const k = drawTopK(rng, config);
      expect(k.semantic).toBeGreaterThanOrEqual(3);
      expect(k.semantic).toBeLessThanOrEqual(6);
      expect(k.episodic).toBeGreaterThanOrEqual(2);
      expect(k.episodic).toBeLessThanOrEqual(5);
    }
  });

  it('formats the retrieved block grouped by type with times', async () => {
    const result = await retrieve(memoryWithEntries(), {
      keywords: 'hotpot',
      topK: { semantic: 1, episodic: 1, procedural: 1 },
    });
    const block = formatMemoryBlock(result);
    expect(block.split('\n')[0]).toBe('<memory>');
    expect(block).toMatch(/Semantic memory:\n1\. \[2024-03-\d\d 12:00\] The user had hotpot/);
    expect(block).toContain(
      'Procedural memory:\n1. [2024-03-02 12:00] habit hotpot: Eats hotpot every Friday',
    );
  });

  it('gives the same results from a memory rebuilt from its snapshot (reward-server path)', async () => {
    const memory = memoryWithEntries();
    const rebuilt = createPersonaMemory({
      snapshot: memory.snapshot(day(20)),
      embedder: createOfflineEmbedder(256),
    });
    const query = { keywords: 'hotpot friends day 7', startTime: '2024-03-02 00:00', endTime: null };
    expect(await retrieve(rebuilt, query)).toEqual(await retrieve(memory, query));
  });

  it('works without an embedder (BM25 only)', async () => {
    const memory = createPersonaMemory();
    memory.addSemantic({
      id: 'a',
      reason: '',
      content: 'loves jazz',
      keywords: [],
      timestamp: day(1),
      turnId: 't',
      sessionIndex: 0,
      imageIds: [],
      slotIds: [],
    });
    const result = await retrieve(memory, { keywords: 'jazz' });
    expect(ids(result, 'semantic')).toEqual(['a']);
  });
});
