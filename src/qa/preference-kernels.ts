import { CAUSES_BY_DIRECTION, driftDirection } from '../plan/catalogue/life-catalogue.js';
import { SLOT_BY_KEY, SLOTS_BY_CATEGORY } from '../plan/catalogue/preference-catalogue.js';
import { baseSlot, fitsPersona } from '../plan/preference-pool.js';
import { describePreference, preferenceAnswer } from '../plan/statements.js';
import { slotTopic } from '../plan/topic-words.js';
import type { Preference } from '../schemas/plan.js';
import {
  activePreferences,
  ask,
  compareIso,
  hasEvidence,
  isActive,
  isoAt,
  type Kernel,
  knownPreferences,
  pickDistinct,
  preferenceEvidence,
  type QaContext,
  remember,
  slotsBefore,
} from './qa-context.js';
import { PERSONAMEM_TOPICS } from './tasks.js';
import { askedTopic, CATEGORY_TOPICS } from './topics.js';

export const capitalize = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
// A slot's subject as a person says it ("beach holidays", never "beach"): shared with the realizer.
export { slotTopic };
export const base = (p: Pick<Preference, 'polarity' | 'item'>) => `${p.polarity} ${p.item}`;

const SCENARIOS: Record<string, string> = {
  food: 'a dinner with friends this weekend',
  shopping: 'a shopping afternoon',
  travel: 'a trip next month',
  entertainment: 'a free evening',
  lifestyle: 'a new weekly routine',
  longtail: 'a quiet weekend at home',
};

/**
 * Preference answers that are wrong at `time`: flips, earlier states, other options of the slot
 * and, unless `otherSlots` is false, options of four other slots of the category.
 */
export function preferenceDistractors(
  context: QaContext,
  preference: Preference,
  time: number,
  otherSlots = true,
): string[] {
  const truth = remember(
    context,
    `truth:${time}`,
    () => new Set(activePreferences(context, time).map((p) => preferenceAnswer(p).toLowerCase())),
  );
  const out: string[] = [];
  const add = (p: Pick<Preference, 'polarity' | 'item' | 'condition'>) => {
    const text = preferenceAnswer(p);
    if (!truth.has(text.toLowerCase())) out.push(text);
  };
  add({ ...preference, polarity: preference.polarity === 'like' ? 'dislike' : 'like' });
  for (const p of context.plan.preferences) if (p.slot === preference.slot && p.id !== preference.id) add(p);
  const spec = SLOT_BY_KEY.get(baseSlot(preference.slot));
  for (const option of spec?.options ?? []) add({ ...option, condition: preference.condition });
  if (!otherSlots) return out;
  const others = (SLOTS_BY_CATEGORY.get(preference.category) ?? []).filter((item) => item !== spec);
  for (const item of pickDistinct(context.rng, others, 4))
    add({ ...(item.options[0] as Preference), condition: preference.condition });
  return out;
}

/** Items the user does not like at `time` (for recommendation distractors). */
export function notLikedItems(context: QaContext, preference: Preference, time: number): string[] {
  const liked = remember(
    context,
    `liked:${time}`,
    () =>
      new Set(
        activePreferences(context, time)
          .filter((p) => p.polarity === 'like')
          .map((p) => p.item.toLowerCase()),
      ),
  );
  const candidates = [
    ...context.plan.preferences
      .filter((p) => p.slot === preference.slot || (isActive(p, time) && p.polarity === 'dislike'))
      .map((p) => p.item),
    ...(SLOT_BY_KEY.get(baseSlot(preference.slot))?.options.map((o) => o.item) ?? []),
    ...context.rng
      .sample(SLOTS_BY_CATEGORY.get(preference.category) ?? [], 5)
      .map((item) => item.options[0]?.item ?? ''),
  ];
  return candidates
    .filter((item) => item !== '' && !liked.has(item.toLowerCase()) && !UNWANTED.has(item.toLowerCase()))
    .map(capitalize);
}

