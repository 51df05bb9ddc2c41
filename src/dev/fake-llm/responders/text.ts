import { createHash } from 'node:crypto';

/**
 * Deterministic choices for the fake model: the same prompt always gets the same answer, and
 * different rounds of one prompt get different wording.
 */
export function pick<T>(options: readonly T[], ...key: Array<string | number>): T {
  const digest = createHash('sha256').update(key.join('\u0000')).digest();
  return options[digest.readUInt32BE(0) % options.length] as T;
}

/** The text of the last message with the given role. */
export function lastContent(messages: Array<{ role: string; content: string }>, role: string): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role === role && typeof message.content === 'string') return message.content;
  }
  return '';
}

/** The text of the first system message. */
export function systemContent(messages: Array<{ role: string; content: string }>): string {
  return messages.find((m) => m.role === 'system')?.content ?? '';
}

/** Lower-case word tokens (letters and digits). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

const STOP = new Set(
  'a an the and or but of to in on at for with by from is are was were be been am i my me you your it its this that these those they them their he she his her we our as so do does did not no yes user users'.split(
    ' ',
  ),
);

/** Content words: tokens that are not stop words. */
export function contentWords(text: string): string[] {
  return words(text).filter((w) => !STOP.has(w) && w.length > 2);
}

/** A crude stem, so "likes" meets "like" and "dislikes" meets "dislike". */
function stem(word: string): string {
  return word.length > 3 ? word.replace(/ies$/, 'y').replace(/([^s])s$/, '$1') : word;
}

/**
 * Share of `text`'s content words found in `haystack` (1 when `text` has none); words in `ignore`
 * (the user's own name, which the user does not say about themselves) do not count.
 */
export function coverage(text: string, haystack: string, ignore: readonly string[] = []): number {
  const skip = new Set(ignore.flatMap((name) => words(name)).map(stem));
  const wanted = [...new Set(contentWords(text).map(stem))].filter((w) => !skip.has(w));
  if (wanted.length === 0) return 1;
  const have = new Set(words(haystack).map(stem));
  return wanted.filter((w) => have.has(w)).length / wanted.length;
}

/**
 * The user message that carries the prompt: the first one containing `marker` (a re-ask after a
 * bad answer appends messages, so the last user message is not always the prompt).
 */
export function promptContent(
  messages: Array<{ role: string; content: string }>,
  marker: string | RegExp,
): string {
  for (const message of messages) {
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    if (typeof marker === 'string' ? message.content.includes(marker) : marker.test(message.content)) {
      return message.content;
    }
  }
  return lastContent(messages, 'user');
}
