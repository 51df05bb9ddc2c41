import type { BigFiveTrait } from '../../schemas/common.js';
import type { NoiseKind } from '../../schemas/plan.js';

/** Causes of explicit drift: life events or stated reasons (interest-evolution questions ask for them). */
export const EXPLICIT_CAUSES: readonly string[] = [
  'a friend introduced me to it',
  'I started a new job with a different schedule',
  'I moved to a new neighbourhood',
  'I tried it on a recent trip and loved it',
  'my doctor advised me to change my habits',
  'money is tight this year',
  'the novelty wore off',
  'a documentary changed my mind',
  'my partner got me into it',
  'I read a great review online',
  'a colleague kept recommending it',
  'I had a bad experience last time',
];

/**
 * Which explicit causes fit which direction of change: `toward` a thing (a new like, or a dislike
 * dropped), `away` from it (a new dislike, or a like dropped). A new dislike has a negative cause
 * ("I had a bad experience last time"), never "my partner got me into it". Life events that push
 * either way (a move, a new job, a documentary) fit both.
 */
const EITHER_WAY = [
  'I started a new job with a different schedule',
  'I moved to a new neighbourhood',
  'a documentary changed my mind',
];
export const CAUSES_BY_DIRECTION: Record<'toward' | 'away', readonly string[]> = {
  toward: [
    'a friend introduced me to it',
    'I tried it on a recent trip and loved it',
    'my partner got me into it',
    'I read a great review online',
    'a colleague kept recommending it',
    ...EITHER_WAY,
  ],
  away: [
    'my doctor advised me to change my habits',
    'money is tight this year',
    'the novelty wore off',
    'I had a bad experience last time',
    ...EITHER_WAY,
  ],
};

/** The direction of a drift: the new state's polarity, or away from a dropped like (toward, when a dislike is dropped). */
export function driftDirection(
  next: { polarity: 'like' | 'dislike' } | null,
  previous: { polarity: 'like' | 'dislike' } | null,
): 'toward' | 'away' {
  if (next !== null) return next.polarity === 'like' ? 'toward' : 'away';
  return previous?.polarity === 'dislike' ? 'toward' : 'away';
}

/** Causes of implicit drift: state changes the user does not announce. */
export const IMPLICIT_CAUSES: readonly string[] = [
  'recovering from a stomach illness',
  'the exam period ended',
  'a busy project at work finished',
  'the weather turned colder',
  'a knee injury healed',
  'the holiday season ended',
  'started training for a race',
  'a new baby in the family changed routines',
];

/** Big Five shifts with their causes (sign = direction of the shift). */
export const PERSONALITY_SHIFTS: ReadonlyArray<{ trait: BigFiveTrait; delta: 1 | -1; cause: string }> = [
  { trait: 'openness', delta: 1, cause: 'a long trip abroad broadened my outlook' },
  { trait: 'openness', delta: -1, cause: 'a year of big changes made me want what I know' },
  { trait: 'conscientiousness', delta: 1, cause: 'a promotion came with more responsibility' },
  { trait: 'conscientiousness', delta: -1, cause: 'burnout after a long project' },
  { trait: 'extraversion', delta: 1, cause: 'joining a weekend sports club' },
  { trait: 'extraversion', delta: -1, cause: 'working from home for months' },
  { trait: 'agreeableness', delta: 1, cause: 'volunteering at a community centre' },
  { trait: 'agreeableness', delta: -1, cause: 'a conflict with a difficult manager' },
  { trait: 'neuroticism', delta: 1, cause: 'worries about a family member’s health' },
  { trait: 'neuroticism', delta: -1, cause: 'starting therapy and a regular sleep schedule' },
];

export interface HabitSpec {
  description: string;
  keywords: string[];
  /** 0 = Sunday … 6 = Saturday; null = daily. */
  dayOfWeek: number | null;
  timeOfDay: 'morning' | 'afternoon' | 'evening' | 'night';
}

