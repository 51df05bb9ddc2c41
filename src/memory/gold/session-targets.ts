import type { BigFive } from '../../schemas/common.js';
import type { DialogueSession, Turn } from '../../schemas/dialogue.js';
import type { EpisodicEntry, ProceduralEntry } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';
import type { EvidenceSlot, Preference } from '../../schemas/plan.js';
import { roundTopics, slotTopic } from '../../util/round-topics.js';
import { tokenize } from '../retrieval/tokenize.js';
import { inferPersonality, scoresOf } from './personality-reading.js';
import { type PlanIndex, preferenceClause } from './plan-index.js';
import type { SemanticDecision } from './targets.js';

const REASONS: Record<string, string> = {
  preference: 'The user states a preference that should shape future recommendations.',
  drift: 'The user reports a change in a preference; the new state must be remembered.',
  habit: 'The user describes a recurring habit.',
  relationship: 'The user mentions a person in their life and how they relate.',
  goal: 'The user talks about a personal goal and its progress.',
  image: 'The user shares an image of something personal worth recognising later.',
  fact: 'The user reveals a lasting fact about themselves.',
  personality: 'The user reveals how they have been feeling or changing as a person.',
};
const NOISE_REASONS: Record<string, string> = {
  irrelevant: 'The turn is small talk with no lasting personal information.',
  exploratory: 'The user is only exploring options; nothing is settled about their preferences.',
  on_behalf: 'The request is on behalf of someone else, so it says nothing about the user.',
  impulse: 'This is a one-off impulse, not a lasting preference.',
  correction: 'The turn corrects a detail the user misstated; no new lasting information.',
  misstatement: 'The turn gives a practical detail the user corrects later; no lasting information.',
};

/**
 * Gold semantic write decision for one user turn (PersonaVLM semantic memory): positive when
 * the turn expresses at least one planned slot; content = the slots' statements (images as
 * `description (Image Object: class)`), keywords = their keywords.
 *
 * @example
 * const { value, slots } = goldSemanticDecision(indexPlan(plan), userTurn);
 */
export function goldSemanticDecision(
  index: PlanIndex,
  turn: Turn,
): { value: SemanticDecision; slots: EvidenceSlot[] } {
  const slots = turn.slots.flatMap((id) => index.slot(id) ?? []).filter((slot) => slot.kind !== 'noise');
  if (slots.length === 0) {
    const reason = NOISE_REASONS[turn.noise ?? ''] ?? 'The turn carries no lasting personal information.';
    return { value: { reason, decision: false, content: null, keywords: [] }, slots };
  }
  const content = slots
    .map((slot) => {
      if (slot.kind !== 'image') return slot.statement;
      const concept = index.plan.concepts.find((candidate) => candidate.id === slot.refId);
      return concept === undefined
        ? slot.statement
        : `${slot.statement} (Image Object: ${concept.objectClass})`;
    })
    .join(' ');
  const keywords = [...new Set(slots.flatMap((slot) => slot.keywords))];
  const reason = REASONS[(slots[0] as EvidenceSlot).kind] ?? 'The user reveals lasting personal information.';
  return { value: { reason, decision: true, content, keywords }, slots };
}

/**
 * Gold per-turn personality scores: what a reader infers from the user's recent messages (the
 * latest and the user turns of its context), graded, with 3 where they give not enough evidence
 * (PersonaVLM §3.2: 3 = no evidence; src/memory/gold/personality-reading.ts). Neither the hidden
 * profile nor the phrase banks that wrote the style are read, so a turn whose window shows
 * nothing is all 3 and PEM skips the update.
 *
 * @example
 * memory.inferPersonality(goldPersonalityScores([...contextUserTexts, userTurn.text]));
 */
export function goldPersonalityScores(messages: readonly string[]): BigFive {
  return scoresOf(inferPersonality(messages));
}

/** The preference and people state the dialogue has revealed so far (what core memory may hold). */
export interface KnownState {
  /** Conflict slot → preference currently known to be held. */
  preferences: Map<string, Preference>;
  facts: Map<string, string>;
}

