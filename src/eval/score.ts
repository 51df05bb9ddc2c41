import { stemmer } from 'stemmer';
import { matchChoice } from '../reward/choice-match.js';
import { labelIndex } from './load.js';
import type { EvalItem } from './types.js';

/**
 * Scoring, per family, each as its source does it:
 *
 * - multiple choice (Persona-MME, PersonaMem): the option the answer names — a letter or the
 *   option's text, matched by `matchChoice` (the accuracy reward's matcher) — equals the gold
 *   label; 1 or 0. Persona-MME personality alignment is a yes/no item scored the same way.
 * - LoCoMo (`task_eval/evaluation.py`, snap-research/LoCoMo): token F1 after its normalisation
 *   (commas removed, lowercase, punctuation, the words a/an/the/and, whitespace) with Porter
 *   stems; category 1 (multi-hop) splits prediction and gold on commas and averages each gold
 *   part's best F1; category 3 keeps the gold before the first ";"; category 5 (adversarial)
 *   scores 1 when the answer says "no information available" or "not mentioned".
 */
export function scoreItem(item: EvalItem, answer: string): { score: number; parsed: string } {
  if (item.kind === 'mc') {
    const index = matchChoice(answer, item.choices);
    const gold = labelIndex(item.answer);
    return {
      score: index !== null && index === gold ? 1 : 0,
      parsed: index === null ? '' : `(${String.fromCharCode(97 + index)})`,
    };
  }
  if (item.kind === 'adversarial') {
    const lower = answer.toLowerCase();
    return {
      score: lower.includes('no information available') || lower.includes('not mentioned') ? 1 : 0,
      parsed: answer.trim(),
    };
  }
  if (item.category === 1) return { score: locomoMultiF1(answer, item.answer), parsed: answer.trim() };
  const gold = item.category === 3 ? (item.answer.split(';')[0] ?? '').trim() : item.answer;
  return { score: locomoF1(answer, gold), parsed: answer.trim() };
}

const PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;

/** LoCoMo's `normalize_answer`. */
export function normalizeLocomo(text: string): string {
  return text
    .replaceAll(',', '')
    .toLowerCase()
    .replace(PUNCTUATION, '')
    .replace(/\b(a|an|the|and)\b/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '')
    .join(' ');
}

const stems = (text: string) =>
  normalizeLocomo(text)
    .split(' ')
    .filter((word) => word !== '')
    .map((word) => stemmer(word));

/** LoCoMo's `f1_score`: token F1 over Porter stems of the normalised texts. */
export function locomoF1(prediction: string, gold: string): number {
  const predicted = stems(prediction);
  const truth = stems(gold);
  if (predicted.length === 0 || truth.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const token of truth) counts.set(token, (counts.get(token) ?? 0) + 1);
  let same = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      same++;
      counts.set(token, left - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / predicted.length;
  const recall = same / truth.length;
  return (2 * precision * recall) / (precision + recall);
}

/** LoCoMo's `f1` for multi-hop: mean over gold parts of the best F1 of any predicted part. */
export function locomoMultiF1(prediction: string, gold: string): number {
  const predictions = prediction.split(',').map((part) => part.trim());
  const golds = gold.split(',').map((part) => part.trim());
  const best = golds.map((part) => Math.max(...predictions.map((p) => locomoF1(p, part))));
  return best.reduce((sum, value) => sum + value, 0) / best.length;
}

/** The text of `<answer>…</answer>` when the output has one, else the whole output. */
export function extractAnswer(output: string): string {
  const matches = [...output.matchAll(/<answer>([\s\S]*?)<\/answer>/g)];
  const last = matches[matches.length - 1];
  return (last?.[1] ?? output.replace(/<think>[\s\S]*?<\/think>/g, '')).trim();
}
