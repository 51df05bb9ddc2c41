import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { samplePersonas } from '../../src/persona/index.js';
import { PersonasConfig } from '../../src/schemas/personas-config.js';

// Real LoCoMo custom-persona inputs (CC BY-NC): read in place from ../shared, never copied.
const repoRoot = resolve(import.meta.dirname, '../..');
const agentA = resolve(repoRoot, '../shared/data/locomo/agent_a.json');

describe('file source on LoCoMo agent_a.json', () => {
  it.skipIf(!existsSync(agentA))(
    'maps name and persona_summary and reads age, gender and job from the summary',
    async () => {
      const config = PersonasConfig.parse({
        source: 'file',
        train: 1,
        test: 0,
        file: { path: agentA, mapping: { description: 'persona_summary', name: 'name' } },
      });
      const [user] = await samplePersonas(config, { seed: 1 });
      expect(user?.persona).toMatchObject({
        name: 'Angela',
        age: 31,
        gender: 'female',
        occupation: 'manager of a gift shop',
        source: 'file',
      });
      expect(user?.persona.description).toMatch(/^Angela is a 31 year old woman/);
      expect(user?.persona.interests.length).toBeGreaterThan(0);
    },
  );
});
