/**
 * The question-only lexical baseline (issue 27, "every question needs what it claims to test"):
 * a reader that sees a closed question and its options, never the user's history, and picks the
 * option sharing the most content words with the question (wink-nlp lemmas minus its stop words,
 * Porter stems; ties split the credit, so a tie of all options is chance). A question it answers
 * gives its answer away ("…something I'm working towards that involves five kilograms?" → "To lose
 * five kilograms"). Reported in points above chance over every closed question, per task too.
 */

import type { QaTarget } from '../schemas/plan.js';
import { contentStems } from '../util/content-words.js';
import type { FidelityFigure } from './fidelity-figures.js';

/** Per task: [task, credit (expected right picks), chance (expected by a blind pick), questions]. */
export type LexicalPartial = Array<[string, number, number, number]>;

/** Points above chance the baseline may score. */
export const LEXICAL_TARGET = 5;

/**
 * The baseline's expected credit on one question: 1 / (options tied at the top) when the gold is
 * among them, else 0; null for a question without options.
 *
 * @example lexicalPick({ question: 'What do I do every morning?', choices: ['Jogs every morning', 'Swims on Fridays'], correctIndex: 0 }) // 1
 */
export function lexicalPick(qa: Pick<QaTarget, 'question' | 'choices' | 'correctIndex'>): number | null {
  if (qa.choices.length < 2 || qa.correctIndex === null) return null;
  const asked = new Set(contentStems(qa.question));
  const scores = qa.choices.map((choice) => contentStems(choice).filter((stem) => asked.has(stem)).length);
  const top = Math.max(...scores);
  const tied = scores.filter((score) => score === top).length;
  return scores[qa.correctIndex] === top ? 1 / tied : 0;
}

/** One user's closed questions, folded per task. */
export function measureLexical(qas: readonly QaTarget[]): LexicalPartial {
  const byTask = new Map<string, [number, number, number]>();
  for (const qa of qas) {
    if (qa.answerType !== 'mc') continue;
    const credit = lexicalPick(qa);
    if (credit === null) continue;
    const row = byTask.get(qa.task) ?? [0, 0, 0];
    row[0] += credit;
    row[1] += 1 / qa.choices.length;
    row[2]++;
    byTask.set(qa.task, row);
  }
  return [...byTask].map(([task, [credit, chance, n]]) => [task, credit, chance, n]);
}

/** Adds `partial` into `total` (per task). */
export function addLexical(total: Map<string, [number, number, number]>, partial: LexicalPartial): void {
  for (const [task, credit, chance, n] of partial) {
    const row = total.get(task) ?? [0, 0, 0];
    row[0] += credit;
    row[1] += chance;
    row[2] += n;
    total.set(task, row);
  }
}

const points = (credit: number, chance: number, n: number) =>
  n === 0 ? 0 : Math.round(((credit - chance) / n) * 1000) / 10;

/** The figure: points above chance over all closed questions; the description names the worst tasks. */
export function lexicalFigure(total: ReadonlyMap<string, [number, number, number]>): FidelityFigure | null {
  let [credit, chance, n] = [0, 0, 0];
  for (const row of total.values()) {
    credit += row[0];
    chance += row[1];
    n += row[2];
  }
  if (n === 0) return null;
  const value = points(credit, chance, n);
  const worst = [...total]
    .map(([task, row]) => ({ task, value: points(...row), n: row[2] }))
    .sort((a, b) => b.value - a.value || (a.task < b.task ? -1 : 1))
    .slice(0, 3)
    .map((t) => `${t.task} ${t.value > 0 ? '+' : ''}${t.value} (${t.n})`);
  return {
    description: `question-only lexical baseline (the option sharing most content words with the question; ties split) on closed questions, points above chance (accuracy ${((credit / n) * 100).toFixed(1)}%, chance ${((chance / n) * 100).toFixed(1)}%); worst tasks: ${worst.join(', ')}`,
    value,
    unit: '%',
    target: LEXICAL_TARGET,
    kind: 'max',
    tolerance: null,
    count: Math.round(credit),
    of: n,
    ok: value <= LEXICAL_TARGET,
  };
}
