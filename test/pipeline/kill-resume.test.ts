import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');
const script = join(repoRoot, 'test/support/run-test-pipeline.ts');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Runs the test pipeline; with `killAfterJournaled`, kill -9s it once that many synth users are journaled. */
function runChild(
  outDir: string,
  delayMs: number,
  killAfterJournaled?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolvePromise, reject) => {
    // `node --import tsx` (not the tsx CLI, which runs the script in a child process that a kill
    // of the CLI would orphan): the kill reaches the process doing the work.
    const child = spawn(process.execPath, ['--import', 'tsx', script, outDir, String(delayMs)], {
      cwd: repoRoot,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const journal = join(outDir, '.state/synth.journal.jsonl');
    const timer =
      killAfterJournaled === undefined
        ? undefined
        : setInterval(async () => {
            const text = await readFile(journal, 'utf8').catch(() => '');
            if (text.split('\n').length - 1 >= killAfterJournaled) child.kill('SIGKILL');
          }, 10);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      resolvePromise({ code, signal });
    });
  });
}

async function outputs(dir: string): Promise<string[]> {
  return Promise.all(
    ['plan/plan.jsonl', 'dialogues/dialogues.jsonl', 'validation.json', 'quarantine.jsonl'].map((rel) =>
      readFile(join(dir, rel), 'utf8'),
    ),
  );
}

describe('resume after kill -9', () => {
  it('ends byte-identical to an uninterrupted run, with nothing duplicated or missing', async () => {
    const reference = await mkdtemp(join(tmpdir(), 'pf-kill-ref-'));
    const killed = await mkdtemp(join(tmpdir(), 'pf-kill-'));
    dirs.push(reference, killed);
    expect((await runChild(reference, 0)).code).toBe(0);
    const first = await runChild(killed, 80, 3);
    expect(first.signal).toBe('SIGKILL');
    const journal = await readFile(join(killed, '.state/synth.journal.jsonl'), 'utf8');
    const done = journal.split('\n').filter((l) => l.trim() !== '').length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(60);
    expect((await runChild(killed, 0)).code).toBe(0);
    expect(await outputs(killed)).toEqual(await outputs(reference));
    const dialogues = (await readFile(join(killed, 'dialogues/dialogues.jsonl'), 'utf8')).trim().split('\n');
    expect(new Set(dialogues.map((l) => JSON.parse(l).userId)).size).toBe(59);
  });
});
