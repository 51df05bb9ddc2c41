import { sentence } from '../../../synth/grammar.js';
import { firstPerson, withKeywords } from '../../../synth/offline/text.js';
import { sha256 } from '../../../util/hash.js';
import type { FakeChatRequest, FakeDialect } from '../server.js';
import { freeWrite, SHOWN_GRADE, TRAIT_DECOYS, TRAIT_LINES } from './free-writing.js';
import { noiseLine } from './noise-lines.js';
import { plant } from './planted.js';
import { pick, promptContent, systemContent } from './text.js';
import { noteWritten, type Written } from './written.js';

/** One round of the realizer prompt's "WRITE THESE ROUNDS" list. */
export interface PromptRound {
  round: number;
  facts: Array<{ statement: string; keywords: string[] }>;
  images: string[];
  noise: string | null;
  /** The slip a misstatement or correction round is about, as the prompt gives it. */
  slip?: { detail: string; wrong: string; right: string };
}

const ROUND = /^- round (\d+) at [^;]+(.*)$/;
const FACT = /express: "((?:[^"\\]|\\.)*)" keywords: ((?:"(?:[^"\\]|\\.)*"(?:, )?)+)/g;
const KEYWORD = /"((?:[^"\\]|\\.)*)"/g;
const IMAGE = /; image: (.*?)(?=; (?:express|image|noise): |$)/g;
const NOISE = /; noise: (\w+)/;
const SLIP_SAID = /; noise: misstatement \(says (.+?) is (.+?) by mistake\)/;
const SLIP_FIXED = /; noise: correction \((.+?) is (.+?), not (.+?) as said in round \d+\)/;

/**
 * Reads the rounds to write from the realizer's chunk prompt (`src/synth/llm-realizer.ts`):
 * round number, the facts with their keywords, image captions and the noise kind.
 */
