import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/util/rng.js';
import { runFiles } from '../support/cli.js';

/**
 * `kill -9` at seeded random moments across every stage of pipelines/personavlm.yaml (fewer
 * users), each followed by the same command again: the directory ends with exactly the files and
 * bytes of an uninterrupted run — no stray temporary file, nothing duplicated or missing.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
let work: string;
afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

function run(
  pipeline: string,
  out: string,
  killAfterMs?: number,
): Promise<{ code: number | null; killed: boolean }> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [BIN, 'run', pipeline, '--out', out, '--quiet'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let killed = false;
    const timer =
      killAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            killed = child.kill('SIGKILL');
          }, killAfterMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!killed && code !== 0) reject(new Error(`run exited ${code}: ${stderr}`));
      else done({ code, killed });
    });
  });
}

const files = runFiles;

describe('kill -9 anywhere, then the same command again', () => {
  it('10 kills spread across all stages of personavlm.yaml, each resumed, end equal to an uninterrupted run', async () => {
    work = await mkdtemp(join(tmpdir(), 'pf-kill-any-'));
    const pipeline = join(work, 'personavlm-small.yaml');
    await writeFile(
      pipeline,
      `extends: ${join(repoRoot, 'pipelines/personavlm.yaml')}\npersonas:\n  train: 4\n  test: 2\n`,
    );
    const reference = join(work, 'reference');
    const started = Date.now();
    await run(pipeline, reference);
    const duration = Date.now() - started;
    const want = await files(reference);
    const rng = createRng(11, 'kill-moments');
    let kills = 0;
    for (let i = 0; i < 10; i++) {
      // Ten moments spread over the whole run (start-up, every stage, the final writes), jittered.
      const at = Math.round(((i + rng.next()) / 10) * duration);
      const dir = join(work, `killed-${i}`);
      const first = await run(pipeline, dir, Math.max(50, at));
      if (first.killed) kills++;
      await run(pipeline, dir);
      const got = await files(dir);
      expect([...got.keys()].sort(), `kill at ${at} ms`).toEqual([...want.keys()].sort());
      for (const [rel, bytes] of want)
        expect(got.get(rel)?.equals(bytes), `${rel} after a kill at ${at} ms`).toBe(true);
      const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
      expect(manifest.status).toBe('complete');
      expect(Object.keys(manifest.files).sort()).toEqual([...want.keys()].sort());
      await rm(dir, { recursive: true, force: true });
    }
    expect(kills).toBeGreaterThanOrEqual(9);
  }, 240_000);
});
