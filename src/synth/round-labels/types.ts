/** One round of a chunk as its labels are checked: the plan's round and the user message written for it. */
export interface WrittenRound {
  round: number;
  /** Epoch ms of the user turn. */
  time: number;
  noise: string | null;
  images: string[];
  user: string;
}

/** A round whose written message does not carry its planned label, and why (a hint the retry prompt shows). */
export interface RoundLabelProblem {
  round: number;
  /** The prompt version that judged it (`photo-description/1`, `correction-check/1`). */
  prompt: string;
  reason: string;
}

export interface RoundLabelOptions {
  /** Stage the calls are billed to. */
  stage: string;
}
