import { buildQaTargets } from '../qa/build-qa.js';
import type { BigFive, Split } from '../schemas/common.js';
import { SCHEMA_VERSION } from '../schemas/common.js';
import type { EnrichedPersona } from '../schemas/persona.js';
import type { DriftEvent, EvidenceSlot, Goal, ImageRef, Preference, UserPlan } from '../schemas/plan.js';
import { type PlanConfig, resolvePlanSettings } from '../schemas/plan-config.js';
import { createRng } from '../util/rng.js';
import { allocateRounds, multimodalCount } from './allocate.js';
import { CAUSES_BY_DIRECTION, driftDirection, IMPLICIT_CAUSES } from './catalogue/life-catalogue.js';
import { planImages } from './image-slots.js';
import { changeRelationship, drawGoals, drawHabits, drawPeople, drawPersonalityShift } from './life.js';
import { baseSlot, createPreferencePool, type PreferenceChoice } from './preference-pool.js';
import { assembleSessions } from './sessions.js';
import { describePreference, driftStatement, iso, makeId, personaFacts, TRAIT_WORDS } from './statements.js';
import { buildTimeline, DAY, MINUTE, type RoundRef } from './timeline.js';

export interface BuildUserPlanInput {
  userId: string;
  split: Split;
  enriched: EnrichedPersona;
  /** The image pool; empty turns multimodal rounds off. */
  images: ImageRef[];
}

export interface BuildUserPlanOptions {
  /** The `plan:` section (profile preset and defaults applied by `resolvePlanSettings`). */
  config: PlanConfig;
  /** Run seed; the plan depends only on (seed, userId, input, config). */
  seed: number;
  /** Tiered explanation: the share of each level's users it is asked of (`explanationShares`). */
  explanationKeep?: Readonly<Record<string, number>>;
}

/**
 * Builds one user's ground-truth plan: preferences with validity intervals and drift, personality
 * trajectory, people, goals, habits, visual concepts, sessions with noise and images, evidence
 * slots bound to (session, round) and QA targets. Pure, synchronous and deterministic.
 *
 * @example
 * const plan = buildUserPlan({ userId: 'u-0001', split: 'train', enriched, images }, { config: {}, seed: 42 });
 */
