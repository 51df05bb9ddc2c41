import type { DriftEvent, EvidenceSlot, Preference } from '../../schemas/plan.js';
import type { Rng } from '../../util/rng.js';
import { createGrammar, type Grammar, sentence } from '../grammar.js';
import type { PlanView } from '../plan-view.js';
import type { ChunkRound, CompactState } from '../realizer.js';
import type { Slip } from '../slips.js';
import { BANKS, TEMPLATES } from './banks.js';
import { causeAfter } from './cause-order.js';
import { DAY_BANKS } from './day-details.js';
import { factInFirstPerson, withoutOwnName } from './facts.js';
import { NOISE_BANKS, NOISE_TEMPLATES, SLOT_TEMPLATES } from './phrases.js';
import { ASSISTANT_TEMPLATES } from './reply-phrases.js';
import type { UserStyle } from './style.js';
import { STYLE_CLAUSES } from './style-clauses.js';
import { aboutPerson, agreement, firstPerson, withKeywords } from './text.js';

/** Everything the offline composer needs for one round. */
export interface RoundContext {
  view: PlanView;
  round: ChunkRound;
  state: CompactState;
  style: UserStyle;
  topic: string;
  /** The topic in the assistant's voice ("my photos" → "your photos"). */
  assistantTopic?: string;
  /** The user's first name, for personalized assistant turns. */
  name: string;
  /** The detail a misstatement round says wrong and its correction round puts right. */
  slip?: Slip | null;
}

const GRAMMAR: Grammar = createGrammar({ ...BANKS, ...DAY_BANKS, ...NOISE_BANKS, ...STYLE_CLAUSES });

/** A composed sentence and the keywords that must survive capitalization. */
interface Piece {
  text: string;
  keywords: readonly string[];
  question: boolean;
}

/**
 * Capitalizes the sentence's first letter (keywords match in any case, src/synth/check.ts),
 * unless it starts a keyword spelt with an inner capital ("iPhone").
 */
function finish(piece: Piece, punctuation: string): string {
  const done = sentence(piece.text, piece.question ? '?' : punctuation);
  const innerCapital = piece.keywords.some(
    (keyword) => /^[a-z]+[A-Z]/.test(keyword) && piece.text.trimStart().startsWith(keyword),
  );
  if (!innerCapital) return done;
  const raw = piece.text.trim().replace(/\s+/g, ' ');
  return /[.!?]$/.test(raw) ? raw : raw + (piece.question ? '?' : punctuation);
}

function baseVars(ctx: RoundContext): Record<string, string> {
  const slip = ctx.slip;
  return slip == null
    ? { topic: ctx.topic, name: ctx.name }
    : {
        topic: ctx.topic,
        name: ctx.name,
        slipDetail: slip.detail,
        slipWrong: slip.wrong,
        slipRight: slip.right,
      };
}

/** The noise kind whose templates a round uses: a slip round without its slip is an aside. */
function noiseTemplateKind(ctx: RoundContext, noise: string): string {
  const slipKind = noise === 'correction' || noise === 'misstatement';
  return slipKind && ctx.slip == null ? 'irrelevant' : noise;
}

/** A sentence opening on a lead-in: a comma, colon or dash within its first five words. */
const LEAD_IN = /^(?:[^\s,:]+\s+){0,4}[^\s,:]+(?:[,:]|\s[-–])\s/;

/**
 * Drops a lead-in a turn already said ("Well, … Well, …" → "Well, … On the bus …"), unless it
 * holds one of the piece's keywords.
 */
function withoutRepeatedLeadIns(pieces: Piece[]): void {
  const said = new Set<string>();
  for (const piece of pieces) {
    const lead = LEAD_IN.exec(piece.text)?.[0];
    if (lead === undefined) continue;
    const key = lead.replace(/[,:\s–-]+$/, '').toLowerCase();
    const lower = lead.toLowerCase();
    if (said.has(key) && !piece.keywords.some((keyword) => lower.includes(keyword.toLowerCase())))
      piece.text = piece.text.slice(lead.length);
    said.add(key);
  }
}

