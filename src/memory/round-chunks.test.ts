import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../test/support/cli.js';
import { UserMemory } from '../schemas/memory.js';
import { roundChunkEnds } from './round-chunks.js';

const turns = (speakers: string) => [...speakers].map((s) => ({ speaker: s === 'u' ? 'user' : 'assistant' }));

describe('PersonaTree windows of w rounds', () => {
  it('ends a window before the user turn that opens round w + 1', () => {
    expect([...roundChunkEnds(turns('uauauauaua'), 3)]).toEqual([5, 9]);
    // A session that opens with the assistant: it joins the first window.
    expect([...roundChunkEnds(turns('auauaua'), 3)]).toEqual([6]);
    expect([...roundChunkEnds(turns('uaauauaua'), 2)]).toEqual([4, 8]);
    expect([...roundChunkEnds(turns('ua'), 3)]).toEqual([1]);
  });

  it('every tree_ops window of a persona-tree run starts with the user and holds 1 to 3 rounds', async () => {
    const work = await mkdtemp(join(tmpdir(), 'pf-rounds-'));
    try {
      const repo = resolve(import.meta.dirname, '../..');
      await writeFile(
        join(work, 'p.yaml'),
        `extends: ${join(repo, 'pipelines/persona-tree.yaml')}\npersonas:\n  train: 3\n  test: 1\n`,
      );
      const run = await runCli(work, ['run', 'p.yaml', '--out', 'o', '--quiet']);
      expect(run.code, run.stderr).toBe(0);
      let windows = 0;
      for (const line of (await readFile(join(work, 'o/memory/memory.jsonl'), 'utf8')).trim().split('\n')) {
        const memory = UserMemory.parse(JSON.parse(line));
        for (const trace of memory.traces.filter((t) => t.task === 'tree_ops')) {
          const speakers = (trace.input.turns as Array<{ speaker: string }>).map((t) => t.speaker);
          const users = speakers.filter((s) => s === 'user').length;
          expect(users).toBeGreaterThanOrEqual(1);
          expect(users).toBeLessThanOrEqual(3);
          windows++;
        }
      }
      expect(windows).toBeGreaterThan(10);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 120_000);
});
