import type { DialogueSession } from '../schemas/dialogue.js';
import type { ImageRef } from '../schemas/plan.js';
import type { EvidenceWarning } from './dia-id.js';

/**
 * A QA item that comes with the inserted sessions (e.g. M²A concept QA); evidence = turn ids of
 * those sessions. "session k" in its question or answer names the k-th inserted session
 * (0-based, as a concept conversation's `S<k>:…`) and is renumbered to the merged document's
 * session number.
 */
export interface InsertedQa {
  question: string;
  answer: string;
  /** Ids of turns in the inserted sessions (`Turn.id`). */
  evidence: string[];
  category: number;
  /**
   * What the question asks, for questions written as LoCoMo asks (`{user}`, `{their}`, `{them}`
   * placeholders for the host speaker): the host adapter sets the LoCoMo category from it and
   * where the evidence lies (see `writeAddedQa`). Absent: the category is kept (M²A concept QA).
   */
  kind?: 'temporal' | 'inference' | 'recall' | 'combine';
}

/**
 * Sessions to splice into a host. Their turn times are kept relative to the session start;
 * the sessions are moved to τ_j. `images` resolves image ids to paths/captions for hosts that
 * store them (LoCoMo `img_url`/`blip_caption`, PersonaVLM `imgs`).
 */
export interface InsertSessions {
  sessions: DialogueSession[];
  /** The generated user's own name, rewritten as the host speaker they become (LoCoMo hosts). */
  userName?: string;
  images?: ImageRef[];
  qa?: InsertedQa[];
  /** The generated person's biography values; no inserted turn may say them (LoCoMo hosts). */
  userFacts?: string[];
}

/** A defect count of the merged record with its target. */
export interface LocomoFigure {
  count: number;
  of: number;
  target: number;
}

/**
 * What a LoCoMo annotator would reject in one merged record: added questions not in LoCoMo's form
 * (first person, a situation line, options, no speaker named), with a category their content and
 * evidence contradict, or with evidence that is not a turn of the speaker; inserted turns saying
 * the generated person's biography or spoken by the wrong person.
 */
export interface LocomoFidelity {
  added_question_form: LocomoFigure;
  added_question_category: LocomoFigure;
  added_question_evidence: LocomoFigure;
  inserted_biography_turns: LocomoFigure;
  inserted_speaker_errors: LocomoFigure;
}

export type HostFormat = 'locomo' | 'personavlm' | 'native';

export interface InterpolateOptions {
  /** The host document as parsed JSON (a LoCoMo list or record, a PersonaVLM user_data object, a UserDialogue). */
  host: unknown;
  format: HostFormat;
  sessions: InsertSessions;
  /** Seed for the insertion position when `position` is not given. */
  seed: number;
  /**
   * Insert after host session number `position` (1-based; between `position` and `position + 1`).
   * @default a seeded draw in [1, hostSessions − 1], as M²A does
   */
  position?: number;
  /** For a LoCoMo list: which conversation (index) gets the sessions. @default 0 */
  conversation?: number;
  /**
   * Speaker names for inserted LoCoMo turns. @default the host's speaker_a for the user and
   * `Assistant` (no host speaker) for the assistant (`defaultSpeakers`)
   */
  speakers?: { user: string; assistant: string };
}

/** What the splice did, for the CLI to print and tests to check. */
export interface InterpolationReport {
  format: HostFormat;
  position: number;
  inserted: number;
  /** ISO times of the inserted sessions' starts (τ_j). */
  times: string[];
  hostSessions: number;
  mergedSessions: number;
  /** Host session number → new number (only those that changed). */
  renumbered: Record<string, number>;
  qaRemapped: number;
  qaAdded: number;
  warnings: EvidenceWarning[];
  /** LoCoMo hosts: who speaks the inserted turns. */
  speakers?: { user: string; assistant: string };
  /** LoCoMo hosts: the merged record's defect counts (targets 0), see `LocomoFidelity`. */
  fidelity?: LocomoFidelity;
}

export interface InterpolationResult<T = unknown> {
  document: T;
  report: InterpolationReport;
}
