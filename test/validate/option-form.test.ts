import { describe, expect, it } from 'vitest';
import type { QaTarget } from '../../src/schemas/plan.js';
import {
  createOptionFormMeter,
  lengthPick,
  MIN_QUESTIONS,
  measureOptionForm,
  oddFormPick,
  wilsonLower,
} from '../../src/validate/fidelity-option-form.js';
import type { UserIndex } from '../../src/validate/types.js';

/** A closed question whose gold is option `correct` of `choices`. */
const question = (task: string, choices: string[], correct: number): QaTarget =>
  ({
    task,
    answerType: 'mc',
    choices,
    correctIndex: correct,
    answer: choices[correct],
  }) as unknown as QaTarget;

const figureOf = (qa: QaTarget[]) => {
  const meter = createOptionFormMeter();
  meter.add(measureOptionForm({ bundle: { plan: { qa } } } as unknown as UserIndex));
  return meter.finish().option_form_baseline;
};

/** Four options of one form and near one length; the gold moves round them. */
const FAIR = [
  ['Karaoke nights', 'Board games', 'Jazz records', 'Pottery class'],
  ['Ski trips', 'City breaks', 'Beach huts', 'Road trips'],
  ['Green tea', 'Dark roast', 'Oat lattes', 'Hot cocoa'],
];

describe('option_form_baseline', () => {
  it('picks by form alone: the strictly longest, the strictly shortest, the odd punctuation', () => {
    expect(lengthPick(['a', 'bbb', 'cc'])).toBe(1);
    expect(lengthPick(['a', 'bbb', 'cc'], true)).toBe(0);
    expect(lengthPick(['aa', 'bb', 'c'])).toBe(-1);
    expect(
      oddFormPick(['likes tea -> no longer likes tea', 'likes tea', 'dislikes tea', 'likes coffee']),
    ).toBe(0);
    expect(oddFormPick(['a -> b', 'c -> d', 'e', 'f'])).toBe(-1);
    expect(wilsonLower(50, 100)).toBeCloseTo(0.404, 2);
  });

  it('passes a task whose golds follow no form', () => {
    const qa = Array.from({ length: 4 * MIN_QUESTIONS }, (_, i) =>
      question('recall', FAIR[i % FAIR.length]!, i % 4),
    );
    expect(figureOf(qa)).toMatchObject({ ok: true, target: 5, kind: 'max' });
  });

  it('fails a planted defect: the gold is the longest option', () => {
    const qa = Array.from({ length: 2 * MIN_QUESTIONS }, (_, i) => {
      const choices = [...FAIR[i % FAIR.length]!];
      choices[i % 4] = `${choices[i % 4]} with my closest friends`;
      return question('recommend', choices, i % 4);
    });
    const figure = figureOf(qa)!;
    expect(figure.ok).toBe(false);
    expect(figure.description).toContain('recommend');
    expect(figure.description).toContain('longest option');
  });

  it('fails a planted defect: the only history-shaped option is the gold', () => {
    const qa = Array.from({ length: 2 * MIN_QUESTIONS }, (_, i) => {
      const choices = ['likes sushi', 'likes ramen', 'dislikes curry', 'likes tea'];
      choices[i % 4] = 'dislikes tea -> likes tea';
      return question('evolution', choices, i % 4);
    });
    expect(figureOf(qa)).toMatchObject({ ok: false });
  });

  it('fails a planted defect: one fixed option is the gold of most questions', () => {
    const states = ['Achieved', 'In progress', 'Gave it up', 'Still planning']; // equal form, one length each
    const qa = Array.from({ length: 3 * MIN_QUESTIONS }, (_, i) =>
      question('goal', [...states], i % 3 === 0 ? i % 4 : 3),
    );
    const figure = figureOf(qa)!;
    expect(figure.ok).toBe(false);
    expect(figure.description).toMatch(/commonest gold|longest|shortest/);
  });

  it('does not judge a task with fewer questions than it needs', () => {
    const qa = Array.from({ length: MIN_QUESTIONS - 1 }, (_, i) => {
      const choices = [...FAIR[0]!];
      choices[i % 4] = `${choices[i % 4]} and much more besides`;
      return question('small', choices, i % 4);
    });
    expect(figureOf(qa)).toBeUndefined();
  });
});