export function parseRealizerRounds(prompt: string): {
  rounds: PromptRound[];
  topics: string[];
  traits: Record<string, number>;
  /** The user's name (the profile line starts with it): plan statements name the user. */
  name: string;
} {
  const lines = prompt.split('\n');
  const name = /^USER PROFILE: ([^,]+),/m.exec(prompt)?.[1]?.trim() ?? '';
  const start = lines.indexOf('WRITE THESE ROUNDS:');
  const rounds: PromptRound[] = [];
  for (const line of start < 0 ? [] : lines.slice(start + 1)) {
    const match = ROUND.exec(line);
    if (match === null) continue;
    const rest = match[2] ?? '';
    const facts = [...rest.matchAll(FACT)].map((m) => ({
      statement: (m[1] ?? '').replace(/\\"/g, '"'),
      keywords: [...(m[2] ?? '').matchAll(KEYWORD)].map((k) => (k[1] ?? '').replace(/\\"/g, '"')),
    }));
    // Captions are read after the facts are taken out, so a quoted fact cannot look like one.
    const withoutFacts = rest.replace(FACT, 'express: -');
    const images = [...withoutFacts.matchAll(IMAGE)].map((m) => (m[1] ?? '').trim());
    const fixed = SLIP_FIXED.exec(withoutFacts);
    const said = SLIP_SAID.exec(withoutFacts);
    const slip =
      fixed !== null
        ? { detail: fixed[1]!, right: fixed[2]!, wrong: fixed[3]! }
        : said !== null
          ? { detail: said[1]!, wrong: said[2]!, right: '' }
          : null;
    rounds.push({
      round: Number(match[1]),
      facts,
      images,
      noise: NOISE.exec(withoutFacts)?.[1] ?? null,
      ...(slip === null ? {} : { slip }),
    });
  }
  const topicLine = lines.find((line) => /^SESSION \d+ TOPICS: /.test(line)) ?? '';
  const topics = topicLine
    .replace(/^SESSION \d+ TOPICS: /, '')
    .split(', ')
    .map((topic) => topic.replace(/^[a-z ]+:\s*/i, '').trim())
    .filter((topic) => topic !== '');
  const traits: Record<string, number> = {};
  for (const m of (lines.find((l) => l.startsWith('PERSONALITY NOW')) ?? '').matchAll(
    /(\w+) (\d(?:\.\d)?)/g,
  )) {
    traits[m[1] as string] = Number(m[2]);
  }
  return { rounds, topics, traits, name };
}

const LIKE_FRAMES = [
  'I like {x}',
  "I've really gotten into {x} lately",
  "I'm a big fan of {x}",
  '{X} is something I really like',
  'honestly I love {x}',
  "I've started to like {x} a lot",
  'I keep coming back to {x}, I like it',
  "you should know I'm into {x}",
];
const DISLIKE_FRAMES = [
  'I dislike {x}',
  "I really can't stand {x}",
  '{X} is not for me, I dislike it',
  "I'd rather avoid {x}",
  "honestly I don't like {x} at all",
  'please keep {x} away from me, I dislike it',
];
const CONTEXT = [
  '',
  'Just so you know for later.',
  'It came up while I was cooking.',
  'My friends keep teasing me about it.',
  'Figured I should mention it.',
  'I noticed it again this week.',
  'Keep that in mind when you suggest things.',
  'That has been true for a while now.',
  'Funny how these things go.',
  'It might matter for the weekend plans.',
  'I was reminded of it on the bus today.',
  'Write that down somewhere.',
];

/** "I like X" said in one of several ways, so a long dialogue does not repeat one frame. */
function varyFrame(text: string, key: string): string {
  const like = /^I (like|dislike) (.+)$/.exec(text);
  if (like === null) return text;
  const item = like[2] as string;
  const frame = pick(like[1] === 'like' ? LIKE_FRAMES : DISLIKE_FRAMES, key, text, 'frame');
  return frame.replace('{x}', item).replace('{X}', item.charAt(0).toUpperCase() + item.slice(1));
}

const OPENERS = ['', 'So, ', 'By the way, ', 'Also, ', 'Oh, and ', 'Honestly, '];

const BASE: Record<string, string> = { is: 'am', has: 'have', does: 'do', goes: 'go', was: 'was' };

/** A plan statement about the named user ("Ana likes tea", "Ana's sister is Li") in the user's own voice. */
export function inOwnVoice(statement: string, name: string): string {
  let text = statement;
  if (name !== '') {
    text = text.replaceAll(`${name}'s`, 'my');
    const lead = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+(\\w+)`).exec(text);
    if (lead !== null) {
      const verb = (lead[1] as string).toLowerCase();
      const base =
        BASE[verb] ??
        verb
          .replace(/(ch|sh|ss|x|z|o)es$/, '$1')
          .replace(/([^aeiou])ies$/, '$1y')
          .replace(/([^s])s$/, '$1');
      text = `I ${base}${text.slice(lead[0].length)}`;
    }
    text = text.replaceAll(name, 'me');
  }
  // "I now likes X", "but now dislikes Y": the verb after an adverb agrees with "I" too.
  return firstPerson(text).replace(
    /\b(now|no longer|still) (likes|dislikes|loves|hates|prefers|enjoys)\b/g,
    (_m, adverb: string, verb: string) => `${adverb} ${verb.slice(0, -1)}`,
  );
}

/** A number in [0, 1) fixed by the key. */
const chance = (...key: string[]) =>
  pick(
    Array.from({ length: 1000 }, (_, i) => i / 1000),
    ...key,
  );

function userTurn(
  round: PromptRound,
  topic: string,
  traits: Record<string, number>,
  name: string,
  key: string,
  dialect: FakeDialect | undefined,
  planted: string[],
  held: readonly string[],
): string {
  const parts: string[] = [];
  for (const fact of round.facts) {
    if (dialect?.name === 'free') {
      const contradict = chance(key, fact.statement, 'contradict') < dialect.contradictionRate;
      const free = freeWrite(fact.statement, name, fact.keywords, key, contradict);
      if (free !== null) {
        parts.push(free.text);
        if (free.planted !== null) planted.push(free.planted);
        continue;
      }
    }
    const opener = pick(OPENERS, key, fact.statement, 'opener');
    const voiced = varyFrame(inOwnVoice(fact.statement, name), key);
    parts.push(sentence(`${opener}${withKeywords(voiced, fact.keywords)}`));
    parts.push(pick(CONTEXT, key, fact.statement, 'context'));
  }
  const note: Partial<Written> = { photos: [...round.images], photoDetails: [] };
  const planting = (what: string) =>
    dialect?.name === 'free' && chance(key, what, 'plant') < (dialect.labelErrorRate ?? 0);
  for (const caption of round.images) {
    parts.push(
      `<image> ${pick(['Look at this one:', 'I took this photo:', 'Here is what I saw:'], key, caption)} ${caption}.`,
    );
    // Planted: a detail of what the photo shows (the fake never saw it; a visual question would not need the image).
    if (planting(caption)) {
      parts.push('You can count three of them in it.');
      note.photoDetails?.push('three of them');
    }
  }
  if (round.noise !== null) parts.push(noiseLine(round, key, held, planting, note));
  if (parts.length === 0) {
    const lead = pick(
      ['', 'Hey, ', 'Quick one: ', 'Okay, ', 'Morning! ', 'So ', 'Hmm, ', 'Right, ', 'Hi again, '],
      key,
      'lead',
    );
    const ask = pick(
      [
        `can we talk about ${topic} for a bit?`,
        `I've been thinking about ${topic} again.`,
        `what would you suggest for ${topic} this week?`,
        `any fresh ideas about ${topic}?`,
        `tell me something useful about ${topic}.`,
        `how do people usually get started with ${topic}?`,
        `I have a free evening, maybe ${topic}?`,
        `what's a cheap way to do more ${topic}?`,
        `remind me what we said about ${topic} last time?`,
        `is ${topic} worth more of my time, do you think?`,
        `I want a small plan for ${topic} before Sunday.`,
        `give me one tip on ${topic} I haven't heard.`,
      ],
      key,
      'ask',
    );
    const tail = pick(
      [
        '',
        ' Nothing fancy.',
        ' Keep it short.',
        ' I only have an hour.',
        ' Be honest.',
        ' No rush.',
        ' For this weekend.',
      ],
      key,
      'tail',
    );
    parts.push(`${lead}${lead === '' ? ask.charAt(0).toUpperCase() + ask.slice(1) : ask}${tail}`);
  }
  // The traits the fake lets show, in its own lines; its judge grades them 4 (TRAIT_LINES).
  const lines = TRAIT_LINES[dialect?.name === 'free' ? 'free' : 'plain'];
  const shown: Record<string, number> = {};
  for (const [trait, draw] of [
    ['extraversion', 'x'],
    ['neuroticism', 'n'],
    ['agreeableness', 'a'],
  ] as const) {
    if ((traits[trait] ?? 3) < 4) continue;
    if (trait === 'agreeableness' && !pick([true, false], key, 'a?')) continue;
    parts.push(pick(lines[trait], key, draw));
    shown[trait] = SHOWN_GRADE;
  }
  const free = dialect?.name === 'free';
  // A planted decoy (with contradictions on, in 30% of free-chat rounds): someone else's trait, in
  // words a cue list reads as the user's, for a trait the message does not show.
  const decoy = Object.keys(TRAIT_DECOYS).filter((trait) => shown[trait] === undefined);
  if (free && decoy.length > 0 && round.facts.length === 0 && dialect.contradictionRate > 0) {
    if (chance(key, 'decoy') < 0.3) parts.push(pick(TRAIT_DECOYS[pick(decoy, key, 'trait')]!, key, 'decoy'));
  }
  const text = parts.filter((part) => part !== '').join(' ');
  noteWritten(text, { ...note, traits: shown });
  return text;
}

const FILLERS = (topic: string) => [
  `I'll keep an eye on ${topic} for you and bring it up when it matters.`,
  `If anything about ${topic} changes, just tell me and I'll adjust.`,
  'We can take this one step at a time, at whatever pace suits you.',
  'I have your earlier notes handy, so nothing gets lost between our chats.',
  'Later this week I can check in and see how it went.',
  'Tell me what worked and what did not, and I will plan around it.',
];

/** Whole filler sentences added while the reply is shorter than the length the prompt asks for. */
function toLength(reply: string, words: number, topic: string, key: string): string {
  const count = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
  const pool = FILLERS(topic);
  const start = Number.parseInt(sha256(`${key}\u0000filler`).slice(0, 6), 16) % pool.length;
  const parts = [reply];
  for (let i = 0; count(parts.join(' ')) < words && i < pool.length; i++)
    parts.push(pool[(start + i) % pool.length] as string);
  return parts.join(' ');
}

function assistantTurn(round: PromptRound, topic: string, key: string): string {
  const parts: string[] = [];
  for (const fact of round.facts) {
    const keyword = fact.keywords[0] ?? topic;
    parts.push(
      pick(
        [
          `Got it, I'll keep ${keyword} in mind from now on.`,
          `Thanks for telling me about ${keyword}; I'll use that when I suggest things.`,
          `Noted: ${keyword}. That helps me tailor what I recommend.`,
        ],
        key,
        fact.statement,
        'ack',
      ),
    );
  }
  for (const caption of round.images) {
    parts.push(`I can see ${caption.split(' on a ')[0] ?? caption} in your photo.`);
  }
  if (round.noise !== null) {
    parts.push(
      pick(
        ['Happy to help with that too.', "Sure, here's a quick answer.", 'No problem, let me look into it.'],
        key,
        'noise-reply',
      ),
    );
  }
  if (parts.length === 0) {
    parts.push(
      pick(
        [
          `Here are a few ideas about ${topic} that fit what you like.`,
          `Let's plan something around ${topic} that suits your week.`,
          `Good question. For ${topic}, I'd start small and see how it feels.`,
        ],
        key,
        'free-reply',
      ),
    );
  }
  parts.push(
    pick(
      [
        '',
        'Let me know how it goes.',
        'Want me to set a reminder?',
        'I can add this to your notes.',
        'Shall I look for more options?',
        `Tell me if ${topic} changes.`,
        'I will remember that.',
      ],
      key,
      'close',
    ),
  );
  return parts.filter((p) => p !== '').join(' ');
}

/**
 * The realizer's answer: one `{round, user, assistant}` per listed round, every listed fact
 * stated in the user's voice with its keywords verbatim, one `<image>` per listed image, the
 * noise kind acted out, and a reply that acknowledges what the user said.
 */
export function realizerAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'WRITE THESE ROUNDS:');
  const { rounds, topics, traits, name } = parseRealizerRounds(prompt);
  const fixing = new Set(
    [...(/^ATTEMPT \d+: .*$/m.exec(prompt)?.[0] ?? '').matchAll(/\bround (\d+)/g)].map((m) => Number(m[1])),
  );
  // The preferences the prompt lists as held ("- like green tea [only …]"): what a correction must leave alone.
  const held = [
    ...prompt.matchAll(/^- (?:like|dislike) (.+?)(?: \[only [^\]]*\])?(?: \(assistant knows\))?$/gm),
  ].map((m) => m[1]!);
  const seed = String(request.body.seed ?? '');
  // A regeneration's prompt differs (its attempt and hints), so its draws differ too.
  const promptKey = sha256(prompt).slice(0, 16);
  // The reply length the system prompt asks for (a prompt without one gets the reply as written).
  const replyWords = Number(/about (\d+) words/.exec(systemContent(request.messages))?.[1] ?? 0);
  return {
    turns: rounds.map((round, i) => {
      const topic =
        topics[Math.min(topics.length - 1, Math.floor((i * topics.length) / Math.max(1, rounds.length)))] ??
        'your plans';
      const key = `${seed}\u0000${round.round}\u0000${promptKey}`;
      const planted: string[] = [];
      // A round the retry prompt says was wrong is written as asked: nothing planted in it again.
      const dialect =
        request.dialect === undefined || !fixing.has(round.round)
          ? request.dialect
          : { ...request.dialect, contradictionRate: 0, labelErrorRate: 0 };
      const user = userTurn(round, topic, traits, name, key, dialect, planted, held);
      for (const item of planted) plant(user, item);
      return {
        round: round.round,
        user,
        assistant: toLength(assistantTurn(round, topic, key), replyWords, topic, key),
      };
    }),
  };
}
