/**
 * LoCoMo's own question kinds (temporal, multi-hop, open-domain) over the plan's preferences and
 * drift; the preference kernels they share helpers with are in `preference-kernels.ts`.
 */
import { preferenceAnswer } from '../plan/statements.js';
import type { Preference } from '../schemas/plan.js';
import { MONTH_NAMES as MONTHS } from '../util/months.js';
import { base, capitalize, driftsBefore, preferenceById, slotTopic } from './preference-kernels.js';
import {
  ask,
  compareIso,
  type Kernel,
  knownPreferences,
  preferenceEvidence,
  slotsBefore,
} from './qa-context.js';

/** LoCoMo-style date: "7 May 2024". */
export const formatDate = (iso: string) => {
  const date = new Date(iso);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
};

export const temporal: Kernel = (context, time) => {
  const events = driftsBefore(context, time, ['add', 'modify']);
  if (events.length === 0) return null;
  const event = context.rng.pick(events);
  const next = preferenceById(context, event.preferenceId) as Preference;
  return {
    question: ask(
      context,
      `When did I start to ${base(next)}${next.condition === null ? '' : ` ${next.condition.when}`}?`,
      `On what date did I begin to ${base(next)}${next.condition === null ? '' : ` ${next.condition.when}`}?`,
    ),
    answer: formatDate(event.time),
    distractors: [],
    evidence: slotsBefore(context, event.id, time),
    retrievalKeywords: [...next.keywords],
  };
};

/**
 * Temporal without drift: the date the user first told of a preference they still hold (LoCoMo's
 * time questions are about when something was said or done; the session date answers it). The
 * first telling is the earliest turn stating the same thing — the preference's own mentions, the
 * drift turn that opened it, and those of an earlier spell of the same preference (held, dropped
 * and taken up again).
 */
export const firstMention: Kernel = (context, time) => {
  const known = knownPreferences(context, time);
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  const same = (p: Preference) =>
    p.item === preference.item &&
    p.polarity === preference.polarity &&
    (p.condition?.when ?? null) === (preference.condition?.when ?? null);
  const first = context.plan.preferences
    .filter(same)
    .flatMap((p) => preferenceEvidence(context, p, time))
    .sort((a, b) => compareIso(a.time, b.time))[0];
  if (first === undefined) return null;
  const when = preference.condition === null ? '' : ` ${preference.condition.when}`;
  return {
    question: ask(
      context,
      `When did I first tell you that I ${base(preference)}${when}?`,
      `On what date did I first mention that I ${base(preference)}${when}?`,
    ),
    answer: formatDate(first.time),
    distractors: [],
    evidence: [first],
    retrievalKeywords: [...preference.keywords],
  };
};

export const multiHop: Kernel = (context, time) => {
  const events = driftsBefore(context, time, ['modify']).filter((event) => event.visibility === 'explicit');
  if (events.length === 0) return null;
  const event = context.rng.pick(events);
  const next = preferenceById(context, event.preferenceId) as Preference;
  const previous = preferenceById(context, event.previousPreferenceId) as Preference;
  const evidence = [
    ...preferenceEvidence(context, previous, time),
    ...slotsBefore(context, event.id, time),
  ].sort((a, b) => compareIso(a.time, b.time));
  return {
    question: ask(
      context,
      `After I stopped being the person who would ${base(previous)}, where did I land on ${slotTopic(next.slot)}, and why?`,
      `Once I no longer would ${base(previous)}, what did I move to on ${slotTopic(next.slot)}, and for what reason?`,
    ),
    answer: `${preferenceAnswer(next)}, because ${event.cause}`,
    distractors: [],
    evidence: [...new Map(evidence.map((slot) => [slot.id, slot])).values()],
    retrievalKeywords: [...previous.keywords, ...next.keywords],
  };
};

/** Multi-hop without drift: two liked things from different parts of life, each stated in its own turn. */
export const pairedPreferences: Kernel = (context, time) => {
  const known = knownPreferences(context, time, (p) => p.polarity === 'like' && p.condition === null);
  if (known.length < 2) return null;
  const first = context.rng.pick(known);
  const others = known.filter((p) => p.category !== first.category && p.slot !== first.slot);
  if (others.length === 0) return null;
  const second = context.rng.pick(others);
  const [a, b] = [slotTopic(first.slot), slotTopic(second.slot)];
  return {
    question: ask(
      context,
      `What do I enjoy when it comes to ${a}, and what about ${b}?`,
      `Remind me of my favourites for ${a} and for ${b}?`,
    ),
    answer: `${capitalize(first.item)}; ${second.item}`,
    distractors: [],
    evidence: [
      ...preferenceEvidence(context, first, time),
      ...preferenceEvidence(context, second, time),
    ].sort((x, y) => compareIso(x.time, y.time)),
    retrievalKeywords: [...first.keywords, ...second.keywords],
  };
};

export const openDomain: Kernel = (context, time) => {
  const known = knownPreferences(context, time, (p) => p.condition === null);
  if (known.length === 0) return null;
  const preference = context.rng.pick(known);
  return {
    question: ask(
      context,
      `Would I enjoy an afternoon that revolves around ${preference.item}?`,
      `Is an afternoon built around ${preference.item} something I'd enjoy?`,
    ),
    answer: preference.polarity === 'like' ? 'Yes' : 'No',
    distractors: [],
    evidence: preferenceEvidence(context, preference, time),
    retrievalKeywords: [...preference.keywords],
  };
};
