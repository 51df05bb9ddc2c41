import type { BigFiveTrait } from '../../src/schemas/common.js';
import { HELDOUT_NONE, HELDOUT_SHOWS } from './personality-heldout.js';
import { MODEL_NONE, MODEL_TURNS } from './personality-model-turns.js';
import { NO_TRAIT, SHOWS } from './personality-paraphrases.js';

/** One set of sentences written apart from the personality reader: per trait and side, and none. */
export interface PersonalitySet {
  name: string;
  shows: Record<`${BigFiveTrait}${'+' | '-'}`, readonly string[]>;
  none: readonly string[];
}

/**
 * The three sets, in the order they were written: the paraphrases the reader's frames were built
 * against, the held-out set whose misses widened them, and the model-style turns no change has read.
 */
export const PERSONALITY_SETS: readonly PersonalitySet[] = [
  { name: 'paraphrases', shows: SHOWS, none: NO_TRAIT },
  { name: 'heldout', shows: HELDOUT_SHOWS, none: HELDOUT_NONE },
  { name: 'model-turns', shows: MODEL_TURNS, none: MODEL_NONE },
];
