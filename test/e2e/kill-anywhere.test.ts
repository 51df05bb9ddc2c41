import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { createRng } from '../../src/util/rng.js';
import { runFiles } from '../support/cli.js';

/**
 * `kill -9` at seeded random moments across every stage of pipelines/personavlm.yaml (fewer
 * users), each followed by the same command again: the directory ends with exactly the files and
 * bytes of an uninterrupted run — no stray temporary file, nothing duplicated or missing.
 *
 * A kill is anchored to the run's own progress (`--json` events), not to the clock: "during
 * stage S, a random fraction of the way through it as the reference run timed it". On a loaded
 * machine a stage only gets slower, so the kill still lands inside it.
 *
 * The kills come in chains on one directory: the command run again after a kill in stage S is
 * itself killed in a later stage T (T starts fresh in that invocation, after it finished what S
 * left), and the last one runs to the end. Every kill is still followed by the same command, and
 * each chain ends compared with the uninterrupted run, for a third of the runs of one directory
 * per kill.
 */
const repoRoot = resolve(import.meta.dirname, '../..');
const BIN = join(repoRoot, 'bin/persona-forge.js');
let work: string;
afterAll(async () => {
  if (work !== undefined) await rm(work, { recursive: true, force: true });
});

/** Where a kill lands: after `event` (of `stage`), `delayMs` later. */
interface KillAt {
  event: 'run-start' | 'stage-start' | 'stage-end';
  stage?: string;
  delayMs: number;
}

interface RunResult {
  code: number | null;
  killed: boolean;
  /** ms from spawn to each event, `type:stage`. */
  events: Map<string, number>;
}

function run(pipeline: string, out: string, kill?: KillAt): Promise<RunResult> {
  return new Promise((done, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'run', pipeline, '--out', out, '--json'], {
      cwd: work,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let killed = false;
    let timer: NodeJS.Timeout | undefined;
    const events = new Map<string, number>();
    createInterface({ input: child.stdout }).on('line', (line) => {
      let event: { type?: string; stage?: string };
      try {
        event = JSON.parse(line);
      } catch {
        return;
      }
      const key = `${event.type}:${event.stage ?? ''}`;
      if (!events.has(key)) events.set(key, Date.now() - started);
      if (
        kill !== undefined &&
        timer === undefined &&
        event.type === kill.event &&
        (kill.stage ?? '') === (event.stage ?? '')
      ) {
        timer = setTimeout(() => {
          killed = child.kill('SIGKILL');
        }, kill.delayMs);
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (!killed && code !== 0) reject(new Error(`run exited ${code}: ${stderr}`));
      else done({ code, killed, events });
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
    const { events } = await run(pipeline, reference);
    const want = await files(reference);
    const stages = ['plan', 'synth', 'memory', 'validate', 'export', 'report'];
    for (const stage of stages) expect(events.has(`stage-end:${stage}`), stage).toBe(true);
    const span = (stage: string) =>
      Math.max(1, (events.get(`stage-end:${stage}`) ?? 0) - (events.get(`stage-start:${stage}`) ?? 0));
    const rng = createRng(11, 'kill-moments');
    // Start-up (before the first stage), inside every stage (the long ones twice), and the final
    // writes after the last stage.
    const moments: KillAt[] = [
      { event: 'run-start', delayMs: 0 },
      ...['plan', 'synth', 'memory', 'memory', 'validate', 'export', 'export', 'report'].map((stage) => ({
        event: 'stage-start' as const,
        stage,
        // Within the first half of the reference's span: a resumed stage may run faster than the
        // reference's first, cold one, and a kill after its end would not land.
        delayMs: Math.round(rng.next() * 0.5 * span(stage)),
      })),
      { event: 'stage-end', stage: 'report', delayMs: 0 },
    ];
    // Two chains, so that each kill lands in a stage its invocation starts from the beginning.
    const chains = [moments.filter((_, i) => i !== 4 && i !== 7), [moments[4], moments[7]]] as KillAt[][];
    expect(chains.flat()).toHaveLength(moments.length);
    let kills = 0;
    for (const [c, chain] of chains.entries()) {
      const dir = join(work, `killed-${c}`);
      const where = chain.map((at) => `${at.event} ${at.stage ?? ''} +${at.delayMs} ms`).join(', ');
      for (const at of chain) {
        const killed = await run(pipeline, dir, at);
        if (killed.killed) kills++;
      }
      await run(pipeline, dir);
      const got = await files(dir);
      expect([...got.keys()].sort(), where).toEqual([...want.keys()].sort());
      for (const [rel, bytes] of want)
        expect(got.get(rel)?.equals(bytes), `${rel} after kills at ${where}`).toBe(true);
      const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
      expect(manifest.status).toBe('complete');
      expect(Object.keys(manifest.files).sort()).toEqual([...want.keys()].sort());
      await rm(dir, { recursive: true, force: true });
    }
    expect(kills).toBeGreaterThanOrEqual(9);
  }, 300_000);
});
