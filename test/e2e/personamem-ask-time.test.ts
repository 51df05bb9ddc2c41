import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/eval/load.js';
import { runCli } from '../support/cli.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** Two persona-tree test users (380–440 rounds each), PersonaMem questions, no memory stage. */
const PIPELINE = `name: personamem-ask-time
seed: 42
stages: [plan, synth, validate, export]
personas:
  source: builtin
  train: 0
  test: 2
plan:
  profile: persona-tree
export:
  eval:
    splits: [test]
`;

interface Figure {
  value: number;
  target: number | null;
  count: number;
  of: number;
  ok: boolean | null;
}

describe('PersonaMem export through the binary', () => {
  it('asks PersonaMem questions once the history reaches 15,560 tokens, so none is left out and every context is in range', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-personamem-'));
    dirs.push(dir);
    await writeFile(join(dir, 'pipeline.yaml'), PIPELINE);
    const run = await runCli(dir, ['run', 'pipeline.yaml', '--out', 'out', '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const out = join(dir, 'out');

    // The plan asks each PersonaMem question after at least 15,560 / 70 = 223 planned rounds.
    const plans = (await readFile(join(out, 'plan/plan.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '')
      .map(
        (line) =>
          JSON.parse(line) as {
            sessions: Array<{ start: string; rounds: number }>;
            qa: Array<{ family: string; questionTime: string; question: string }>;
          },
      );
    const asked = plans.flatMap((plan) =>
      plan.qa
        .filter((qa) => qa.family === 'personamem')
        .map((qa) =>
          plan.sessions.filter((s) => s.start < qa.questionTime).reduce((sum, s) => sum + s.rounds, 0),
        ),
    );
    expect(asked.length).toBe(28);
    for (const rounds of asked) expect(rounds).toBeGreaterThanOrEqual(223);

    const { fidelity } = JSON.parse(await readFile(join(out, 'validation.json'), 'utf8')) as {
      fidelity: Record<string, Figure>;
    };
    expect(fidelity.personamem_questions_left_out).toMatchObject({ target: 5, ok: true, of: 28 });
    expect(fidelity.personamem_questions_left_out!.value).toBeLessThanOrEqual(5);
    expect(fidelity.personamem_left_out_history_too_short).toMatchObject({ ok: null, of: 28 });
    expect(fidelity.personamem_context_range).toMatchObject({ count: 0, ok: true });

    // Export writes every question it did not leave out, each context within the real range.
    const rows = parseCsv(await readFile(join(out, 'export/eval/personamem/questions.csv'), 'utf8')).filter(
      (row) => row.length > 1,
    );
    const header = rows.shift()!;
    const left = fidelity.personamem_questions_left_out!.count;
    expect(rows).toHaveLength(28 - left);
    const tokens = header.indexOf('context_length_in_tokens');
    for (const row of rows) {
      expect(Number(row[tokens])).toBeGreaterThanOrEqual(15_560);
      expect(Number(row[tokens])).toBeLessThanOrEqual(29_539);
    }
    const card = await readFile(join(out, 'export/README.md'), 'utf8');
    expect(card).toContain(
      `eval/personamem/questions.csv\` + \`shared_contexts.jsonl\`: ${28 - left} questions`,
    );
  }, 240_000);
});
