import type { BigFive } from '../schemas/common.js';
import type { EvidenceSlot, Preference, SessionPlan } from '../schemas/plan.js';
import type { PlanView } from './plan-view.js';

/** One round of a chunk as planned: what the user message must carry. */
export interface ChunkRound {
  round: number;
  /** Epoch ms of the user turn. */
  time: number;
  slots: EvidenceSlot[];
  noise: string | null;
  images: string[];
}

/**
 * The compact state a chunk is realized from (never the whole history): profile, current
 * personality, the preferences that matter now, a running session summary and the last turns.
 */
export interface CompactState {
  profile: string;
  personality: BigFive;
  /** Active preferences, those this chunk's slots refer to first. */
  preferences: Preference[];
  /** Preferences the user already expressed (the assistant may use them). */
  known: Preference[];
  summary: string[];
  recent: Array<{ speaker: 'user' | 'assistant'; text: string }>;
}

export interface ChunkRequest {
  view: PlanView;
  session: SessionPlan;
  /** 0-based index of the chunk in the session. */
  chunkIndex: number;
  rounds: ChunkRound[];
  state: CompactState;
  /** 0 for the first try; regenerations count up. */
  attempt: number;
  /** Slots the previous attempt failed to express (empty on the first try). */
  missing: EvidenceSlot[];
  /** What the previous attempt got wrong, in words ("round 3 must say the user no longer likes coffee …"). */
  hints?: string[];
}

export interface RealizedRound {
  round: number;
  user: string;
  assistant: string;
}

/**
 * Turns one chunk of planned rounds into text. The offline and LLM realizers share this
 * contract, so the orchestrator (`realizeDialogue`) checks and regenerates either the same way.
 *
 * @example const rounds = await realizer.realizeChunk(request);
 */
export interface Realizer {
  /** `offline` or the model name. */
  readonly name: string;
  readonly offline: boolean;
  realizeChunk(request: ChunkRequest): Promise<RealizedRound[]>;
}
