import { join } from 'node:path';
import { describePreference } from '../../plan/statements.js';
import type { UserDialogue } from '../../schemas/dialogue.js';
import type { DriftEvent, Preference, PreferenceCategory, UserPlan } from '../../schemas/plan.js';
import { toVitaBenchInteractions, type VitaBenchInteraction } from '../../synth/vitabench.js';
import { writeJson } from '../../util/fs.js';
import { createRng } from '../../util/rng.js';
import type { ExportBundle } from '../read-run.js';
import type { VitaBenchSystemConfig } from './config.js';

import { chooseFocal, kindOf, type VitaKind } from './vita-candidates.js';
import {
  buildSubtaskWorld,
  userAddresses,
  type VitaDomain,
  type VitaEnvironment,
  type VitaExpectedState,
} from './vita-env.js';

export type { VitaDomain } from './vita-env.js';

/** Which domains a preference category is exercised in (shopping goes through delivery, as on Meituan). */
const DOMAINS: Readonly<Record<PreferenceCategory, readonly VitaDomain[]>> = {
  food: ['delivery', 'instore'],
  shopping: ['delivery'],
  travel: ['ota'],
  entertainment: ['instore', 'ota'],
  lifestyle: ['instore'],
  longtail: ['delivery'],
};

/**
 * Vague requests, as VitaBench's user simulator makes them ("帮我点个外卖", order me a takeaway):
 * they name the kind of thing wanted (`{kind}`) and nothing of the preference that decides.
 */
const INSTRUCTIONS: Readonly<Record<VitaKind, Partial<Record<VitaDomain, readonly string[]>>>> = {
  meal: {
    delivery: ['Order me a meal, please.', 'Can you get me a meal delivered?', 'Sort out a meal for me.'],
    instore: ['Find me somewhere for a meal later.', 'Book me a place for a meal today.'],
  },
  drink: {
    delivery: ['Order me a drink, please.', 'Can you get me a drink delivered?'],
    instore: ['Find me somewhere for a drink later.', 'Book me a place for a drink today.'],
  },
  snack: {
    delivery: ['Order me a snack, please.', 'Can you get me a snack delivered?'],
    instore: ['Find me somewhere for a snack later.', 'Where should I go for a snack?'],
  },
  shopping: { delivery: ['Do a bit of shopping for me, please.', 'Can you do some shopping for me?'] },
  journey: {
    ota: [
      'Help me book a journey.',
      'Sort out a journey for my days off, please.',
      'Find me a journey to book.',
    ],
  },
  activity: {
    instore: [
      'Find me an activity for later.',
      'Book me an activity, please.',
      'What activity should I go to?',
    ],
    ota: ['Book me an activity, please.', 'What activity should I book?'],
  },
  'hobby supplies': { delivery: ['Order me some hobby supplies.', 'Can you get me some hobby supplies?'] },
};
/** The requests of a kind in a domain (each category's DOMAINS above have their own; else the kind's first). */
const instructionsFor = (kind: VitaKind, domain: VitaDomain): readonly string[] =>
  INSTRUCTIONS[kind][domain] ?? Object.values(INSTRUCTIONS[kind])[0] ?? [];

export interface VitaSubTask {
  subtask_id: string;
  domain: VitaDomain;
  instruction: string;
  environment: VitaEnvironment;
  user_scenario: {
    user_profile: Record<string, unknown>;
    personalized_preference_memory: {
      current: Record<string, string[]>;
      preference_tag_change_history: PreferenceTagChange[];
    };
  };
  evaluation_criteria: { expected_states: VitaExpectedState[]; overall_rubrics: string[] };
  /** The one preference this subtask tests (persona-forge's label; VitaBench keeps it in the rubrics). */
  focal_preference: string;
  interactions: VitaBenchInteraction[];
  skill_tested: string[];
  user_intention: string;
  message_history: [];
}

export interface PreferenceTagChange {
  time: string;
  type: DriftEvent['type'];
  category: PreferenceCategory;
  before: string | null;
  after: string | null;
  visibility: DriftEvent['visibility'];
  cause: string;
}

export interface PersonalizationTask {
  id: string;
  user_id: string;
  user_profile: Record<string, unknown>;
  subtasks: VitaSubTask[];
}

/**
 * `YYYY-MM-DD HH:MM:SS` (UTC), VitaBench's timestamp form.
 *
 * @example vitaTime(Date.UTC(2024, 2, 4, 9, 30)) // '2024-03-04 09:30:00'
 */
export const vitaTime = (ms: number): string => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * A preference as a tag: "likes spicy hotpot", "dislikes olives when …".
 *
 * @example preferenceTag(plan.preferences[0]) // 'likes oat milk lattes'
 */
export const preferenceTag = (p: Preference): string => describePreference(p);

function userProfile(plan: UserPlan): Record<string, unknown> {
  const p = plan.enriched.persona;
  return {
    user_id: plan.userId,
    name: p.name,
    age: p.age,
    gender: p.gender,
    occupation: p.occupation,
    residence: p.location.city,
    region_tier: p.location.regionTier,
    family_status: p.family,
    life_stage: p.lifeStage,
  };
}

