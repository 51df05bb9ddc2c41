/**
 * The fake model's free-writing dialect: a preference or drift stated the way a chat model
 * writes a user's turn (idioms, hedges, conditions in other words), from phrase banks that share
 * no cue with the meaning reader (src/synth/meaning/lexicon.ts, conditions.ts) or the offline
 * realizer's banks (a test asserts it). At a configurable rate it plants a genuine contradiction
 * and remembers it, so its entailment judge (./entailment.ts) can answer from what it wrote.
 */
import { CONDITIONS } from '../../../plan/catalogue/life-catalogue.js';
import { withKeywords } from '../../../synth/offline/text.js';
import { pick } from './text.js';

/** Frames by meaning; `{x}` is the item. */
export const FREE_BANKS = {
  like: [
    "I'm quite partial to {x}",
    'honestly, {x} is my jam',
    '{x} just works for me',
    'I could happily live on {x}',
    '{x}? count me in, any day of the week',
    "I'd pick {x} over most things",
    '{x} hits the mark, no contest',
  ],
  dislike: [
    "{x} really isn't my scene",
    'I give {x} a wide berth',
    '{x} leaves me cold',
    '{x} falls flat for me',
    '{x} rubs me the wrong way',
    'count me out when it comes to {x}',
  ],
  endedLike: [
    "{x} and me, we've gone our separate ways",
    '{x} has lost its pull on me',
    "I'm finished with {x}",
    '{x} is a closed chapter for me',
  ],
  endedDislike: [
    "I've made friends with {x} after all",
    '{x} won me over eventually',
    '{x} is alright by me now',
    "I've buried the hatchet with {x}",
  ],
  /** Planted contradictions of an ending: the old stance holds as firmly as it did. */
  heldLike: ['{x} has kept its firm spot in my week', '{x} keeps its hold on me'],
  heldDislike: ["I'm every bit as wary of {x} as I was", '{x} and I are no closer than before'],
  hedge: ['', '', 'Maybe it is just me, but ', 'If I am being frank, ', 'Call me odd, but '],
} as const;

/**
 * Traits shown in the fake's own words: no phrase the offline personality cue reader
 * (the old cue list, now only in test/support/cue-list-personality.ts) reads (a test asserts it), so only a model's reading
 * (personality-evidence/1) finds them.
 */
export const FREE_TRAITS = {
  extraversion: [
    "I've already told half the office about it.",
    "I'd talk about this with anyone who'd listen.",
    'I rounded up the whole gang to hear about it.',
  ],
  neuroticism: [
    'Part of me keeps bracing for it to go wrong.',
    "My stomach's in knots over it, to be honest.",
    'I lie awake running through what could go sideways.',
  ],
  agreeableness: ["Cheers, you're a gem.", 'Much obliged, as always.', 'Ta, that is kind of you.'],
} as const;

/** The fake's own trait lines per dialect (`plain` keeps the lines it always wrote). */
export const TRAIT_LINES = {
  free: FREE_TRAITS,
  plain: {
    extraversion: ['So excited about this!', 'Can’t wait!', 'Love it!'],
    neuroticism: ['I hope that is not a mistake.', 'I keep worrying about it.'],
    agreeableness: ['Thanks so much.', 'Thank you!', 'Appreciate it.', 'Thanks, really.', 'You are a star.'],
  },
} as const;

/** The grade the fake's judge gives a trait one of its own lines shows (it cannot tell 4 from 5 either). */
export const SHOWN_GRADE = 4;

/** Someone else's trait in words a cue list reads as the user's (planted: the fake's judge knows better). */
export const TRAIT_DECOYS: Readonly<Record<string, readonly string[]>> = {
  neuroticism: [
    'My sister is worried sick about it, mind you.',
    'My flatmate keeps saying he is anxious about the whole thing.',
  ],
  openness: ['My sister says she is feeling more adventurous lately, not that it rubs off.'],
  conscientiousness: ['My flatmate has become more organised since the move, unlike me.'],
};

/** Planned conditions in other words. */
export const FREE_CONDITIONS: Readonly<Record<string, string>> = {
  'on weekday mornings': 'before clocking in',
  'late at night': "once the clock's past twelve",
  'on weekends': 'on my days off',
  'with family': 'when the whole clan gets together',
  'with colleagues': 'with my teammates',
  'on a date': "when I'm out with someone I'm seeing",
  'when stressed': "when everything's on fire",
  'when travelling for work': 'whenever the job sends me out of town',
  'on rainy days': "when it's bucketing down",
};

