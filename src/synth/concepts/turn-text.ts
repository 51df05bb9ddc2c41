import type { Rng } from '../../util/rng.js';
import type { ConceptMember, ConceptTurn } from './schema.js';

const PLACES = [
  'the park',
  'the kitchen',
  'the balcony',
  'the beach',
  'the office',
  "a friend's place",
  'the market',
  'the garden',
  'the lake',
  'the station',
];
const WHEN = [
  'this morning',
  'this afternoon',
  'yesterday evening',
  'over the weekend',
  'earlier today',
  'on my day off',
  'last night',
  'at lunchtime',
];
const ACTIVITIES: Readonly<Record<string, readonly string[]>> = {
  pet: [
    'chased a leaf',
    'curled up for a long nap',
    'made friends with a neighbour',
    'tried a new treat',
    'watched the birds for an hour',
    'rolled around in the grass',
    'got a bath',
    'played until it was tired out',
  ],
  object: [
    'came along with me',
    'got a good clean',
    'was the star of the table',
    'needed a small repair',
    'got a new spot on the shelf',
    'turned a few heads',
    'was put to good use',
    'got lent to a friend',
  ],
  person: [
    'came over for tea',
    'told me a funny story',
    'helped me move a sofa',
    'joined me for a walk',
    'cooked dinner for us',
    'called me for an hour',
    'taught me a card game',
    'showed me some old photos',
  ],
  place: [
    'was quiet and lovely',
    'was packed with people',
    'had new flowers out',
    'smelled of rain',
    'looked different in the fog',
    'had a little market on',
    'was perfect for reading',
    'was lit up at night',
  ],
};
const USER = [
  '<{name}> {activity} at {place} {when}.',
  'Quick update: <{name}> {activity} {when}, at {place}.',
  'You will like this: <{name}> {activity} at {place} {when}.',
  'I keep smiling about how <{name}> {activity} at {place} {when}.',
  'Guess what - <{name}> {activity} at {place} {when}.',
];
const PHOTO = [
  'Here is a photo of <{name}> at {place} {when}.',
  'I took this one of <{name}> at {place} {when}.',
  'Look at <{name}> at {place} {when}.',
];
const PHOTO_AGAIN = [
  'Remember this photo of <{name}> at {place}? {comment}',
  'This one of <{name}> at {place} again - {comment}',
  'Back to the photo of <{name}> at {place}: {comment}',
];
const COMMENTS = [
  'It is still my phone background.',
  'I printed it for the fridge {when}.',
  'I showed it to my sister {when}.',
  'It still makes me laugh.',
  'I looked at it again {when}.',
  'I want to frame it.',
];
const REACTIONS = [
  'looks so happy',
  'looks great',
  'has such character',
  'looks right at home',
  'is adorable',
  'looks even better than last time',
];
const OPENINGS = [
  'That sounds lovely',
  'Oh, I can picture it',
  'What a nice moment',
  'Thanks for telling me',
  'Ha, that is so typical of <{name}>',
  'Good to hear about <{name}>',
];
const FOLLOW_UPS = [
  'Was it a good day overall?',
  'Who else was there?',
  'How long did you stay?',
  'Have you been back since?',
  'What happened next?',
  'Is that a usual spot for you two?',
  'Anything new planned?',
  'How are you feeling about it?',
];
const EXTRAS = [' I am all ears.', ' No rush at all.', ' Tell me more when you have a minute.'];

const fill = (template: string, values: Readonly<Record<string, string>>): string =>
  template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);

/**
 * Writes the turns of one offline concept conversation, never the same text twice: each line is
 * drawn from templates × places × times × activities, re-drawn when it was already said, and
 * only then given an extra clause (then a counter) to set it apart.
 *
 * @example const writer = createTurnWriter(rng); writer.user(concept) // '<Mochi> chased a leaf at the park this morning.'
 */
export function createTurnWriter(rng: Rng) {
  const used = new Set<string>();
  let counter = 0;
  const unique = (draw: () => string): string => {
    let text = draw();
    for (let i = 0; i < 24 && used.has(text.toLowerCase()); i++) text = draw();
    for (const extra of EXTRAS) if (used.has(text.toLowerCase())) text = `${text}${extra}`;
    while (used.has(text.toLowerCase())) text = `${text} (${++counter})`;
    used.add(text.toLowerCase());
    return text;
  };
  const when = () => rng.pick(WHEN);
  return {
    /** Marks a fixed text as said and returns it (made unique if needed). */
    unique: (text: string): string => unique(() => text),
    /** A user line about a concept, without a photo. */
    user: (concept: ConceptMember): string =>
      unique(() =>
        fill(rng.pick(USER), {
          name: concept.name,
          activity: rng.pick(ACTIVITIES[concept.kind] ?? ACTIVITIES.object!),
          place: rng.pick(PLACES),
          when: when(),
        }),
      ),
    /**
     * A user line showing a photo; a photo shown again (`again` = the place of its first showing)
     * is recalled with that place and a comment.
     */
    photo(
      concept: ConceptMember,
      caption: string,
      again: string | null,
    ): { text: string; place: string; comment: string } {
      const place = again ?? rng.pick(PLACES);
      let comment = '';
      const text = unique(() => {
        if (again === null)
          return fill(rng.pick(PHOTO), { name: concept.name, place, when: when(), caption });
        comment = fill(rng.pick(COMMENTS), { when: when() });
        return fill(rng.pick(PHOTO_AGAIN), { name: concept.name, place, comment });
      });
      return { text, place, comment };
    },
    /** The assistant's answer to the user turn before it. */
    assistant: (concept: ConceptMember, previous: ConceptTurn): string =>
      unique(() =>
        previous.images.length > 0
          ? `<${concept.name}> ${rng.pick(REACTIONS)}! ${rng.pick(FOLLOW_UPS)}`
          : `${fill(rng.pick(OPENINGS), { name: concept.name })}. ${rng.pick(FOLLOW_UPS)}`,
      ),
  };
}
