import type { VitaBenchSystemConfig } from '../export/systems/config.js';
import type { M2aBuilt } from '../export/systems/m2a.js';
import type { TreeSchema } from '../memory/tree/schema.js';
import type { Turn, UserDialogue } from '../schemas/dialogue.js';
import type { UserMemory } from '../schemas/memory.js';
import type { UserPlan } from '../schemas/plan.js';
import type { ValidateConfig } from '../schemas/validate-config.js';
import type { QuarantinedUnit } from './units.js';

/** Everything validation knows about one user: the plan (truth), the dialogue, and the memory records. */
export interface UserBundle {
  plan: UserPlan;
  dialogue: UserDialogue;
  /** Null when the run has no memory stage. */
  memory: UserMemory | null;
  /** The M²A merged conversation export will write (set by validation when `export.systems.m2a` is on). */
  m2a?: M2aBuilt;
}

/** A turn located in its session, for lookups by id or by slot. */
export interface LocatedTurn {
  turn: Turn;
  sessionIndex: number;
  /** Position of the turn inside its session. */
  position: number;
}

/** Lookups built once per user and shared by every check. */
export interface UserIndex {
  bundle: UserBundle;
  turnsById: Map<string, LocatedTurn>;
  /** Slot id → the first turn listing it in `slots`. */
  turnBySlot: Map<string, LocatedTurn>;
  slotsById: Map<string, UserPlan['slots'][number]>;
  imagesById: Map<string, UserPlan['images'][number]>;
  /** Parsed turn times (ms) per session and position, parsed once for every check. */
  turnTimes: number[][];
}

/** One rule failure: who, where (a readable path into the records) and why. */
export interface RuleFailure {
  check: string;
  userId: string;
  location: string;
  reason: string;
}

export interface RuleOptions {
  config: ValidateConfig;
  /** The PersonaTree schema the memory stage used (default: Inside Out's English tree). */
  tree?: { schema: TreeSchema; maxExtensionDepth: number };
  /** Set when the pipeline exports VitaBench tasks: validation builds and checks them first. */
  vitabench?: { config: VitaBenchSystemConfig; seed: number };
  /** Tells whether a pool-relative image path exists (only consulted when `imagePoolDir` is set). */
  imageExists: (relativePath: string) => boolean;
}

/** A named rule check: pure, synchronous, one concern. */
export interface RuleCheck {
  name: string;
  description: string;
  run(index: UserIndex, options: RuleOptions): RuleFailure[];
  /**
   * The rounds or sessions whose removal removes these failures (quarantined instead of the
   * user), or null when the defect is the user's as a whole. Absent: the user goes.
   */
  units?(index: UserIndex, failures: readonly RuleFailure[]): QuarantinedUnit[] | null;
}

/**
 * Builds the per-user lookups every check reads.
 *
 * @example const index = indexUser({ plan, dialogue, memory: null });
 */
export function indexUser(bundle: UserBundle): UserIndex {
  const turnsById = new Map<string, LocatedTurn>();
  const turnBySlot = new Map<string, LocatedTurn>();
  bundle.dialogue.sessions.forEach((session, sessionIndex) => {
    session.turns.forEach((turn, position) => {
      const located = { turn, sessionIndex, position };
      if (!turnsById.has(turn.id)) turnsById.set(turn.id, located);
      for (const slot of turn.slots) if (!turnBySlot.has(slot)) turnBySlot.set(slot, located);
    });
  });
  return {
    bundle,
    turnsById,
    turnBySlot,
    slotsById: new Map(bundle.plan.slots.map((slot) => [slot.id, slot])),
    imagesById: new Map(bundle.plan.images.map((image) => [image.id, image])),
    turnTimes: bundle.dialogue.sessions.map((session) => session.turns.map((turn) => Date.parse(turn.time))),
  };
}
