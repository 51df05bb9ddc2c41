import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { encodeParquet } from './parquet.js';

const buffer = (bytes: Uint8Array) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
const read = (bytes: Uint8Array) => parquetReadObjects({ file: buffer(bytes) });
/** Rows per row group, as the file's footer says. */
const rowGroups = (bytes: Uint8Array) =>
  parquetMetadata(buffer(bytes)).row_groups.map((group) => Number(group.num_rows));

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
    const bytes = encodeParquet(rows);
    // `images` is the Image feature: {bytes, path}, no bytes without an `imageBytes` source.
    const back = (await read(bytes)) as Array<
      Record<string, unknown> & { images: Array<{ bytes: unknown; path: string }> }
    >;
    expect(back.map((row) => ({ ...row, images: row.images.map((image) => image.path) }))).toEqual(rows);
    expect(back.flatMap((row) => row.images).every((image) => image.bytes == null)).toBe(true);
    expect(rowGroups(bytes)).toEqual([4096, 904]);
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
    expect(await read(new Uint8Array(await readFile(join(dir, 'a.parquet'))))).toEqual(rows); // no images: [] reads as []
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

describe('openParquetWriter with column chunks', () => {
  it('writes the same bytes from chunks cut anywhere as from JSON lines, lone surrogates included', async () => {
    const { mkdtemp, readFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { openParquetWriter } = await import('./parquet.js');
    const { encodeColumns } = await import('./column-chunk.js');
    const { createByteRing, RingReader, RingWriter } = await import('../util/byte-ring.js');
    const columns = ['id', 'messages', 'images', 'choices'];
    // Enough rows for three row groups; a lone surrogate at a value's end and at the next one's start.
    const rows = Array.from({ length: 9000 }, (_, i) => ({
      id: `r${i}`,
      messages: [
        { role: 'user', content: i % 7 === 0 ? `tail \ud83d` : `q${i} é 🍜 <image>` },
        { role: 'assistant', content: i % 7 === 0 ? '\ude00 head' : `a${i}` },
      ],
      images: i % 3 === 0 ? [`images/${i}.png`] : [],
      choices: i % 2 === 0 ? ['(A) 一', '(B) "two"'] : [],
    }));
    const dir = await mkdtemp(join(tmpdir(), 'pf-pq-chunks-'));
    try {
      const byLines = openParquetWriter(join(dir, 'lines.parquet'), columns);
      for (const row of rows) byLines.push(JSON.stringify(row));
      await byLines.close();
      const byChunks = openParquetWriter(join(dir, 'chunks.parquet'), columns);
      // Chunks of 1 to 700 rows: row-group boundaries fall inside chunks. Their text goes through
      // a small ring, so regions wrap around it and the biggest go to buffers of their own.
      const ring = createByteRing(16 * 1024);
      const [writer, reader] = [new RingWriter(ring), new RingReader(ring)];
      let spilled = 0;
      for (let from = 0, size = 1; from < rows.length; from += size, size = (size * 7 + 3) % 700 || 1) {
        const slice = rows.slice(from, from + size);
        writer.begin();
        const lengths = Int32Array.from(slice, (row) => JSON.stringify(row).length);
        const chunk = encodeColumns(slice, columns, lengths, writer);
        const region = writer.end();
        if ('bytes' in region) spilled++;
        reader.track(region);
        byChunks.pushChunk(chunk, reader.bytes(region));
        reader.done(region);
      }
      expect(spilled).toBeGreaterThan(0);
      await byChunks.close();
      const [a, b] = await Promise.all([
        readFile(join(dir, 'lines.parquet')),
        readFile(join(dir, 'chunks.parquet')),
      ]);
      expect(b.equals(a)).toBe(true);
      // One row group per 4,096 rows: the writer never holds more than that.
      expect(rowGroups(new Uint8Array(b))).toEqual([4096, 4096, 808]);
      const read0 = (await read(new Uint8Array(b))) as Array<{ messages: Array<{ content: string }> }>;
      expect(read0).toHaveLength(9000);
      expect(read0[0]?.messages[0]?.content).toBe('tail \ufffd');
      expect(read0[0]?.messages[1]?.content).toBe('\ufffd head');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
