import { join } from 'node:path';
import { describePreference } from '../../plan/statements.js';
import type { UserDialogue } from '../../schemas/dialogue.js';
import type { DriftEvent, Preference, PreferenceCategory, UserPlan } from '../../schemas/plan.js';
import { toVitaBenchInteractions, type VitaBenchInteraction } from '../../synth/vitabench.js';
import { writeJson } from '../../util/fs.js';
import { createRng } from '../../util/rng.js';
import type { ExportBundle } from '../read-run.js';
import type { VitaBenchSystemConfig } from './config.js';

/** VitaBench 2.0's domains (FORMATS.md §5). */
export type VitaDomain = 'delivery' | 'instore' | 'ota';

/** Which domains a preference category is exercised in (shopping goes through delivery, as on Meituan). */
const DOMAINS: Readonly<Record<PreferenceCategory, readonly VitaDomain[]>> = {
  food: ['delivery', 'instore'],
  shopping: ['delivery'],
  travel: ['ota'],
  entertainment: ['instore', 'ota'],
  lifestyle: ['instore'],
  longtail: ['delivery'],
};

/** Vague requests, as VitaBench's user simulator makes them ("帮我点个外卖"). */
const INSTRUCTIONS: Readonly<Record<VitaDomain, readonly string[]>> = {
  delivery: [
    'Order something for me.',
    'Get me a delivery, please.',
    'Can you order me the usual kind of thing?',
  ],
  instore: ['Find me somewhere to go.', 'Book me a place for later.', 'Where should I go today?'],
  ota: ['Help me book a trip.', 'Sort out my travel, please.', 'Find me something for my next getaway.'],
};

export interface VitaSubTask {
  subtask_id: string;
  domain: VitaDomain;
  instruction: string;
  environment: { time: string; user_id: string };
  user_scenario: {
    user_profile: Record<string, unknown>;
    personalized_preference_memory: {
      current: Record<string, string[]>;
      preference_tag_change_history: PreferenceTagChange[];
    };
  };
  evaluation_criteria: { expected_states: []; overall_rubrics: string[] };
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
  const units = interactionUnits(bundle.dialogue);
  const count = Math.min(units.length, rng.int(config.subtasks[0], config.subtasks[1]));
  // Evenly spread over the units; the last subtask follows the last interaction.
  const chosen = Array.from({ length: count }, (_, k) => Math.floor(((k + 1) * units.length) / count) - 1);
  const byId = new Map(plan.preferences.map((p) => [p.id, p]));
  const profile = userProfile(plan);
  const subtasks: VitaSubTask[] = [];
  let previous = Number.NEGATIVE_INFINITY;
  chosen.forEach((unitIndex, k) => {
    const last = units[unitIndex]!.end;
    const next = units[unitIndex + 1]?.start ?? Number.POSITIVE_INFINITY;
    // Strictly after the unit's last interaction and before the next one.
    const t = Math.min(last + config.delayMinutes * 60_000, last + (next - last) / 2);
    const active = plan.preferences.filter((p) => activeAt(p, t));
    const drifts =
      k === 0 ? [] : plan.drift.filter((d) => Date.parse(d.time) > previous && Date.parse(d.time) <= t);
    const opened = drifts
      .map((d) => (d.preferenceId === null ? undefined : byId.get(d.preferenceId)))
      .filter((p): p is Preference => p !== undefined && activeAt(p, t));
    const closed = drifts
      .map((d) => (d.previousPreferenceId === null ? undefined : byId.get(d.previousPreferenceId)))
      .filter((p): p is Preference => p !== undefined && !activeAt(p, t));
    const local = rng.fork(k);
    const focal = opened.length > 0 ? local.pick(opened) : active.length > 0 ? local.pick(active) : undefined;
    const domain = local.pick(DOMAINS[focal?.category ?? 'food']);
    const update =
      focal !== undefined &&
      (opened.includes(focal) || closed.some((p) => p.slot === focal.slot || p.category === focal.category));
    const skills = update ? ['update'] : focal?.condition != null ? ['proactive'] : [];
    const rubrics: string[] = [];
    if (focal !== undefined) {
      if (focal.condition !== null)
        rubrics.push(
          `The agent must ask about the user's ${focal.condition.context} before choosing, because this preference holds only ${focal.condition.when}.`,
        );
      rubrics.push(rubric(focal));
    }
    for (const old of closed.filter(
      (p) => focal === undefined || p.slot === focal.slot || p.category === focal.category,
    ))
      rubrics.push(`The agent must not rely on the outdated preference (${preferenceTag(old)}).`);
    // Other constraints of the same kind of request: active, unconditional, same category (dislikes first).
    const related = active
      .filter((p) => p !== focal && p.condition === null && p.category === (focal?.category ?? 'food'))
      .sort((a, b) =>
        a.polarity === b.polarity ? (a.id < b.id ? -1 : 1) : a.polarity === 'dislike' ? -1 : 1,
      );
    for (const p of related) rubrics.push(rubric(p));
    const intention =
      focal === undefined
        ? 'No particular wish; anything reasonable is fine.'
        : focal.condition !== null
          ? `${focal.condition.when.charAt(0).toUpperCase()}${focal.condition.when.slice(1)}, so I ${focal.polarity === 'like' ? 'want' : 'want to avoid'} ${focal.item}.`
          : `I ${focal.polarity === 'like' ? 'want' : 'want to avoid'} ${focal.item}.`;
    subtasks.push({
      subtask_id: `${plan.userId}_${String(k + 1).padStart(2, '0')}`,
      domain,
      instruction: local.pick(INSTRUCTIONS[domain]),
      environment: { time: vitaTime(t), user_id: plan.userId },
      user_scenario: {
        user_profile: profile,
        personalized_preference_memory: {
          current: currentTags(plan, t),
          preference_tag_change_history: changeHistory(plan, t),
        },
      },
      evaluation_criteria: { expected_states: [], overall_rubrics: rubrics.slice(0, config.maxRubrics) },
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
