import { BIG_FIVE_TRAITS, type BigFive, type BigFiveTrait } from '../../src/schemas/common.js';

/**
 * A naive single-message personality cue list, kept for tests as the kind of reader the fake
 * model's judge and teacher must beat: each trait is shown high (+1), low (−1), both (`mixed`)
 * or not at all (0) by stock phrases (worry markers, politeness, blunt demands, exclamations,
 * "I feel more <trait word> lately"), so it takes someone else's worry for the user's and an
 * exclamation mark for extraversion. Nothing in src/ reads with it: gold targets and the
 * `personality_evidence` rule use the reader of several messages
 * (src/memory/gold/personality-reading.ts); the fake model grades what it wrote.
 */
export type TraitReading = 1 | -1 | 0 | 'mixed';

export interface TraitEvidence {
  reading: TraitReading;
  /** The cue phrases found, as written in the text. */
  cues: string[];
}

type CueList = ReadonlyArray<readonly [RegExp, 1 | -1]>;

/** "I feel more curious lately", "feeling a lot more organised these days". */
const more = (words: string): RegExp =>
  new RegExp(
    `\\b(?:feel|feeling|felt|become|becoming|gotten|got)\\s+(?:a lot |much |a bit |so )?more (?:${words})\\b`,
    'i',
  );

const CUES: Readonly<Record<BigFiveTrait, CueList>> = {
  openness: [
    [/\b(?:I am|I'm) (?:so |really |very |genuinely )?curious\b/i, 1],
    [/\bI love trying new things\b/i, 1],
    [/\bI want to explore something new\b/i, 1],
    [more('curious|open|adventurous'), 1],
    [/\bstick to what I know\b/i, -1],
    [more('cautious|set in my ways'), -1],
  ],
  conscientiousness: [
    [/\bI made a list\b/i, 1],
    [/\bto keep it organi[sz]ed\b/i, 1],
    [/\bI like to plan ahead\b/i, 1],
    [more('organi[sz]ed|disciplined|focused'), 1],
    [more('scattered|disorgani[sz]ed|careless'), -1],
  ],
  extraversion: [
    [/!/, 1],
    [/\boh wow\b/i, 1],
    [/\bguess what\b/i, 1],
    [/\byay\b/i, 1],
    [/\boh man\b/i, 1],
    [/\bI have to tell everyone\b/i, 1],
    [/\bI could chat about this all day\b/i, 1],
    [more('outgoing|social|sociable'), 1],
    [/\bI will keep this short\b/i, -1],
    [/\bnot one for big chats\b/i, -1],
    [/\bkeeping to myself\b/i, -1],
    [more('quiet|withdrawn|reserved'), -1],
  ],
  agreeableness: [
    [/\bif you do not mind\b/i, 1],
    [/\bthank(?:s| you) so much\b/i, 1],
    [/\bno rush at all\b/i, 1],
    [/\bI really appreciate it\b/i, 1],
    [more('patient|kind|forgiving'), 1],
    [/\bjust tell me straight\b/i, -1],
    [/\bskip the fluff\b/i, -1],
    [/\bno lectures\b/i, -1],
    [/\bdo not waste my time\b/i, -1],
    [more('irritable|impatient'), -1],
  ],
  neuroticism: [
    [/\b(?:worried|worrying|worries)\b/i, 1],
    [/\boverthinking\b/i, 1],
    [/\bstressing me out\b/i, 1],
    [/\b(?:nervous|anxious)\b/i, 1],
    [/\bkeeping me up at night\b/i, 1],
    [more('calm|relaxed|at ease'), -1],
  ],
};

/**
 * Reads each trait's evidence from one message.
 *
 * @example readPersonalityEvidence('Guess what, I got the job!').extraversion.reading // 1
 */
export function readPersonalityEvidence(text: string): Record<BigFiveTrait, TraitEvidence> {
  const out = {} as Record<BigFiveTrait, TraitEvidence>;
  for (const trait of BIG_FIVE_TRAITS) {
    const cues: string[] = [];
    const directions = new Set<1 | -1>();
    for (const [pattern, direction] of CUES[trait]) {
      const match = pattern.exec(text);
      if (match === null) continue;
      directions.add(direction);
      cues.push(match[0]);
    }
    const reading: TraitReading =
      directions.size === 2 ? 'mixed' : directions.size === 1 ? ([...directions][0] as 1 | -1) : 0;
    out[trait] = { reading, cues };
  }
  return out;
}

/**
 * The personality-inference target a message supports: 3 (no evidence) for every trait the text
 * does not show (or shows both ways); for a trait it shows, the plan's score rounded when it lies
 * on the shown side, else the nearest score on that side (4 or 2).
 *
 * @example personalityTargetFromText('Oh wow, look at this!', plan.bigFive).extraversion // ≥ 4
 */
export function personalityTargetFromText(text: string, planned: BigFive): BigFive {
  const evidence = readPersonalityEvidence(text);
  const out = { ...planned };
  for (const trait of BIG_FIVE_TRAITS) {
    const { reading } = evidence[trait];
    const rounded = Math.min(5, Math.max(1, Math.round(planned[trait])));
    if (reading === 1) out[trait] = Math.max(4, rounded);
    else if (reading === -1) out[trait] = Math.min(2, rounded);
    else out[trait] = 3;
  }
  return out;
}

/**
 * The trait readings of a target that its message does not support: a score above 3 needs a
 * high cue, below 3 a low cue, and 3 needs no one-sided cue (a trait shown both ways allows any
 * score). Empty when the target says what the text shows.
 *
 * @example unsupportedTraits('I made a list already, thanks so much.', target) // [] or ['conscientiousness: …']
 */
export function unsupportedTraits(text: string, target: BigFive): string[] {
  const evidence = readPersonalityEvidence(text);
  const problems: string[] = [];
  for (const trait of BIG_FIVE_TRAITS) {
    const { reading, cues } = evidence[trait];
    const score = target[trait];
    if (reading === 'mixed') continue;
    const side = score > 3 ? 1 : score < 3 ? -1 : 0;
    if (side === reading) continue;
    const shown =
      reading === 0
        ? 'the message shows no cue'
        : `the message shows ${reading > 0 ? 'high' : 'low'} (${cues.join(', ')})`;
    problems.push(`${trait} ${score}: ${shown}`);
  }
  return problems;
}