export const HABITS: readonly HabitSpec[] = [
  {
    description: 'goes to the farmers market every Saturday morning',
    keywords: ['farmers market', 'saturday'],
    dayOfWeek: 6,
    timeOfDay: 'morning',
  },
  {
    description: 'plays badminton every Wednesday evening',
    keywords: ['badminton', 'wednesday'],
    dayOfWeek: 3,
    timeOfDay: 'evening',
  },
  {
    description: 'calls their parents every Sunday evening',
    keywords: ['call', 'parents', 'sunday'],
    dayOfWeek: 0,
    timeOfDay: 'evening',
  },
  {
    description: 'jogs in the park every morning',
    keywords: ['jog', 'park'],
    dayOfWeek: null,
    timeOfDay: 'morning',
  },
  {
    description: 'reads for half an hour before bed',
    keywords: ['read', 'before bed'],
    dayOfWeek: null,
    timeOfDay: 'night',
  },
  {
    description: 'does meal prep for the week every Sunday afternoon',
    keywords: ['meal prep', 'sunday'],
    dayOfWeek: 0,
    timeOfDay: 'afternoon',
  },
  {
    description: 'attends a yoga class every Tuesday evening',
    keywords: ['yoga class', 'tuesday'],
    dayOfWeek: 2,
    timeOfDay: 'evening',
  },
  {
    description: 'goes swimming every Friday afternoon',
    keywords: ['swimming', 'friday'],
    dayOfWeek: 5,
    timeOfDay: 'afternoon',
  },
  {
    description: 'writes in a journal every night',
    keywords: ['journal'],
    dayOfWeek: null,
    timeOfDay: 'night',
  },
  {
    description: 'has dim sum with friends every Sunday morning',
    keywords: ['dim sum', 'sunday'],
    dayOfWeek: 0,
    timeOfDay: 'morning',
  },
  {
    description: 'does a board-game night every Thursday evening',
    keywords: ['board-game', 'thursday'],
    dayOfWeek: 4,
    timeOfDay: 'evening',
  },
  {
    description: 'walks the dog every evening',
    keywords: ['walk', 'dog'],
    dayOfWeek: null,
    timeOfDay: 'evening',
  },
];

export interface GoalSpec {
  description: string;
  keywords: string[];
}

export const GOALS: readonly GoalSpec[] = [
  { description: 'run a half marathon', keywords: ['half marathon'] },
  { description: 'learn conversational Spanish', keywords: ['spanish'] },
  { description: 'save enough for a trip to Iceland', keywords: ['iceland', 'save'] },
  { description: 'get a professional certification at work', keywords: ['certification'] },
  { description: 'lose five kilograms', keywords: ['five kilograms'] },
  { description: 'read 20 books this year', keywords: ['20 books'] },
  { description: 'learn to play the guitar', keywords: ['guitar'] },
  { description: 'renovate the kitchen', keywords: ['kitchen', 'renovate'] },
  { description: 'switch to a job in data analysis', keywords: ['data analysis', 'job'] },
  { description: 'finish writing a short story collection', keywords: ['short story'] },
  { description: 'pass the driving test', keywords: ['driving test'] },
  { description: 'build an emergency savings fund', keywords: ['emergency savings fund'] },
];

export const RELATIONS: readonly string[] = [
  'mother',
  'father',
  'sister',
  'brother',
  'best friend',
  'colleague',
  'roommate',
  'neighbour',
  'manager',
  'cousin',
  'old classmate',
  'running buddy',
];

/** Given names by the gender a relation implies (mother, brother, …); neutral relations use all. */
export const FEMALE_NAMES: readonly string[] = [
  'Mei',
  'Priya',
  'Aiko',
  'Sofia',
  'Hannah',
  'Chloe',
  'Elena',
  'Amara',
  'Nora',
  'Isabel',
  'Grace',
  'Yuki',
];
export const MALE_NAMES: readonly string[] = [
  'Jonas',
  'Lucas',
  'Omar',
  'Daniel',
  'Mateo',
  'Ravi',
  'Kenji',
  'Felix',
  'Wei',
  'Tariq',
  'Leo',
  'Lin',
];
export const PERSON_NAMES: readonly string[] = [...FEMALE_NAMES, ...MALE_NAMES];
/** Relations whose name must match a gender. */
export const FEMALE_RELATIONS = new Set(['mother', 'sister']);
export const MALE_RELATIONS = new Set(['father', 'brother']);

