/** Types of the meaning reader (src/synth/meaning/). */

export type Polarity = 'like' | 'dislike';

/** What a slot must say about a preference: its current polarity, or that it ended. */
export interface MeaningExpectation {
  /** Keywords naming the item (the first is the one a turn must contain). */
  keywords: readonly string[];
  item: string;
  polarity: Polarity;
  /** True when the slot says the preference no longer holds (a delete, or the old side of a modify). */
  ended: boolean;
  /** The condition the statement must keep ("when travelling for work"), if any. */
  condition: string | null;
}

export type Verdict = 'agrees' | 'contradicts' | 'unsure';

/** How the text states one expectation. */
export interface MeaningReading {
  item: string;
  verdict: Verdict;
  /** The words the verdict was read from ('' when the item is not mentioned). */
  clause: string;
  /** Why, in plain words. */
  reason: string;
  /** True when the text never names the item. */
  missing: boolean;
}

/** One token of parsed text (wink-nlp). */
export interface Token {
  text: string;
  lower: string;
  lemma: string;
  pos: string;
  /** Inside the scope of a negation ("I do not *like it*"). */
  negated: boolean;
  /** Index of the sentence. */
  sentence: number;
  /** Spaces came before it in the text. */
  space: boolean;
}

/** Who holds a stance a clause states. */
export type Holder = 'user' | 'other';

/** A clause: a run of tokens with its own subject and stance. */
export interface Clause {
  tokens: Token[];
  sentence: number;
  holder: Holder;
  /** The word that opened it ("but", "because", "except" …), lowercased; '' at a sentence start. */
  opener: string;
}

/** What one clause says about the thing it talks about. */
export interface ClauseStance {
  /** Positive: the holder likes it; negative: dislikes. 0: says nothing either way. */
  score: number;
  /** The stance is said to have ended ("no longer", "gave up", "lost its charm"). */
  ended: boolean;
  /** The stance is said of the past ("used to", "was my thing for years"). */
  past: boolean;
  /** The stance is said to continue ("still", "as ever"). */
  still: boolean;
}
