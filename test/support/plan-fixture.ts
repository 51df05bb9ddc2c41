import { SCHEMA_VERSION } from '../../src/schemas/common.js';
import type {
  BigFive,
  DriftEvent,
  EvidenceSlot,
  NoiseKind,
  Preference,
  SessionPlan,
  UserPlan,
} from '../../src/schemas/index.js';
import { UserPlan as UserPlanSchema } from '../../src/schemas/index.js';
import { createRng } from '../../src/util/rng.js';
import { PREFERENCE_BANK } from './plan-fixture-bank.js';

/**
 * Hand-written, realistic UserPlan fixtures for synth/interpolate tests, used until the plan
 * generator (`buildUserPlan`) is available. Seeded: the same options give the same plan.
 */
export interface PlanFixtureOptions {
  seed?: number;
  userId?: string;
  /** Total rounds across all sessions. @default 60 */
  rounds?: number;
  /** Rounds per session `[min, max]`. @default [12, 30] */
  sessionRounds?: [number, number];
  /** Overrides the initial Big Five. */
  bigFive?: BigFive;
}

const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Builds a schema-valid plan with sessions, drift, people, goals, habits, images, concepts, noise
 * and one evidence slot per planned fact.
 *
 * @example const plan = makePlanFixture({ seed: 3, rounds: 500 });
 */
