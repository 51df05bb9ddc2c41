/**
 * The reader's word classes, by lemma (the parser's lemmas, so "loved", "loves" and "loving" are
 * one entry). They are general English for stance, change and people, not the phrases of any
 * writer in this project: the offline realizer's templates, the fake model's banks and the
 * paraphrase set in test/fixtures/meaning were written apart from them, and a test asserts the
 * fake model's banks share no cue with this file.
 */

/** A cue: lemmas in order (up to two other tokens may come between), with its weight. */
export interface Cue {
  words: readonly string[];
  /** Positive: liking; negative: disliking. */
  score: number;
  /** The words already carry their negation ("never gets old"): a negation scope does not flip them. */
  fixed?: boolean;
  /** Says the stance ended (with `score` < 0 a like ended, > 0 a dislike ended). */
  ended?: boolean;
  /** Says the stance continues. */
  still?: boolean;
  /** Only tokens with one of these parts of speech match the first word. */
  pos?: readonly string[];
}

const cue = (phrase: string, score: number, extra: Omit<Cue, 'words' | 'score'> = {}): Cue => ({
  words: phrase.split(' '),
  score,
  ...extra,
});

const many = (phrases: string, score: number, extra: Omit<Cue, 'words' | 'score'> = {}): Cue[] =>
  phrases.split(',').map((phrase) => cue(phrase.trim(), score, extra));

/** Liking and disliking: verbs, adjectives and nouns of evaluation, and a few idioms. */
const STANCE: Cue[] = [
  ...many('love,adore,enjoy,crave,relish,savor,savour,cherish,treasure,devour', 2),
  cue('like', 1.5, { pos: ['VERB'] }),
  ...many(
    'prefer,fancy,appreciate,miss,help,calming,calm,bearable,choice,reach for,stick to,stick with,give me,suit,get into,got into,gotten into',
    1,
  ),
  cue('always', 0.5),
  ...many('favorite,favourite,obsess,obsessed,obsession,addict,addicted,hooked,heaven,heavenly', 2),
  ...many('amazing,awesome,incredible,wonderful,fantastic,delicious,tasty,yummy,blast,perfect', 2),
  ...many('great,lovely,fun,joy,pleasure,treat,weakness,comfort,cozy,cosy,soothing,relaxing', 1.5),
  ...many(
    'highlight,happy,happiness,underrated,underrate,fan,inspire,thrive,goosebump,romantic,of choice,my style,my speed,our thing,made for,part of my',
    1.5,
  ),
  ...many('good,nice,special,beautiful,melt,proud,ritual,excite,exciting,worth,fine,speak to', 1),
  ...many('my thing,my kind,happy place,go to,sucker for,all about,up for,live for,at home', 1.5),
  ...many('look forward,hit the spot,in a heartbeat,count down,take over,be a must,be into', 1.5),
  ...many(
    'never get old,can not get enough,can not wait,never miss,never turn down,no exception,can not stop,not ashamed,nothing beat,the better,hate to give up,all i need',
    2,
    {
      fixed: true,
    },
  ),
  ...many(
    'can not say no,would not trade,every day,every single,all day,every night,every time,hands down,no question,pick anything,choose anything',
    1,
    {
      fixed: true,
    },
  ),
  ...many('stand,bear,stomach,face,handle,tolerate', 0.75, { pos: ['VERB'] }),
  ...many('hate,dislike,loathe,detest,despise,avoid,dread,nightmare,torture,disgusting,gross', -2),
  ...many('awful,terrible,horrible,nasty,boring,bore,dull,tedious,miserable,worst,overrated', -2),
  ...many('overrate,disaster,gag,refuse,steer away,steer clear,stay away,keep away,dealbreaker', -2),
  ...many('skip,pass,drain,exhausting,chore,crime,hassle,waste,headache,ruin,annoy,bother', -1.5),
  ...many('faze,get to me,scare,terrify,cringe,queasy,sick,nauseous,brutal,gloomy,awkward,bad', -1.5),
  ...many(
    'mortifying,overpriced,whiny,keep off,put off,turn stomach,last thing,drive nuts,drive up the wall,drive crazy,drive mad,put to sleep',
    -1.5,
  ),
  ...many('tired,nervous,uneasy,cranky,restless,clumsy,sad,lonely,shallow,sterile,cramped', -1),
  ...many(
    'noise,fight,risky,heavy,exhaust,worry,bitter,sugary,greasy,stale,meh,expensive,complain,ashamed',
    -1,
  ),
  ...many('no thank,a no,no part,not for me,off the menu,off my plate,go hungry', -2, { fixed: true }),
  ...many('sit it out,sit out,die on this hill,do nothing for,watch paint dry,off my list', -1.5, {
    fixed: true,
  }),
];

