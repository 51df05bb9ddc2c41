import { describe, expect, it } from 'vitest';
import type { ProceduralEntry } from '../../schemas/memory.js';
import { createPersonaMemory } from './persona-memory.js';

const at = (minutes: number) => new Date(Date.UTC(2024, 0, 1, 9) + minutes * 60_000).toISOString();
const entry = (key: string, minutes: number): ProceduralEntry => ({
  id: `p-${key}-${minutes}`,
  key,
  sentence: `${key} at ${minutes}`,
  updatedAt: at(minutes),
  slotIds: [],
});

describe('PersonaMemory', () => {
  it('opens a new session on the first turn and after a gap of at least t_s = 60 min', () => {
    const memory = createPersonaMemory();
    expect(memory.observeTurn(at(0)).newSession).toBe(true);
    expect(memory.observeTurn(at(59)).newSession).toBe(false);
    expect(memory.observeTurn(at(118.99)).newSession).toBe(false);
    expect(memory.observeTurn(at(178.99)).newSession).toBe(true);
    expect(memory.sessionIndex).toBe(1);
  });

  it('honours a configured session gap', () => {
    const memory = createPersonaMemory({ config: { sessionGapMinutes: 10 } });
    memory.observeTurn(at(0));
    expect(memory.observeTurn(at(10)).newSession).toBe(true);
  });

  it('keeps procedural memory latest-only and at most 5 entries', () => {
    const memory = createPersonaMemory();
    memory.setProcedural(['a', 'b', 'c', 'd'].map((key, i) => entry(key, i)));
    memory.setProcedural([entry('a', 10), entry('e', 11), entry('f', 12)]);
    expect(memory.procedural.map((e) => e.key)).toEqual(['f', 'e', 'a', 'd', 'c']);
    expect(memory.procedural.find((e) => e.key === 'a')?.sentence).toBe('a at 10');
    expect(memory.lookup('p-b-1')).toBeUndefined();
  });

  it('is append-only for semantic memory', () => {
    const memory = createPersonaMemory();
    const write = {
      id: 's1',
      reason: '',
      content: 'x',
      keywords: [],
      timestamp: at(0),
      turnId: 't',
      sessionIndex: 0,
      imageIds: [],
      slotIds: [],
    };
    memory.addSemantic(write);
    expect(() => memory.addSemantic(write)).toThrow(/append-only/);
  });

  it('applies PEM through inferPersonality', () => {
    const memory = createPersonaMemory();
    memory.setPersonality({
      openness: 3,
      conscientiousness: 3,
      extraversion: 3,
      agreeableness: 3,
      neuroticism: 3,
    });
    const update = memory.inferPersonality({
      openness: 5,
      conscientiousness: 3,
      extraversion: 3,
      agreeableness: 3,
      neuroticism: 3,
    });
    expect(update.lambda).toBeCloseTo(0.5, 12);
    expect(memory.personality.p.openness).toBeCloseTo(4, 9);
    expect(memory.personality.turns).toBe(1);
  });
});