/**
 * @example
 * observeSlots(index, known, goldSemanticDecision(index, turn).slots);
 */
export function observeSlots(index: PlanIndex, known: KnownState, slots: readonly EvidenceSlot[]): void {
  for (const slot of slots) {
    if (slot.kind === 'preference') {
      const preference = index.preference(slot.refId);
      if (preference !== undefined) known.preferences.set(preference.slot, preference);
    } else if (slot.kind === 'drift') {
      const event = index.drift(slot.refId);
      const previous =
        event?.previousPreferenceId == null ? undefined : index.preference(event.previousPreferenceId);
      const next = event?.preferenceId == null ? undefined : index.preference(event.preferenceId);
      if (previous !== undefined) known.preferences.delete(previous.slot);
      if (next !== undefined) known.preferences.set(next.slot, next);
    } else if (slot.kind === 'fact') {
      known.facts.set(slot.refId.replace(/^fact\./, ''), slot.statement);
    }
  }
}

/**
 * Gold core memory at a session end: the persona's initial core plus what the dialogue revealed.
 *
 * @example
 * memory.setCore(goldCore(index, known));
 */
export function goldCore(index: PlanIndex, known: KnownState): CoreMemory {
  const base = structuredClone(index.plan.enriched.coreMemory);
  const preferences = [...known.preferences.values()]
    .sort((a, b) => (a.slot < b.slot ? -1 : a.slot > b.slot ? 1 : 0))
    .map(preferenceClause);
  if (preferences.length > 0) base.human.preferences = preferences.join('; ');
  // A revealed fact keeps the persona's own value ("retired librarian"), never the plan's
  // statement template ("Connor Campbell works as retired librarian").
  for (const [key, statement] of [...known.facts.entries()].sort())
    base.human[key] ??= statement.replace(/^.*?(?:'s \w+: | works as an? | is an? | lives in )/, '');
  return base;
}

/** Plan topic labels as an episode summary says them (never the label: "how I have been feeling"). */
const EPISODE_SUBJECTS: Readonly<Record<string, string>> = {
  'people in my life': 'friends and family',
  photos: "the user's photos",
  'about me': "the user's background",
  routines: "the user's daily routine",
  'how I have been feeling': "the user's mood",
};

/**
 * "goals: marathon" → "the user's plan to run a marathon", "preferences: greasy" → "greasy
 * barbecue" (the item, when it says the keyword), "photos" → "the user's photos".
 */
function episodeSubject(index: PlanIndex, label: string): string {
  const fixed = EPISODE_SUBJECTS[label];
  if (fixed !== undefined) return fixed;
  const at = label.indexOf(': ');
  if (at < 0) return label;
  const subject = label.slice(at + 2);
  if (label.startsWith('goals')) {
    const goal = index.plan.goals.find((g) => g.keywords[0] === subject);
    if (goal !== undefined) return `the user's plan to ${goal.description}`;
  }
  const said = subject.toLowerCase();
  const item = index.plan.preferences.find(
    (p) => p.keywords[0] === subject && p.item.toLowerCase().includes(said),
  )?.item;
  return item ?? subject;
}

/**
 * Gold episodes of one session: a new episode wherever the topic of its rounds changes (each
 * round's topic is its evidence slot's, small talk keeps the last one: src/plan/round-topics.ts,
 * which the offline realizer says the topics from), so each episode's label is what its rounds
 * talk about; each episode covers all turns of its rounds, so the episodes cover the session
 * exactly. The summary names the subject of every slot said in it.
 *
 * @example
 * memory.addEpisodes(goldEpisodes(index, session, plan.userId));
 */
export function goldEpisodes(index: PlanIndex, session: DialogueSession, userId: string): EpisodicEntry[] {
  const plan = index.plan.sessions.find((item) => item.index === session.index);
  const rounds = [...new Set(session.turns.map((turn) => turn.round))].sort((a, b) => a - b);
  const byRound = plan === undefined ? [] : roundTopics(index.plan.slots, plan);
  const topicOf = (round: number) => byRound[round] ?? session.topics[0] ?? 'conversation';
  const runs: number[][] = [];
  for (const round of rounds) {
    const run = runs.at(-1);
    if (run !== undefined && topicOf(run[0] as number) === topicOf(round)) run.push(round);
    else runs.push([round]);
  }
  return runs.map((run, part) => {
    const own = new Set(run);
    const turns = session.turns.filter((turn) => own.has(turn.round));
    const slots = turns
      .flatMap((turn) => turn.slots.flatMap((id) => index.slot(id) ?? []))
      .filter((slot) => slot.kind !== 'noise');
    const labels = [...new Set([topicOf(run[0] as number), ...slots.map(slotTopic)])];
    const subject = labels.map((label) => episodeSubject(index, label)).join(' and ');
    const summary =
      slots.length > 0
        ? `Talked about ${subject}. ${slots.map((slot) => slot.statement).join('. ')}.`
        : `Talked about ${subject}; small talk with no new personal facts.`;
    const keywords = [
      ...new Set([...labels.flatMap((label) => tokenize(label)), ...slots.flatMap((slot) => slot.keywords)]),
    ].slice(0, 12);
    return {
      id: `${userId}:E${session.index}.${part}`,
      sessionIndex: session.index,
      summary,
      keywords,
      turnIndices: turns.map((turn) => turn.index),
      start: (turns[0] as Turn).time,
      end: (turns[turns.length - 1] as Turn).time,
      slotIds: slots.map((slot) => slot.id),
    };
  });
}

/**
 * Gold procedural updates of one session: one entry per goal/habit mentioned, keyed by kind and first keyword.
 *
 * @example
 * memory.setProcedural(goldProceduralUpdates(index, session, plan.userId));
 */
export function goldProceduralUpdates(
  index: PlanIndex,
  session: DialogueSession,
  userId: string,
): ProceduralEntry[] {
  const byKey = new Map<string, ProceduralEntry>();
  for (const turn of session.turns) {
    for (const slot of turn.slots.flatMap((id) => index.slot(id) ?? [])) {
      if (slot.kind !== 'goal' && slot.kind !== 'habit') continue;
      const key = `${slot.kind} ${slot.keywords[0] ?? slot.refId}`;
      // The instruction keeps only live entries: a goal achieved or given up is dropped.
      if (slot.kind === 'goal') {
        const goal = index.plan.goals.find((g) => g.id === slot.refId);
        const status = goal?.states.filter((entry) => entry.time <= slot.time).pop()?.status;
        if (status === 'achieved' || status === 'abandoned') {
          byKey.delete(key);
          continue;
        }
      }
      byKey.set(key, {
        id: `${userId}:P:${slot.refId}`,
        key,
        sentence: slot.statement,
        updatedAt: slot.time,
        slotIds: [slot.id],
      });
    }
  }
  return [...byKey.values()];
}

/**
 * Procedural keys a session ends: goals its turns report achieved or given up (the procedural
 * instruction drops finished and abandoned entries).
 *
 * @example memory.setProcedural(goldProceduralUpdates(index, session, id), goldProceduralDrops(index, session));
 */
export function goldProceduralDrops(index: PlanIndex, session: DialogueSession): string[] {
  const drops = new Set<string>();
  for (const turn of session.turns) {
    for (const slot of turn.slots.flatMap((id) => index.slot(id) ?? [])) {
      if (slot.kind !== 'goal') continue;
      const key = `goal ${slot.keywords[0] ?? slot.refId}`;
      const goal = index.plan.goals.find((g) => g.id === slot.refId);
      const status = goal?.states.filter((entry) => entry.time <= slot.time).pop()?.status;
      if (status === 'achieved' || status === 'abandoned') drops.add(key);
      else drops.delete(key);
    }
  }
  return [...drops];
}
