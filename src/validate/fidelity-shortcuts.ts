/**
 * Shortcuts a model could learn instead of remembering the user, measured over the whole corpus
 * (issue 27, items 6 and 13):
 * - a profile field in a question's system prompt that decides its answer: over the corpus, the
 *   rows of a task that show the same value of a field (leaving the row itself out) agree on
 *   the answer in ≥ 90% of rows — `education:` deciding tiered explanation, say;
 * - the question-only baseline: on test users, the majority train answer of the question's
 *   template (its task) scores no better than chance + 5 points;
 * - prompts that list a preference the user no longer holds at question time;
 * - the question-only lexical baseline (fidelity-lexical.ts): the option sharing most content
 *   words with the question, on every closed question.
 * Nothing here reads a word list: the figures come from the answers themselves (the lexical
 * baseline reads with wink-nlp's model, no list of this project's).
 */
import { questionProfile } from '../export/question-profile.js';
import { snapshotAt } from '../export/render.js';
import { promptSnapshotTime } from '../export/samples.js';
import type { QaTarget } from '../schemas/plan.js';
import type { FidelityFigure } from './fidelity-figures.js';
import { defect } from './fidelity-figures.js';
import { addLexical, type LexicalPartial, lexicalFigure, measureLexical } from './fidelity-lexical.js';
import type { UserIndex } from './types.js';

/** One user's contribution (structured-cloneable). */
export interface ShortcutPartial {
  /** `task \t field \t value \t answer` → rows. */
  fields: Array<[string, number]>;
  /** `task \t answer` → rows of train users; test rows as [task, answer, chance]. */
  train: Array<[string, number]>;
  test: Array<[string, string, number]>;
  promptRows: number;
  staleRows: number;
  /** The lexical baseline per task (fidelity-lexical.ts). */
  lexical: LexicalPartial;
}

const SEP = '\t';
/** The answer as its text (an option's words, not its letter). */
const answerText = (qa: QaTarget) =>
  (qa.answerType === 'open' ? qa.answer : (qa.choices[qa.correctIndex ?? 0] ?? qa.answer))
    .trim()
    .toLowerCase();

/** Measures one user: the prompt each question shows, its fields, and its template's answer. */
export function measureShortcuts(index: UserIndex): ShortcutPartial {
  const { plan, memory } = index.bundle;
  const fields = new Map<string, number>();
  const train = new Map<string, number>();
  const test: ShortcutPartial['test'] = [];
  let promptRows = 0;
  let staleRows = 0;
  for (const qa of plan.qa) {
    if (qa.answerType === 'open') continue;
    const answer = answerText(qa);
    if (plan.split === 'test') test.push([qa.task, answer, 1 / Math.max(1, qa.choices.length)]);
    else if (plan.split === 'train')
      train.set(`${qa.task}${SEP}${answer}`, (train.get(`${qa.task}${SEP}${answer}`) ?? 0) + 1);
    if (memory === null) continue;
    const profile = questionProfile(snapshotAt(memory.snapshots, promptSnapshotTime(plan, qa)), plan, qa);
    promptRows++;
    for (const line of profile.split('\n')) {
      const match = /^([a-zA-Z_]+): (.+)$/.exec(line);
      if (match === null) continue;
      const key = [qa.task, match[1], match[2]!.toLowerCase(), answer].join(SEP);
      fields.set(key, (fields.get(key) ?? 0) + 1);
      if (match[1] === 'preferences' && listsDropped(index, match[2]!, qa.questionTime)) staleRows++;
    }
  }
  return {
    fields: [...fields],
    train: [...train],
    test,
    promptRows,
    staleRows,
    lexical: measureLexical(plan.qa),
  };
}

/** Whether a prompt's preference list names an item the user stopped holding before `iso` and does not hold at `iso`. */
function listsDropped(index: UserIndex, list: string, iso: string): boolean {
  const lower = list.toLowerCase();
  const held = index.bundle.plan.preferences.filter(
    (p) => p.validFrom <= iso && (p.validUntil === null || p.validUntil > iso),
  );
  return index.bundle.plan.preferences.some(
    (p) =>
      p.validUntil !== null &&
      p.validUntil <= iso &&
      lower.includes(p.item.toLowerCase()) &&
      !held.some((h) => h.item.toLowerCase() === p.item.toLowerCase()) &&
      // The entry says the old stance ("likes X" for a like that ended).
      lower.includes(`${p.polarity === 'like' ? 'likes' : 'dislikes'} ${p.item.toLowerCase()}`),
  );
}