const activeAt = (p: Preference, t: number) =>
  Date.parse(p.validFrom) <= t && (p.validUntil === null || Date.parse(p.validUntil) > t);

/**
 * Every drift event at or before `t`, as VitaBench's `preference_tag_change_history`.
 *
 * @example changeHistory(plan, Date.parse(plan.horizon.end)).length === plan.drift.length
 */
export function changeHistory(plan: UserPlan, t: number): PreferenceTagChange[] {
  const byId = new Map(plan.preferences.map((p) => [p.id, p]));
  return plan.drift
    .filter((d) => Date.parse(d.time) <= t)
    .sort((a, b) => Date.parse(a.time) - Date.parse(b.time) || (a.id < b.id ? -1 : 1))
    .map((d) => {
      const after = d.preferenceId === null ? undefined : byId.get(d.preferenceId);
      const before = d.previousPreferenceId === null ? undefined : byId.get(d.previousPreferenceId);
      return {
        time: vitaTime(Date.parse(d.time)),
        type: d.type,
        category: (after ?? before)?.category ?? 'longtail',
        before: before === undefined ? null : preferenceTag(before),
        after: after === undefined ? null : preferenceTag(after),
        visibility: d.visibility,
        cause: d.cause,
      };
    });
}

/**
 * Active preference tags by category at `t` (VitaBench's `current`).
 *
 * @example currentTags(plan, Date.parse('2024-03-01T00:00:00Z')).food // ['likes ramen', …]
 */
export function currentTags(plan: UserPlan, t: number): Record<string, string[]> {
  const current: Record<string, string[]> = {};
  for (const p of plan.preferences.filter((q) => activeAt(q, t))) {
    const tags = current[p.category] ?? [];
    tags.push(preferenceTag(p));
    current[p.category] = tags;
  }
  return current;
}

function rubric(p: Preference): string {
  return p.polarity === 'like'
    ? `The agent's choice must fit the user's preference: ${p.item}.`
    : `The agent's choice must not include ${p.item}, which the user dislikes.`;
}

/** When each preference was first said (its own statement or the drift that opened it), epoch ms. */
export function firstSaid(plan: UserPlan): Map<string, number> {
  const opens = new Map(plan.drift.map((d) => [d.id, d.preferenceId]));
  const said = new Map<string, number>();
  for (const slot of plan.slots) {
    const id = slot.kind === 'preference' ? slot.refId : slot.kind === 'drift' ? opens.get(slot.refId) : null;
    if (id == null) continue;
    const time = Date.parse(slot.time);
    if (time < (said.get(id) ?? Number.POSITIVE_INFINITY)) said.set(id, time);
  }
  return said;
}

/**
 * The user's interaction units in time order: whole sessions and single behavior events. A
 * subtask happens in the gap after a unit, so no session is ever split between two subtasks.
 */
function interactionUnits(dialogue: UserDialogue): Array<{ start: number; end: number }> {
  const units = [
    ...dialogue.sessions.map((s) => ({ start: Date.parse(s.start), end: Date.parse(s.end) })),
    ...dialogue.behaviors.map((b) => ({ start: Date.parse(b.time), end: Date.parse(b.time) })),
  ].sort((a, b) => a.start - b.start || a.end - b.end);
  // Merge overlaps (a behavior logged during a session belongs to it).
  const merged: Array<{ start: number; end: number }> = [];
  for (const unit of units) {
    const last = merged[merged.length - 1];
    if (last !== undefined && unit.start <= last.end) last.end = Math.max(last.end, unit.end);
    else merged.push({ ...unit });
  }
  return merged;
}

/** The part of a dialogue in the window (from, to]: what happened between two subtasks. */
function windowOf(dialogue: UserDialogue, from: number, to: number): UserDialogue {
  const inside = (iso: string) => Date.parse(iso) > from && Date.parse(iso) <= to;
  return {
    ...dialogue,
    sessions: dialogue.sessions.filter((s) => inside(s.start)),
    behaviors: dialogue.behaviors.filter((b) => inside(b.time)),
  };
}

/**
 * One user's VitaBench 2.0 personalization task (FORMATS.md §5, SPEC.md §4): 10–20 subtasks
 * (fewer when the user has fewer sessions + behavior events), each in the gap after a session or
 * behavior event, in time order. A subtask carries the interactions since the previous one
 * (`{date, behavior[], dialogue[]}` per day), a vague instruction, the hidden
 * intention, and rubric assertions from the preferences active at its time. The focal
 * preference is one a drift opened since the previous subtask (`skill_tested: ['update']`),
 * else a seeded draw among the active ones (`['proactive']` when it is conditional).
 *
 * @example buildVitaBenchTask(bundle, config, 42).subtasks[0].evaluation_criteria.overall_rubrics
 */
