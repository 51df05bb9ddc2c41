import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadYamlConfig } from '../../src/config/index.js';
import { PersonaForgeError } from '../../src/errors/index.js';
import { MAX_LINE_BYTES, readRecords } from '../../src/persona/records.js';
import { PipelineConfig } from '../../src/schemas/pipeline.js';

/** Persona files and pipeline files written to break the readers: each is a clear error, never a crash or a silent misread. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pf-hostile-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function all(path: string, format: 'jsonl' | 'csv' = 'jsonl') {
  const out = [];
  for await (const record of readRecords(path, format)) out.push(record);
  return out;
}

describe('persona readers', () => {
  it('read a BOM-prefixed jsonl and CSV header correctly', async () => {
    await writeFile(join(dir, 'bom.jsonl'), '\uFEFF{"persona":"A nurse"}\n{"persona":"A cook"}\n');
    await writeFile(join(dir, 'bom.csv'), '\uFEFFpersona,name\nA nurse,Ana\n');
    expect((await all(join(dir, 'bom.jsonl'))).map((r) => r.record.persona)).toEqual(['A nurse', 'A cook']);
    expect((await all(join(dir, 'bom.csv'), 'csv'))[0]?.record).toEqual({ persona: 'A nurse', name: 'Ana' });
  });

  it('refuse a CSV whose quoted field never closes, naming the line', async () => {
    await writeFile(join(dir, 'open.csv'), 'persona,name\n"A nurse, 40,Ana\nA cook,Bo\n');
    await expect(all(join(dir, 'open.csv'), 'csv')).rejects.toThrow(
      /open\.csv.*line 2: a quoted field is never closed/,
    );
  });

  it('refuse invalid UTF-8 with the line, never replacing bytes', async () => {
    await writeFile(
      join(dir, 'latin1.jsonl'),
      Buffer.concat([
        Buffer.from('{"persona":"ok"}\n{"persona":"caf'),
        Buffer.from([0xe9]),
        Buffer.from('"}\n'),
      ]),
    );
    await expect(all(join(dir, 'latin1.jsonl'))).rejects.toThrow(/line 2 is not valid UTF-8/);
    await writeFile(
      join(dir, 'latin1.csv'),
      Buffer.concat([Buffer.from('persona\ncaf'), Buffer.from([0xe9]), Buffer.from('\n')]),
    );
    await expect(all(join(dir, 'latin1.csv'), 'csv')).rejects.toThrow(/line 2 is not valid UTF-8/);
  });

  it('refuse a line longer than the limit without holding it, and a device file', async () => {
    await writeFile(join(dir, 'long.jsonl'), `{"persona":"${'x'.repeat(MAX_LINE_BYTES + 10)}"}\n`);
    await expect(all(join(dir, 'long.jsonl'))).rejects.toThrow(/line 1 is longer than 1048576 bytes/);
    await expect(all('/dev/zero')).rejects.toThrow(/is not a regular file/);
  });
});

describe('pipeline files', () => {
  it('a YAML alias bomb is a CONFIG_INVALID error', async () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(
        `${name}: &${name} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`,
      );
    }
    await writeFile(join(dir, 'bomb.yaml'), `${lines.join('\n')}\n`);
    const error = await loadYamlConfig(join(dir, 'bomb.yaml'), PipelineConfig).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PersonaForgeError);
    expect((error as PersonaForgeError).code).toBe('CONFIG_INVALID');
    expect((error as Error).message).toMatch(/alias/i);
  });

  it('an absurd persona count is refused with its path', async () => {
    await writeFile(join(dir, 'huge.yaml'), 'name: x\nstages: [plan]\npersonas:\n  train: 1000000000\n');
    await expect(loadYamlConfig(join(dir, 'huge.yaml'), PipelineConfig)).rejects.toThrow(
      /personas\.train.*at most 10,000,000/,
    );
  });
});
