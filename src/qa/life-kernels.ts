import { CONCEPT_NAMES, GOALS, HABITS, PERSON_NAMES, RELATIONS } from '../plan/catalogue/life-catalogue.js';
import { OBJECT_COLORS } from '../plan/images/palette.js';
import { BIG_FIVE_TRAITS, type BigFiveTrait } from '../schemas/common.js';
import type { Person, VisualConcept } from '../schemas/plan.js';
import { ask, isoAt, type Kernel, type QaContext, slotsBefore } from './qa-context.js';

/** English plural of an object name ("gift box" → "gift boxes", "strawberry" → "strawberries"). */
export function plural(name: string): string {
  if (/(s|x|z|ch|sh)$/.test(name)) return `${name}es`;
  if (/[^aeiou]y$/.test(name)) return `${name.slice(0, -1)}ies`;
  return `${name}s`;
}

const capitalize = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** The colour names images are described with (the built-in pool's palette). */
const COLOURS = Object.keys(OBJECT_COLORS);

/** Answer levels for tiered explanation delivery, one per kind of schooling: every option can be the gold. */
export const EXPLANATION_LEVELS = [
  'A detailed, technical explanation',
  'A concise overview with a few examples',
  'A practical explanation built around an everyday example',
  'A simple, step-by-step explanation',
] as const;

/** The level that suits the stated education (vocational training: practice before theory). */
export function explanationLevel(education: string): string {
  if (/phd|doctor|master|postgrad/i.test(education)) return EXPLANATION_LEVELS[0];
  if (/vocational|apprentice|trade school/i.test(education)) return EXPLANATION_LEVELS[2];
  if (/bachelor|college|university|degree/i.test(education)) return EXPLANATION_LEVELS[1];
  return EXPLANATION_LEVELS[3];
}

/** Reply styles that suit a high score of each trait (personality alignment). */
export const TRAIT_STYLES: Record<BigFiveTrait, string> = {
  openness: 'suggesting something unconventional I have never tried',
  conscientiousness: 'a detailed plan with a checklist',
  extraversion: 'an upbeat, chatty reply full of social ideas',
  agreeableness: 'a warm, encouraging reply',
  neuroticism: 'extra reassurance about everything that could go wrong',
};

function withSlots<T extends { id: string }>(context: QaContext, items: T[], time: number) {
  return items.filter((item) => slotsBefore(context, item.id, time).length > 0);
}

/**
 * Every value the asked attribute (colour or count) of `object` takes in a photo the question's
 * words can mean — each photo of the concept, or each photo with that object when the photo is
 * named by the object — and in what the user said about the concept. None of them may be a
 * distractor: a user with three photos of one concept in three colours has three true answers.
 */
function valuesMeant(
  context: QaContext,
  concept: VisualConcept | undefined,
  object: string,
  attribute: 'color' | 'count',
): Set<string> {
  const photos =
    concept === undefined
      ? context.plan.images.filter((image) => image.objects.some((item) => item.name === object))
      : context.plan.images.filter((image) => concept.imageIds.includes(image.id));
  const values = new Set<string>();
  for (const photo of photos)
    for (const item of photo.objects)
      if (item.name === object) values.add(String(item[attribute]).toLowerCase());
  if (concept !== undefined && attribute === 'color')
    for (const colour of COLOURS)
      if (new RegExp(`\\b${colour}\\b`, 'i').test(concept.description)) values.add(colour);
  return values;
}

export const visualDetail: Kernel = (context, time) => {
  const slots = (context.slotsByKind.get('image') ?? []).filter(
    (slot) => slot.imageId !== null && slot.time < isoAt(time),
  );
  // A photo whose object takes most values across the photos meant ("the photo with the ball"
  // among eight photos of balls) leaves too few false options: the next photo or object is asked.
  for (const slot of context.rng.shuffle(slots)) {
    const image = context.plan.images.find((item) => item.id === slot.imageId);
    const concept = context.plan.concepts.find((item) => item.id === slot.refId);
    for (const object of context.rng.shuffle(image?.objects ?? [])) {
      const takenCounts = valuesMeant(context, concept, object.name, 'count');
      const takenColours = valuesMeant(context, concept, object.name, 'color');
      const counts = [1, 2, 3, 4, 5, 6].filter((n) => !takenCounts.has(String(n))).map(String);
      const colours = COLOURS.filter((colour) => !takenColours.has(colour)).map(capitalize);
      const wantCount = context.rng.chance(0.5);
      const askCount = (wantCount && counts.length >= 3) || colours.length < 3;
      if ((askCount ? counts : colours).length < 3) continue;
      const photo =
        concept === undefined ? `the photo with the ${object.name}` : `the photo of ${concept.name}`;
      return {
        question: askCount
          ? ask(
              context,
              `In ${photo} I showed you, how many ${plural(object.name)} were there?`,
              `How many ${plural(object.name)} could you see in ${photo} I shared?`,
            )
          : ask(
              context,
              `In ${photo} I showed you, what colour was the ${object.name}?`,
              `What colour was the ${object.name} in ${photo} I sent you?`,
            ),
        answer: askCount ? String(object.count) : capitalize(object.color),
        distractors: askCount ? counts : colours,
        evidence: [slot],
        retrievalKeywords: [...slot.keywords, object.name],
        // Several photos of the concept with different values: without options, each is true.
        openable: (askCount ? takenCounts : takenColours).size <= 1,
      };
    }
  }
  return null;
};

/** M²A-style concept recall: the name the user gave something they showed in photos. */
export const conceptName: Kernel = (context, time) => {
  const concepts = context.plan.concepts.filter(
    (concept) => slotsBefore(context, concept.id, time).length > 0,
  );
  if (concepts.length === 0) return null;
  const concept = context.rng.pick(concepts);
  return {
    question: ask(
      context,
      `What did I call the ${concept.objectClass} in the photos I showed you?`,
      `What name did I give the ${concept.objectClass} from my photos?`,
    ),
    answer: concept.name,
    distractors: CONCEPT_NAMES.filter((name) => !context.plan.concepts.some((c) => c.name === name)),
    evidence: slotsBefore(context, concept.id, time).slice(0, 1),
    retrievalKeywords: [concept.objectClass, concept.name],
    topic: 'general',
  };
};

export const personName: Kernel = (context, time) => {
  const people = withSlots(context, context.plan.people, time);
  if (people.length === 0) return null;
  const person = context.rng.pick(people);
  return {
    question: ask(
      context,
      `What's the name of my ${person.relation} again?`,
      `Remind me, what is my ${person.relation} called?`,
    ),
    answer: person.name,
    distractors: PERSON_NAMES.filter(
      (name) => !context.plan.people.some((p) => p.name === name && p.relation === person.relation),
    ),
    evidence: slotsBefore(context, person.id, time).slice(0, 1),
    retrievalKeywords: [person.relation, person.name],
    topic: 'familyRelations',
  };
};

export const relationRecognition: Kernel = (context, time) => {
  const people = withSlots(context, context.plan.people, time);
  if (people.length === 0) return null;
  const person = context.rng.pick(people);
  return {
    question: ask(context, `Who is ${person.name} to me?`, `How do I know ${person.name}?`),
    answer: capitalize(person.relation),
    distractors: RELATIONS.filter((relation) => relation !== person.relation).map(capitalize),
    evidence: slotsBefore(context, person.id, time).slice(0, 1),
    retrievalKeywords: [person.name],
  };
};

/** Closeness now versus before the history started (the shortest label is the rarest gold: no change). */
export function relationshipTrend(person: Person, time: number): string {
  const first = person.timeline[0]?.closeness ?? 3;
  const now = person.timeline.filter((entry) => entry.time <= isoAt(time)).pop()?.closeness ?? first;
  return now > first ? 'We have grown closer' : now < first ? 'We have drifted apart' : 'About the same';
}

const NEVER_MENTIONED = 'I have never mentioned them';
const TRENDS = ['We have grown closer', 'We have drifted apart', 'About the same', NEVER_MENTIONED];

export const relationshipDynamics: Kernel = (context, time) => {
  const people = context.plan.people.filter((person) => slotsBefore(context, person.id, time).length > 1);
  // Someone the user has never named (no person of the plan, no word of the history before the
  // question): "I have never mentioned them" is then the answer, so that option is no dead one.
  const strangers = PERSON_NAMES.filter(
    (name) =>
      !context.plan.people.some((person) => person.name === name) &&
      (context.keywordSince.get(name.toLowerCase()) ?? '\uffff') >= isoAt(time),
  );
  if (people.length === 0) return null;
  // A trend first, then a person with it: no option answers most questions of the task.
  const trends = [...new Set(people.map((p) => relationshipTrend(p, time)))];
  // About one question in four is about someone never named (repeats of a known person's
  // question are dropped later, a stranger's are new: one draw in six comes out near a quarter).
  const trend =
    strangers.length > 0 && context.rng.chance(1 / 6) ? NEVER_MENTIONED : context.rng.pick(trends);
  const stranger = trend === NEVER_MENTIONED ? context.rng.pick(strangers) : null;
  const person =
    stranger ?? context.rng.pick(people.filter((p) => relationshipTrend(p, time) === trend)).name;
  const known = stranger === null ? people.find((p) => p.name === person) : undefined;
  return {
    question: ask(
      context,
      // Now against when the user first told of them (the trend's definition), not the latest change.
      `How are things between ${person} and me now, compared with when you first heard about them?`,
      `Since I first told you about ${person}, how have things between us changed?`,
    ),
    answer: trend,
    distractors: TRENDS.filter((text) => text !== trend),
    evidence: known === undefined ? [] : slotsBefore(context, known.id, time),
    retrievalKeywords: [person],
    ...(stranger === null ? {} : { unanswerable: true }),
  };
};

/** A habit's activity without its time ("jogs in the park every morning" → "jogs in the park"). */
export function habitActivity(description: string): string {
  return description.replace(/\s+(every\s+\w+(\s+(morning|afternoon|evening|night))?|before bed)$/i, '');
}

/**
 * "What do I usually do every morning?": the question names the time slot, the options are
 * activities without a time (so no time phrase picks one), none of them something the user does
 * in that part of the day. A habit the user shares its time with another ("on Saturday mornings"
 * and "every morning") is not asked.
 */
export const habitRecall: Kernel = (context, time) => {
  const habits = withSlots(context, context.plan.habits, time).filter(
    (habit) =>
      !context.plan.habits.some(
        (other) =>
          other.id !== habit.id &&
          other.timeOfDay === habit.timeOfDay &&
          (other.dayOfWeek === habit.dayOfWeek || other.dayOfWeek === null),
      ),
  );
  if (habits.length === 0) return null;
  const habit = context.rng.pick(habits);
  const when =
    habit.dayOfWeek === null ? `every ${habit.timeOfDay}` : `on ${DAYS[habit.dayOfWeek]} ${habit.timeOfDay}s`;
  const sameTime = new Set(
    context.plan.habits
      .filter((h) => h.timeOfDay === habit.timeOfDay)
      .map((h) => habitActivity(h.description).toLowerCase()),
  );
  return {
    question: ask(context, `What do I usually do ${when}?`, `What is my usual routine ${when}?`),
    answer: capitalize(habitActivity(habit.description)),
    distractors: HABITS.map((spec) => habitActivity(spec.description))
      .filter((activity) => !sameTime.has(activity.toLowerCase()))
      .map(capitalize),
    evidence: slotsBefore(context, habit.id, time),
    retrievalKeywords: [...habit.keywords],
    topic: 'general',
  };
};

/** Goal questions (even: train and validation users, odd: test users) that name no goal's words. */
const GOAL_QUESTIONS = [
  "I told you about something I'm aiming for — which of these is it?",
  'Which of these goals did I tell you I had set myself?',
  'Which one of these is a goal I mentioned to you?',
  'Which of these did I say I was hoping to achieve?',
  'Remind me, which of these aims did I share with you?',
  'Out of these, which one is a target I told you I had?',
];

/**
 * "Which of these goals did I tell you about?": the question names nothing of the goal; the
 * distractors are goals the user never had, so only what the user said picks the answer.
 */
export const goalIntent: Kernel = (context, time) => {
  const goals = withSlots(context, context.plan.goals, time);
  if (goals.length === 0) return null;
  const goal = context.rng.pick(goals);
  return {
    question: ask(context, ...GOAL_QUESTIONS),
    answer: `To ${goal.description}`,
    distractors: GOALS.filter(
      (spec) => !context.plan.goals.some((g) => g.description === spec.description),
    ).map((spec) => `To ${spec.description}`),
    evidence: slotsBefore(context, goal.id, time).slice(0, 1),
    retrievalKeywords: [...goal.keywords],
    topic: 'studyConsultation',
    // Without options, every goal the user told of answers it.
    ...(goals.length > 1 ? { openable: false } : {}),
  };
};

export const tieredExplanation: Kernel = (context, time) => {
  const evidence = slotsBefore(context, 'fact.education', time);
  if (evidence.length === 0) return null;
  const answer = explanationLevel(context.plan.enriched.persona.education);
  return {
    question: ask(
      context,
      'Can you explain how compound interest works — pitched at the level that suits me?',
      'Could you walk me through compound interest at a level that fits my background?',
    ),
    answer,
    distractors: EXPLANATION_LEVELS.filter((text) => text !== answer),
    evidence,
    retrievalKeywords: ['education', context.plan.enriched.persona.education],
  };
};

/** Reply styles that suit a low score of each trait. */
export const LOW_TRAIT_STYLES: Record<BigFiveTrait, string> = {
  openness: 'sticking to familiar, proven options',
  conscientiousness: 'a loose outline without a rigid plan',
  extraversion: 'a calm, brief reply with quiet ideas',
  agreeableness: 'a direct, no-nonsense reply',
  neuroticism: 'a matter-of-fact reply without extra reassurance',
};

/**
 * Persona-MME's personality alignment as a property of a primary case: the trait the user is
 * furthest from the middle (3) on at question time — from their level then, not the direction of
 * their last change — with the reply style that suits that level; null when every trait is within
 * half a point of the middle.
 *
 * @example alignmentAt(plan, time) // { trait: 'neuroticism', level: 5, style: 'extra reassurance …' }
 */
export function alignmentAt(
  plan: Pick<QaContext['plan'], 'personality'>,
  time: number,
): { trait: BigFiveTrait; level: number; style: string; contrary: string } | null {
  const point = plan.personality.filter((p) => p.time <= isoAt(time)).pop();
  if (point === undefined) return null;
  let best: BigFiveTrait | null = null;
  for (const trait of BIG_FIVE_TRAITS)
    if (best === null || Math.abs(point.bigFive[trait] - 3) > Math.abs(point.bigFive[best] - 3)) best = trait;
  if (best === null || Math.abs(point.bigFive[best] - 3) < 1) return null;
  const level = point.bigFive[best];
  const [high, low] = [TRAIT_STYLES[best], LOW_TRAIT_STYLES[best]];
  return { trait: best, level, style: level > 3 ? high : low, contrary: level > 3 ? low : high };
}

/** LoCoMo adversarial: about someone never mentioned — "Not mentioned" is the right answer. */
export const adversarial: Kernel = (context, time) => {
  const relations = RELATIONS.filter(
    (relation) => !context.plan.people.some((person) => person.relation === relation),
  );
  // Never expressed before the question time (keywords are lower-cased in `keywordSince`).
  const safe = relations.filter(
    (relation) => (context.keywordSince.get(relation) ?? '\uffff') >= isoAt(time),
  );
  if (safe.length === 0) return null;
  const relation = context.rng.pick(safe);
  return {
    question: ask(
      context,
      `What did my ${relation} say when I told them about my plans?`,
      `How did my ${relation} react when I shared my plans?`,
    ),
    answer: 'Not mentioned',
    distractors: [],
    evidence: [],
    retrievalKeywords: [relation],
    unanswerable: true,
  };
};
