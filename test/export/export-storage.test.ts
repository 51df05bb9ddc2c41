import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExportSummary, exportDataset, listFiles } from '../../src/export/index.js';
import { readPackedIndex } from '../../src/schemas/memory-pack.js';
import { encodeUserMemoryRecord } from '../../src/schemas/memory-record-codec.js';
import { toPackedV1 } from '../memory/packed-v1.js';
import { exportConfig as config, exportedFixtureRun, jsonLines as lines } from './exported-fixture.js';

let root: string;
let runDir: string;
let summary: ExportSummary;

beforeAll(async () => {
  ({ root, runDir, summary } = await exportedFixtureRun());
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('the same bytes however the run is stored and however many threads export it', () => {
  const sameFiles = async (dir: string) => {
    const first = await listFiles(join(runDir, 'export'));
    expect(await listFiles(dir)).toEqual(first);
    for (const file of first) {
      expect(await readFile(join(dir, file.path)), file.path).toEqual(
        await readFile(join(runDir, 'export', file.path)),
      );
    }
  };

  it('on worker threads (users scanned and rows rendered off the main thread, parquet side by side)', async () => {
    const threads = join(root, 'threads');
    const result = await exportDataset(runDir, {
      config,
      seed: 42,
      outDir: threads,
      generation: { pipeline: 'test' },
      workers: 2,
    });
    expect({ ...result, files: [] }).toEqual({ ...summary, files: [] });
    await sameFiles(threads);
  }, 60_000);

  /** A copy of the run whose memory records are stored packed, each record passed through `edit`. */
  const packedCopy = async (name: string, edit: (record: Record<string, unknown>, i: number) => void) => {
    const packedRun = join(root, name);
    await cp(runDir, packedRun, { recursive: true });
    await rm(join(packedRun, 'export'), { recursive: true, force: true });
    const memoryFile = join(packedRun, 'memory', 'memory.jsonl');
    const stored = (await lines(memoryFile)).map((record, i) => {
      const packed = encodeUserMemoryRecord(record);
      edit(packed, i);
      return JSON.stringify(packed);
    });
    await writeFile(memoryFile, `${stored.join('\n')}\n`);
    return { packedRun, first: stored[0] as string };
  };

  it('from memory records stored packed (packed-v2, rows named from its index) instead of in full', async () => {
    const { packedRun, first } = await packedCopy('packed-run', () => {});
    expect(first).toContain('"packed":{"encoding":"packed-v2"');
    await exportDataset(packedRun, { config, seed: 42, generation: { pipeline: 'test' }, workers: 2 });
    await sameFiles(join(packedRun, 'export'));
  }, 60_000);

  it('from packed-v1 records (no index: the first pass decodes the traces)', async () => {
    const { packedRun } = await packedCopy('packed-v1-run', (record) => {
      record.packed = toPackedV1(record).packed;
    });
    await exportDataset(packedRun, { config, seed: 42, generation: { pipeline: 'test' } });
    await sameFiles(join(packedRun, 'export'));
  }, 60_000);

  it.each([
    [
      'leaves a trace out',
      (index: { traces: Array<[string, string]> }) => ({ ...index, traces: index.traces.slice(1) }),
      /indexes \d+ traces and holds \d+/,
    ],
    [
      'names a trace another id',
      (index: { traces: Array<[string, string]> }) => ({
        ...index,
        traces: index.traces.map(([id, task], i) => [i === 0 ? `${id}-renamed` : id, task]),
      }),
      /the index disagrees with its traces/,
    ],
  ])(
    'stops with the file and user named when a record index %s',
    async (_, lie, reason) => {
      let user = '';
      const { packedRun } = await packedCopy(`packed-lying-index-${reason.source.length}`, (record, i) => {
        if (i !== 1) return;
        user = String(record.userId);
        // Pass 1 names rows from the index; pass 2 finds the record's own traces.
        const packed = record.packed as Record<string, unknown>;
        packed.index = brotliCompressSync(JSON.stringify(lie(readPackedIndex(packed)!))).toString('base64');
      });
      const failed = exportDataset(packedRun, {
        config,
        seed: 42,
        generation: { pipeline: 'test' },
        workers: 2,
      });
      await expect(failed).rejects.toThrow(/memory[/\\]memory\.jsonl/);
      await expect(failed).rejects.toThrow(new RegExp(`user ${user}: `));
      await expect(failed).rejects.toThrow(reason);
      // Every file it had begun is given up: no temporary file is left, none still being written.
      const left = await readdir(join(packedRun, 'export'), { recursive: true });
      expect(left.filter((name) => name.endsWith('.tmp'))).toEqual([]);
      expect(left.filter((name) => /^(sft|rl)[/\\]/.test(name))).toEqual([]);
    },
    60_000,
  );
});

describe('rows ms-swift would train on wrongly', () => {
  it('are left out and listed with their reasons, the rest written', async () => {
    const broken = join(root, 'broken-rows');
    await cp(runDir, broken, { recursive: true });
    await rm(join(broken, 'export'), { recursive: true, force: true });
    const memoryFile = join(broken, 'memory', 'memory.jsonl');
    const records = await lines(memoryFile);
    // An empty target on every core_update trace: ms-swift would learn to say nothing.
    let emptied = 0;
    for (const record of records)
      for (const trace of record.traces)
        if (trace.task === 'core_update') {
          trace.gold.text = '';
          emptied++;
        }
    expect(emptied).toBeGreaterThan(0);
    await writeFile(memoryFile, `${records.map((record) => JSON.stringify(record)).join('\n')}\n`);
    const result = await exportDataset(broken, {
      config,
      seed: 42,
      generation: { pipeline: 'test' },
      workers: 2,
    });
    expect(result.rejectedRows.count).toBe(
      (summary.sft.train.core_update ?? 0) + (summary.sft.test.core_update ?? 0),
    );
    expect(result.rejectedRows.examples[0]?.reasons).toEqual(['message 2 (assistant) is empty']);
    expect(result.sft.train.core_update).toBeUndefined();
    expect(result.sft.train.reasoning).toBe(summary.sft.train.reasoning);
    const rows = await lines(join(broken, 'export', 'sft', 'train.jsonl'));
    expect(rows.some((row) => row.task === 'core_update')).toBe(false);
  }, 60_000);
});
