import { describe, expect, it } from 'vitest';
import { createOfflineEmbedder } from '../retrieval/offline-embedder.js';
import { createDualLayerMemory } from './dual-layer-memory.js';

const T = (minute: number) => new Date(Date.UTC(2024, 2, 5, 14, minute)).toISOString();

function seeded() {
  const memory = createDualLayerMemory({ embedder: createOfflineEmbedder(256) });
  const texts = [
    'This is <Bobo>, my grey cat <image1>',
    'Bobo loves sleeping on the windowsill',
    'I started learning the cello last month',
    'My sister Mia visits every Sunday',
  ];
  for (const [i, text] of texts.entries()) {
    memory.appendMessage({ time: T(i), speaker: 'user', text, ...(i === 0 ? { images: ['img-1'] } : {}) });
  }
  memory.addMemory({
    text: '<Bobo> is the user’s pet',
    caption: 'a grey cat curled on a windowsill',
    image: 'img-1',
    evidenceIds: [[1, 2]],
    time: T(1),
  });
  memory.addMemory({ text: 'The user is learning the cello', evidenceIds: [[3, 3]], time: T(2) });
  memory.addMemory({ text: 'Mia, the user’s sister, visits on Sundays', evidenceIds: [[4, 4]], time: T(3) });
  return memory;
}

describe('dual-layer memory', () => {
  it('keeps raw messages append-only with sequential ids and fetches by id ranges and time', () => {
    const memory = seeded();
    expect(
      memory
        .fetchRawMessages([
          [1, 2],
          [4, 4],
        ])
        .map((m) => m.id),
    ).toEqual([1, 2, 4]);
    expect(memory.fetchRawMessagesByTime('2024-03-05 14:01', '2024-03-05 14:02').map((m) => m.id)).toEqual([
      2, 3,
    ]);
    expect(() => memory.appendMessage({ time: T(0), speaker: 'user', text: 'late' })).toThrow(/append-only/);
  });

  it('rejects evidence ranges outside the raw store', () => {
    const memory = seeded();
    expect(() => memory.addMemory({ text: 'x', evidenceIds: [[3, 9]], time: T(5) })).toThrow(
      /not inside the raw store/,
    );
    expect(() => memory.addMemory({ text: 'x', evidenceIds: [[3, 2]], time: T(5) })).toThrow(/first ≤ last/);
  });

  it('finds an entry through the caption path when its text shares no words with the query', async () => {
    const memory = seeded();
    const hits = await memory.search({
      text: 'what animal sleeps on the windowsill',
      caption: 'grey cat windowsill',
    });
    expect(hits[0]?.entry.image).toBe('img-1');
    expect(hits[0]?.ranks.caption).toBe(1);
  });

  it('fuses the three paths by RRF (an entry found by two paths outranks one found by one)', async () => {
    const memory = seeded();
    const hits = await memory.search({ text: 'cello lessons' });
    expect(hits[0]?.entry.text).toMatch(/cello/);
    const top = hits[0] as (typeof hits)[number];
    const paths = Object.values(top.ranks).filter((rank) => rank !== null).length;
    expect(paths).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.score).toBeLessThanOrEqual(hits[i - 1]!.score);
  });

  it('resolves a contradiction by deleting the old entry, adding the new one and an update record', async () => {
    const memory = seeded();
    memory.appendMessage({ time: T(10), speaker: 'user', text: 'I gave up the cello, I play the piano now' });
    const old = memory.list().find((e) => /cello/.test(e.text))!;
    const { deleted, added, record } = memory.replaceMemory(
      old.id,
      { text: 'The user plays the piano (gave up the cello)', evidenceIds: [[5, 5]], time: T(10) },
      'user switched instruments',
    );
    expect(deleted.id).toBe(old.id);
    expect(memory.entry(old.id)).toBeUndefined();
    expect(memory.entry(added.id)?.text).toMatch(/piano/);
    expect(memory.updates).toEqual([record]);
    expect(memory.entry(record.id)?.kind).toBe('update');
    expect(memory.entry(record.id)?.evidenceIds).toEqual([
      [3, 3],
      [5, 5],
    ]);
    const hits = await memory.search({ text: 'cello' });
    expect(hits.map((h) => h.entry.id)).not.toContain(old.id);
  });
});
