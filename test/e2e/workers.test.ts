import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runFiles } from '../support/cli.js';

/** The memory stage on worker threads (offline) writes the same bytes as in one thread. */
const repoRoot = resolve(import.meta.dirname, '../..');
let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'pf-workers-'));
  await writeFile(
    join(work, 'small.yaml'),
    `extends: ${join(repoRoot, 'pipelines/personavlm.yaml')}\npersonas:\n  train: 10\n  test: 4\n`,
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('--workers', () => {
  it('gives byte-identical outputs with 1 and with 3 worker threads', async () => {
    const one = await runCli(work, ['run', 'small.yaml', '--out', 'one', '--workers', '1', '--quiet']);
    expect(one.code, one.stderr).toBe(0);
    const three = await runCli(work, ['run', 'small.yaml', '--out', 'three', '--workers', '3', '--quiet']);
    expect(three.code, three.stderr).toBe(0);
    const a = await runFiles(join(work, 'one'));
    const b = await runFiles(join(work, 'three'));
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [path, bytes] of a) expect(b.get(path)?.equals(bytes), path).toBe(true);
    expect(a.get('memory/memory.jsonl')?.length).toBeGreaterThan(100_000);
  }, 180_000);
});
