import { readMessage } from '../../src/memory/gold/personality-reading.js';
import type { BigFiveTrait } from '../../src/schemas/common.js';
import { FRESH_CHAT, FRESH_CHAT_NONE } from './personality-fresh-chat.js';
import { FRESH_LIKES, FRESH_LIKES_NONE } from './personality-fresh-likes.js';
import { FRESH_SESSIONS, FRESH_SESSIONS_NONE } from './personality-fresh-sessions.js';
import { FRESH_TURNS, FRESH_TURNS_NONE } from './personality-fresh-turns.js';
import { HELDOUT_NONE, HELDOUT_SHOWS } from './personality-heldout.js';
import { MODEL_NONE, MODEL_TURNS } from './personality-model-turns.js';
import { NO_TRAIT, SHOWS } from './personality-paraphrases.js';

/** One set of sentences written apart from the personality reader: per trait and side, and none. */
export interface PersonalitySet {
  name: string;
  shows: Record<`${BigFiveTrait}${'+' | '-'}`, readonly string[]>;
  none: readonly string[];
}

/**
 * The sets, in the order they were written: the paraphrases the rules' frames were built against,
 * the held-out set whose misses widened them, the model-style turns whose misses were read after the
 * frame reader landed, then sets written before the changes they measure: chat messages,
 * model-style session turns (whose listed errors later named three classes the rules now handle:
 * a rejected alternative, an act aimed at the speaker, a trait wished for), messages whose no-trait
 * half is mostly tastes, corrections and family mentions, and turns of several sentences with one
 * trait sentence among unrelated ones, the offline corpus's register (their figures are the ones
 * to expect on unseen text).
 */
export const PERSONALITY_SETS: readonly PersonalitySet[] = [
  { name: 'paraphrases', shows: SHOWS, none: NO_TRAIT },
  { name: 'heldout', shows: HELDOUT_SHOWS, none: HELDOUT_NONE },
  { name: 'model-turns', shows: MODEL_TURNS, none: MODEL_NONE },
  { name: 'fresh-chat', shows: FRESH_CHAT, none: FRESH_CHAT_NONE },
  { name: 'fresh-sessions', shows: FRESH_SESSIONS, none: FRESH_SESSIONS_NONE },
  { name: 'fresh-likes', shows: FRESH_LIKES, none: FRESH_LIKES_NONE },
  { name: 'fresh-turns', shows: FRESH_TURNS, none: FRESH_TURNS_NONE },
];

/** One trait side of a set as the reader reads it: sentences on the intended side, on the other, missed. */
export interface SideTally {
  hit: number;
  n: number;
  wrong: string[];
  missed: string[];
}

/** Per trait side ("extraversion+"), what the reader makes of a set's sentences. */
export function tallySet(set: PersonalitySet): Record<string, SideTally> {
  const out: Record<string, SideTally> = {};
  for (const [key, sentences] of Object.entries(set.shows)) {
    const trait = key.slice(0, -1) as BigFiveTrait;
    const side = key.endsWith('+') ? 1 : -1;
    const row: SideTally = { hit: 0, n: sentences.length, wrong: [], missed: [] };
    for (const text of sentences) {
      const reading = readMessage(text)[trait];
      if (reading === side) row.hit++;
      else (reading === -side ? row.wrong : row.missed).push(text);
    }
    out[key] = row;
  }
  return out;
}

/** The sentences of a set that show no trait but are read as one. */
export const noTraitRead = (set: PersonalitySet): string[] =>
  set.none.filter((text) => Object.values(readMessage(text)).some((side) => side !== 0));
