/**
 * The learned personality reader's whole training: messages from every `train-*.jsonl` of a
 * folder, a threshold chosen across writers (each file left out in turn), then weights fitted on
 * all files. scripts/personality/train.ts writes the result; a test checks the shipped model is it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { InputError } from '../../errors/index.js';
import { PERSONALITY_LABELS, topLabel } from './personality-classifier.js';
import { messageFeatures } from './personality-features.js';
import { fitWeights } from './personality-training.js';
import type { PersonalityModel, TrainingMessage } from './types.js';

const Line = z.object({
  text: z.string().min(1),
  label: z.enum(PERSONALITY_LABELS as [string, ...string[]]),
});

/** The messages of one JSON Lines file; a bad line is an error naming the file and line. */
export function readTrainingFile(path: string): TrainingMessage[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line, i) => {
      if (line.trim() === '') return [];
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        throw new InputError(path, `line ${i + 1} is not JSON`);
      }
      const parsed = Line.safeParse(json);
      if (!parsed.success)
        throw new InputError(path, `line ${i + 1}: ${parsed.error.issues[0]?.message ?? 'bad line'}`, {
          field: parsed.error.issues[0]?.path.join('.') ?? 'text',
        });
      return [parsed.data as TrainingMessage];
    });
}

/** Thresholds tried, lowest first. */
const THRESHOLDS = Array.from({ length: 70 }, (_, i) => Math.round((0.3 + i * 0.01) * 100) / 100);
/**
 * A corpus is mostly messages that show no trait: the threshold must keep the reader right at this
 * share of trait messages (one user turn in ten), where its false reads of the no-trait majority
 * weigh nine times their rate. Over the files left out, the reads must be at least PRECISION right.
 */
const BASE_RATE = 0.1;
const PRECISION = 0.9;

/** The share of reads that are right in a corpus at BASE_RATE, from rates over the files left out. */
export function precisionAtBaseRate(hitRate: number, wrongRate: number, noneRate: number): number {
  const right = hitRate * BASE_RATE;
  const reads = right + wrongRate * BASE_RATE + noneRate * (1 - BASE_RATE);
  return reads === 0 ? 1 : right / reads;
}

const opposite = (label: string) =>
  label.endsWith('+') ? `${label.slice(0, -1)}-` : `${label.slice(0, -1)}+`;

/**
 * Trains on the `train-*.jsonl` files of `folder`.
 *
 * @example trainPersonalityModel('scripts/personality').threshold // e.g. 0.5
 */
export function trainPersonalityModel(folder: string): PersonalityModel {
  const files = readdirSync(folder)
    .filter((name) => /^train-.*\.jsonl$/.test(name))
    .sort();
  if (files.length < 2)
    throw new InputError(folder, 'needs at least two train-*.jsonl files, one per writer');
  // Each message is parsed once, not once per fit.
  const byFile = files.map((name) =>
    readTrainingFile(join(folder, name)).map((message) => ({
      ...message,
      features: messageFeatures(message.text),
    })),
  );
  // Across writers: each file read by a model trained on the others.
  const tally = THRESHOLDS.map(() => ({ noneRead: 0, wrong: 0, hit: 0 }));
  let [noneTotal, traitTotal] = [0, 0];
  byFile.forEach((heldOut, i) => {
    const model = fitWeights(byFile.filter((_, j) => j !== i).flat(), PERSONALITY_LABELS);
    for (const message of heldOut) {
      if (message.label === 'none') noneTotal++;
      else traitTotal++;
      // One reading per message; each threshold only compares its probability.
      const [top, p] = topLabel(model, message.features);
      THRESHOLDS.forEach((threshold, t) => {
        const read = top !== 'none' && p >= threshold ? top : 'none';
        const row = tally[t]!;
        if (message.label === 'none') row.noneRead += read === 'none' ? 0 : 1;
        else if (read === message.label) row.hit++;
        else if (read === opposite(message.label)) row.wrong++;
      });
    }
  });
  let chosen = THRESHOLDS.length - 1;
  for (let t = 0; t < THRESHOLDS.length; t++) {
    const row = tally[t]!;
    const precision = precisionAtBaseRate(
      row.hit / traitTotal,
      row.wrong / traitTotal,
      row.noneRead / noneTotal,
    );
    if (precision >= PRECISION) {
      chosen = t;
      break;
    }
  }
  const row = tally[chosen]!;
  const all = byFile.flat();
  return {
    labels: [...PERSONALITY_LABELS],
    ...fitWeights(all, PERSONALITY_LABELS),
    threshold: THRESHOLDS[chosen]!,
    trainedOn: {
      files,
      messages: all.length,
      crossWriter: {
        recall: `${row.hit}/${traitTotal}`,
        wrongSide: `${row.wrong}/${traitTotal}`,
        noneRead: `${row.noneRead}/${noneTotal}`,
        precisionAtBaseRate:
          Math.round(
            precisionAtBaseRate(row.hit / traitTotal, row.wrong / traitTotal, row.noneRead / noneTotal) *
              1000,
          ) / 1000,
      },
    },
  };
}