export function makePlanFixture(options: PlanFixtureOptions = {}): UserPlan {
  const seed = options.seed ?? 1;
  const userId = options.userId ?? `user-${String(seed).padStart(4, '0')}`;
  const totalRounds = options.rounds ?? 60;
  const [minRounds, maxRounds] = options.sessionRounds ?? [12, 30];
  const rng = createRng(seed, 'plan-fixture', userId);
  const start = Date.UTC(2024, 2, 4, 9, 0);

  // Sessions: 1–4 days apart, 08:00–21:00 starts, rounds summing to totalRounds.
  const sessions: SessionPlan[] = [];
  let left = totalRounds;
  let day = 0;
  const topicsPool = [
    'weekend plans',
    'work stress',
    'cooking',
    'travel ideas',
    'fitness',
    'music',
    'shopping',
    'family',
  ];
  while (left > 0) {
    const rounds = Math.min(left, rng.int(minRounds, maxRounds));
    left -= rounds;
    const startMs = start + day * DAY_MS + rng.int(0, 13 * 60) * 60_000;
    sessions.push({
      index: sessions.length,
      start: iso(startMs),
      rounds,
      roundGapMinutes: rng.pick([1, 1.5, 2, 3]),
      topics: rng.sample(topicsPool, rng.int(1, 3)),
      noise: [],
      images: [],
    });
    day += rng.int(1, 4);
  }
  const end = start + (day + 1) * DAY_MS;
  const roundTime = (s: SessionPlan, r: number) => iso(Date.parse(s.start) + r * s.roundGapMinutes * 60_000);

  const used = new Set<string>();
  const freeRound = (from = 0, to = sessions.length - 1): { s: SessionPlan; r: number } => {
    for (let attempt = 0; attempt < 1000; attempt++) {
      const s =
        sessions[
          rng.int(Math.min(from, sessions.length - 1), Math.max(0, Math.min(to, sessions.length - 1)))
        ]!;
      const r = rng.int(0, s.rounds - 1);
      if (!used.has(`${s.index}:${r}`)) {
        used.add(`${s.index}:${r}`);
        return { s, r };
      }
    }
    throw new Error('fixture: no free round left');
  };

  const bigFive: BigFive = options.bigFive ?? {
    openness: rng.int(1, 5),
    conscientiousness: rng.int(1, 5),
    extraversion: rng.int(1, 5),
    agreeableness: rng.int(1, 5),
    neuroticism: rng.int(1, 5),
  };
  const mid = sessions[Math.floor(sessions.length / 2)]!;
  const shifted: BigFive = {
    ...bigFive,
    neuroticism: Math.min(5, bigFive.neuroticism + 1),
    extraversion: Math.max(1, bigFive.extraversion - 1),
  };

  const slots: EvidenceSlot[] = [];
  const addSlot = (
    kind: EvidenceSlot['kind'],
    refId: string,
    statement: string,
    keywords: string[],
    imageId: string | null = null,
    from = 0,
    to = sessions.length - 1,
  ) => {
    const { s, r } = freeRound(from, to);
    const slot: EvidenceSlot = {
      id: `${userId}:slot-${slots.length}`,
      kind,
      refId,
      sessionIndex: s.index,
      round: r,
      time: roundTime(s, r),
      statement,
      keywords,
      imageId,
    };
    slots.push(slot);
    if (imageId !== null) s.images.push({ round: r, imageId });
    return slot;
  };

  // Preferences: one per slot key; a third drift (modify) in the second half.
  const preferences: Preference[] = [];
  const drift: DriftEvent[] = [];
  const bySlot = new Map<string, typeof PREFERENCE_BANK>();
  for (const entry of PREFERENCE_BANK) bySlot.set(entry.slot, [...(bySlot.get(entry.slot) ?? []), entry]);
  for (const [slotKey, entries] of bySlot) {
    const first = entries[0]!;
    const pref: Preference = {
      id: `${userId}:pref-${preferences.length}`,
      category: first.category,
      slot: slotKey,
      item: first.item,
      polarity: rng.chance(0.8) ? 'like' : 'dislike',
      keywords: first.keywords,
      validFrom: iso(start),
      validUntil: null,
      origin: 'initial',
      condition: rng.chance(0.15) ? { context: 'companion', when: 'when eating with colleagues' } : null,
    };
    preferences.push(pref);
    addSlot(
      'preference',
      pref.id,
      `The user ${pref.polarity}s ${pref.item}${pref.condition === null ? '' : ` ${pref.condition.when}`}.`,
      pref.keywords,
      null,
      0,
      Math.floor((sessions.length - 1) / 2),
    );
    const next = entries[1];
    if (next !== undefined && rng.chance(0.6) && sessions.length > 2) {
      const { s, r } = freeRound(Math.ceil(sessions.length / 2));
      used.delete(`${s.index}:${r}`);
      const when = roundTime(s, r);
      pref.validUntil = when;
      const opened: Preference = {
        ...pref,
        id: `${userId}:pref-${preferences.length}`,
        item: next.item,
        polarity: 'like',
        keywords: next.keywords,
        validFrom: when,
        validUntil: null,
        origin: 'drift',
        condition: null,
      };
      preferences.push(opened);
      const event: DriftEvent = {
        id: `${userId}:drift-${drift.length}`,
        type: 'modify',
        time: when,
        preferenceId: opened.id,
        previousPreferenceId: pref.id,
        cause: rng.pick([
          'a doctor told them to cut down',
          'a friend introduced them to it',
          'they moved to a new neighbourhood',
        ]),
        visibility: 'explicit',
      };
      drift.push(event);
      used.add(`${s.index}:${r}`);
      slots.push({
        id: `${userId}:slot-${slots.length}`,
        kind: 'drift',
        refId: event.id,
        sessionIndex: s.index,
        round: r,
        time: when,
        statement: `The user switched from ${pref.item} to ${opened.item} because ${event.cause}.`,
        keywords: opened.keywords,
        imageId: null,
      });
    }
  }

  const people = [
    { id: `${userId}:person-0`, name: 'Mira', relation: 'sister' },
    { id: `${userId}:person-1`, name: 'Tomás', relation: 'coworker' },
    { id: `${userId}:person-2`, name: 'Dr. Okafor', relation: 'physiotherapist' },
  ].map((p, i) => ({
    ...p,
    timeline: [
      { time: iso(start), closeness: 3 + (i % 2), frequency: 4 - i, note: `knows ${p.name} well` },
      { time: mid.start, closeness: 2 + i, frequency: 2 + i, note: 'sees them more often now' },
    ],
  }));
  for (const p of people)
    addSlot('relationship', p.id, `${p.name} is the user's ${p.relation}.`, [p.name, p.relation]);

  const goals = [
    { id: `${userId}:goal-0`, description: 'run a half marathon', keywords: ['half marathon'] },
    { id: `${userId}:goal-1`, description: 'learn conversational Spanish', keywords: ['Spanish'] },
  ].map((g) => ({
    ...g,
    states: [
      { time: iso(start), status: 'planned' as const, note: 'just decided' },
      { time: mid.start, status: 'in_progress' as const, note: 'training regularly' },
    ],
  }));
  for (const g of goals) addSlot('goal', g.id, `The user wants to ${g.description}.`, g.keywords);

  const habits = [
    {
      id: `${userId}:habit-0`,
      description: 'swims laps before work',
      keywords: ['swim'],
      dayOfWeek: null,
      timeOfDay: 'morning' as const,
    },
    {
      id: `${userId}:habit-1`,
      description: 'calls their parents on Sunday evenings',
      keywords: ['parents', 'Sunday'],
      dayOfWeek: 0,
      timeOfDay: 'evening' as const,
    },
  ].map((h) => ({ ...h, validFrom: iso(start), validUntil: null }));
  for (const h of habits) addSlot('habit', h.id, `The user ${h.description}.`, h.keywords);

  const images = Array.from({ length: 8 }, (_, i) => ({
    id: `img-${String(i).padStart(3, '0')}`,
    path: `builtin/scene-${i}.png`,
    caption: [
      'a red bicycle leaning on a fence',
      'two mugs of coffee on a wooden table',
      'a grey cat asleep on a sofa',
      'a bowl of noodles with chopsticks',
      'a mountain lake at sunset',
      'three succulents in clay pots',
      'a blue backpack on a bench',
      'a birthday cake with candles',
    ][i]!,
    objects: [
      {
        name: ['bicycle', 'mug', 'cat', 'bowl', 'lake', 'succulent', 'backpack', 'cake'][i]!,
        color: ['red', 'white', 'grey', 'white', 'blue', 'green', 'blue', 'pink'][i]!,
        count: i === 5 ? 3 : 1,
      },
    ],
  }));
  const concepts = [
    {
      id: `${userId}:concept-0`,
      name: 'Biscuit',
      kind: 'pet' as const,
      objectClass: 'cat',
      description: "the user's grey cat",
      imageIds: ['img-002'],
    },
  ];
  addSlot('image', concepts[0]!.id, "Biscuit is the user's grey cat.", ['Biscuit'], 'img-002');
  for (const image of images.filter((img) => img.id !== 'img-002').slice(0, 4)) {
    addSlot(
      'image',
      image.id,
      `The user shared a photo: ${image.caption}.`,
      [image.objects[0]!.name],
      image.id,
    );
  }
  addSlot('fact', `${userId}:fact-0`, 'The user works night shifts on Fridays.', ['night shifts'], null);
  addSlot(
    'personality',
    `${userId}:personality-1`,
    'The user feels more anxious since the reorganisation.',
    ['anxious'],
    null,
    Math.floor(sessions.length / 2),
  );

  // Noise: about 10% of rounds, on rounds without slots.
  const kinds: NoiseKind[] = ['irrelevant', 'exploratory', 'on_behalf', 'impulse', 'correction'];
  const noiseCount = Math.max(1, Math.round(totalRounds * 0.1));
  for (let i = 0; i < noiseCount && used.size < totalRounds; i++) {
    const { s, r } = freeRound();
    const kind = kinds[i % kinds.length]!;
    s.noise.push({ round: r, kind, note: `${kind} interaction` });
  }
  for (const s of sessions) {
    s.noise.sort((a, b) => a.round - b.round);
    s.images.sort((a, b) => a.round - b.round);
  }
  slots.sort((a, b) => a.sessionIndex - b.sessionIndex || a.round - b.round);

  const firstPref = preferences[0]!;
  const plan: UserPlan = {
    schemaVersion: SCHEMA_VERSION,
    userId,
    split: 'train',
    profile: 'personavlm',
    horizon: { start: iso(start), end: iso(end) },
    enriched: {
      persona: {
        id: `persona-${seed}`,
        source: 'builtin',
        description: 'A nurse in Lisbon who unwinds with food, music and long walks.',
        name: rng.pick(['Ana Ribeiro', 'Leo Park', 'Sam Okoye', 'Priya Nair']),
        age: rng.int(22, 58),
        gender: rng.pick(['female', 'male', 'non-binary']),
        occupation: rng.pick(['nurse', 'software engineer', 'teacher', 'architect']),
        location: { city: 'Lisbon', country: 'Portugal', regionTier: 'tier1' },
        family: 'lives with a partner',
        lifeStage: 'early career',
        education: 'bachelor',
        interests: ['cooking', 'music', 'hiking'],
      },
      bigFive,
      roleDescription: 'Curious, a little anxious, loves trying new food.',
      coreMemory: {
        human: { name: 'Ana' },
        persona: {
          identity: 'personal assistant',
          roles: 'planner and companion',
          interactionStyle: 'warm and concise',
        },
      },
      enrichedBy: 'offline',
    },
    preferences,
    drift,
    personality: [
      { time: iso(start), bigFive, cause: 'initial profile' },
      { time: mid.start, bigFive: shifted, cause: 'reorganisation at work' },
    ],
    people,
    goals,
    habits,
    concepts,
    images,
    sessions,
    slots,
    qa: [
      {
        id: `${userId}:qa-0`,
        family: 'persona-mme',
        task: 'latest_preference_recognition',
        group: 'Preference Recognition',
        questionTime: iso(end - DAY_MS / 2),
        question: 'What do I usually like to eat?',
        answer: firstPref.item,
        answerType: 'open',
        choices: [],
        correctIndex: null,
        evidenceSlotIds: [slots.find((s) => s.refId === firstPref.id)!.id],
        retrievalKeywords: firstPref.keywords,
        unanswerable: false,
        locomoCategory: null,
      },
    ],
  };
  return UserPlanSchema.parse(plan);
}

/** A small default fixture (60 rounds) for quick tests. */
export const planFixture: UserPlan = makePlanFixture({ seed: 7 });