/** Folds partials (in user order) and gives the figures. */
export function createShortcutMeter() {
  const fields = new Map<string, number>();
  const train = new Map<string, number>();
  const test: ShortcutPartial['test'] = [];
  let promptRows = 0;
  let staleRows = 0;
  const lexical = new Map<string, [number, number, number]>();
  return {
    add(partial: ShortcutPartial): void {
      addLexical(lexical, partial.lexical);
      for (const [key, count] of partial.fields) fields.set(key, (fields.get(key) ?? 0) + count);
      for (const [key, count] of partial.train) train.set(key, (train.get(key) ?? 0) + count);
      test.push(...partial.test);
      promptRows += partial.promptRows;
      staleRows += partial.staleRows;
    },
    finish(): Record<string, FidelityFigure> {
      const deciding = decidingFields(fields);
      const figures: Record<string, FidelityFigure> = {
        prompt_field_decides_answer: defect(
          `question rows whose prompt shows a profile field that decides the answer (same value → same answer in ≥ 90% of a task's other rows)${deciding.names.length > 0 ? `: ${deciding.names.slice(0, 5).join(', ')}` : ''}`,
          deciding.rows,
          promptRows,
          0,
        ),
        prompt_stale_preferences: defect(
          'question rows whose prompt lists a preference the user no longer holds at question time',
          staleRows,
          promptRows,
          0,
        ),
      };
      if (test.length > 0) figures.question_only_baseline = baselineFigure(train, test);
      const lexicalBaseline = lexicalFigure(lexical);
      if (lexicalBaseline !== null) figures.question_only_lexical = lexicalBaseline;
      return figures;
    },
  };
}

/** (task, field) pairs whose value predicts the answer leave-one-out in ≥ 90% of ≥ 20 rows. */
function decidingFields(counts: ReadonlyMap<string, number>): { rows: number; names: string[] } {
  // task → field → value → answer → rows
  const tree = new Map<string, Map<string, Map<string, Map<string, number>>>>();
  for (const [key, count] of counts) {
    const [task, field, value, answer] = key.split(SEP) as [string, string, string, string];
    const byField = tree.get(task) ?? new Map();
    tree.set(task, byField);
    const byValue = byField.get(field) ?? new Map();
    byField.set(field, byValue);
    const byAnswer = byValue.get(value) ?? new Map();
    byValue.set(value, byAnswer);
    byAnswer.set(answer, (byAnswer.get(answer) ?? 0) + count);
  }
  let rows = 0;
  const names: string[] = [];
  for (const [task, byField] of tree)
    for (const [field, byValue] of byField) {
      let total = 0;
      let predicted = 0;
      let right = 0;
      const answers = new Map<string, number>();
      for (const byAnswer of byValue.values()) {
        const n = [...byAnswer.values()].reduce((a, b) => a + b, 0);
        total += n;
        for (const [answer, k] of byAnswer) answers.set(answer, (answers.get(answer) ?? 0) + k);
        if (n < 2) continue;
        // Leave one out: a row is predicted by the other rows of its value.
        for (const [answer, k] of byAnswer) {
          predicted += k;
          const others = new Map(byAnswer);
          others.set(answer, k - 1);
          const top = Math.max(...others.values());
          if ((others.get(answer) ?? 0) === top && top > 0) right += k;
        }
      }
      // A field decides when its value predicts far better than the task's commonest answer does.
      const base = Math.max(...answers.values()) / total;
      const rate = predicted === 0 ? 0 : right / predicted;
      if (byValue.size < 2 || answers.size < 2 || predicted < 20 || rate < 0.9 || rate < base + 0.2) continue;
      rows += total;
      names.push(`${field} → ${task}`);
    }
  return { rows, names };
}

/** The question-only baseline's accuracy above chance (points) on test users' closed questions. */
function baselineFigure(train: ReadonlyMap<string, number>, test: ShortcutPartial['test']): FidelityFigure {
  const majority = new Map<string, { answer: string; n: number }>();
  for (const [key, n] of train) {
    const [task, answer] = key.split(SEP) as [string, string];
    const best = majority.get(task);
    if (best === undefined || n > best.n || (n === best.n && answer < best.answer))
      majority.set(task, { answer, n });
  }
  let right = 0;
  let chance = 0;
  for (const [task, answer, p] of test) {
    if (majority.get(task)?.answer === answer) right++;
    chance += p;
  }
  const accuracy = (right / test.length) * 100;
  const expected = (chance / test.length) * 100;
  const value = Math.round((accuracy - expected) * 10) / 10;
  return {
    description: `question-only baseline (majority train answer of the question's task) on test closed questions, points above chance (accuracy ${accuracy.toFixed(1)}%, chance ${expected.toFixed(1)}%)`,
    value,
    unit: '%',
    target: 5,
    kind: 'max',
    tolerance: null,
    count: right,
    of: test.length,
    ok: value <= 5,
  };
}
