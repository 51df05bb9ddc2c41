import type { EpisodicEntry, MemoryTrace, ProceduralEntry } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';
import type { EvidenceSlot } from '../../schemas/plan.js';
import type { RuleCheck, RuleFailure, UserIndex } from '../types.js';

/**
 * Issue 27, item 9: the session-end memory targets say what the session says.
 * - An episode's label ("Talked about …", its first sentence) names the subject of every
 *   preference, drift or goal said in its turns, and no such subject said only in the session's
 *   other episodes (a label shifted one segment names its neighbour's).
 * - Procedural memory holds no goal the dialogue has reported achieved or given up.
 * - Core memory holds the user's facts as values, not the plan's statements ("Connor Campbell
 *   works as retired fisherman"): no value but the one-sentence personality names the user, and
 *   nothing "works as" a retiree or a student.
 */

const lower = (text: string) => text.toLowerCase();
/** The label says the phrase as words of its own, plural or -ing allowed ("museums" says "museum", "snowboarding" "snowboard"; "japanese" is not "japan"). */
function saysWord(label: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}])${escaped}(?:s|es|ing|ed)?($|[^\\p{L}])`, 'u').test(label);
}

/** What a label must say to name a slot: its first keyword (a goal may be named by its description). */
function names(index: UserIndex, label: string, slot: EvidenceSlot): boolean {
  const keyword = slot.keywords[0];
  if (keyword !== undefined && saysWord(label, lower(keyword))) return true;
  const goal = slot.kind === 'goal' ? index.bundle.plan.goals.find((g) => g.id === slot.refId) : undefined;
  return goal !== undefined && label.includes(lower(goal.description));
}

const NAMED_KINDS = new Set(['preference', 'drift', 'goal']);

/** The problems of one episodic-summary target. */
export function episodeTopicProblems(index: UserIndex, trace: MemoryTrace): string[] {
  const episodes = trace.gold.value as EpisodicEntry[] | null;
  const session = index.bundle.dialogue.sessions.find((s) => s.index === trace.sessionIndex);
  if (!Array.isArray(episodes) || session === undefined) return [];
  const slotsOf = (episode: EpisodicEntry) => {
    const turns = new Set(episode.turnIndices);
    return session.turns
      .filter((turn) => turns.has(turn.index))
      .flatMap((turn) => turn.slots.flatMap((id) => index.slotsById.get(id) ?? []))
      .filter((slot) => NAMED_KINDS.has(slot.kind));
  };
  const problems: string[] = [];
  for (const episode of episodes) {
    const label = lower(episode.summary.split(/[.;]/)[0] ?? '');
    const own = slotsOf(episode);
    for (const slot of own)
      if (!names(index, label, slot))
        problems.push(`${episode.id}: "${label}" does not name ${slot.keywords[0]}, said in its turns`);
    // An episode with subjects of its own is judged by them; one of small talk must not borrow a neighbour's.
    if (own.length > 0) continue;
    for (const other of episodes) {
      if (other === episode) continue;
      for (const slot of slotsOf(other)) {
        if (names(index, label, slot))
          problems.push(`${episode.id}: "${label}" names ${slot.keywords[0]}, said only in ${other.id}`);
      }
    }
  }
  return problems;
}

/** The latest status the dialogue reported for each goal up to `time` (goal id → status). */
function reportedGoalStatus(index: UserIndex, time: number): Map<string, string> {
  const status = new Map<string, string>();
  const { plan, dialogue } = index.bundle;
  for (const session of dialogue.sessions) {
    for (const turn of session.turns) {
      if (Date.parse(turn.time) > time) return status;
      for (const slot of turn.slots.flatMap((id) => index.slotsById.get(id) ?? [])) {
        if (slot.kind !== 'goal') continue;
        const goal = plan.goals.find((g) => g.id === slot.refId);
        const state = goal?.states.filter((s) => Date.parse(s.time) <= Date.parse(slot.time)).at(-1);
        if (state !== undefined) status.set(slot.refId, state.status);
      }
    }
  }
  return status;
}

/** The problems of one procedural-update target: goals it keeps that were reported finished. */
export function proceduralGoalProblems(index: UserIndex, trace: MemoryTrace): string[] {
  const entries = trace.gold.value as ProceduralEntry[] | null;
  if (!Array.isArray(entries)) return [];
  const status = reportedGoalStatus(index, Date.parse(trace.time));
  const problems: string[] = [];
  for (const entry of entries) {
    for (const id of entry.slotIds) {
      const slot = index.slotsById.get(id);
      if (slot?.kind !== 'goal') continue;
      const now = status.get(slot.refId);
      if (now === 'achieved' || now === 'abandoned')
        problems.push(
          `${entry.key}: kept after the user reported it ${now === 'achieved' ? 'achieved' : 'given up'}`,
        );
    }
  }
  return problems;
}

const TEMPLATE = /\bworks? as (?:an? )?(?:retired\b|[\w ]*\bstudent\b)|\bwork as (?:retired|student)\b/i;

/** The problems of one core-update target: values copied from the plan's statement templates. */
export function coreTemplateProblems(index: UserIndex, trace: MemoryTrace): string[] {
  const core = trace.gold.value as CoreMemory | null;
  if (core === null || typeof core !== 'object' || core.human === undefined) return [];
  const name = index.bundle.plan.enriched.persona.name;
  const problems: string[] = [];
  const blocks: Array<[string, Record<string, string>]> = [
    ['human', core.human],
    ['persona', core.persona ?? {}],
  ];
  for (const [block, values] of blocks) {
    for (const [key, value] of Object.entries(values)) {
      if (typeof value !== 'string' || key === 'name' || key === 'identity') continue;
      // `personality` is asked for as one sentence (enrich-prompt.ts), which may well name the user.
      if (block === 'human' && key !== 'personality' && value.includes(name))
        problems.push(`${block}.${key} restates a plan statement: "${value}"`);
      else if (TEMPLATE.test(value)) problems.push(`${block}.${key} says a template: "${value}"`);
    }
  }
  return problems;
}

function ruleOf(
  name: string,
  description: string,
  task: MemoryTrace['task'],
  problemsOf: (index: UserIndex, trace: MemoryTrace) => string[],
): RuleCheck {
  return {
    name,
    description,
    run(index) {
      const failures: RuleFailure[] = [];
      for (const trace of index.bundle.memory?.traces ?? []) {
        if (trace.task !== task) continue;
        for (const reason of problemsOf(index, trace))
          failures.push({
            check: name,
            userId: index.bundle.plan.userId,
            location: `memory.traces[${trace.id}]`,
            reason,
          });
      }
      return failures;
    },
  };
}

export const episodeTopicsCheck = ruleOf(
  'episode_topics',
  "an episode's label names what its turns say, not a neighbouring episode's subject",
  'episodic_summary',
  episodeTopicProblems,
);
export const proceduralGoalsCheck = ruleOf(
  'procedural_goals',
  'procedural memory drops a goal once the user reports it achieved or given up',
  'procedural_update',
  proceduralGoalProblems,
);
export const coreValuesCheck = ruleOf(
  'core_values',
  "core memory holds the user's facts as values, not the plan's statement templates",
  'core_update',
  coreTemplateProblems,
);
