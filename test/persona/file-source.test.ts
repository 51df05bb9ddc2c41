import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Field, List, Table, tableFromArrays, tableToIPC, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors/index.js';
import { samplePersonas } from '../../src/persona/index.js';
import { Persona } from '../../src/schemas/persona.js';
import { PersonasConfig, type PersonasConfigInput } from '../../src/schemas/personas-config.js';

const ROLES = [
  'A retired firefighter from Lyon who restores old radios',
  'A pediatric nurse who loves jazz and hiking',
  'A local historian passionate about medieval castles',
  'A software engineer in Berlin who plays chess',
  'A mother of two who runs a bakery',
  'An aspiring novelist writing about the sea',
];
const ROWS = Array.from({ length: 24 }, (_, index) => ({
  'input persona': `${ROLES[index % ROLES.length]} (#${index})`,
  full_name: `Test Person ${index}`,
  years: 30 + index,
}));

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-persona-files-'));
  await writeFile(join(dir, 'p.jsonl'), `${ROWS.map((row) => JSON.stringify(row)).join('\n')}\n`);
  const csv = [
    '"input persona",full_name,years',
    ...ROWS.map((row) => `"${row['input persona']}",${row.full_name},${row.years}`),
  ];
  await writeFile(join(dir, 'p.csv'), `${csv.join('\n')}\n`);
  // The parquet fixture is written with apache-arrow + parquet-wasm, as a user's export would be.
  const { writeParquet, Table: WasmTable } = await import('parquet-wasm');
  const table: Table = tableFromArrays({
    'input persona': ROWS.map((row) => row['input persona']),
    full_name: ROWS.map((row) => row.full_name),
    years: Int32Array.from(ROWS.map((row) => row.years)),
  });
  await writeFile(join(dir, 'p.parquet'), writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream'))));
  await writeFile(
    join(dir, 'bad.jsonl'),
    `${JSON.stringify(ROWS[0])}\n${JSON.stringify({ 'input persona': 'A baker', years: 40 })}\n`,
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function fileConfig(path: string, extra: Partial<PersonasConfigInput> = {}) {
  return PersonasConfig.parse({
    source: 'file',
    train: 8,
    test: 4,
    file: { path, mapping: { description: 'input persona', name: 'full_name', age: 'years' } },
    ...extra,
  });
}

describe('file persona source', () => {
  it.each(['p.jsonl', 'p.csv', 'p.parquet'])(
    '%s: honours the field mapping and fills the rest consistently',
    async (name) => {
      const users = await samplePersonas(fileConfig(join(dir, name)), { seed: 3 });
      expect(users).toHaveLength(12);
      for (const { persona } of users) {
        Persona.parse(persona);
        const index = Number(/#(\d+)\)$/.exec(persona.description)?.[1]);
        const row = ROWS[index];
        expect(persona.source).toBe('file');
        expect(persona.name).toBe(row?.full_name);
        expect(persona.age).toBe(row?.years);
        expect(persona.description).toBe(row?.['input persona']);
        expect(persona.id).toBe(`file:${name}#L${index + (name === 'p.csv' ? 2 : 1)}`);
        if (persona.description.startsWith('A retired firefighter')) {
          expect(persona.occupation).toBe('retired firefighter');
          expect(persona.location.city).toBe('Lyon');
          expect(persona.location.country).toBe('France');
        }
        if (persona.description.startsWith('A pediatric nurse')) {
          expect(persona.occupation).toBe('pediatric nurse');
          expect(persona.interests).toEqual(expect.arrayContaining(['jazz', 'hiking']));
        }
        if (persona.description.startsWith('A local historian'))
          expect(persona.occupation).toBe('local historian');
        if (persona.description.startsWith('A mother')) {
          expect(persona.occupation).toBe('small business owner running a bakery');
          expect(persona.gender).toBe('female');
          expect(persona.family).toMatch(/child|toddler|teenage|ten-year-old|grand/);
        }
      }
    },
  );

  it('samples the same rows into the same users in every format', async () => {
    const results = await Promise.all(
      ['p.jsonl', 'p.csv', 'p.parquet'].map((name) =>
        samplePersonas(fileConfig(join(dir, name)), { seed: 3 }),
      ),
    );
    // Mapped fields agree; filled fields may differ because the fill stream is keyed by file and line.
    const mapped = results.map((users) =>
      users.map((u) => [u.userId, u.persona.description, u.persona.name, u.persona.age]),
    );
    expect(mapped[1]).toEqual(mapped[0]);
    expect(mapped[2]).toEqual(mapped[0]);
  });

  it('samples without replacement into disjoint train/test users, deterministically', async () => {
    const config = fileConfig(join(dir, 'p.jsonl'));
    const a = await samplePersonas(config, { seed: 5 });
    const b = await samplePersonas(config, { seed: 5 });
    const c = await samplePersonas(config, { seed: 6 });
    expect(a).toEqual(b);
    expect(a.map((u) => u.persona.description)).not.toEqual(c.map((u) => u.persona.description));
    const train = a.filter((u) => u.split === 'train').map((u) => u.persona.id);
    const test = a.filter((u) => u.split === 'test').map((u) => u.persona.id);
    expect(train).toHaveLength(8);
    expect(test).toHaveLength(4);
    expect(new Set([...train, ...test]).size).toBe(12);
    expect(a.map((u) => u.userId).slice(0, 2)).toEqual(['train-00000', 'train-00001']);
    expect(a[8]?.userId).toBe('test-00000');
  });

  it('fills missing names uniquely when only the description is mapped', async () => {
    const config = PersonasConfig.parse({
      source: 'file',
      train: 20,
      test: 4,
      file: { path: join(dir, 'p.csv'), mapping: { description: 'input persona' } },
    });
    const users = await samplePersonas(config, { seed: 1 });
    expect(new Set(users.map((u) => u.persona.name)).size).toBe(24);
  });

  it('throws an InputError naming the file, line and field when a mapped field is missing', async () => {
    const error = await samplePersonas(fileConfig(join(dir, 'bad.jsonl'), { train: 1, test: 1 }), {
      seed: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe('full_name');
    expect((error as InputError).message).toContain('bad.jsonl');
    expect((error as InputError).message).toContain('line 2');
  });

  it('reads a parquet list column as interests', async () => {
    const { writeParquet, Table: WasmTable } = await import('parquet-wasm');
    const table = new Table({
      persona: vectorFromArray(['A chef who loves tea', 'A pilot', 'A nurse'], new Utf8()),
      tags: vectorFromArray(
        [['tea culture', 'chess'], ['skiing'], ['jazz']],
        new List(new Field('item', new Utf8(), true)),
      ),
    });
    const path = join(dir, 'tags.parquet');
    await writeFile(path, writeParquet(WasmTable.fromIPCStream(tableToIPC(table, 'stream'))));
    const config = PersonasConfig.parse({
      source: 'file',
      train: 2,
      test: 1,
      file: { path, mapping: { description: 'persona', interests: 'tags' } },
    });
    const users = await samplePersonas(config, { seed: 1 });
    const chef = users.find((u) => u.persona.description.startsWith('A chef'));
    expect(chef?.persona.interests).toEqual(['tea culture', 'chess']);
    expect(chef?.persona.occupation).toBe('chef');
  });

  it('throws an InputError when the file has fewer records than train + test', async () => {
    const error = await samplePersonas(fileConfig(join(dir, 'p.jsonl'), { train: 20, test: 10 }), {
      seed: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as Error).message).toMatch(/24 persona records but 30/);
  });
});
