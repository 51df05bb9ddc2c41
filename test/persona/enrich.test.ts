import { describe, expect, it } from 'vitest';
import { enrichPersona, generateBuiltinPersonas } from '../../src/persona/index.js';
import { EnrichedPersona } from '../../src/schemas/persona.js';
import { PersonasConfig } from '../../src/schemas/personas-config.js';
import { stableStringify } from '../../src/util/hash.js';
import { createRng } from '../../src/util/rng.js';
import { createFakeLlm } from './fake-llm.js';

const config = PersonasConfig.parse({});
const personas = generateBuiltinPersonas(30, 7, config.builtin);

describe('enrichPersona', () => {
  it('offline: schema-valid, labelled offline, core memory carries the name and attributes', async () => {
    const llm = createFakeLlm();
    for (const persona of personas) {
      const enriched = EnrichedPersona.parse(
        await enrichPersona(persona, { llm, rng: createRng(7, persona.id), config }),
      );
      expect(enriched.enrichedBy).toBe('offline');
      expect(enriched.coreMemory.human.name).toBe(persona.name);
      expect(enriched.coreMemory.human.age).toBe(String(persona.age));
      expect(enriched.coreMemory.human.gender).toBe(persona.gender);
      expect(enriched.coreMemory.human.interests).toBe(persona.interests.join(', '));
      expect(enriched.coreMemory.persona.identity).toContain(persona.name);
      expect(enriched.coreMemory.persona.interactionStyle.length).toBeGreaterThan(5);
      expect(enriched.roleDescription).toContain(persona.name);
      for (const score of Object.values(enriched.bigFive)) expect(Number.isInteger(score)).toBe(true);
    }
    expect(llm.requests[0]?.schemaName).toBe('persona_enrichment');
  });

  it('offline: same persona and seed → byte-identical result; another seed changes the scores', async () => {
    const llm = createFakeLlm();
    const persona = personas[0];
    if (persona === undefined) throw new Error('no persona');
    const a = await enrichPersona(persona, { llm, rng: createRng(1, 'u'), config });
    const b = await enrichPersona(persona, { llm, rng: createRng(1, 'u'), config });
    expect(stableStringify(a)).toBe(stableStringify(b));
    const others = await Promise.all(
      [2, 3, 4, 5, 6].map((seed) => enrichPersona(persona, { llm, rng: createRng(seed, 'u'), config })),
    );
    expect(others.some((other) => stableStringify(other.bigFive) !== stableStringify(a.bigFive))).toBe(true);
  });

  it('through a model: uses its text, keeps ground-truth attributes, fills gaps from the offline profile', async () => {
    const persona = personas[1];
    if (persona === undefined) throw new Error('no persona');
    const llm = createFakeLlm({
      answer: {
        roleDescription: 'A thoughtful person who plans everything.',
        human: { name: 'Someone Else', age: 99, preferences: ['likes green tea', 'dislikes crowds'] },
        persona: { identity: 'A patient helper', roles: ['planner', 'coach'], interactionStyle: null },
      },
    });
    const enriched = await enrichPersona(persona, { llm, rng: createRng(1, 'llm'), config });
    expect(enriched.enrichedBy).toBe('llm');
    expect(enriched.roleDescription).toBe('A thoughtful person who plans everything.');
    expect(enriched.coreMemory.human.name).toBe(persona.name);
    expect(enriched.coreMemory.human.age).toBe(String(persona.age));
    expect(enriched.coreMemory.human.preferences).toBe('likes green tea, dislikes crowds');
    expect(enriched.coreMemory.persona).toMatchObject({
      identity: 'A patient helper',
      roles: 'planner, coach',
    });
    expect(enriched.coreMemory.persona.interactionStyle.length).toBeGreaterThan(5);
    const prompt = llm.requests[0]?.messages.map((m) => m.content).join('\n') ?? '';
    expect(prompt).toContain(persona.description);
    expect(prompt).toContain(JSON.stringify(enriched.bigFive));
  });
});
