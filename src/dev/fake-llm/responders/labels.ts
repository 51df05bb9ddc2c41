/**
 * The fake judge's answers to the label prompts of model-written text
 * (src/memory/gold/online-labels/, src/synth/round-labels/): from what the fake wrote into each
 * message (its own trait lines, ./written.ts), never from the offline readers' cue words.
 */
import { BIG_FIVE_TRAITS } from '../../../schemas/common.js';
import type { FakeChatRequest } from '../server.js';
import { SHOWN_GRADE, TRAIT_LINES } from './free-writing.js';
import { promptContent } from './text.js';
import { writtenIn } from './written.js';

const MESSAGE = /^MESSAGE (\S+) \(session \d+, round \d+\): (.*)$/gm;

/**
 * The traits the fake let show in a message, by its own trait lines (which share no cue with the
 * offline reader in the free dialect): the text alone decides, so a resumed run or another fake
 * process gives the same grades. Someone else's trait (a planted decoy) is not one of its lines.
 */
export function ownTraits(message: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const lines of Object.values(TRAIT_LINES))
    for (const [trait, phrases] of Object.entries(lines))
      if ((phrases as readonly string[]).some((phrase) => message.includes(phrase)))
        out.set(trait, SHOWN_GRADE);
  return out;
}

/** `personality_evidence` (personality-evidence/1): the grades of the traits the fake let show, null for the rest. */
export function personalityAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'MESSAGE ');
  return {
    messages: [...prompt.matchAll(MESSAGE)].map((m) => {
      const traits = ownTraits(m[2]!);
      return {
        id: m[1]!,
        ...Object.fromEntries(BIG_FIVE_TRAITS.map((trait) => [trait, traits.get(trait) ?? null])),
        quote: traits.size > 0 ? m[2]!.slice(0, 120) : '',
      };
    }),
  };
}

const ROUND = /^ROUND (\d+) USER MESSAGE: (.*)$/gm;
const PHOTO = /^PHOTO (\S+) \(round (\d+)\): the message must present (.+)$/gm;
const CORRECTION = /^CORRECTION (\S+) \(round (\d+)\): the user must correct (.+?): it is (.+?), not /gm;

const roundsOf = (prompt: string) => new Map([...prompt.matchAll(ROUND)].map((m) => [Number(m[1]), m[2]!]));

/** `photo_description` (photo-description/1): the photos the fake presented and the details it planted. */
export function photoAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'PHOTO ');
  const rounds = roundsOf(prompt);
  return {
    answers: [...prompt.matchAll(PHOTO)].map((m) => {
      const message = rounds.get(Number(m[2])) ?? '';
      const written = writtenIn(message);
      if (written === null) return { id: m[1]!, ...unwrittenPhoto(message, m[3]!) };
      const shown = written.photos.includes(m[3]!);
      return { id: m[1]!, shown, subject: shown, details: written.photoDetails };
    }),
  };
}

/** `correction_check` (correction-check/1): the slip the fake corrected and what it took back. */
export function correctionAnswer(request: FakeChatRequest): unknown {
  const prompt = promptContent(request.messages, 'CORRECTION ');
  const rounds = roundsOf(prompt);
  return {
    answers: [...prompt.matchAll(CORRECTION)].map((m) => {
      const message = rounds.get(Number(m[2])) ?? '';
      const written = writtenIn(message);
      // A message another writer made (a test's own model): it corrects when it gives the right value.
      const corrects =
        written === null
          ? message.toLowerCase().includes(m[4]!.toLowerCase())
          : written.corrects?.detail === m[3] && written.corrects?.right === m[4];
      return {
        id: m[1]!,
        corrects,
        retracts: written?.retracts ?? [],
        quote: corrects ? message.slice(0, 120) : '',
      };
    }),
  };
}

/**
 * A photo message the fake did not write (a test's own model wrote it): shown when it holds the
 * placeholder, its subject named when the subject's words are there; details it cannot know.
 */
function unwrittenPhoto(message: string, subject: string) {
  const lower = message.toLowerCase();
  const words =
    subject
      .replace(/^a photo(?: of)?/, '')
      .replace(/\b(?:the|and)\b/g, ' ')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return {
    shown: lower.includes('<image>'),
    subject: words.length === 0 || words.some((word) => lower.includes(word)),
    details: [],
  };
}