const cap = (word: string) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`;

/**
 * A drift statement built from its typed meaning: the operation (add/delete/modify), the
 * polarity of each side, the condition of the opened preference, and whether the cause is said
 * (explicit) or only the new behaviour shows (implicit).
 */
export function driftText(
  ctx: RoundContext,
  drift: DriftEvent,
  keywords: readonly string[],
  rng: Rng,
): string {
  const plan = ctx.view.plan;
  const opened = plan.preferences.find((p) => p.id === drift.preferenceId);
  const closed = plan.preferences.find((p) => p.id === drift.previousPreferenceId);
  const implicit = drift.visibility === 'implicit' ? 'Implicit' : '';
  const vars: Record<string, string> = { ...baseVars(ctx), cause: firstPerson(drift.cause) };
  const condition =
    opened?.condition == null
      ? ''
      : GRAMMAR.pick(SLOT_TEMPLATES.condition!, { when: opened.condition.when }, rng);
  if (opened !== undefined && closed !== undefined) {
    vars.prev = closed.item;
    vars.kwItem = withKeywords(opened.item, keywords);
    Object.assign(vars, agreement(opened.item));
    vars.from = GRAMMAR.pick(SLOT_TEMPLATES[`driftFrom${cap(closed.polarity)}`]!, vars, rng);
    vars.to = GRAMMAR.pick(SLOT_TEMPLATES[`driftTo${cap(opened.polarity)}`]!, vars, rng) + condition;
    return GRAMMAR.pick(causeAfter(SLOT_TEMPLATES[`driftModify${implicit}`]!, vars, '{to}'), vars, rng);
  }
  const pref = (opened ?? closed) as Preference;
  vars.kwItem = withKeywords(pref.item, keywords);
  Object.assign(vars, agreement(pref.item));
  const op = opened === undefined ? 'Delete' : 'Add';
  return (
    GRAMMAR.pick(
      causeAfter(SLOT_TEMPLATES[`drift${op}${cap(pref.polarity)}${implicit}`]!, vars, '{kwItem}'),
      vars,
      rng,
    ) + condition
  );
}

function slotPiece(ctx: RoundContext, slot: EvidenceSlot, rng: Rng): Piece {
  const plan = ctx.view.plan;
  const vars = baseVars(ctx);
  const keywords = slot.keywords;
  let text: string;
  const pref = plan.preferences.find((p) => p.id === slot.refId);
  const drift = plan.drift.find((d) => d.id === slot.refId);
  const person = plan.people.find((p) => p.id === slot.refId);
  const goal = plan.goals.find((g) => g.id === slot.refId);
  const habit = plan.habits.find((h) => h.id === slot.refId);
  const concept = plan.concepts.find((c) => c.id === slot.refId);
  const image = plan.images.find((i) => i.id === (slot.imageId ?? slot.refId));
  if (pref !== undefined) {
    vars.kwItem = withKeywords(pref.item, keywords);
    Object.assign(vars, agreement(pref.item));
    text = GRAMMAR.pick(SLOT_TEMPLATES[pref.polarity]!, vars, rng);
    if (pref.condition !== null)
      text += GRAMMAR.pick(SLOT_TEMPLATES.condition!, { when: pref.condition.when }, rng);
    if (rng.chance(0.45)) text = `${GRAMMAR.expand('{leadIn}', vars, rng)}, ${text}`;
  } else if (drift !== undefined) {
    text = driftText(ctx, drift, keywords, rng);
  } else if (person !== undefined) {
    vars.kwPerson = withKeywords(`my ${person.relation} ${person.name}`, keywords);
    // A change of closeness says which way it went and why (relationship-dynamics questions ask it).
    const at = person.timeline.findIndex((entry) => entry.time === slot.time);
    const change = at > 0 ? person.timeline[at]!.closeness - person.timeline[at - 1]!.closeness : 0;
    // The note is already in the user's voice ("they helped me"): "they" is the person, not the user.
    vars.note = aboutPerson(person.timeline[at]?.note ?? '', person.relation, person.name);
    const key = change > 0 ? 'relationshipCloser' : change < 0 ? 'relationshipApart' : 'relationship';
    text = GRAMMAR.pick(SLOT_TEMPLATES[key]!, vars, rng);
  } else if (goal !== undefined) {
    vars.kwGoal = withKeywords(goal.description, keywords);
    // The status this slot reports (planned, in progress, achieved, abandoned), as goal tracking asks it.
    const state = goal.states.filter((entry) => entry.time <= slot.time).pop()?.status ?? 'planned';
    const key = state === 'unknown' ? 'goal' : `goal_${state}`;
    text = GRAMMAR.pick(SLOT_TEMPLATES[key] ?? SLOT_TEMPLATES.goal!, vars, rng);
  } else if (concept !== undefined) {
    const description = firstPerson(concept.description);
    vars.kwConcept = withKeywords(
      description.includes(concept.name) ? description : `${concept.name}, ${description}`,
      keywords,
    );
    text = GRAMMAR.pick(SLOT_TEMPLATES.concept!, vars, rng);
  } else if (slot.kind === 'image' && image !== undefined) {
    // The photo's subject (its objects' names), not its caption.
    const names = [...new Set(image.objects.map((object) => object.name))];
    const things = names.map((name) => `the ${name}`);
    const last = things.pop();
    vars.kwCaption = withKeywords(
      things.length === 0 ? `${last}` : `${things.join(', ')} and ${last}`,
      keywords,
    );
    text = GRAMMAR.pick(SLOT_TEMPLATES.image!, vars, rng);
  } else {
    const persona = plan.enriched.persona;
    const fact = factInFirstPerson(slot.refId, persona, rng);
    const own = fact ?? firstPerson(withoutOwnName(habit?.description ?? slot.statement, persona.name));
    vars.kwStatement = withKeywords(own, keywords);
    text = GRAMMAR.pick(SLOT_TEMPLATES.statement!, vars, rng);
  }
  return { text: withKeywords(text, keywords), keywords, question: false };
}

/** The user message of one round, in the user's voice and style. */
export function composeUserTurn(ctx: RoundContext, rng: Rng): string {
  const pieces: Piece[] = [];
  const vars = baseVars(ctx);
  // A slip round talks about its detail only: even a worried aside names the detail, never a topic.
  if (ctx.slip != null && ctx.round.slots.length === 0) vars.aspect = ctx.slip.detail;
  for (const slot of ctx.round.slots) pieces.push(slotPiece(ctx, slot, rng));
  const slotImages = new Set(ctx.round.slots.map((slot) => slot.imageId));
  for (const imageId of ctx.round.images) {
    if (slotImages.has(imageId)) continue;
    // A plain photo is mentioned, never described (its caption would answer visual questions).
    pieces.push({
      text: GRAMMAR.pick(SLOT_TEMPLATES.imagePlain!, vars, rng),
      keywords: [],
      question: false,
    });
  }
  if (ctx.round.noise !== null && ctx.round.slots.length === 0) {
    const templates = NOISE_TEMPLATES[noiseTemplateKind(ctx, ctx.round.noise)] ?? NOISE_TEMPLATES.irrelevant!;
    const text = GRAMMAR.pick(templates, vars, rng);
    // A template ending in "?" is a question: the style suffix goes before the question mark.
    pieces.push({ text: text.replace(/\?$/, ''), keywords: [], question: text.endsWith('?') });
  }
  // A photo turn whose topic names a count ("read 20 books") adds nothing that could contradict the photo.
  const photoRound = ctx.round.images.length > 0 && /\d/.test(ctx.topic);
  const countedTopic = photoRound;
  // A slot turn sometimes says one passing detail of the day too, as people do: one at most, and
  // plainly when the turn already opens on a lead-in ("By the way, …" is not followed by "Unrelated, but …").
  if (pieces.length > 0 && ctx.round.noise === null && !countedTopic && rng.chance(ctx.style.verbose)) {
    const plain = pieces.some((piece) => LEAD_IN.test(piece.text));
    const text = plain
      ? GRAMMAR.expand('{passingDetail}', vars, rng)
      : GRAMMAR.pick(TEMPLATES.fillerExtra, vars, rng);
    pieces.push({ text, keywords: [], question: false });
  }
  if (pieces.length === 0) {
    const question = rng.chance(0.6);
    const template = rng.pick(question ? TEMPLATES.fillerQuestion : TEMPLATES.fillerStatement);
    pieces.push({ text: GRAMMAR.expand(template, vars, rng), keywords: [], question });
    // A small-talk turn that already tells a detail of the day tells no second one.
    if (!template.includes('{passingDetail}') && rng.chance(ctx.style.verbose))
      pieces.push({ text: GRAMMAR.pick(TEMPLATES.fillerExtra, vars, rng), keywords: [], question: false });
  }

  // Personality (SPEC.md §1: Big Five shapes tone): on a minority of turns, one sentence of the
  // user's style, said before or after what the turn is about.
  // A correction (or the misstatement it corrects) says its detail only.
  const style = ctx.style;
  // On a photo turn no style line may name a count ("my plan to read 20 books") the photo lacks.
  const slipRound = ctx.round.noise === 'correction' || ctx.round.noise === 'misstatement';
  for (const [bank, chance] of slipRound || photoRound ? [] : style.banks) {
    if (!rng.chance(chance)) continue;
    const said: Piece = { text: GRAMMAR.expand(`{${bank}}`, vars, rng), keywords: [], question: false };
    // "I am anxious about it" follows what "it" is.
    if (!/\b(?:it|this)\b/i.test(said.text) && rng.chance(0.5)) pieces.unshift(said);
    else pieces.push(said);
    break;
  }

  withoutRepeatedLeadIns(pieces);
  const punctuation = (): string => (rng.chance(style.exclaim) ? '!' : '.');
  const text = pieces.map((piece) => finish(piece, punctuation())).join(' ');
  const placeholders = ctx.round.images.map(() => '<image>').join(' ');
  return placeholders === '' ? text : `${placeholders} ${text}`;
}

function knownPiece(ctx: RoundContext, known: Preference, rng: Rng): string {
  const vars = { ...baseVars(ctx), topic: ctx.assistantTopic ?? ctx.topic, known: known.item };
  if (known.condition !== null)
    return GRAMMAR.pick(ASSISTANT_TEMPLATES.askCondition!, { ...vars, when: known.condition.when }, rng);
  return GRAMMAR.pick(
    ASSISTANT_TEMPLATES[known.polarity === 'like' ? 'personalize' : 'personalizeDislike']!,
    vars,
    rng,
  );
}

/** How the assistant says a drift's old and new sides ("tonkotsu ramen is behind you"). */
function driftParts(closed: Preference, opened: Preference): { fromPart: string; toPart: string } {
  return {
    fromPart:
      closed.polarity === 'like' ? `${closed.item} is behind you` : `${closed.item} no longer bothers you`,
    toPart:
      opened.polarity === 'like' ? `you are into ${opened.item} now` : `${opened.item} is out for you now`,
  };
}

/** The reply key and variables of a round that states a slot, answering what the user said. */
function slotReply(ctx: RoundContext, slot: EvidenceSlot, vars: Record<string, string>): string {
  const plan = ctx.view.plan;
  const pref = plan.preferences.find((p) => p.id === slot.refId);
  const drift = plan.drift.find((d) => d.id === slot.refId);
  const concept = plan.concepts.find((c) => c.id === slot.refId);
  const image = plan.images.find((i) => i.id === (slot.imageId ?? slot.refId));
  vars.kw = slot.keywords[0] ?? vars.topic ?? '';
  if (pref !== undefined) {
    vars.item = pref.item;
    Object.assign(vars, agreement(pref.item));
    return pref.polarity;
  }
  if (drift !== undefined) {
    const opened = plan.preferences.find((p) => p.id === drift.preferenceId);
    const closed = plan.preferences.find((p) => p.id === drift.previousPreferenceId);
    if (opened !== undefined && closed !== undefined) {
      Object.assign(vars, driftParts(closed, opened));
      return 'driftModify';
    }
    const side = (opened ?? closed) as Preference;
    vars.item = side.item;
    Object.assign(vars, agreement(side.item));
    return `drift${opened === undefined ? 'Delete' : 'Add'}${cap(side.polarity)}`;
  }
  if (slot.kind === 'relationship') {
    const person = plan.people.find((p) => p.id === slot.refId);
    vars.person = person?.name ?? 'them';
    const at = person?.timeline.findIndex((entry) => entry.time === slot.time) ?? -1;
    const change = at > 0 ? person!.timeline[at]!.closeness - person!.timeline[at - 1]!.closeness : 0;
    return change > 0 ? 'relationshipCloser' : change < 0 ? 'relationshipApart' : 'relationship';
  }
  if (slot.kind === 'goal') {
    const goal = plan.goals.find((g) => g.id === slot.refId);
    vars.goal = goal?.description ?? 'do that';
    const state = goal?.states.filter((entry) => entry.time <= slot.time).pop()?.status ?? 'planned';
    return state === 'unknown' ? 'goal_planned' : `goal_${state}`;
  }
  if (concept !== undefined) {
    vars.concept = concept.name;
    return 'concept';
  }
  if (image !== undefined) return 'image';
  return 'statement';
}

/** The second sentence of a focused reply: a question on the change, or advice on the session's topic. */
const ON_TOPIC: Readonly<Record<string, string>> = {
  goal_abandoned: 'afterGoalEnd',
  goal_achieved: 'afterAchieved',
  dislike: 'asFor',
  relationship: 'asFor',
  relationshipCloser: 'asFor',
  irrelevant: 'asFor',
};

/** Reply keys after which advice about the topic reads as an answer (not after a change or a loss). */
const ADVISABLE = new Set(['like', 'goal_planned', 'goal_in_progress', 'statement']);

/**
 * The assistant reply: answers what the user said (a change of preference as a change, a goal
 * at its status), then on some rounds advice, a remembered preference and a follow-up.
 */
export function composeAssistantTurn(ctx: RoundContext, rng: Rng): string {
  const vars: Record<string, string> = { ...baseVars(ctx), topic: ctx.assistantTopic ?? ctx.topic };
  const out: string[] = [];
  const slot = ctx.round.slots[0];
  let key = 'ack';
  if (slot !== undefined) {
    key = slotReply(ctx, slot, vars);
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES[key]!, vars, rng)));
  } else if (ctx.round.noise !== null) {
    key = noiseTemplateKind(ctx, ctx.round.noise);
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES[key] ?? ASSISTANT_TEMPLATES.noise!, vars, rng)));
  } else if (ctx.round.images.length > 0) {
    key = 'image';
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES.image!, vars, rng)));
  } else {
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantAck, vars, rng)));
  }
  // After a change, a loss or a correction the reply stays on what the user said.
  const focused = !(key === 'ack' || ADVISABLE.has(key));
  const terse = ctx.style.terse;
  const onTopic = ON_TOPIC[key] ?? (key.startsWith('drift') ? 'afterChange' : null);
  const change = key.startsWith('drift') || key === 'goal_abandoned' || key === 'relationshipApart';
  if (change && rng.chance(terse ? 0.3 : 0.6))
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES.changeNote!, vars, rng)));
  if (onTopic !== null && rng.chance(terse ? 0.5 : 0.7))
    out.push(
      sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES[onTopic]!, vars, rng), onTopic === 'asFor' ? '.' : '?'),
    );
  if (!focused && rng.chance(terse ? 0.6 : 0.9)) {
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantAdvice, vars, rng)));
    if (rng.chance(terse ? 0.2 : 0.35)) out.push(sentence(GRAMMAR.pick(TEMPLATES.adviceWhy, vars, rng)));
  }
  // The chunk's state is taken at its first round: drop preferences that ended since then.
  const known = ctx.state.known.filter(
    (pref) => pref.validUntil === null || ctx.round.time < Date.parse(pref.validUntil),
  );
  if ((!focused || onTopic === 'asFor') && known.length > 0 && rng.chance(0.35))
    out.push(sentence(knownPiece(ctx, rng.pick(known), rng)));
  const worried = ctx.style.banks.some(([bank]) => bank === 'neuroticHigh');
  if (!focused && rng.chance(worried ? 0.6 : 0.35))
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantReassure, vars, rng)));
  if ((!focused || onTopic === 'asFor') && !out.at(-1)!.endsWith('?') && rng.chance(terse ? 0.5 : 0.85))
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantFollow, vars, rng), '?'));
  return out.join(' ');
}
