/**
 * Answer-form baselines (issue 27, item 13: a question must need what it claims to test): a
 * picker that reads only the options' form, never the user's history, must not beat chance
 * on any task. Three pickers, each judged per task on all closed questions of the run:
 * - the longest option, and the shortest (when one is strictly so);
 * - the odd form out: the one option whose punctuation skeleton ("->", ",", "—") differs from
 *   the other options', which all share one;
 * - the commonest gold of the task, leave-one-out (a fixed option set whose golds lean to one
 *   option teaches that option: "Unknown" for a third of goal questions).
 * A task fails when the best picker's 95% Wilson lower bound is more than 5 points above
 * chance, on at least {@link MIN_QUESTIONS} questions. Nothing here reads a word list.
 */
import type { QaTarget } from '../schemas/plan.js';
import type { FidelityFigure } from './fidelity-figures.js';
import type { UserIndex } from './types.js';

/** Questions a task needs before it is judged (fewer give an interval wider than the margin). */
export const MIN_QUESTIONS = 30;
/** Points over chance the best form picker may reach (at the interval's lower bound). */
const MARGIN = 5;
const SEP = '\t';

/** Per task: [questions, sum of chance, longest hits, shortest hits, odd-form hits]. */
type Row = [number, number, number, number, number];

/** One user's rows per task, and `task \t answer` → golds. */
export interface OptionFormPartial {
  tasks: Array<[string, Row]>;
  golds: Array<[string, number]>;
}

/** The option's punctuation skeleton: what is left without letters, digits, spaces and apostrophes. */
const skeleton = (option: string): string => option.replace(/[\p{L}\p{N}\s'’]/gu, '');

/** The index of the strictly longest option (`shortest`: the strictly shortest), or -1. */
export function lengthPick(choices: readonly string[], shortest = false): number {
  const lengths = choices.map((choice) => choice.trim().length);
  const top = shortest ? Math.min(...lengths) : Math.max(...lengths);
  return lengths.filter((length) => length === top).length === 1 ? lengths.indexOf(top) : -1;
}

/** The index of the one option whose form differs from all the others' shared form, or -1. */
export function oddFormPick(choices: readonly string[]): number {
  const forms = choices.map(skeleton);
  const counts = new Map<string, number>();
  for (const form of forms) counts.set(form, (counts.get(form) ?? 0) + 1);
  if (counts.size !== 2 || choices.length < 3) return -1;
  return forms.findIndex((form) => counts.get(form) === 1);
}

const closed = (qa: QaTarget): boolean =>
  qa.answerType !== 'open' &&
  qa.choices.length >= 3 &&
  qa.correctIndex !== null &&
  qa.correctIndex !== undefined;

/** Measures one user's closed questions. */
export function measureOptionForm(index: UserIndex): OptionFormPartial {
  const tasks = new Map<string, Row>();
  const golds = new Map<string, number>();
  for (const qa of index.bundle.plan.qa) {
    if (!closed(qa)) continue;
    const row = tasks.get(qa.task) ?? [0, 0, 0, 0, 0];
    const correct = qa.correctIndex as number;
    row[0]++;
    row[1] += 1 / qa.choices.length;
    if (lengthPick(qa.choices) === correct) row[2]++;
    if (lengthPick(qa.choices, true) === correct) row[3]++;
    if (oddFormPick(qa.choices) === correct) row[4]++;
    tasks.set(qa.task, row);
    const gold = `${qa.task}${SEP}${(qa.choices[correct] ?? '').trim().toLowerCase()}`;
    golds.set(gold, (golds.get(gold) ?? 0) + 1);
  }
  return { tasks: [...tasks], golds: [...golds] };
}

/** Lower bound of the 95% Wilson interval of `hits` of `n`. */
export function wilsonLower(hits: number, n: number): number {
  if (n === 0) return 0;
  const z = 1.96;
  const p = hits / n;
  const centre = p + (z * z) / (2 * n);
  const spread = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return (centre - spread) / (1 + (z * z) / n);
}

/** Folds partials and gives the `option_form_baseline` figure. */
export function createOptionFormMeter() {
  const tasks = new Map<string, Row>();
  const golds = new Map<string, number>();
  return {
    add(partial: OptionFormPartial): void {
      for (const [task, row] of partial.tasks) {
        const sum = tasks.get(task) ?? [0, 0, 0, 0, 0];
        for (let i = 0; i < 5; i++) sum[i]! += row[i]!;
        tasks.set(task, sum);
      }
      for (const [key, n] of partial.golds) golds.set(key, (golds.get(key) ?? 0) + n);
    },
    finish(): Record<string, FidelityFigure> {
      if (tasks.size === 0) return {};
      // Leave-one-out commonest gold: a row of the commonest answer is predicted when, without
      // it, that answer still leads (ties to the runner-up count against it).
      const commonest = new Map<string, number>();
      const byTask = new Map<string, number[]>();
      for (const [key, n] of golds) {
        const task = key.slice(0, key.indexOf(SEP));
        byTask.set(task, [...(byTask.get(task) ?? []), n]);
      }
      for (const [task, counts] of byTask) {
        const sorted = [...counts].sort((a, b) => b - a);
        const top = sorted[0] ?? 0;
        const second = sorted[1] ?? 0;
        commonest.set(task, top - 1 > second ? top : 0);
      }
      const judged: Array<{
        task: string;
        n: number;
        hits: number;
        points: number;
        lower: number;
        picker: string;
      }> = [];
      for (const [task, [n, chance, longest, shortest, odd]] of tasks) {
        if (n < MIN_QUESTIONS) continue;
        const pickers: Array<[string, number]> = [
          ['longest option', longest],
          ['shortest option', shortest],
          ['odd form', odd],
          ['commonest gold', commonest.get(task) ?? 0],
        ];
        const [picker, hits] = pickers.reduce((best, next) => (next[1] > best[1] ? next : best));
        const base = (chance / n) * 100;
        judged.push({
          task,
          n,
          hits,
          picker,
          points: Math.round(((hits / n) * 100 - base) * 10) / 10,
          lower: wilsonLower(hits, n) * 100 - base,
        });
      }
      if (judged.length === 0) return {};
      judged.sort((a, b) => b.lower - a.lower || a.task.localeCompare(b.task));
      const worst = judged[0]!;
      const failing = judged.filter((row) => row.lower > MARGIN);
      const named = (failing.length > 0 ? failing : [worst])
        .slice(0, 4)
        .map((row) => `${row.task} +${row.points} (${row.picker}, ${row.hits} of ${row.n})`)
        .join('; ');
      return {
        option_form_baseline: {
          description: `closed questions answered by the options' form alone (longest or shortest option, odd punctuation, commonest gold), points above chance on the worst task of ≥ ${MIN_QUESTIONS} questions; fails when its 95% lower bound is > ${MARGIN} points: ${named}`,
          value: worst.points,
          unit: '%',
          target: MARGIN,
          kind: 'max',
          tolerance: null,
          count: worst.hits,
          of: worst.n,
          ok: failing.length === 0,
        },
      };
    },
  };
}