/**
 * Items nobody would be recommended ("pet hair at home", "greasy barbecue": the catalogue's
 * disliked options): as a distractor such an item is ruled out without knowing the user.
 */
const UNWANTED: ReadonlySet<string> = new Set(
  [...SLOT_BY_KEY.values()].flatMap((spec) =>
    spec.options.filter((option) => option.polarity === 'dislike').map((option) => option.item.toLowerCase()),
  ),
);

/** Recommendations and new scenarios: the answer is a liked item; distractors are not liked now. */
export const recommendation: Kernel = (context, time, spec) => {
  const known = knownPreferences(context, time, (p) => p.polarity === 'like' && p.condition === null);
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  const scenario = SCENARIOS[preference.category] ?? 'something this weekend';
  const question = spec.task.startsWith('generaliz')
    ? ask(
        context,
        `I'm planning ${scenario}. Knowing me, which of these should it be built around?`,
        `For ${scenario}, which of these would suit me best?`,
      )
    : ask(
        context,
        `Could you suggest something for ${scenario} that I would enjoy?`,
        `What would you recommend for ${scenario}, given what you know about me?`,
      );
  return {
    question,
    answer: capitalize(preference.item),
    distractors: notLikedItems(context, preference, time),
    evidence: preferenceEvidence(context, preference, time),
    retrievalKeywords: [...preference.keywords, preference.category],
    topic: PERSONAMEM_TOPICS[preference.category] ?? 'general',
    // Without its options, anything else the user likes is a good suggestion too.
    openable: false,
  };
};

export function driftsBefore(context: QaContext, time: number, types: string[]) {
  return context.plan.drift.filter(
    (event) => types.includes(event.type) && slotsBefore(context, event.id, time).length > 0,
  );
}

export function preferenceById(context: QaContext, id: string | null): Preference | undefined {
  return id === null ? undefined : context.plan.preferences.find((p) => p.id === id);
}

/** The slot's states up to `time`, oldest first, rendered "likes X -> dislikes X". */
export function chainText(chain: Preference[]): string {
  return chain.map((p) => describePreference(p)).join(' -> ');
}

/** True when a delete drift at or before `time` ended `preference` (the user said they no longer hold it). */
function deletedBy(context: QaContext, preference: Preference, time: number): boolean {
  return context.plan.drift.some(
    (event) =>
      event.type === 'delete' && event.previousPreferenceId === preference.id && event.time <= isoAt(time),
  );
}

/**
 * A slot's history up to `time` in PersonaMem's arrow form; every deletion in it — the last state's
 * or one in the middle ("likes X -> no longer likes X -> likes X" when the user took X up again) —
 * reads "-> no longer likes X".
 */
export function evolutionText(context: QaContext, chain: Preference[], time: number): string {
  return evolutionSteps(context, chain, time).join(' -> ');
}

/** The steps of `evolutionText`, oldest first. */
export function evolutionSteps(context: QaContext, chain: Preference[], time: number): string[] {
  return chain.flatMap((p) => {
    const state = describePreference(p);
    return deletedBy(context, p, time) ? [state, `no longer ${state}`] : [state];
  });
}

const flipped = (p: Preference): Preference => ({
  ...p,
  polarity: p.polarity === 'like' ? 'dislike' : 'like',
});

