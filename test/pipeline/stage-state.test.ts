import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashOutputs, outputDigests, packageVersion } from '../../src/pipeline/manifest.js';
import { writeMarker, writtenByThisVersion } from '../../src/pipeline/stage-state.js';

let runDir: string;
const file = 'dialogues/dialogues.jsonl';

beforeAll(async () => {
  runDir = await mkdtemp(join(tmpdir(), 'pf-stage-state-'));
});
afterAll(async () => rm(runDir, { recursive: true, force: true }));

/** Writes the file, then a marker for it as the runner does (version and digests). */
async function stageWrote(text: string, version: string | undefined) {
  await mkdir(join(runDir, 'dialogues'), { recursive: true });
  await writeFile(join(runDir, file), text);
  await writeMarker(runDir, {
    stage: 'synth',
    fingerprint: 'f',
    in: 1,
    out: 1,
    quarantined: 0,
    offline: true,
    ...(version === undefined ? {} : { version }),
    files: await outputDigests(runDir, ['dialogues/dialogues.jsonl']),
  });
}

describe('writtenByThisVersion (records a later stage may read without their schemas)', () => {
  it('holds for a file this version wrote and nobody changed', async () => {
    await stageWrote('{"userId":"u1"}\n', await packageVersion());
    expect(await writtenByThisVersion(runDir, 'synth', file)).toBe(true);
  });

  it('fails for a file edited since, of the same size or not', async () => {
    await stageWrote('{"userId":"u1"}\n', await packageVersion());
    await writeFile(join(runDir, file), '{"userId":"u2"}\n');
    expect(await writtenByThisVersion(runDir, 'synth', file)).toBe(false);
    await writeFile(join(runDir, file), '{"userId":"u1","x":1}\n');
    expect(await writtenByThisVersion(runDir, 'synth', file)).toBe(false);
  });

  it('fails for another version, a marker of an older version (no version), or no marker', async () => {
    await stageWrote('{"userId":"u1"}\n', '0.0.0-other');
    expect(await writtenByThisVersion(runDir, 'synth', file)).toBe(false);
    await stageWrote('{"userId":"u1"}\n', undefined);
    expect(await writtenByThisVersion(runDir, 'synth', file)).toBe(false);
    expect(await writtenByThisVersion(runDir, 'plan', 'plan/plan.jsonl')).toBe(false);
  });
});

describe('hashOutputs (digests remembered within a process)', () => {
  it('hashes a file again after any write, even one right after it was hashed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hash-memo-'));
    try {
      const file = join(dir, 'records.jsonl');
      await writeFile(file, '{"a":1}\n');
      await new Promise((resolve) => setTimeout(resolve, 120));
      const first = await hashOutputs(dir, ['records.jsonl']);
      // Remembered: the same digest without a change.
      expect(await hashOutputs(dir, ['records.jsonl'])).toEqual(first);
      // Same size, written at once (file times move in coarse steps): still seen.
      await writeFile(file, '{"a":2}\n');
      const second = await hashOutputs(dir, ['records.jsonl']);
      expect(second['records.jsonl']).not.toBe(first['records.jsonl']);
      // Written, hashed and rewritten within one step of the file clock, many times over.
      for (let i = 0; i < 20; i++) {
        await writeFile(file, `{"b":${i % 10}}\n`);
        const before = await hashOutputs(dir, ['records.jsonl']);
        await writeFile(file, `{"c":${i % 10}}\n`);
        expect((await hashOutputs(dir, ['records.jsonl']))['records.jsonl']).not.toBe(
          before['records.jsonl'],
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
