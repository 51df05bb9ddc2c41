import type { ImageRef } from '../../schemas/plan.js';
import type { SynthConfig } from '../../schemas/synth-config.js';
import { MONTH_NAMES as MONTHS } from '../../util/months.js';
import type { Rng } from '../../util/rng.js';
import {
  CONCEPT_QA_CATEGORY,
  type ConceptGeneration,
  type ConceptMember,
  type ConceptQa,
  type ConceptTurn,
} from './schema.js';
import { expectedQaCounts } from './validate.js';

const day = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
const PLACES = [
  'the park',
  'the kitchen',
  'the balcony',
  'the beach',
  'the office',
  "a friend's place",
  'the market',
  'the garden',
];
const REACTIONS = [
  'looks so happy',
  'looks great',
  'has such character',
  'looks right at home',
  'is adorable',
  'looks even better than last time',
];
const USER_LINES = [
  'I have been spending a lot of time with <{name}> lately.',
  'Guess what <{name}> did at {place} today.',
  '<{name}> is doing well, by the way.',
  'I keep thinking about <{name}> and {place}.',
  'Do you remember <{name}>? Still my favourite.',
];
const ASSISTANT_LINES = [
  'Of course I remember <{name}>. How is everything going?',
  'That sounds lovely. What was the best part?',
  'I would love to hear more about <{name}>.',
  'Thanks for keeping me posted. Anything new planned?',
];
const OPEN_ANSWERS: Readonly<Record<string, string>> = {
  pet: 'play with it indoors and keep it warm and dry',
  object: 'keep it inside and use it at home',
  person: 'meet indoors, for example at a café',
  place: 'visit it on another, sunnier day',
};

/**
 * The model-free concept conversation (M²A shape): fixed timestamps, `<Name>` mentions, every
 * image of the group shown once (round-robin over sessions), and QA in the configured mix,
 * each answer taken from what the sessions say. Deterministic for a given `rng`.
 *
 * @example generateConceptsOffline(group, times, config, images, rng)
 */
export function generateConceptsOffline(
  group: ConceptMember[],
  times: string[],
  config: SynthConfig['concepts'],
  images: ReadonlyMap<string, ImageRef>,
  rng: Rng,
): ConceptGeneration {
  const shares: Array<{ session: number; diaId: string; concept: ConceptMember; imageId: string }> = [];
  const pending = group.flatMap((concept) => concept.imageIds.map((imageId) => ({ concept, imageId })));
  const perSession = Math.ceil(pending.length / times.length);
  const fill = (template: string, name: string) =>
    template.replace('{name}', name).replace('{place}', rng.pick(PLACES));
  const sessions = times.map((dateTime, s) => {
    const [min, max] = config.turnsPerSession;
    const mine = pending.slice(s * perSession, (s + 1) * perSession);
    const count = Math.max(rng.int(min, max), Math.min(max, 2 * mine.length + 2));
    const turns: ConceptTurn[] = [];
    for (let t = 0; t < count; t++) {
      const diaId = `S${s}:${t}`;
      const focus = mine[Math.floor(t / 2)]?.concept ?? rng.pick(group);
      if (t % 2 === 0) {
        const share = t > 0 || s > 0 ? mine[Math.floor(t / 2)] : undefined;
        let text: string;
        if (s === 0 && t === 0) {
          const intro = group.map((c) => `<${c.name}> (${c.description})`).join(', ');
          text = `Hi, let me introduce the ones that matter to me: ${intro}.`;
          if (mine[0] !== undefined)
            shares.push({ session: s, diaId, concept: mine[0].concept, imageId: mine[0].imageId });
          turns.push({
            speaker: 0,
            dia_id: diaId,
            images: mine[0] === undefined ? [] : [mine[0].imageId],
            text,
          });
          continue;
        }
        if (share !== undefined) {
          const caption = images.get(share.imageId)?.caption ?? 'a recent snapshot';
          text = `Here is a photo of <${share.concept.name}> at ${rng.pick(PLACES)}: ${caption}.`;
          shares.push({ session: s, diaId, concept: share.concept, imageId: share.imageId });
          turns.push({ speaker: 0, dia_id: diaId, images: [share.imageId], text });
        } else
          turns.push({ speaker: 0, dia_id: diaId, images: [], text: fill(rng.pick(USER_LINES), focus.name) });
      } else {
        const previous = turns[t - 1]!;
        const text =
          previous.images.length > 0
            ? `<${focus.name}> ${rng.pick(REACTIONS)}! Where was this taken?`
            : fill(rng.pick(ASSISTANT_LINES), focus.name);
        turns.push({ speaker: 1, dia_id: diaId, images: [], text });
      }
    }
    return { date_time: dateTime, turns };
  });

  // QA in the configured mix (2:3:1:4 by default), answers grounded in the turns above.
  const want = expectedQaCounts(config);
  const qa: ConceptQa[] = [];
  const cycle = <T>(items: T[], i: number): T => items[i % items.length]!;
  for (let i = 0; i < want[CONCEPT_QA_CATEGORY.singleHop]; i++) {
    const share = cycle(shares, i);
    qa.push(
      i < shares.length
        ? {
            question: `What does the photo of <${share.concept.name}> shared in session ${share.session + 1} show?`,
            answer: images.get(share.imageId)?.caption ?? share.imageId,
            evidence: [share.diaId],
            category: 9,
          }
        : {
            question: `What kind of ${share.concept.kind} is <${share.concept.name}>? (${i + 1})`,
            answer: share.concept.objectClass,
            evidence: ['S0:0'],
            category: 9,
          },
    );
  }
  for (let i = 0; i < want[CONCEPT_QA_CATEGORY.temporal]; i++) {
    const share = cycle(shares, i);
    qa.push({
      question: `When did I share the photo of <${share.concept.name}> showing ${images.get(share.imageId)?.caption ?? share.imageId}?${i >= shares.length ? ` (${i + 1})` : ''}`,
      answer: day(times[share.session]!),
      evidence: [share.diaId],
      category: 7,
    });
  }
  for (let i = 0; i < want[CONCEPT_QA_CATEGORY.multiHop]; i++) {
    const a = cycle(shares, i);
    const b = cycle(shares, i + Math.max(1, Math.floor(shares.length / 2)));
    qa.push({
      question: `Which of my photos came first: the one of <${a.concept.name}> or the one of <${b.concept.name}>? (${i + 1})`,
      answer:
        a.session <= b.session
          ? `<${a.concept.name}> (session ${a.session + 1})`
          : `<${b.concept.name}> (session ${b.session + 1})`,
      evidence: [a.diaId, b.diaId],
      category: 6,
    });
  }
  for (let i = 0; i < want[CONCEPT_QA_CATEGORY.openDomain]; i++) {
    const concept = cycle(group, i);
    qa.push({
      question: `What could I do with <${concept.name}> on a rainy day?${i >= group.length ? ` (${i + 1})` : ''}`,
      answer: OPEN_ANSWERS[concept.kind] ?? 'stay inside together',
      evidence: ['S0:0'],
      category: 8,
    });
  }
  return { sessions, qa };
}
