import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { encodeParquet } from './parquet.js';

const read = (bytes: Uint8Array) =>
  parquetReadObjects({
    file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  });

describe('encodeParquet', () => {
  it('round-trips nested messages, string lists and non-ASCII text across row groups', async () => {
    const rows = Array.from({ length: 5000 }, (_, i) => ({
      id: `r${i}`,
      messages:
        i % 2 === 0
          ? [
              { role: 'user', content: `héllo ${i} 🍜 <image>` },
              { role: 'assistant', content: '' },
            ]
          : [],
      images: i % 3 === 0 ? [`images/${i}.png`] : [],
      choices: ['(a) 一', '(b) "two", three'],
      memory_snapshot: i === 7 ? '{"a":[1,2]}' : '',
    }));
    expect(await read(encodeParquet(rows))).toEqual(rows);
  });

  it('writes an empty table with the declared columns', async () => {
    const bytes = encodeParquet([], ['id', 'messages', 'images']);
    expect(bytes.byteLength).toBeGreaterThan(0);
    expect(await read(bytes)).toEqual([]);
  });
});

describe('writeParquetFromJsonl', () => {
  it('streams a jsonl file to parquet in batches, equal to the rows', async () => {
    const { mkdtemp, readFile, rm, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { writeParquetFromJsonl } = await import('./parquet.js');
    const dir = await mkdtemp(join(tmpdir(), 'pf-pq-'));
    const rows = Array.from({ length: 9000 }, (_, i) => ({
      id: `r${i}`,
      messages: [{ role: 'user', content: `q${i}` }],
      images: [],
    }));
    await writeFile(join(dir, 'a.jsonl'), `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`);
    await writeParquetFromJsonl(join(dir, 'a.jsonl'), join(dir, 'a.parquet'), ['id', 'messages', 'images']);
    expect(await read(new Uint8Array(await readFile(join(dir, 'a.parquet'))))).toEqual(rows);
    await writeFile(join(dir, 'empty.jsonl'), '');
    await writeParquetFromJsonl(join(dir, 'empty.jsonl'), join(dir, 'empty.parquet'), [
      'id',
      'messages',
      'images',
    ]);
    expect(await read(new Uint8Array(await readFile(join(dir, 'empty.parquet'))))).toEqual([]);
    await rm(dir, { recursive: true, force: true });
  });
});