export const preferenceEvolution: Kernel = (context, time, spec) => {
  const events = driftsBefore(context, time, ['modify', 'delete']);
  if (events.length === 0) return null;
  const event = context.rng.pick(events);
  const next = preferenceById(context, event.preferenceId);
  const previous = preferenceById(context, event.previousPreferenceId) as Preference;
  const topic = askedTopic(previous.slot);
  const chain = context.plan.preferences
    .filter((p) => p.slot === previous.slot && p.validFrom <= isoAt(time))
    .sort((a, b) => compareIso(a.validFrom, b.validFrom));
  const evidence = [
    ...chain.flatMap((p) => preferenceEvidence(context, p, time)),
    ...context.plan.drift
      .filter((d) => d.type === 'delete' && chain.some((p) => p.id === d.previousPreferenceId))
      .flatMap((d) => slotsBefore(context, d.id, time)),
  ].sort((a, b) => compareIso(a.time, b.time));
  const keywords = [...previous.keywords, ...(next?.keywords ?? []), topic];
  if (spec.task === 'track_full_preference_evolution') {
    const latest = chain[chain.length - 1] as Preference;
    const steps = evolutionSteps(context, chain, time);
    const answer = steps.join(' -> ');
    const ended = steps[steps.length - 1]?.startsWith('no longer ') === true;
    // Wrong histories built from the true steps: reversed, missing its start, with the end
    // claimed to hold (or to have stopped) when it did not, or with another last state.
    const held = ended ? steps.slice(0, -1) : steps;
    const head = held.slice(0, -1);
    // A wrong last state, in the answer's form: an ended history ends "-> no longer …" too.
    const swapLast = (text: string) => {
      const state = `${text.charAt(0).toLowerCase()}${text.slice(1)}`;
      return [...head, state, ...(ended ? [`no longer ${state}`] : [])].join(' -> ');
    };
    // Other last states from the same slot first: another slot's item is ruled out by the topic alone.
    const swapped = (otherSlots: boolean) =>
      preferenceDistractors(context, latest, time, otherSlots)
        .map(swapLast)
        // Never a history that repeats its state ("likes X -> likes X").
        .filter((text) => !/(^|-> )([^>]+) -> \2( ->|$)/i.test(text));
    const onTopic = [
      [...steps].reverse().join(' -> '),
      ...(steps.length > 2 ? [steps.slice(1).join(' -> ')] : []),
      ended ? held.join(' -> ') : `${answer} -> no longer ${describePreference(latest)}`,
      ...swapped(false),
    ].filter((text) => text !== answer);
    return {
      question: ask(
        context,
        `How have my feelings about ${topic} developed over time?`,
        `Can you trace how my view of ${topic} has shifted over time?`,
      ),
      answer,
      distractors: new Set(onTopic).size >= 4 ? onTopic : [...onTopic, ...swapped(true)],
      evidence: [...new Map(evidence.map((slot) => [slot.id, slot])).values()],
      retrievalKeywords: keywords,
      topic: PERSONAMEM_TOPICS[previous.category] ?? 'general',
    };
  }
  const question = ask(
    context,
    `How has my taste in ${topic} changed?`,
    `What changed about my taste in ${topic}?`,
  );
  if (next === undefined) {
    if (isActive(previous, time)) return null;
    // "Gave up on X" says the like ended, not that a dislike began: no option claims a dislike
    // of X now, so the answer rests on what the user said, not on how "gave up" is read.
    return {
      question,
      answer: `Used to ${base(previous)}, not any more`,
      distractors: [
        `Still ${describePreference(previous)}`,
        `Used to ${base(flipped(previous))}, not any more`,
        `Used to ${base(flipped(previous))}, now ${describePreference(previous)}`,
        `Never cared about ${previous.item}`,
      ],
      evidence: slotsBefore(context, event.id, time),
      retrievalKeywords: keywords,
    };
  }
  // Only events whose new state still holds at `time` describe "now".
  if (!isActive(next, time)) return null;
  const change = (from: Preference, to: Preference) =>
    from.polarity === to.polarity && from.item === to.item && to.condition === null
      ? null
      : `Used to ${base(from)}, now ${describePreference(to)}`;
  // Every option a state a history can reach: a change back to where it started ("used to like
  // X, now likes X") is none. A flip of X is set beside its other readings instead; "used to
  // like X, not any more" is left out, as a new dislike also ends the like.
  const readings = [
    change(next, previous),
    `Still ${describePreference(previous)}`,
    change(previous, flipped(next)),
    change(flipped(next), previous),
    ...(previous.item === next.item
      ? [`Used to ${base(next)}, not any more`, `Never cared about ${previous.item}`]
      : []),
  ];
  return {
    question,
    answer: `Used to ${base(previous)}, now ${describePreference(next)}`,
    distractors: readings.filter((text): text is string => text !== null),
    evidence: [...new Map(evidence.map((slot) => [slot.id, slot])).values()],
    retrievalKeywords: keywords,
  };
};