const KNOWN_CONDITIONS: readonly string[] = Object.values(CONDITIONS).flat();

/** A preference as a statement names it: polarity, item and condition. */
interface Said {
  polarity: 'like' | 'dislike';
  item: string;
  condition: string | null;
}

function said(text: string): Said | null {
  const match = /^(likes|dislikes|like|dislike) (.+)$/.exec(text.trim());
  if (match === null) return null;
  let item = match[2]!.trim();
  const condition = KNOWN_CONDITIONS.find((c) => item.endsWith(` ${c}`)) ?? null;
  if (condition !== null) item = item.slice(0, -condition.length - 1);
  return { polarity: match[1]!.startsWith('dis') ? 'dislike' : 'like', item, condition };
}

/** What a plan statement says, parsed: current stances and ended ones. */
export function parseStatement(
  statement: string,
  name: string,
): { current: Said | null; ended: Said | null } | null {
  const body = statement
    .replace(/ \([^()]*\)$/, '')
    .replace(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `), '');
  const modify = /^used to (like|dislike) (.+?) but now (.+)$/.exec(body);
  if (modify !== null) return { ended: said(`${modify[1]} ${modify[2]}`), current: said(modify[3]!) };
  if (body.startsWith('now ')) return { current: said(body.slice(4)), ended: null };
  if (body.startsWith('no longer ')) return { current: null, ended: said(body.slice(10)) };
  const plain = said(body);
  return plain === null ? null : { current: plain, ended: null };
}

/**
 * The items a preference or drift statement names ("Mia used to like A but now likes B (…)" →
 * [A, B]), without the speaker's name; empty for other facts.
 */
export function statementItems(statement: string): string[] {
  const body = statement.replace(/ \([^()]*\)$/, '');
  const modify = /\bused to (?:like|dislike) (.+?) but now (.+)$/.exec(body);
  const parts =
    modify !== null ? [`like ${modify[1]}`, modify[2]!] : [/\b(?:likes|dislikes) .+$/.exec(body)?.[0] ?? ''];
  return parts.flatMap((part) => said(part.replace(/^(?:now|no longer) /, ''))?.item ?? []);
}

const fill = (frame: string, item: string) => frame.replace('{x}', item);

/**
 * A free-written user sentence for a preference or drift fact, or null when the fact is not one.
 * `contradict` flips one stance: the other polarity, or an ending that did not happen.
 */
export function freeWrite(
  statement: string,
  name: string,
  keywords: readonly string[],
  key: string,
  contradict: boolean,
): { text: string; planted: string | null } | null {
  const parsed = parseStatement(statement, name);
  if (parsed === null || (parsed.current === null && parsed.ended === null)) return null;
  const parts: string[] = [];
  let planted: string | null = null;
  const flipEnded =
    contradict && parsed.ended !== null && (parsed.current === null || pick([true, false], key, 'which'));
  if (parsed.ended !== null) {
    const { polarity, item } = parsed.ended;
    const bank = flipEnded
      ? polarity === 'like'
        ? FREE_BANKS.heldLike
        : FREE_BANKS.heldDislike
      : polarity === 'like'
        ? FREE_BANKS.endedLike
        : FREE_BANKS.endedDislike;
    parts.push(fill(pick(bank, key, statement, 'ended'), item));
    if (flipEnded) planted = item;
  }
  if (parsed.current !== null) {
    const { item, condition } = parsed.current;
    const flip = contradict && !flipEnded;
    const polarity = flip
      ? parsed.current.polarity === 'like'
        ? 'dislike'
        : 'like'
      : parsed.current.polarity;
    let text = fill(pick(FREE_BANKS[polarity], key, statement, 'current'), item);
    if (condition !== null) text = `${text}, ${FREE_CONDITIONS[condition] ?? condition}`;
    parts.push(text);
    if (flip) planted = item;
  }
  const hedge = pick(FREE_BANKS.hedge, key, statement, 'hedge');
  const body = withKeywords(parts.join(', and these days '), keywords);
  const text = `${hedge}${hedge === '' ? body.charAt(0).toUpperCase() + body.slice(1) : body}.`;
  return { text, planted };
}