/** Change: a stance that ended, one that was given up, one that softened, one that holds. */
const CHANGE: Cue[] = [
  ...many('anymore,any more,no longer,the way it do,the way it use to,like it use to', 0, {
    ended: true,
    fixed: true,
  }),
  ...many('stop,quit,give up,cut out,ditch,kick,outgrow,go off,burn out,fizzle,fade,drift away', -1, {
    ended: true,
    fixed: true,
  }),
  ...many('move on,fall out of love,lose interest,lose patience,lose charm,lose spark,lose appeal', -1, {
    ended: true,
    fixed: true,
  }),
  ...many('get bored,be done,be over,be kind of over,behind me,be past,have my fill,run course', -1, {
    ended: true,
    fixed: true,
  }),
  ...many('gather dust,let slide,let go,swear off,off the table,cure,rehome,a rest,phase pass', -1, {
    ended: true,
    fixed: true,
  }),
  ...many('come around,warm up to,grow on,truce,make peace,loosen up,toughen up,get over,turn out', 1, {
    ended: true,
    fixed: true,
  }),
  ...many(
    'back on my plate,no more dread,fine by me,not so bad,no longer mind,not mind any,until this year,until recently,until now,until last',
    1,
    {
      ended: true,
      fixed: true,
    },
  ),
  ...many('still,as ever,remain,back to,back on,again', 0, { still: true, fixed: true }),
];

export const CUES: readonly Cue[] = [...STANCE, ...CHANGE];

/** Words that put a stance in the past ("used to", "was my thing for years"). */
export const PAST_MARKERS: readonly (readonly string[])[] = [
  ['use', 'to'],
  ['for', 'year'],
  ['in', 'my', 'twenty'],
  ['back', 'then'],
  ['year', 'ago'],
  ['as', 'a', 'kid'],
];

/** Durations that, with a negated verb ("have not touched it in months"), say a habit ended. */
export const LAPSE_MARKERS: readonly string[] = ['since', 'month', 'week', 'age', 'year', 'while'];

/** People other than the user who can hold a stance ("my brother loves sushi"). */
export const PEOPLE = new Set(
  [
    'brother,sister,sibling,mom,mum,mother,dad,father,parent,husband,wife,partner,boyfriend,girlfriend',
    'friend,buddy,roommate,flatmate,coworker,co-worker,colleague,kid,child,son,daughter,family,boss',
    'trainer,grandfather,grandmother,grandma,grandpa,uncle,aunt,cousin,neighbor,neighbour,club,team',
    'everyone,everybody,anyone,anybody,nobody,people,he,she,doctor,teacher,baby',
  ]
    .join(',')
    .split(','),
);

/** Pronouns that carry an item on into the next clause ("… so I keep it off my plate"). */
export const REFERENCES = new Set(['it', 'them', 'they', 'that', 'this', 'those', 'these', 'one']);

/** Words that open a new clause inside a sentence. */
export const CLAUSE_OPENERS = new Set([
  'but',
  'because',
  'though',
  'although',
  'whereas',
  'except',
  'unless',
  'yet',
]);

/** Openers of a clause that gives a reason: read only when it refers back to the item. */
export const REASON_OPENERS = new Set(['because', 'since', 'as', 'after']);

/** Openers that exclude what follows from the preference ("great, except when I'm stressed"). */
export const EXCLUDING = new Set(['except', 'unless']);
