/**
 * The meaning reader (src/synth/meaning/) on text no part of the project wrote: the hand-labelled
 * paraphrase set in test/fixtures/meaning, the issue's own examples, and the offline quickstart
 * corpus the shipped binary writes (where `unsure` must never happen).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { labelJudge, loadStatements, rates } from '../../bench/support/meaning-rates.js';
import { type MeaningExpectation, meaningProblems, readMeaning } from '../../src/index.js';
import type { UserPlan } from '../../src/schemas/plan.js';
import { slotExpectations } from '../../src/synth/meaning/index.js';
import { runCli } from '../support/cli.js';

const repoRoot = resolve(import.meta.dirname, '../..');
const fixtures = join(repoRoot, 'test/fixtures/meaning');
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const like = (
  item: string,
  keyword: string,
  extra: Partial<MeaningExpectation> = {},
): MeaningExpectation => ({
  item,
  keywords: [keyword],
  polarity: 'like',
  ended: false,
  condition: null,
  ...extra,
});

describe('readMeaning', () => {
  it('accepts what a chat model says naturally', () => {
    const cases: Array<[string, MeaningExpectation[]]> = [
      [
        'Cilantro tastes like soap to me, so I keep it off my plate.',
        [like('cilantro', 'cilantro', { polarity: 'dislike' })],
      ],
      [
        "I've gone right off coffee, it makes me jittery.",
        [like('black americano', 'coffee', { ended: true })],
      ],
      [
        "I've swapped my morning coffee for green tea.",
        [like('coffee', 'coffee', { ended: true }), like('green tea', 'green tea')],
      ],
      [
        "Whenever I'm on the road for work, I stick to light salads.",
        [like('salad bowls for lunch', 'salad', { condition: 'when travelling for work' })],
      ],
    ];
    for (const [text, expectations] of cases)
      expect(
        readMeaning(text, expectations).map((r) => r.verdict),
        text,
      ).toEqual(expectations.map(() => 'agrees'));
  });

  it('holds the user, not another person, to the stance, and quotes the clause it read', () => {
    const [reading] = readMeaning("My brother is obsessed with sushi, I've never really tried it.", [
      like('salmon sushi', 'sushi'),
    ]);
    expect(reading).toMatchObject({ verdict: 'contradicts', clause: "I've never really tried it" });
    expect(
      readMeaning('My sister can’t stand sushi, but I could eat it every day.', [
        like('salmon sushi', 'sushi'),
      ])[0],
    ).toMatchObject({ verdict: 'agrees' });
  });

  it('reads tense and aspect: what ended, what still holds', () => {
    const ended = like('tonkotsu ramen', 'ramen', { ended: true });
    expect(readMeaning('I used to love ramen, but that phase is over.', [ended])[0]!.verdict).toBe('agrees');
    expect(readMeaning('Ramen is still my absolute favorite.', [ended])[0]!.verdict).toBe('contradicts');
  });

  it('finds a condition by meaning and catches one that is excluded', () => {
    const expectation = like('spicy Sichuan hotpot', 'hotpot', { condition: 'when stressed' });
    expect(
      readMeaning('When work piles up, a spicy hotpot is exactly what I crave.', [expectation])[0]!.verdict,
    ).toBe('agrees');
    expect(readMeaning("Hotpot is great, except when I'm stressed.", [expectation])[0]!.verdict).toBe(
      'contradicts',
    );
  });

  it('is unsure, never wrong, when it finds no reading; meaningProblems reports only contradictions and absences', () => {
    const expectation = like('salmon sushi', 'sushi');
    expect(readMeaning('We talked about sushi for a while.', [expectation])[0]!.verdict).toBe('unsure');
    expect(meaningProblems('We talked about sushi for a while.', [expectation])).toEqual([]);
    expect(meaningProblems('I had a quiet day.', [expectation])).toEqual(['"salmon sushi" is not mentioned']);
  });
});

describe('the paraphrase set (test/fixtures/meaning)', () => {
  const statements = loadStatements(join(fixtures, 'paraphrases.jsonl'));

  it('holds at least 300 labelled statements of every category', () => {
    expect(statements.length).toBeGreaterThanOrEqual(300);
    const categories = new Set(statements.map((s) => s.category));
    expect([...categories].sort()).toEqual(['condition', 'dislike', 'drift', 'ended', 'like', 'others']);
    for (const category of categories)
      for (const label of ['agrees', 'contradicts'])
        expect(
          statements.some((s) => s.category === category && s.label === label),
          `${category}/${label}`,
        ).toBe(true);
  });

  it('reader alone: contradicts on agreeing ≤ 5%, misses ≤ 5%, unsure on agreeing ≤ 20%', () => {
    const { overall } = rates(statements);
    expect(overall.falseContradiction).toBeLessThanOrEqual(0.05);
    expect(overall.miss).toBeLessThanOrEqual(0.05);
    expect(overall.unsureOnAgreeing).toBeLessThanOrEqual(0.2);
  });

  it('with the fake judge deciding what the reader flags: ≤ 2% and ≤ 2%', () => {
    const { overall } = rates(statements, labelJudge);
    expect(overall.falseContradiction).toBeLessThanOrEqual(0.02);
    expect(overall.miss).toBeLessThanOrEqual(0.02);
  });
});

describe('the held-out statements (test/fixtures/meaning/held-out.jsonl)', () => {
  it('meet the same bounds: alone ≤ 5%, ≤ 5%, ≤ 20%; with the fake judge ≤ 2%, ≤ 2%', () => {
    const statements = loadStatements(join(fixtures, 'held-out.jsonl'));
    expect(statements.length).toBeGreaterThanOrEqual(50);
    const alone = rates(statements).overall;
    expect([alone.falseContradiction, alone.miss, alone.unsureOnAgreeing]).toSatisfy(
      ([fc, miss, unsure]: number[]) => fc! <= 0.05 && miss! <= 0.05 && unsure! <= 0.2,
    );
    const judged = rates(statements, labelJudge).overall;
    expect(judged.falseContradiction).toBeLessThanOrEqual(0.02);
    expect(judged.miss).toBeLessThanOrEqual(0.02);
  });
});

describe('the offline quickstart corpus', () => {
  it('reads every preference and drift turn the offline realizer wrote as agreeing, never unsure', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'pf-meaning-'));
    dirs.push(dir);
    const pipeline = join(dir, 'pipeline.yaml');
    await writeFile(
      pipeline,
      `extends: ${join(repoRoot, 'pipelines/quickstart.yaml')}\nstages: [plan, synth]\n`,
    );
    const out = join(dir, 'run');
    const run = await runCli(dir, ['run', pipeline, '--out', out, '--quiet']);
    expect(run.code, run.stderr).toBe(0);
    const lines = async (rel: string) =>
      (await readFile(join(out, rel), 'utf8'))
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line));
    const plans = new Map<string, UserPlan>(
      (await lines('plan/plan.jsonl')).map((p: UserPlan) => [p.userId, p]),
    );
    const verdicts: Record<string, number> = { agrees: 0, contradicts: 0, unsure: 0 };
    const wrong: string[] = [];
    for (const dialogue of await lines('dialogues/dialogues.jsonl')) {
      const plan = plans.get(dialogue.userId)!;
      const slots = new Map(plan.slots.map((slot) => [slot.id, slot]));
      for (const session of dialogue.sessions)
        for (const turn of session.turns)
          for (const id of turn.slots as string[]) {
            const slot = slots.get(id)!;
            if (slot.kind !== 'preference' && slot.kind !== 'drift') continue;
            for (const reading of readMeaning(turn.text, slotExpectations(plan, slot))) {
              verdicts[reading.verdict]!++;
              if (reading.verdict !== 'agrees')
                wrong.push(`${turn.text} → ${reading.verdict}: ${reading.reason}`);
            }
          }
    }
    expect(verdicts.agrees).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
  }, 300_000);
});
