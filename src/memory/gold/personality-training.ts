/**
 * Trains the learned personality reader: a softmax regression over message features
 * (personality-features.ts), fitted by full-batch Adam with an L2 penalty, so the same messages
 * give the same weights on any machine. Used by scripts/personality/train.ts, which writes
 * personality-model.json, and by the test that checks the shipped weights are the ones the
 * shipped messages train.
 */
import { messageFeatures } from './personality-features.js';
import type { FitOptions, PersonalityLabel, PersonalityModel, TrainingMessage } from './types.js';

const DEFAULTS: Required<FitOptions> = { iterations: 300, learningRate: 0.05, l2: 3e-6, minCount: 2 };

/**
 * Fits the weights to `messages` (labels in `labels` order).
 *
 * @example fitWeights(messages, labels).weights['I:skip'] // one weight per label
 */
export function fitWeights(
  messages: readonly TrainingMessage[],
  labels: readonly PersonalityLabel[],
  options: FitOptions = {},
): Pick<PersonalityModel, 'bias' | 'weights'> {
  const { iterations, learningRate, l2, minCount } = { ...DEFAULTS, ...options };
  const featureLists = messages.map((message) => message.features ?? messageFeatures(message.text));
  const counts = new Map<string, number>();
  for (const list of featureLists) for (const f of list) counts.set(f, (counts.get(f) ?? 0) + 1);
  const names = [...counts.keys()].filter((f) => (counts.get(f) ?? 0) >= minCount).sort();
  const index = new Map(names.map((name, i) => [name, i]));
  const rows = featureLists.map((list) => list.flatMap((f) => (index.has(f) ? [index.get(f)!] : [])));
  const K = labels.length;
  const targets = messages.map((message) => labels.indexOf(message.label));
  // Each label weighs the same in the loss, however many messages show it.
  const perLabel = labels.map((_, k) => targets.filter((target) => target === k).length);
  const weightOf = targets.map((k) => rows.length / (K * Math.max(1, perLabel[k]!)));
  const W = new Float64Array(names.length * K);
  const b = new Float64Array(K);
  const adam = {
    mW: new Float64Array(W.length),
    vW: new Float64Array(W.length),
    mb: new Float64Array(K),
    vb: new Float64Array(K),
  };
  const [beta1, beta2, eps] = [0.9, 0.999, 1e-8];
  const scales = featureLists.map((list) => 1 / Math.sqrt(Math.max(1, list.length)));
  const logits = new Float64Array(K);
  for (let t = 1; t <= iterations; t++) {
    const gW = new Float64Array(W.length);
    const gb = new Float64Array(K);
    for (let n = 0; n < rows.length; n++) {
      const row = rows[n]!;
      const scale = scales[n]!;
      logits.set(b);
      for (const f of row) for (let k = 0; k < K; k++) logits[k]! += W[f * K + k]! * scale;
      let top = Number.NEGATIVE_INFINITY;
      for (let k = 0; k < K; k++) top = Math.max(top, logits[k]!);
      let sum = 0;
      for (let k = 0; k < K; k++) {
        logits[k] = Math.exp(logits[k]! - top);
        sum += logits[k]!;
      }
      for (let k = 0; k < K; k++) {
        const error = (logits[k]! / sum - (k === targets[n] ? 1 : 0)) * weightOf[n]!;
        gb[k]! += error;
        for (const f of row) gW[f * K + k]! += error * scale;
      }
    }
    const step = (
      value: Float64Array,
      grad: Float64Array,
      m: Float64Array,
      v: Float64Array,
      decay: number,
    ) => {
      const [correct1, correct2] = [1 - beta1 ** t, 1 - beta2 ** t];
      for (let i = 0; i < value.length; i++) {
        const g = grad[i]! / rows.length + decay * value[i]!;
        m[i] = beta1 * m[i]! + (1 - beta1) * g;
        v[i] = beta2 * v[i]! + (1 - beta2) * g * g;
        const mHat = m[i]! / correct1;
        const vHat = v[i]! / correct2;
        value[i]! -= (learningRate * mHat) / (Math.sqrt(vHat) + eps);
      }
    };
    step(W, gW, adam.mW, adam.vW, l2);
    step(b, gb, adam.mb, adam.vb, 0);
  }
  const round = (x: number) => Math.round(x * 1e4) / 1e4;
  const weights: Record<string, number[]> = {};
  names.forEach((name, f) => {
    const row = Array.from(W.subarray(f * K, f * K + K), round);
    if (row.some((w) => Math.abs(w) >= 0.01)) weights[name] = row;
  });
  return { bias: Array.from(b, round), weights };
}
