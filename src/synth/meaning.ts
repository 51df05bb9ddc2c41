/**
 * Reads a preference's meaning back from realized text: which polarity the user expresses
 * toward an item, and whether they say it has ended. The synth check (check-on-write for LLM
 * realizers) and the `drift_meaning` validation rule use it to catch turns that contain the
 * right keywords but say the opposite of the plan ("I have gotten into X" for a new dislike).
 *
 * The reader works clause by clause: a clause mentions the item when it contains every one of
 * the item's keywords; the cues in that clause (or, when it has none, in its sentence) decide.
 */
import type { DriftEvent, EvidenceSlot, Preference } from '../schemas/plan.js';

export type Polarity = 'like' | 'dislike';

/** What a clause says about an item: its polarity (null when nothing says) and whether it ended. */
export interface Stance {
  polarity: Polarity | null;
  ended: boolean;
  clause: string;
}

const NEG = `(?:do not|don't|does not|doesn't|did not|didn't|never|not|cannot|can't|won't|hardly)`;

// Ending a dislike ("X does not bother me any more") reads before the generic cues.
const DISLIKE_ENDED = [
  /\b(?:no longer|not any ?more|never again)\s+(?:minds?|avoids?|dislikes?|hates?)\b/,
  /\b(?:does not|doesn't|do not|don't) (?:bother|bug|put) me(?: off)? any ?more\b/,
  /\bused to (?:avoid|dislike|hate|skip|steer clear of|not (?:like|enjoy|stand))\b/,
  /\bused to be (?:a hard no|not my thing|off limits)\b/,
  /\bhave made peace with\b/,
];
const ENDED = [
  /\bno longer\b/,
  /\bnot\b[^,;]*\bany ?more\b/,
  /\bused to\b/,
  /\b(?:stopped|quit|gave up(?: on)?|given up(?: on)?|dropped|am done with|i'm done with|done with|moved on from|grew out of|went off|gone off|is behind me|stopped appealing)\b/,
];
const DISLIKE = [
  new RegExp(String.raw`\b${NEG}\s+(?:\w+\s+)?(?:like|love|enjoy|want|fancy|stand|tolerate)s?\b`),
  /\b(?:not a fan|not my thing|not for me|a hard no|hard pass|cannot stand|can't stand|try to avoid|avoids?|avoided|avoiding|dislikes?|disliked|hates?|hated|detests?|steers? clear|put off by|turned off by|never suggest|no thanks|off limits|gross|awful|passed on|pass on|does not appeal|doesn't appeal)\b/,
];
const LIKE = [
  /\b(?:loves?|loved|loving|adores?|enjoys?|enjoyed|enjoying|likes?|liked|liking|fan of|favou?rite|into|gotten into|getting into|got into|hooked on|obsessed with|crave|craving|cannot get enough|can't get enough|prefers?|preferred|pick|picking|go-to|started with|taken up|took up|for me now|treat myself|went for|go for|going for|coming back to|keep picking)\b/,
];

const anyMatch = (patterns: readonly RegExp[], text: string) => patterns.some((p) => p.test(text));

/** The stance the cues of one piece of text express, or null when it has none. */
function cueStance(text: string): Omit<Stance, 'clause'> | null {
  if (anyMatch(DISLIKE_ENDED, text)) return { polarity: 'dislike', ended: true };
  const ended = anyMatch(ENDED, text);
  if (anyMatch(DISLIKE, text)) return { polarity: 'dislike', ended };
  if (anyMatch(LIKE, text)) return { polarity: 'like', ended };
  if (ended) return { polarity: 'like', ended: true }; // "I quit X": stopping something one did.
  return null;
}

const normal = (text: string) => ` ${text.toLowerCase().replace(/[’]/g, "'").replace(/\s+/g, ' ')} `;

/** Splits text into sentences, and sentences into clauses at conjunctions that change stance. */
function clauses(text: string): Array<{ clause: string; sentence: string }> {
  const out: Array<{ clause: string; sentence: string }> = [];
  // "switched from A to B" says A ended and B is taken up: give each its own clause.
  const switched = normal(text).replace(
    /\b(?:switched|switch|moved|move|changed|change|swapped|swap|shifted|shift|went|go)\s+(?:over\s+)?from\s+(.+?)\s+to\s+/g,
    'stopped $1, and now i am into ',
  );
  for (const sentence of switched.split(/[.!?;:]+|\s[-–—]\s/)) {
    if (sentence.trim() === '') continue;
    const parts = sentence.split(
      /,?\s(?:but|because|since|though|although|while|whereas|so|and now|and these days|over)\s|,\s(?:and|now)\s|\sfrom\s|\s(?:instead of|rather than)\s/,
    );
    for (const clause of parts)
      if (clause.trim() !== '') out.push({ clause: ` ${clause.trim()} `, sentence });
  }
  return out;
}

const MARK = '\u2063';
const OTHER = '\u2064';

const compiledPatterns = new Map<string, RegExp>();

/**
 * One RegExp object per source and flags, reused: the reader builds its patterns from the plan's
 * items and keywords, the same few hundred over a corpus, and compiling them again for every
 * turn (and again after a GC dropped their code) was most of its time. Only used where the
 * result does not depend on `lastIndex` (`replace`, `search`, `test` of non-global patterns).
 */
function cachedRegExp(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let pattern = compiledPatterns.get(key);
  if (pattern === undefined) {
    if (compiledPatterns.size >= 10_000) compiledPatterns.clear();
    pattern = new RegExp(source, flags);
    compiledPatterns.set(key, pattern);
  }
  return pattern;
}

/** A keyword as a word (inflected endings allowed): "ski" matches "skis", never "skip". */
const wordPattern = (word: string) =>
  cachedRegExp(String.raw`(?<![\p{L}\p{N}])${escapeRegExp(word)}(?:s|es|ed|d|ing)?(?![\p{L}\p{N}])`, 'gu');

/**
 * Every stance the text takes toward the item named by `keywords` (and, when given, its full
 * `item` phrase), in text order. The item's own words never count as cues ("skipping breakfast"
 * is not a dislike), mentions of `others` (the other item of a drift) never count as the item,
 * and a clause "no X" (no hotpot please) reads as a dislike.
 *
 * @example readStances('I used to love tea, but now I avoid tea.', ['tea']).map((s) => s.polarity) // ['like', 'dislike']
 */
export function readStances(
  text: string,
  keywords: readonly string[],
  item?: string,
  others: readonly string[] = [],
): Stance[] {
  const words = keywords.map((keyword) => keyword.toLowerCase()).filter((keyword) => keyword !== '');
  const patterns = words.map(wordPattern);
  let marked = text;
  const mark = (phrase: string | undefined, token: string) => {
    if (phrase === undefined || phrase.trim() === '') return;
    marked = marked.replace(cachedRegExp(escapeRegExp(phrase.trim()), 'gi'), ` ${token} `);
  };
  // Longer phrases first, so "food delivery fees" is masked before "food delivery" is marked.
  const phrases: Array<[string, string]> = [
    ...others
      .filter((other) => other.toLowerCase() !== item?.toLowerCase())
      .map((o): [string, string] => [o, OTHER]),
    ...(item === undefined ? [] : [[item, MARK] as [string, string]]),
  ].sort((a, b) => b[0].length - a[0].length);
  for (const [phrase, token] of phrases) mark(phrase, token);
  const stances: Stance[] = [];
  for (const { clause, sentence } of clauses(marked)) {
    const named =
      clause.includes(MARK) || (patterns.length > 0 && patterns.every((p) => clause.search(p) >= 0));
    if (!named) continue;
    const strip = (piece: string) => {
      let out = piece.split(MARK).join(' ').split(OTHER).join(' ');
      for (const p of patterns) out = out.replace(p, ' ');
      return out;
    };
    const itemStart = `(?:${MARK}${words[0] === undefined ? '' : `|${escapeRegExp(words[0])}`})`;
    const plain = clause
      .trim()
      .split(MARK)
      .join(item?.toLowerCase() ?? '');
    if (cachedRegExp(String.raw`\bno\s+(?:more\s+)?\s*${itemStart}`, 'u').test(clause)) {
      stances.push({ polarity: 'dislike', ended: false, clause: plain });
      continue;
    }
    const stance = cueStance(strip(clause)) ?? cueStance(strip(sentence)) ?? { polarity: null, ended: false };
    stances.push({ ...stance, clause: plain });
  }
  return stances;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a slot must say about a preference: its current polarity, or that it ended. */
export interface MeaningExpectation {
  /** Keywords naming the item. */
  keywords: readonly string[];
  item: string;
  polarity: Polarity;
  /** True when the slot says the preference no longer holds (a delete). */
  ended: boolean;
  /** The condition text the statement must keep ("when I am travelling"), if any. */
  condition: string | null;
}

/** The expectations of a preference or drift slot (empty for other kinds). */
export function slotExpectations(
  plan: { preferences: readonly Preference[]; drift: readonly DriftEvent[] },
  slot: Pick<EvidenceSlot, 'kind' | 'refId'>,
  prefsById?: ReadonlyMap<string, Preference>,
): MeaningExpectation[] {
  const find = (id: string | null) =>
    id === null ? undefined : (prefsById?.get(id) ?? plan.preferences.find((p) => p.id === id));
  const expect = (pref: Preference, ended: boolean): MeaningExpectation => ({
    keywords: pref.keywords,
    item: pref.item,
    polarity: pref.polarity,
    ended,
    condition: ended ? null : (pref.condition?.when ?? null),
  });
  if (slot.kind === 'preference') {
    const pref = find(slot.refId);
    return pref === undefined ? [] : [expect(pref, false)];
  }
  if (slot.kind !== 'drift') return [];
  const event = plan.drift.find((d) => d.id === slot.refId);
  if (event === undefined) return [];
  const out: MeaningExpectation[] = [];
  const closed = find(event.previousPreferenceId);
  const opened = find(event.preferenceId);
  if (closed !== undefined) out.push(expect(closed, true));
  if (opened !== undefined) out.push(expect(opened, false));
  return out;
}

/**
 * Problems with how `text` states the expectations (empty when it says what the plan says).
 * An ended preference needs a clause that ends it; a current one needs its last clause to carry
 * the planned polarity without ending it, and the planned condition somewhere in the text.
 *
 * @example meaningProblems('lately I have gotten into durian', [{ keywords: ['durian'], item: 'durian', polarity: 'dislike', ended: false, condition: null }])
 * // ['"durian" reads as like, planned dislike']
 */
export function meaningProblems(text: string, expectations: readonly MeaningExpectation[]): string[] {
  const problems: string[] = [];
  const current = expectations.filter((e) => !e.ended);
  const closed = expectations.filter((e) => e.ended);
  for (const expectation of expectations) {
    const others = expectations.map((other) => other.item);
    const stances = readStances(text, expectation.keywords, expectation.item, others);
    if (stances.length === 0) {
      problems.push(`"${expectation.item}" is not mentioned`);
      continue;
    }
    // A flip of the same item names it twice: its ended clause belongs to the old preference,
    // its other clauses to the new one.
    const twin = (expectation.ended ? current : closed).some((other) => other.item === expectation.item);
    // A mention with no cue at all ("we talked about X") neither supports nor contradicts.
    const said = stances.filter((s) => s.polarity !== null);
    const held = said.filter((s) => !s.ended);
    if (said.length === 0) {
      problems.push(
        `"${expectation.item}" reads as no stance, planned ${expectation.ended ? 'ended' : expectation.polarity}`,
      );
      continue;
    }
    if (expectation.ended) {
      if (!said.some((s) => s.ended))
        problems.push(`"${expectation.item}" should read as ended, reads as ${describe(said.at(-1)!)}`);
      else if (!twin && held.length > 0)
        problems.push(`"${expectation.item}" should read as ended, also reads as ${describe(held[0]!)}`);
      continue;
    }
    const wrong = held.find((s) => s.polarity !== expectation.polarity);
    if (held.length === 0 || (!twin && held.length < said.length))
      problems.push(
        `"${expectation.item}" reads as ${describe(said.find((s) => s.ended) ?? said[0]!)}, planned ${expectation.polarity}`,
      );
    else if (wrong !== undefined)
      problems.push(`"${expectation.item}" reads as ${describe(wrong)}, planned ${expectation.polarity}`);
    if (expectation.condition !== null && !normal(text).includes(expectation.condition.toLowerCase()))
      problems.push(`condition "${expectation.condition}" of "${expectation.item}" is dropped`);
  }
  return problems;
}

function describe(stance: Stance): string {
  if (stance.polarity === null) return 'no stance';
  return stance.ended ? `an ended ${stance.polarity}` : stance.polarity;
}
