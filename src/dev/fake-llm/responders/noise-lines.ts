/** The fake model's lines for noise rounds (an aside, a misstatement, its correction …). */
import { pick } from './text.js';
import type { Written } from './written.js';

const NOISE_LINES: Record<string, readonly string[]> = {
  irrelevant: [
    'Unrelated, but how many grams are in a cup of flour?',
    'Quick random one: what is the capital of Australia again?',
    'Totally off topic, why do cats knead blankets?',
  ],
  exploratory: [
    'Just browsing ideas here, what else is out there along these lines?',
    "I'm only looking around for now, show me a few different options.",
    "Not deciding anything yet, I'm curious what people usually pick.",
  ],
  on_behalf: [
    'This one is for a friend, not me: what would you suggest for her?',
    'Asking for my neighbour, he wants a recommendation.',
    'My colleague asked me to check this for him, any idea?',
  ],
  impulse: [
    'Sudden urge to try something wild today, probably a one-off.',
    'I just feel like doing something different this afternoon, only this once.',
    'Random impulse, I might grab something new on the way home.',
  ],
  misstatement: [
    'Quick errand: please note the pickup time as 7 pm.',
    'Before I forget, the drop-off day for my parcel is Tuesday.',
    'Put the number of guests down as four, please.',
  ],
  correction: [
    'Sorry, I mistyped the time in my last message, I meant the evening.',
    'Small correction to what I wrote before: it was Tuesday, not Monday.',
    'Ignore the number I gave earlier, it was a typo.',
  ],
};

/**
 * A noise round's line: a misstatement or correction says its slip when the prompt gives one (a
 * planted correction also takes back a held preference), other kinds a canned line.
 */
export function noiseLine(
  round: { noise: string | null; slip?: { detail: string; wrong: string; right: string } },
  key: string,
  held: readonly string[],
  planting: (what: string) => boolean,
  note: Partial<Written>,
): string {
  const slip = round.slip;
  if (slip !== undefined && round.noise === 'misstatement')
    return `Before I forget, put ${slip.detail} down as ${slip.wrong}.`;
  if (slip !== undefined && round.noise === 'correction') {
    note.corrects = { detail: slip.detail, right: slip.right };
    const text = `My mistake earlier: ${slip.detail} is actually ${slip.right}, not ${slip.wrong}.`;
    const item = held[0];
    if (item === undefined || !planting('scope')) return text;
    note.retracts = [item];
    return `${text} And forget what I told you about ${item}.`;
  }
  return pick(NOISE_LINES[round.noise ?? ''] ?? NOISE_LINES.irrelevant ?? [''], key, 'noise');
}
