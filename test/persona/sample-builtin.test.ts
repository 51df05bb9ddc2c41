import { describe, expect, it } from 'vitest';
import { samplePersonas } from '../../src/persona/index.js';
import { PersonasConfig } from '../../src/schemas/personas-config.js';
import { stableStringify } from '../../src/util/hash.js';

describe('samplePersonas with the builtin source', () => {
  it('defaults to 500 train and 200 test users, disjoint, with stable ids and unique names', async () => {
    const config = PersonasConfig.parse({});
    expect([config.source, config.train, config.test]).toEqual(['builtin', 500, 200]);
    const users = await samplePersonas(config, { seed: 42 });
    const train = users.filter((u) => u.split === 'train');
    const test = users.filter((u) => u.split === 'test');
    expect(train).toHaveLength(500);
    expect(test).toHaveLength(200);
    expect(train[0]?.userId).toBe('train-00000');
    expect(train[499]?.userId).toBe('train-00499');
    expect(test[199]?.userId).toBe('test-00199');
    const trainIds = new Set(train.map((u) => u.persona.id));
    expect(test.some((u) => trainIds.has(u.persona.id))).toBe(false);
    expect(new Set(users.map((u) => u.persona.name)).size).toBe(700);
    expect(new Set(users.map((u) => u.userId)).size).toBe(700);
  });

  it('is byte-identical for a seed and different for another', async () => {
    const config = PersonasConfig.parse({ train: 20, test: 10 });
    const a = stableStringify(await samplePersonas(config, { seed: 7 }));
    expect(stableStringify(await samplePersonas(config, { seed: 7 }))).toBe(a);
    expect(stableStringify(await samplePersonas(config, { seed: 8 }))).not.toBe(a);
  });

  it('rejects a file source without a file section, naming the path', () => {
    const result = PersonasConfig.safeParse({ source: 'file' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['file']);
  });
});
