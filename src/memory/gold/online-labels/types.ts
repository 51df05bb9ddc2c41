/** One user message as a labelling prompt numbers it. */
export interface LabelledMessage {
  /** Its number in the prompt (`M1`, `M2` …, unique within the user). */
  id: string;
  turnId: string;
  session: number;
  round: number;
  text: string;
}

export interface OnlinePersonalityOptions {
  /** Stage the calls are billed to. */
  stage: string;
}
