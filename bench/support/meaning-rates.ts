/**
 * Rates of the meaning reader on a labelled statement set (test/fixtures/meaning/*.jsonl):
 * false contradictions and unsure on statements that agree, misses on statements that
 * contradict, per category; alone, and with a judge deciding what the reader flags.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { readMeaning } from '../../src/synth/meaning/index.js';
import type { MeaningReading } from '../../src/synth/meaning/types.js';

export const LabelledStatement = z
  .object({
    id: z.string(),
    category: z.string(),
    label: z.enum(['agrees', 'contradicts']),
    text: z.string(),
    expectations: z.array(
      z.object({
        item: z.string(),
        keywords: z.array(z.string()).min(1),
        polarity: z.enum(['like', 'dislike']),
        ended: z.boolean(),
        condition: z.string().nullable(),
      }),
    ),
  })
  .strict();
export type LabelledStatement = z.infer<typeof LabelledStatement>;

export function loadStatements(path: string): LabelledStatement[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const parsed = LabelledStatement.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${path}:${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

/** A judge's verdict on the readings the reader flagged (unsure or contradicts). */
export type Judge = (statement: LabelledStatement, flagged: MeaningReading[]) => 'agrees' | 'contradicts';

/** The statement-level outcome: contradicts if any expectation contradicts, else unsure if any is unsure. */
export function outcome(
  statement: LabelledStatement,
  judge?: Judge,
): { verdict: 'agrees' | 'contradicts' | 'unsure'; readings: MeaningReading[] } {
  const readings = readMeaning(statement.text, statement.expectations);
  const flagged = readings.filter((r) => r.verdict !== 'agrees');
  if (judge !== undefined && flagged.length > 0) return { verdict: judge(statement, flagged), readings };
  if (readings.some((r) => r.verdict === 'contradicts')) return { verdict: 'contradicts', readings };
  if (readings.some((r) => r.verdict === 'unsure')) return { verdict: 'unsure', readings };
  return { verdict: 'agrees', readings };
}

export interface Rates {
  agreeing: number;
  contradicting: number;
  /** `contradicts` on statements that agree. */
  falseContradiction: number;
  /** Not `contradicts` on statements that contradict. */
  miss: number;
  /** `unsure` on statements that agree. */
  unsureOnAgreeing: number;
  /** `unsure` on statements that contradict (a miss the judge can still catch). */
  unsureOnContradicting: number;
}

const rate = (n: number, d: number) => (d === 0 ? 0 : Math.round((n / d) * 1000) / 1000);

export function rates(
  statements: readonly LabelledStatement[],
  judge?: Judge,
): { overall: Rates; byCategory: Record<string, Rates> } {
  const tally = new Map<string, { a: number; c: number; fc: number; miss: number; ua: number; uc: number }>();
  for (const statement of statements) {
    const { verdict } = outcome(statement, judge);
    for (const key of ['all', statement.category]) {
      const t = tally.get(key) ?? { a: 0, c: 0, fc: 0, miss: 0, ua: 0, uc: 0 };
      if (statement.label === 'agrees') {
        t.a++;
        if (verdict === 'contradicts') t.fc++;
        if (verdict === 'unsure') t.ua++;
      } else {
        t.c++;
        if (verdict !== 'contradicts') t.miss++;
        if (verdict === 'unsure') t.uc++;
      }
      tally.set(key, t);
    }
  }
  const toRates = (t: { a: number; c: number; fc: number; miss: number; ua: number; uc: number }): Rates => ({
    agreeing: t.a,
    contradicting: t.c,
    falseContradiction: rate(t.fc, t.a),
    miss: rate(t.miss, t.c),
    unsureOnAgreeing: rate(t.ua, t.a),
    unsureOnContradicting: rate(t.uc, t.c),
  });
  const byCategory: Record<string, Rates> = {};
  for (const [key, t] of tally) if (key !== 'all') byCategory[key] = toRates(t);
  return { overall: toRates(tally.get('all')!), byCategory };
}

/**
 * The fake model's judge on a labelled set: it knows what the statement was written to say (the
 * label), as `dev fake-llm`'s judge knows which statements it planted as contradictions.
 */
export const labelJudge: Judge = (statement) => statement.label;