export function buildVitaBenchTask(
  bundle: ExportBundle,
  config: VitaBenchSystemConfig,
  seed: number,
): PersonalizationTask {
  const { plan } = bundle;
  const rng = createRng(seed, 'vitabench', plan.userId);
  // Subtasks start once the user has said something a task can test.
  const said = firstSaid(plan);
  const firstKnown = Math.min(...said.values());
  const units = interactionUnits(bundle.dialogue).filter((unit) => unit.end >= firstKnown);
  const count = Math.min(units.length, rng.int(config.subtasks[0], config.subtasks[1]));
  // Evenly spread over the units; the last subtask follows the last interaction.
  const chosen = Array.from({ length: count }, (_, k) => Math.floor(((k + 1) * units.length) / count) - 1);
  const byId = new Map(plan.preferences.map((p) => [p.id, p]));
  const profile = userProfile(plan);
  const addresses = userAddresses(plan, rng.fork('addresses'));
  const subtasks: VitaSubTask[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  chosen.forEach((unitIndex, k) => {
    const last = units[unitIndex]!.end;
    const next = units[unitIndex + 1]?.start ?? Number.POSITIVE_INFINITY;
    // Strictly after the unit's last interaction and before the next one.
    const t = Math.min(last + config.delayMinutes * 60_000, last + (next - last) / 2);
    const active = plan.preferences.filter((p) => activeAt(p, t));
    // Only what the user has said before the task can be asked of the agent.
    const known = active.filter((p) => (said.get(p.id) ?? Number.POSITIVE_INFINITY) < t);
    const drifts =
      k === 0 ? [] : plan.drift.filter((d) => Date.parse(d.time) > previous && Date.parse(d.time) <= t);
    const opened = drifts
      .map((d) => (d.preferenceId === null ? undefined : byId.get(d.preferenceId)))
      .filter((p): p is Preference => p !== undefined && known.includes(p));
    const closed = drifts
      .map((d) => (d.previousPreferenceId === null ? undefined : byId.get(d.previousPreferenceId)))
      .filter((p): p is Preference => p !== undefined && !activeAt(p, t));
    const local = rng.fork(k);
    const chosen = chooseFocal({
      opened,
      known,
      closed,
      active,
      persona: plan.enriched.persona,
      size: config.candidates,
      rng: local.fork('focal'),
    });
    if (chosen === undefined) return; // nothing said yet that a task could test
    const { focal, outdated, design } = chosen;
    const domain = local.pick(DOMAINS[focal.category]);
    const update = opened.includes(focal) || outdated.length > 0;
    const skills = update ? ['update'] : focal.condition !== null ? ['proactive'] : [];
    const rubrics: string[] = [];
    if (focal.condition !== null)
      rubrics.push(
        `The agent must ask about the user's ${focal.condition.context} before choosing, because this preference holds only ${focal.condition.when}.`,
      );
    rubrics.push(rubric(focal));
    for (const old of outdated)
      rubrics.push(`The agent must not rely on the outdated preference (${preferenceTag(old)}).`);
    const intention =
      focal.condition !== null
        ? `${focal.condition.when.charAt(0).toUpperCase()}${focal.condition.when.slice(1)}, so I ${focal.polarity === 'like' ? 'want' : 'want to avoid'} ${focal.item}.`
        : `I ${focal.polarity === 'like' ? 'want' : 'want to avoid'} ${focal.item}.`;
    const subtaskId = `${plan.userId}_${String(subtasks.length + 1).padStart(2, '0')}`;
    const time = vitaTime(t);
    const world = buildSubtaskWorld({
      plan,
      dialogue: bundle.dialogue,
      focal,
      active,
      domain,
      t,
      subtaskId,
      time,
      rng: local.fork('world'),
      addresses,
      rubrics: rubrics.slice(0, config.maxRubrics),
      design,
    });
    subtasks.push({
      subtask_id: subtaskId,
      domain,
      instruction: local.pick(instructionsFor(kindOf(focal), domain)),
      environment: world.environment,
      user_scenario: {
        user_profile: profile,
        personalized_preference_memory: {
          current: currentTags(plan, t),
          preference_tag_change_history: changeHistory(plan, t),
        },
      },
      evaluation_criteria: {
        expected_states: world.expected_states,
        overall_rubrics: rubrics.slice(0, config.maxRubrics),
      },
      focal_preference: focal.id,
      interactions: toVitaBenchInteractions(windowOf(bundle.dialogue, previous, t)),
      skill_tested: skills,
      user_intention: intention,
      message_history: [],
    });
    previous = t;
  });
  return { id: `vita-${plan.userId}`, user_id: plan.userId, user_profile: profile, subtasks };
}

/**
 * Writes `<outDir>/tasks.json`: one VitaBench 2.0 `PersonalizationTask` per user, in order.
 *
 * @example await exportVitaBench(bundles, 'out/run/export/eval/vitabench', config, 42);
 */
export async function exportVitaBench(
  bundles: AsyncIterable<ExportBundle> | Iterable<ExportBundle>,
  outDir: string,
  config: VitaBenchSystemConfig,
  seed: number,
): Promise<{ tasks: number; subtasks: number }> {
  const tasks: PersonalizationTask[] = [];
  for await (const bundle of bundles) tasks.push(buildVitaBenchTask(bundle, config, seed));
  await writeJson(join(outDir, 'tasks.json'), tasks);
  return { tasks: tasks.length, subtasks: tasks.reduce((n, task) => n + task.subtasks.length, 0) };
}