/** Why closeness/frequency with a person changes. */
export const RELATIONSHIP_CHANGES: ReadonlyArray<{ closeness: 1 | -1; note: string }> = [
  { closeness: 1, note: 'we started working on a project together' },
  { closeness: 1, note: 'they helped me through a hard week' },
  { closeness: 1, note: 'we began a weekly activity together' },
  { closeness: -1, note: 'they moved to another city' },
  { closeness: -1, note: 'we had an argument about plans' },
  { closeness: -1, note: 'we both got too busy to meet' },
];

export const CONCEPT_NAMES: readonly string[] = [
  'Mochi',
  'Biscuit',
  'Pepper',
  'Luna',
  'Captain',
  'Ziggy',
  'Olive',
  'Noodle',
  'Maple',
  'Pixel',
  'Bamboo',
  'Juniper',
];

/** Contexts the assistant cannot see, phrased to read after "likes X …" and before a question. */
export const CONDITIONS = {
  time: ['on weekday mornings', 'late at night', 'on weekends'],
  companion: ['with family', 'with colleagues', 'on a date'],
  situation: ['when stressed', 'when travelling for work', 'on rainy days'],
} as const;

export const NOISE_NOTES: Record<NoiseKind, readonly string[]> = {
  irrelevant: [
    'asks about the weather tomorrow',
    'asks how to convert miles to kilometres',
    'asks for a random fun fact',
  ],
  exploratory: [
    'browses options they will not buy',
    'compares prices out of curiosity',
    'asks about a dish they will never try',
  ],
  on_behalf: [
    'orders a gift for a colleague',
    'books a table for their parents',
    'buys snacks for a friend’s party',
  ],
  impulse: [
    'briefly wants a gadget seen in an ad',
    'considers a spontaneous trip then drops it',
    'craves a snack on a whim',
  ],
  // A correction's note is the `fix` of one slip below; its misstatement's note is that slip.
  correction: [],
  misstatement: [],
};

/**
 * Slips a correction fixes: a practical detail said wrong in a misstatement round and put right
 * in its correction round (VitaBench's corrections of a wrong date, address or order). The
 * detail is never a preference, so a correction never retracts a planned fact.
 */
export const SLIPS: ReadonlyArray<{
  slip: string;
  fix: string;
  detail: string;
  values: readonly string[];
}> = [
  {
    slip: 'gives the wrong drop-off day for a parcel',
    fix: 'corrects the drop-off day',
    detail: 'the drop-off day',
    values: ['Tuesday', 'Thursday', 'Friday', 'Monday'],
  },
  {
    slip: 'gives the wrong pickup time for a repair',
    fix: 'corrects the pickup time',
    detail: 'the pickup time',
    values: ['6 pm', '7 pm', '8 pm', 'half past five'],
  },
  {
    slip: 'books for the wrong number of guests',
    fix: 'corrects the number of guests',
    detail: 'the number of guests',
    values: ['three', 'four', 'five', 'six'],
  },
  {
    slip: 'gives a wrong flat number for a parcel',
    fix: 'corrects the flat number',
    detail: 'the flat number',
    values: ['12', '21', '14', '41'],
  },
  {
    slip: 'gives the wrong date for an appointment',
    fix: 'corrects the appointment date',
    detail: 'the appointment date',
    values: ['the 3rd', 'the 13th', 'the 23rd', 'the 30th'],
  },
];

export const SMALL_TALK_TOPICS: readonly string[] = [
  'small talk',
  'daily check-in',
  'weekend plans',
  'work day',
];
