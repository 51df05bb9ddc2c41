import type { BigFiveTrait } from '../../schemas/common.js';

/** One vote of a sentence: the trait, its side and the word that shows it. */
export interface Vote {
  trait: BigFiveTrait;
  side: 1 | -1;
  word: string;
}

/** One message's side per trait: 1 high, −1 low, 0 nothing shown. */
export type MessageReading = Record<BigFiveTrait, 1 | -1 | 0>;

/**
 * A situation the speaker tells of, as the frame reader (personality-frames.ts) knows it: its
 * words and the trait side it shows.
 *
 * - `act`: something the speaker does or is ("I kept to myself", "I lost track"): shows `side`
 *   when the speaker does it; `flip` when its negation shows the other side ("I have not planned").
 * - `topic`: something a stance is taken on ("parties", "being alone", "new things"): shows `side`
 *   when the speaker is for it ("I loved it", "I need it"), the other side when against it
 *   ("drains me", "I avoid", "I don't enjoy").
 * - `trait`: a self-description with a Big Five marker adjective ("I'm a bit of a loner", "I'm
 *   pretty disorganised"); negated, the other side.
 */
export interface Frame {
  trait: BigFiveTrait;
  side: 1 | -1;
  kind: 'act' | 'topic' | 'trait';
  /** Words in order; "a|b" is either, "*" any one word, "**" up to four, "?x" an optional word. */
  words: readonly string[];
  flip?: boolean;
}

/** A label of the learned personality reader: a trait side ("extraversion+") or "none". */
export type PersonalityLabel = `${BigFiveTrait}${'+' | '-'}` | 'none';

/** One training message of the learned personality reader (scripts/personality/train-*.jsonl). */
export interface TrainingMessage {
  text: string;
  label: PersonalityLabel;
  /** The message's features, when already read (messageFeatures of its text). */
  features?: readonly string[];
}

/** Settings of the learned personality reader's fit. */
export interface FitOptions {
  iterations?: number;
  learningRate?: number;
  l2?: number;
  /** Features seen in fewer messages are dropped. */
  minCount?: number;
}

/**
 * The learned personality reader's weights (personality-model.json), as the training script
 * (scripts/personality/train.ts) writes them: a softmax regression over message features.
 */
export interface PersonalityModel {
  labels: PersonalityLabel[];
  bias: number[];
  /** Feature → one weight per label. */
  weights: Record<string, number[]>;
  /** A message shows its label when the label's probability reaches this. */
  threshold: number;
  /** What the model was trained on and how it did on messages of a writer it had not seen. */
  trainedOn: { files: string[]; messages: number; crossWriter: Record<string, string | number> };
}
