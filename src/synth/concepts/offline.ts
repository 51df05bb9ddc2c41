import type { ImageRef } from '../../schemas/plan.js';
import type { SynthConfig } from '../../schemas/synth-config.js';
import { MONTH_NAMES as MONTHS } from '../../util/months.js';
import type { Rng } from '../../util/rng.js';
import { planImageShows, type Show } from './image-shows.js';
import { CONCEPT_QA_CATEGORY, type ConceptGeneration, type ConceptMember, type ConceptQa } from './schema.js';
import { createTurnWriter } from './turn-text.js';
import { expectedQaCounts } from './validate.js';

const day = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
};
const OPEN_ANSWERS: Readonly<Record<string, string>> = {
  pet: 'play with it indoors and keep it warm and dry',
  object: 'keep it inside and use it at home',
  person: 'meet indoors, for example at a café',
  place: 'visit it on another, sunnier day',
};

/** A shown photo as the QA sees it: where the turn is and what the user said about it. */
interface Shared extends Show {
  diaId: string;
  place: string;
  caption: string;
  /** What the user said about a photo shown again ('' for a first showing). */
  comment: string;
}

/**
 * The model-free concept conversation (M²A shape): fixed timestamps, `<Name>` mentions, the
 * group's photos shown `imagesPerConversation` times in all (each image at least once, then
 * shown again, as M²A's 214 images over 10 conversations), no turn text said twice, and QA in
 * the configured mix, each answer taken from what the sessions say. A question that names a
 * session names the one holding its evidence (`session k` = the turns `S<k>:…`; splicing
 * renumbers it to the merged conversation). Deterministic for a given `rng`.
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
  const plan = planImageShows(group, times.length, config, rng);
  const writer = createTurnWriter(rng);
  const shared: Shared[] = [];
  const firstPlace = new Map<string, string>();
  const sessions = times.map((dateTime, s) => {
    const shows = plan.shows.filter((show) => show.session === s);
    const turns: ConceptGeneration['sessions'][number]['turns'] = [];
    // User turns are the even ones; photos go to the first user turns of the session.
    for (let t = 0; t < plan.turns[s]!; t++) {
      const diaId = `S${s}:${t}`;
      const show = t % 2 === 0 ? shows[t / 2] : undefined;
      const focus = shows[Math.floor(t / 2)]?.concept ?? rng.pick(group);
      if (t % 2 === 1) {
        turns.push({ speaker: 1, dia_id: diaId, images: [], text: writer.assistant(focus, turns[t - 1]!) });
        continue;
      }
      const caption = show === undefined ? '' : (images.get(show.imageId)?.caption ?? 'a recent snapshot');
      if (s === 0 && t === 0) {
        const intro = group.map((c) => `<${c.name}> (${c.description})`).join(', ');
        const text = writer.unique(`Hi! Let me introduce the ones that matter to me: ${intro}.`);
        if (show !== undefined) shared.push({ ...show, diaId, place: '', caption, comment: '' });
        turns.push({ speaker: 0, dia_id: diaId, images: show === undefined ? [] : [show.imageId], text });
        continue;
      }
      if (show === undefined) {
        turns.push({ speaker: 0, dia_id: diaId, images: [], text: writer.user(focus) });
        continue;
      }
      const { text, place, comment } = writer.photo(
        show.concept,
        caption,
        firstPlace.get(show.imageId) ?? null,
      );
      if (!firstPlace.has(show.imageId)) firstPlace.set(show.imageId, place);
      shared.push({ ...show, diaId, place, caption, comment });
      turns.push({ speaker: 0, dia_id: diaId, images: [show.imageId], text });
    }
    return { date_time: dateTime, turns };
  });
  return { sessions, qa: conceptQa(group, times, config, shared) };
}

/** QA in the configured mix (2:3:1:4 by default), every question asked once, answers from the turns. */
function conceptQa(
  group: ConceptMember[],
  times: string[],
  config: SynthConfig['concepts'],
  shared: Shared[],
): ConceptQa[] {
  const want = expectedQaCounts(config);
  const qa: ConceptQa[] = [];
  const asked = new Set<string>();
  // Candidates in order of preference; the first `count` not asked yet are taken.
  const take = (count: number, candidates: ConceptQa[]): void => {
    let added = 0;
    for (const item of candidates) {
      if (added >= count) break;
      if (asked.has(item.question)) continue;
      asked.add(item.question);
      qa.push(item);
      added++;
    }
  };
  // Photos shown for the first time, with the place the user named (the intro's photo has none).
  const placed = shared.filter((share) => !share.again && share.place !== '');
  const first = (concept: ConceptMember) => `<${concept.name}>`;
  take(want[CONCEPT_QA_CATEGORY.singleHop], [
    ...placed.map(
      (share): ConceptQa => ({
        question: `What did the photo of ${first(share.concept)} at ${share.place} that I shared in session ${share.session} show?`,
        answer: share.caption,
        evidence: [share.diaId],
        category: 9,
      }),
    ),
    ...shared
      .filter((share) => share.comment !== '')
      .map(
        (share): ConceptQa => ({
          question: `What did I say about the photo of ${first(share.concept)} at ${share.place} when I showed it again in session ${share.session}?`,
          answer: share.comment,
          evidence: [share.diaId],
          category: 9,
        }),
      ),
    ...group.map(
      (concept): ConceptQa => ({
        question: `What kind of ${concept.kind} is ${first(concept)}?`,
        answer: concept.objectClass,
        evidence: ['S0:0'],
        category: 9,
      }),
    ),
  ]);
  const last = new Map<string, Shared>();
  for (const share of shared) if (share.again) last.set(share.imageId, share);
  take(want[CONCEPT_QA_CATEGORY.temporal], [
    ...[...placed].reverse().map(
      (share): ConceptQa => ({
        question: `When did I share the photo of ${first(share.concept)} at ${share.place} showing ${share.caption}?`,
        answer: day(times[share.session]!),
        evidence: [share.diaId],
        category: 7,
      }),
    ),
    ...[...last.values()].map(
      (share): ConceptQa => ({
        question: `When did I last show you the photo of ${first(share.concept)} at ${share.place}?`,
        answer: day(times[share.session]!),
        evidence: [share.diaId],
        category: 7,
      }),
    ),
    ...group.map(
      (concept): ConceptQa => ({
        question: `When did I first tell you about ${first(concept)}?`,
        answer: day(times[0]!),
        evidence: ['S0:0'],
        category: 7,
      }),
    ),
  ]);
  // Multi-hop: two photos from different sessions; the answer names the earlier one's session.
  const pairs = placed.flatMap((a, i) =>
    placed
      .slice(i + 1)
      .filter((b) => b.session !== a.session && b.concept.id !== a.concept.id)
      .map((b) => [a, b] as const),
  );
  const stride = Math.max(1, Math.floor(pairs.length / Math.max(1, want[CONCEPT_QA_CATEGORY.multiHop])));
  const spread = pairs.map((_, i) => i).sort((x, y) => (x % stride) - (y % stride) || x - y);
  take(want[CONCEPT_QA_CATEGORY.multiHop], [
    ...spread.map((i): ConceptQa => {
      const [a, b] = pairs[i]!;
      return {
        question: `Which of my photos came first: the one of ${first(a.concept)} at ${a.place} or the one of ${first(b.concept)} at ${b.place}?`,
        answer: `${first(a.concept)} at ${a.place} (session ${a.session})`,
        evidence: [a.diaId, b.diaId],
        category: 6,
      };
    }),
    ...[...new Set(shared.map((share) => share.imageId))].flatMap((imageId): ConceptQa[] => {
      const shows = shared.filter((share) => share.imageId === imageId && share.place !== '');
      const sessions = [...new Set(shows.map((share) => share.session))];
      if (sessions.length < 2) return [];
      const named = sessions.map((k) => `session ${k}`);
      return [
        {
          question: `In which sessions did I show you the photo of ${first(shows[0]!.concept)} at ${shows[0]!.place}?`,
          answer: `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`,
          evidence: shows.map((share) => share.diaId),
          category: 6,
        },
      ];
    }),
    ...group.flatMap((a, i) =>
      group.slice(i + 1).map(
        (b): ConceptQa => ({
          question: `What are ${first(a)} and ${first(b)}?`,
          answer: `${first(a)} is a ${a.objectClass}, ${first(b)} is a ${b.objectClass}`,
          evidence: ['S0:0'],
          category: 6,
        }),
      ),
    ),
  ]);
  take(
    want[CONCEPT_QA_CATEGORY.openDomain],
    group.map(
      (concept): ConceptQa => ({
        question: `What could I do with ${first(concept)} on a rainy day?`,
        answer: OPEN_ANSWERS[concept.kind] ?? 'stay inside together',
        evidence: ['S0:0'],
        category: 8,
      }),
    ),
  );
  return qa;
}
