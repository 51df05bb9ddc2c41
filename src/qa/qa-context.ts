import type { DriftEvent, EvidenceSlot, Preference, QaTarget, UserPlan } from '../schemas/plan.js';
import type { Rng } from '../util/rng.js';
import type { TaskSpec } from './tasks.js';

/** What a question kernel sees: the plan (without QA), the draw and lookups by time. */
export interface QaContext {
  plan: UserPlan;
  rng: Rng;
  /** Evidence slots by refId, chronological. */
  slotsByRef: Map<string, EvidenceSlot[]>;
  /** The drift event that opened each drift-born preference. */
  openedBy: Map<string, DriftEvent>;
  /** Per-context memo for values several kernels need at the same question time. */
  memo: Map<string, unknown>;
  /** Evidence slots by kind, chronological. */
  slotsByKind: Map<string, EvidenceSlot[]>;
  /** Earliest time each lower-cased keyword was expressed. */
  keywordSince: Map<string, string>;
  name: string;
}

/** A kernel's answer before it becomes a `QaTarget`. */
export interface QaDraft {
  question: string;
  answer: string;
  /** Plausible but wrong at the question time; at least three for mc. */
  distractors: string[];
  /** Evidence, chronological; the last one states the asked state (convention checks rely on). */
  evidence: EvidenceSlot[];
  retrievalKeywords: string[];
  unanswerable?: boolean;
  /** PersonaMem topic (the CSV's `topic` column) of what the question is about. */
  topic?: string;
  /** False when, without its options, the question has more than one true answer. */
  openable?: boolean;
}

/**
 * One phrasing of a question from the half of `variants` reserved for the user's split (even
 * indexes for train and validation users, odd ones for test users), so that train and test never
 * share a question template. Give at least two variants.
 *
 * @example ask(context, 'What is my favourite tea?', 'Which tea do I like best?')
 */
export function ask(context: Pick<QaContext, 'plan' | 'rng'>, ...variants: string[]): string {
  const test = context.plan.split === 'test';
  const own = variants.filter((_, i) => (i % 2 === 1) === test);
  return own.length === 0 ? (variants[0] as string) : context.rng.pick(own);
}

/**
 * Persona-MME asks in situ, in the first person, in the middle of the user's day (its questions
 * average 22.7 words): each question opens with a line of situation. Even entries for train and
 * validation users, odd for test users (see `ask`).
 */
export const IN_SITU_LEADS: readonly string[] = [
  "I'm planning my week and want to check this.",
  "Something just came up, and you'd remember better than me.",
  "Before I decide later today, I'd welcome your take.",
  'A chat with a friend made me wonder about this.',
  'You keep track of what I tell you, so quick question.',
  'I have a spare minute right now, so let me ask.',
  "I'm planning ahead a little today, and this matters.",
  'It popped into my head on the way home.',
];

export type Kernel = (context: QaContext, time: number, task: TaskSpec) => QaDraft | null;

export function createQaContext(plan: UserPlan, rng: Rng): QaContext {
  const slotsByRef = new Map<string, EvidenceSlot[]>();
  const slotsByKind = new Map<string, EvidenceSlot[]>();
  const keywordSince = new Map<string, string>();
  for (const slot of plan.slots) {
    const list = slotsByRef.get(slot.refId);
    if (list === undefined) slotsByRef.set(slot.refId, [slot]);
    else list.push(slot);
    const kind = slotsByKind.get(slot.kind);
    if (kind === undefined) slotsByKind.set(slot.kind, [slot]);
    else kind.push(slot);
    for (const keyword of slot.keywords) {
      const word = keyword.toLowerCase();
      if (!keywordSince.has(word)) keywordSince.set(word, slot.time);
    }
  }
  const openedBy = new Map<string, DriftEvent>();
  for (const event of plan.drift) if (event.preferenceId !== null) openedBy.set(event.preferenceId, event);
  return {
    plan,
    rng,
    slotsByRef,
    openedBy,
    memo: new Map(),
    slotsByKind,
    keywordSince,
    name: plan.enriched.persona.name,
  };
}

let cachedTime = Number.NaN;
let cachedIso = '';
/**
 * ISO string of a question time. Every time in a plan is `toISOString()` output (fixed width,
 * UTC), so comparing strings orders them in time without parsing; kernels ask about one time at
 * a time, so a one-entry cache suffices.
 */
export function isoAt(time: number): string {
  if (time !== cachedTime) {
    cachedTime = time;
    cachedIso = new Date(time).toISOString();
  }
  return cachedIso;
}

/** Chronological comparator for plan ISO times. */
export const compareIso = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Epoch milliseconds of an ISO time. */
export const ms = (time: string): number => Date.parse(time);

/** Slots about `refId` strictly before `time`. */
export function slotsBefore(context: QaContext, refId: string, time: number): EvidenceSlot[] {
  return (context.slotsByRef.get(refId) ?? []).filter((slot) => slot.time < isoAt(time));
}

export function isActive(preference: Preference, time: number): boolean {
  return (
    preference.validFrom <= isoAt(time) &&
    (preference.validUntil === null || preference.validUntil > isoAt(time))
  );
}

/**
 * Evidence that a preference was stated before `time`: its own mentions plus the drift slot that
 * opened it.
 */