export function buildUserPlan(input: BuildUserPlanInput, options: BuildUserPlanOptions): UserPlan {
  const settings = resolvePlanSettings(options.config);
  const rng = createRng(options.seed, 'plan', input.userId);
  const persona = input.enriched.persona;
  const name = persona.name;
  const timeline = buildTimeline(rng.fork('timeline'), settings, input.split);
  const { start, end } = timeline;
  const days = (end - start) / DAY;
  const life = rng.fork('life');

  // Drift counts: VitaBench per-user means, per lifecycle or scaled to this horizon (plan-config.ts).
  const scale =
    settings.drift.counts === 'lifecycle'
      ? 1
      : (days / settings.drift.referenceHorizonDays) * settings.drift.timeScale;
  const means = settings.drift.perUserMeans;
  const driftTypes = life.shuffle([
    ...Array<'add'>(life.poisson(means.add * scale)).fill('add'),
    ...Array<'delete'>(life.poisson(means.delete * scale)).fill('delete'),
    ...Array<'modify'>(life.poisson(means.modify * scale)).fill('modify'),
  ]);
  const people = drawPeople(life, life.int(...settings.people.count), start, input.enriched);
  const goals = drawGoals(life, life.int(...settings.goals.count));
  const unknownGoals = new Set(
    goals.filter(() => life.chance(settings.goals.unknownRatio)).map((goal) => goal.id),
  );
  const habits = drawHabits(life, life.int(...settings.habits.count), start);
  const habitMentions = habits.reduce((sum) => sum + life.int(...settings.habits.mentions), 0);

  const multimodal = settings.multimodal.enabled && input.images.length > 0;
  const imageCount = multimodal ? multimodalCount(rng, settings, timeline.rounds.length) : 0;
  const roles = allocateRounds(rng.fork('rounds'), settings, timeline.rounds, imageCount, {
    drift: driftTypes.length,
    personality: life.poisson((settings.personalityShiftsPer30Days * days) / 30),
    people: people.length,
    personChanges: life.poisson((settings.people.changesPer30Days * days) / 30),
    goals: goals.length,
    goalUpdates: goals.filter((goal) => !unknownGoals.has(goal.id)).length * life.int(1, 2),
    habitMentions,
    facts: 4,
  });

  // Initial preferences, valid from the horizon start.
  const pool = createPreferencePool(persona, settings);
  const prefRng = rng.fork('preferences');
  const preferences: Preference[] = [];
  const active = new Map<string, Preference>(); // base slot → active preference
  const openPreference = (
    choice: PreferenceChoice,
    time: string,
    origin: Preference['origin'],
  ): Preference => {
    const preference: Preference = {
      id: makeId('pref', preferences.length + 1),
      category: choice.spec.category,
      slot: choice.slot,
      item: choice.option.item,
      polarity: choice.option.polarity,
      keywords: [...choice.option.keywords],
      validFrom: time,
      validUntil: null,
      origin,
      condition: choice.condition,
    };
    preferences.push(preference);
    active.set(baseSlot(choice.slot), preference);
    return preference;
  };
  const startIso = iso(start);
  const initialCount = prefRng.int(...settings.preferences.initial);
  for (let i = 0; i < initialCount; i++) {
    const choice = pool.draw(prefRng, active, [...active.values()]);
    if (choice === null) break;
    openPreference(choice, startIso, 'initial');
  }

  const slots: EvidenceSlot[] = [];
  const addSlot = (round: RoundRef, slot: Omit<EvidenceSlot, 'id' | 'sessionIndex' | 'round' | 'time'>) => {
    slots.push({
      id: makeId('slot', slots.length + 1),
      sessionIndex: round.sessionIndex,
      round: round.round,
      time: round.iso,
      ...slot,
    });
  };
  const drift: DriftEvent[] = [];
  const personality: UserPlan['personality'] = [
    { time: startIso, bigFive: { ...input.enriched.bigFive }, cause: 'initial profile' },
  ];
  const mentioned = new Set<string>();
  const introducedPeople: typeof people = [];
  const introducedGoals: typeof goals = [];
  const mentionedHabits = new Set<string>();
  const facts = personaFacts(persona);
  let factIndex = 0;
  let driftIndex = 0;
  const ev = rng.fork('events');

  // Preferences not yet stated, drawn first so most of the profile gets expressed; closed ones
  // are dropped lazily when drawn.
  const unmentioned = [...preferences];
  const mentionPreference = (round: RoundRef) => {
    let preference: Preference | undefined;
    while (preference === undefined && unmentioned.length > 0) {
      const index = ev.int(0, unmentioned.length - 1);
      const candidate = unmentioned[index] as Preference;
      unmentioned[index] = unmentioned[unmentioned.length - 1] as Preference;
      unmentioned.pop();
      if (candidate.validUntil === null && !mentioned.has(candidate.id)) preference = candidate;
    }
    if (preference === undefined) {
      const candidates = [...active.values()];
      if (candidates.length === 0) return false;
      preference = ev.pick(candidates);
    }
    mentioned.add(preference.id);
    addSlot(round, {
      kind: 'preference',
      refId: preference.id,
      statement: `${name} ${describePreference(preference)}`,
      keywords: preference.keywords,
      imageId: null,
    });
    return true;
  };

  for (const round of roles.content) {
    const time = round.time;
    let kind = round.kind;
    if (kind === 'drift') {
      const wanted = driftTypes[driftIndex++] ?? 'add';
      const candidates = [...active.values()];
      const known = candidates.filter((preference) => mentioned.has(preference.id));
      const type = wanted !== 'add' && candidates.length === 0 ? 'add' : wanted;
      const implicit = ev.chance(settings.drift.implicitRatio);
      // The cause is drawn here (one draw, as before) and read once the change's direction is known.
      const causeDraw = ev.next();
      let previous: Preference | null = null;
      let next: Preference | null = null;
      if (type === 'add') {
        const choice = pool.draw(ev, active, [...active.values()]);
        if (choice === null) {
          kind = 'preference';
        } else {
          next = openPreference(choice, round.iso, 'drift');
        }
      } else {
        previous = ev.pick(known.length > 0 && ev.chance(0.8) ? known : candidates);
        previous.validUntil = round.iso;
        active.delete(baseSlot(previous.slot));
        if (type === 'modify') {
          const option = pool.modify(ev, previous, [...active.values()]);
          const spec = pool.slots.find((candidate) => candidate.slot === baseSlot(previous?.slot ?? ''));
          next = openPreference(
            {
              spec: spec ?? {
                slot: baseSlot(previous.slot),
                category: previous.category,
                options: [option],
                requires: {},
                tags: [],
              },
              option,
              condition: previous.condition,
              slot: previous.slot,
            },
            round.iso,
            'drift',
          );
        }
      }
      if (kind === 'drift') {
        const causes = implicit ? IMPLICIT_CAUSES : CAUSES_BY_DIRECTION[driftDirection(next, previous)];
        const cause = causes[Math.floor(causeDraw * causes.length)] as string;
        const event: DriftEvent = {
          id: makeId('drift', drift.length + 1),
          type,
          time: round.iso,
          preferenceId: next?.id ?? null,
          previousPreferenceId: previous?.id ?? null,
          cause,
          visibility: implicit ? 'implicit' : 'explicit',
        };
        drift.push(event);
        if (next !== null) mentioned.add(next.id);
        const statement = driftStatement(name, previous, next, cause);
        addSlot(round, {
          kind: 'drift',
          refId: event.id,
          statement,
          keywords: (next ?? previous)?.keywords ?? ['change'],
          imageId: null,
        });
        continue;
      }
    }
    if (kind === 'personality') {
      const current = personality[personality.length - 1]?.bigFive as BigFive;
      const shift = drawPersonalityShift(ev, current);
      if (shift !== null) {
        const point = {
          time: round.iso,
          bigFive: { ...current, [shift.trait]: current[shift.trait] + shift.delta },
          cause: shift.cause,
        };
        personality.push(point);
        const word = TRAIT_WORDS[shift.trait]?.[shift.delta > 0 ? 'up' : 'down'] ?? shift.trait;
        addSlot(round, {
          kind: 'personality',
          refId: makeId('personality', personality.length - 1),
          statement: `${name} feels more ${word} lately: ${shift.cause}`,
          keywords: [word],
          imageId: null,
        });
        continue;
      }
      kind = 'preference';
    }
    if (kind === 'person-intro' || kind === 'person-change') {
      const pending = people.filter((person) => !introducedPeople.includes(person));
      const person = pending[0] ?? (introducedPeople.length > 0 ? ev.pick(introducedPeople) : null);
      if (person !== null) {
        if (pending[0] === person) {
          introducedPeople.push(person);
          addSlot(round, {
            kind: 'relationship',
            refId: person.id,
            statement: `${person.name} is ${name}'s ${person.relation}`,
            keywords: [person.name, person.relation],
            imageId: null,
          });
        } else {
          const change = changeRelationship(ev, person, round.iso);
          addSlot(round, {
            kind: 'relationship',
            refId: person.id,
            statement: `${name} and ${person.name} are ${change.closeness > 0 ? 'closer' : 'less close'} now: ${change.note}`,
            keywords: [person.name],
            imageId: null,
          });
        }
        continue;
      }
      kind = 'preference';
    }
    if (kind === 'goal-intro' || kind === 'goal-update') {
      const pending = goals.filter((goal) => !introducedGoals.includes(goal));
      const open = introducedGoals.filter((goal) => {
        const status = goal.states[goal.states.length - 1]?.status;
        return !unknownGoals.has(goal.id) && (status === 'planned' || status === 'in_progress');
      });
      const goal = pending[0] ?? (open.length > 0 ? ev.pick(open) : null);
      if (goal !== null) {
        let status: Goal['states'][number]['status'];
        if (pending[0] === goal) {
          introducedGoals.push(goal);
          status = ev.chance(0.5) ? 'planned' : 'in_progress';
        } else {
          const last = goal.states[goal.states.length - 1]?.status;
          status = last === 'planned' ? 'in_progress' : ev.chance(0.7) ? 'achieved' : 'abandoned';
        }
        goal.states.push({
          time: round.iso,
          status,
          note: `${status.replace('_', ' ')}: ${goal.description}`,
        });
        addSlot(round, {
          kind: 'goal',
          refId: goal.id,
          statement: `${name}'s goal to ${goal.description} is ${status.replace('_', ' ')}`,
          keywords: goal.keywords,
          imageId: null,
        });
        if (unknownGoals.has(goal.id)) {
          // Deliberately unknown: the outcome is never shared, so "unknown" is the right answer later.
          goal.states.push({
            time: iso(time + MINUTE),
            status: 'unknown',
            note: 'no progress shared after this',
          });
        }
        continue;
      }
      kind = 'preference';
    }
    if (kind === 'habit' && habits.length > 0) {
      const fresh = habits.filter((habit) => !mentionedHabits.has(habit.id));
      const habit = fresh[0] ?? ev.pick(habits);
      mentionedHabits.add(habit.id);
      addSlot(round, {
        kind: 'habit',
        refId: habit.id,
        statement: `${name} ${habit.description}`,
        keywords: habit.keywords,
        imageId: null,
      });
      continue;
    }
    if (kind === 'fact' || (kind !== 'preference' && kind !== 'habit') || !mentionPreference(round)) {
      const fact = facts[factIndex++ % facts.length] as (typeof facts)[number];
      addSlot(round, {
        kind: 'fact',
        refId: fact.refId,
        statement: fact.statement,
        keywords: [fact.keyword],
        imageId: null,
      });
    }
  }

  const images = planImages(rng.fork('images'), settings, {
    pool: multimodal ? input.images : [],
    rounds: roles.imageRounds,
    name,
  });
  for (const { round, slot } of images.slots) addSlot(round, slot);
  slots.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0));
  slots.forEach((slot, index) => {
    slot.id = makeId('slot', index + 1);
  });
  const sessions = assembleSessions(timeline.sessions, slots, roles, rng.fork('noise'));

  const plan: UserPlan = {
    schemaVersion: SCHEMA_VERSION,
    userId: input.userId,
    split: input.split,
    profile: settings.profile,
    horizon: { start: iso(start), end: iso(end) },
    enriched: input.enriched,
    preferences,
    drift,
    personality,
    people,
    goals,
    habits,
    concepts: images.concepts,
    images: images.images,
    sessions,
    slots,
    qa: [],
  };
  plan.qa = buildQaTargets(plan, {
    rng: rng.fork('qa'),
    config: settings.qa,
    ...(options.explanationKeep === undefined ? {} : { explanationKeep: options.explanationKeep }),
  });
  return plan;
}
