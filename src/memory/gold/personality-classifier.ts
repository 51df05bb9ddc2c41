/**
 * The learned personality reader: a softmax regression over a message's marked words
 * (personality-features.ts), trained on messages sixteen writers wrote apart from the rule readers,
 * the phrase banks and the test sets (scripts/personality/train-*.jsonl; weights in
 * personality-model.json). It reads wording the rules have no entry for, from the words a trait
 * side's messages share. A message shows at most one trait side this way, and only when the model
 * gives it at least the threshold chosen across writers for a corpus where most messages show no
 * trait (0.84 for the shipped weights: it reads few messages, and rarely a wrong one); otherwise it
 * shows nothing.
 */
import { createRequire } from 'node:module';
import { BIG_FIVE_TRAITS } from '../../schemas/common.js';
import { messageFeatures } from './personality-features.js';
import type { PersonalityLabel, PersonalityModel, Vote } from './types.js';

/** The labels, trait sides first, "none" last. */
export const PERSONALITY_LABELS: readonly PersonalityLabel[] = [
  ...BIG_FIVE_TRAITS.flatMap((trait) => [`${trait}+`, `${trait}-`] as const),
  'none',
];

/** The probabilities of each label for a feature list. */
export function probabilities(
  model: Pick<PersonalityModel, 'bias' | 'weights'>,
  features: readonly string[],
): number[] {
  const logits = [...model.bias];
  const scale = 1 / Math.sqrt(Math.max(1, features.length));
  for (const feature of features) {
    const row = model.weights[feature];
    if (row === undefined) continue;
    for (let k = 0; k < logits.length; k++) logits[k]! += row[k]! * scale;
  }
  const top = Math.max(...logits);
  const exp = logits.map((z) => Math.exp(z - top));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / sum);
}

/** The most probable label for a feature list, with its probability. */
export function topLabel(
  model: Pick<PersonalityModel, 'bias' | 'weights'>,
  features: readonly string[],
): [PersonalityLabel, number] {
  const p = probabilities(model, features);
  let best = 0;
  for (let k = 1; k < p.length; k++) if (p[k]! > p[best]!) best = k;
  return [PERSONALITY_LABELS[best]!, p[best]!];
}

/** The label a model reads at a threshold ("none" below it). */
export function readLabel(
  model: Pick<PersonalityModel, 'bias' | 'weights'>,
  features: readonly string[],
  threshold: number,
): PersonalityLabel {
  const [label, p] = topLabel(model, features);
  return label !== 'none' && p >= threshold ? label : 'none';
}

let model: PersonalityModel | null = null;

/** The shipped model, read once. */
export function personalityModel(): PersonalityModel {
  if (model === null) {
    const loaded = createRequire(import.meta.url)('./personality-model.json') as PersonalityModel;
    if (loaded.bias.length !== loaded.labels.length)
      throw new Error('personality-model.json: one bias per label expected');
    model = loaded;
  }
  return model;
}

/**
 * The trait side the learned reader reads in a message, or "none".
 *
 * @example modelLabel('I lay awake half the night worrying about the meeting.') // 'neuroticism+'
 */
export function modelLabel(text: string): PersonalityLabel {
  const shipped = personalityModel();
  return readLabel(shipped, messageFeatures(text), shipped.threshold);
}

/** The learned reader's vote for a message, or null when it reads nothing. */
export function modelVote(text: string): Vote | null {
  const label = modelLabel(text);
  if (label === 'none') return null;
  return { trait: label.slice(0, -1) as Vote['trait'], side: label.endsWith('+') ? 1 : -1, word: 'model' };
}