export function preferenceEvidence(context: QaContext, preference: Preference, time: number): EvidenceSlot[] {
  const evidence = slotsBefore(context, preference.id, time);
  const opened = context.openedBy.get(preference.id);
  if (opened !== undefined) evidence.push(...slotsBefore(context, opened.id, time));
  return evidence.sort((a, b) => compareIso(a.time, b.time));
}

/** Active preferences with evidence before `time`. */
export function knownPreferences(
  context: QaContext,
  time: number,
  filter: (p: Preference) => boolean = () => true,
) {
  return context.plan.preferences.filter(
    (preference) =>
      isActive(preference, time) && filter(preference) && hasEvidence(context, preference, time),
  );
}

/** True when the preference was stated (or opened by a stated drift) before `time`; slot lists are chronological. */
export function hasEvidence(context: QaContext, preference: Preference, time: number): boolean {
  const own = context.slotsByRef.get(preference.id)?.[0];
  if (own !== undefined && own.time < isoAt(time)) return true;
  const opened = context.openedBy.get(preference.id);
  const slot = opened === undefined ? undefined : context.slotsByRef.get(opened.id)?.[0];
  return slot !== undefined && slot.time < isoAt(time);
}

/** Computes `fn()` once per context and key. */
export function remember<T>(context: QaContext, key: string, fn: () => T): T {
  if (context.memo.has(key)) return context.memo.get(key) as T;
  const value = fn();
  context.memo.set(key, value);
  return value;
}

/** Preferences active at `time` (memoised per question time). */
export function activePreferences(context: QaContext, time: number): Preference[] {
  return remember(context, `active:${time}`, () => context.plan.preferences.filter((p) => isActive(p, time)));
}

/** k distinct items drawn without shuffling the whole list (distractor pools can be long). */
export function pickDistinct<T>(rng: Rng, items: readonly T[], k: number): T[] {
  if (items.length <= k) return rng.shuffle(items);
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(rng.int(0, items.length - 1));
  return [...chosen].map((index) => items[index] as T);
}

function norm(text: string): string {
  return text.trim().toLowerCase();
}

/** Word set of an option, lower-cased. */
const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []);
/** An option's words in order, lower-cased, articles left out. */
const run = (text: string) =>
  ` ${(text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((w) => !/^(a|an|the)$/.test(w)).join(' ')} `;

/**
 * Two options that name the same thing ("Peanuts" / "Salted peanuts", "Karaoke" / "Karaoke
 * nights", "Camping" / "Camping under the stars"): the same words, one's words and a single extra
 * word, or one's words running inside the other's — a reader cannot tell which one the user
 * meant. A preference history that extends another ("… -> no longer likes X") is another answer.
 */
function nearDuplicate(a: string, b: string): boolean {
  if (!a.includes('->') && !b.includes('->') && (run(a).includes(run(b)) || run(b).includes(run(a))))
    return true;
  const [x, y] = [words(a), words(b)];
  const [small, large] = x.size <= y.size ? [x, y] : [y, x];
  // Same words in another order ("likes tea -> dislikes tea" reversed) is another answer.
  if (small.size === 0 || large.size > 4 || large.size - small.size !== 1) return false;
  return [...small].every((word) => large.has(word));
}

/**
 * Builds the final target: options for mc (answer + 3 distinct distractors, shuffled) or yes/no
 * for binary; null when there are not enough distinct distractors.
 */
export function finishTarget(
  context: QaContext,
  spec: TaskSpec,
  time: number,
  draft: QaDraft,
  id: string,
): QaTarget | null {
  let choices: string[] = [];
  let correctIndex: number | null = null;
  if (spec.answerType === 'mc') {
    // Partial Fisher–Yates over the candidates: stop once three distinct distractors are found.
    const seen = new Set([norm(draft.answer)]);
    const pool = draft.distractors.slice();
    const wrong: string[] = [];
    for (let index = 0; index < pool.length && wrong.length < 3; index++) {
      const swap = context.rng.int(index, pool.length - 1);
      const option = pool[swap] as string;
      pool[swap] = pool[index] as string;
      const key = norm(option);
      if (seen.has(key) || [draft.answer, ...wrong].some((other) => nearDuplicate(other, option))) continue;
      seen.add(key);
      wrong.push(option);
    }
    if (wrong.length < 3) return null;
    choices = context.rng.shuffle([draft.answer, ...wrong]);
    correctIndex = choices.indexOf(draft.answer);
  } else if (spec.answerType === 'binary') {
    choices = ['Yes', 'No'];
    correctIndex = choices.indexOf(draft.answer);
    if (correctIndex < 0) return null;
  }
  return {
    id,
    family: spec.family,
    task: spec.task,
    // PersonaMem groups by topic; the other families by aspect / category label.
    group: spec.family === 'personamem' ? (draft.topic ?? 'general') : spec.group,
    questionTime: isoAt(time),
    question:
      spec.family === 'persona-mme' ? `${ask(context, ...IN_SITU_LEADS)} ${draft.question}` : draft.question,
    answer: draft.answer,
    answerType: spec.answerType,
    choices,
    correctIndex,
    evidenceSlotIds: draft.evidence.map((slot) => slot.id),
    retrievalKeywords: draft.retrievalKeywords,
    unanswerable: draft.unanswerable ?? false,
    locomoCategory: spec.locomoCategory,
    ...(draft.openable === false ? { openable: false } : {}),
  };
}
