/**
 * What the fake model wrote into each user message besides the plan's facts: the traits it let
 * show, the photos it presented, the slips it corrected. Its photo and correction answers
 * (./labels.ts) read this record, as a model would know its own intent (its personality answer
 * finds its own trait lines in the text; tests check it against the traits recorded here); the
 * offline cue readers are never consulted.
 */
export interface Written {
  /** Big Five grades the message shows (a trait absent: not shown). */
  traits: Record<string, number>;
  /** Photo subjects the message presents, as the prompt gave them. */
  photos: string[];
  /** Photo details the message states (planted: the fake does not know the photo's colours). */
  photoDetails: string[];
  /** The detail this message corrects to its right value, when it is a correction. */
  corrects: { detail: string; right: string } | null;
  /** Preferences the message takes back (a planted out-of-scope correction). */
  retracts: string[];
}

const written = new Map<string, Written>();

const normal = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Records what `message` was written to show. */
export function noteWritten(message: string, what: Partial<Written>): void {
  if (written.size >= 50_000) written.clear();
  written.set(normal(message), {
    traits: {},
    photos: [],
    photoDetails: [],
    corrects: null,
    retracts: [],
    ...what,
  });
}

/** What the fake wrote into `message`, or null for a message it did not write. */
export function writtenIn(message: string): Written | null {
  return written.get(normal(message)) ?? null;
}