export const updateReason: Kernel = (context, time) => {
  // Implicit drift never states its cause, so only explicit events can be asked why.
  const events = driftsBefore(context, time, ['modify', 'delete', 'add']).filter(
    (event) => event.visibility === 'explicit',
  );
  if (events.length === 0) return null;
  const event = context.rng.pick(events);
  const subject = preferenceById(context, event.preferenceId ?? event.previousPreferenceId) as Preference;
  const question =
    event.type === 'add'
      ? ask(context, `Why did I begin to ${base(subject)}?`, `What led me to ${base(subject)}?`)
      : event.type === 'delete'
        ? ask(
            context,
            `Why don't I ${base(subject)} anymore?`,
            `What is the reason I no longer ${base(subject)}?`,
          )
        : ask(
            context,
            `Why do I see ${askedTopic(subject.slot)} differently now?`,
            `What made me rethink ${askedTopic(subject.slot)}?`,
          );
  return {
    question,
    answer: capitalize(event.cause),
    // Causes that push the same way: a new dislike is never explained by "my partner got me into it".
    distractors: CAUSES_BY_DIRECTION[
      driftDirection(
        preferenceById(context, event.preferenceId) ?? null,
        preferenceById(context, event.previousPreferenceId) ?? null,
      )
    ]
      .filter((cause) => cause !== event.cause)
      .map(capitalize),
    evidence: slotsBefore(context, event.id, time),
    retrievalKeywords: [...subject.keywords, 'because'],
    topic: PERSONAMEM_TOPICS[subject.category] ?? 'general',
  };
};

/** Something the user never held in a category where they like things; distractors were already mentioned. */
export const suggestNew: Kernel = (context, time) => {
  const known = knownPreferences(context, time, (p) => p.polarity === 'like');
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  const held = new Set(context.plan.preferences.map((p) => baseSlot(p.slot)));
  // A new idea the persona could hold (no toys for the kids of a user without children).
  const fresh = (SLOTS_BY_CATEGORY.get(preference.category) ?? []).filter(
    (item) => !held.has(item.slot) && fitsPersona(item, context.plan.enriched.persona),
  );
  // Already-mentioned things of the same category: another category's would be ruled out unread.
  const mentioned = [
    ...new Map(
      context.plan.preferences
        .filter((p) => p.category === preference.category && hasEvidence(context, p, time))
        .map((p) => [p.item.toLowerCase(), p]),
    ).values(),
  ];
  if (fresh.length === 0 || mentioned.length < 3) return null;
  const chosen = pickDistinct(context.rng, mentioned, 3);
  const option = context.rng.pick(fresh).options.find((o) => o.polarity === 'like');
  if (option === undefined) return null;
  return {
    question: ask(
      context,
      `I'd like to try something new for ${CATEGORY_TOPICS[preference.category]}, something I haven't brought up with you before — any idea?`,
      `Any new idea for ${CATEGORY_TOPICS[preference.category]}, something we haven't talked about yet?`,
    ),
    answer: capitalize(option.item),
    distractors: chosen.map((p) => capitalize(p.item)),
    evidence: chosen
      .flatMap((p) => preferenceEvidence(context, p, time))
      .sort((a, b) => compareIso(a.time, b.time)),
    retrievalKeywords: [preference.category, ...preference.keywords],
    topic: PERSONAMEM_TOPICS[preference.category] ?? 'general',
    // Any idea the user has not brought up answers it.
    openable: false,
  };
};
