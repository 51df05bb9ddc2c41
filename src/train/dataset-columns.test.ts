import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tableFromArrays, tableToIPC } from 'apache-arrow';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleDataset } from './dataset-columns.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-ds-'));
  dirs.push(dir);
  return dir;
};

describe('sampleDataset', () => {
  it('reads the columns of the first jsonl rows (present in every row)', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.jsonl');
    writeFileSync(
      file,
      '{"messages":[],"solution":"a","x":1}\n{"messages":[],"solution":null}\n{"broken":\n',
    );
    await expect(sampleDataset(file, 2)).resolves.toEqual({ file, rowsRead: 2, columns: ['messages'] });
    await expect(sampleDataset(file, 5)).rejects.toThrowError(/a\.jsonl:3 is not valid JSON/);
  });

  it('reads parquet columns through parquet-wasm', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'a.parquet');
    const { Table, writeParquet } = await import('parquet-wasm');
    const arrow = tableFromArrays({ solution: ['a', 'b', 'c'], task: ['mc', 'mc', 'qa'] });
    writeFileSync(file, writeParquet(Table.fromIPCStream(tableToIPC(arrow, 'stream'))));
    const sample = await sampleDataset(file, 2);
    expect(sample.rowsRead).toBe(2);
    expect(sample.columns).toEqual(['solution', 'task']);
  });

  it('rejects a missing file', async () => {
    await expect(sampleDataset('/nonexistent/x.jsonl')).rejects.toThrowError(
      'dataset not found: /nonexistent/x.jsonl',
    );
  });
});
