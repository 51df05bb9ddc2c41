/**
 * The part an item plays in a sentence about change, read from its structure: "swapped A for B",
 * "switched from A to B", "B instead of A", "back to A". The role stands in for the clause's
 * reading when one clause names two items.
 */
import type { ClauseStance, Token } from './types.js';

export type Role = 'old' | 'new' | 'dispreferred' | 'back';

export const ROLE_STANCE: Readonly<Record<Role, ClauseStance>> = {
  old: { score: -1, ended: true, past: false, still: false },
  new: { score: 1.5, ended: false, past: false, still: false },
  dispreferred: { score: -1, ended: false, past: false, still: false },
  back: { score: 1, ended: false, past: false, still: true },
};

const SWAP = new Set(['swap', 'trade', 'exchange', 'replace', 'substitute']);
const SWITCH = new Set(['switch', 'move', 'change', 'shift', 'go', 'turn', 'convert']);
const ENDING = new Set(['ditch', 'drop', 'quit', 'stop', 'abandon']);
const STARTING = new Set(['start', 'begin', 'join', 'discover', 'find', 'become', 'adopt']);

/**
 * Roles of the mentions in one sentence: `mentionAt(i)` gives the expectation named at token i
 * (or -1). Returns expectation index → role.
 */
export function readRoles(tokens: readonly Token[], mentionAt: (i: number) => number): Map<number, Role> {
  const roles = new Map<number, Role>();
  const nextMention = (from: number, within: number) => {
    for (let i = from; i < tokens.length && i <= from + within; i++) {
      if (tokens[i]!.pos === 'PUNCT' && tokens[i]!.lower !== '-') return -1;
      const at = mentionAt(i);
      if (at >= 0) return at;
    }
    return -1;
  };
  const set = (expectation: number, role: Role) => {
    if (expectation >= 0 && !roles.has(expectation)) roles.set(expectation, role);
  };
  tokens.forEach((token, i) => {
    const next = tokens[i + 1];
    if (SWAP.has(token.lemma)) {
      const old = nextMention(i + 1, 4);
      set(old, 'old');
      const link = tokens.findIndex((t, j) => j > i && (t.lower === 'for' || t.lower === 'with'));
      if (link > 0) set(nextMention(link + 1, 4), 'new');
    }
    if (token.lower === 'from' && tokens.slice(Math.max(0, i - 3), i).some((t) => SWITCH.has(t.lemma))) {
      set(nextMention(i + 1, 3), 'old');
      const to = tokens.findIndex((t, j) => j > i && t.lower === 'to');
      if (to > 0) set(nextMention(to + 1, 3), 'new');
    }
    if (SWITCH.has(token.lemma) && next !== undefined && (next.lower === 'to' || next.lower === 'into')) {
      set(nextMention(i + 2, 3), 'new');
      // "karaoke nights turned into board game nights": what turned is the old one.
      if (token.lemma === 'turn' || token.lemma === 'change')
        for (let j = i - 1; j >= 0 && j >= i - 4 && tokens[j]!.pos !== 'PUNCT'; j--)
          if (mentionAt(j) >= 0) set(mentionAt(j), 'old');
    }
    // "went vegetarian", "became a dog person".
    if ((token.lemma === 'go' || token.lemma === 'become') && next !== undefined && mentionAt(i + 1) >= 0)
      set(mentionAt(i + 1), 'new');
    if (ENDING.has(token.lemma)) set(nextMention(i + 1, 3), 'old');
    if (STARTING.has(token.lemma) && token.pos === 'VERB' && tokens[i - 1]?.lower !== "n't")
      set(nextMention(i + 1, 3), 'new');
    if (
      (token.lower === 'instead' && next?.lower === 'of') ||
      (token.lower === 'rather' && next?.lower === 'than')
    )
      set(nextMention(i + 2, 3), 'dispreferred');
    if (
      token.lower === 'over' &&
      tokens.slice(Math.max(0, i - 4), i).some((t) => ['pick', 'take', 'choose', 'prefer'].includes(t.lemma))
    )
      set(nextMention(i + 1, 3), 'dispreferred');
    if (token.lower === 'back' && next !== undefined && (next.lower === 'to' || next.lower === 'on'))
      set(nextMention(i + 2, 3), 'back');
  });
  return roles;
}
