import type { DriftEvent, EvidenceSlot, Preference } from '../../schemas/plan.js';
import type { Rng } from '../../util/rng.js';
import { createGrammar, type Grammar, sentence } from '../grammar.js';
import type { PlanView } from '../plan-view.js';
import type { ChunkRound, CompactState } from '../realizer.js';
import type { Slip } from '../slips.js';
import { BANKS, TEMPLATES } from './banks.js';
import { factInFirstPerson, withoutOwnName } from './facts.js';
import {
  ASSISTANT_TEMPLATES,
  NOISE_BANKS,
  NOISE_TEMPLATES,
  SLOT_TEMPLATES,
  STYLE_CLAUSES,
} from './phrases.js';
import type { UserStyle } from './style.js';
import { firstPerson, withKeywords } from './text.js';

/** Everything the offline composer needs for one round. */
export interface RoundContext {
  view: PlanView;
  round: ChunkRound;
  state: CompactState;
  style: UserStyle;
  topic: string;
  /** The user's first name, for personalized assistant turns. */
  name: string;
  /** The detail a misstatement round says wrong and its correction round puts right. */
  slip?: Slip | null;
}

const GRAMMAR: Grammar = createGrammar({ ...BANKS, ...NOISE_BANKS, ...STYLE_CLAUSES });

/** A composed sentence and the keywords that must survive capitalization. */
interface Piece {
  text: string;
  keywords: readonly string[];
  question: boolean;
}

/** Capitalizes unless that would break a case-sensitive keyword at the start. */
function finish(piece: Piece, punctuation: string): string {
  const done = sentence(piece.text, piece.question ? '?' : punctuation);
  if (piece.keywords.every((keyword) => !piece.text.includes(keyword) || done.includes(keyword))) return done;
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
    vars.from = GRAMMAR.pick(SLOT_TEMPLATES[`driftFrom${cap(closed.polarity)}`]!, vars, rng);
    vars.to = GRAMMAR.pick(SLOT_TEMPLATES[`driftTo${cap(opened.polarity)}`]!, vars, rng) + condition;
    return GRAMMAR.pick(SLOT_TEMPLATES[`driftModify${implicit}`]!, vars, rng);
  }
  const pref = (opened ?? closed) as Preference;
  vars.kwItem = withKeywords(pref.item, keywords);
  const op = opened === undefined ? 'Delete' : 'Add';
  return GRAMMAR.pick(SLOT_TEMPLATES[`drift${op}${cap(pref.polarity)}${implicit}`]!, vars, rng) + condition;
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
    text = GRAMMAR.pick(SLOT_TEMPLATES[pref.polarity]!, vars, rng);
    if (pref.condition !== null)
      text += GRAMMAR.pick(SLOT_TEMPLATES.condition!, { when: pref.condition.when }, rng);
  } else if (drift !== undefined) {
    text = driftText(ctx, drift, keywords, rng);
  } else if (person !== undefined) {
    vars.kwPerson = withKeywords(`my ${person.relation} ${person.name}`, keywords);
    // A change of closeness says which way it went and why (relationship-dynamics questions ask it).
    const at = person.timeline.findIndex((entry) => entry.time === slot.time);
    const change = at > 0 ? person.timeline[at]!.closeness - person.timeline[at - 1]!.closeness : 0;
    vars.note = firstPerson(person.timeline[at]?.note ?? '');
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
    vars.caption = image?.caption ?? 'something I wanted to show you';
    text = GRAMMAR.pick(SLOT_TEMPLATES.concept!, vars, rng);
  } else if (slot.kind === 'image' && image !== undefined) {
    // The photo's subject (its objects' names), not its caption.
    const names = [...new Set(image.objects.map((object) => object.name))];
    vars.kwCaption = withKeywords(`the ${names.join(' and the ')}`, keywords);
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
    const image = ctx.view.plan.images.find((i) => i.id === imageId);
    const caption = image?.caption ?? 'something I wanted to show you';
    pieces.push({
      text: GRAMMAR.pick(SLOT_TEMPLATES.imagePlain!, { ...vars, caption }, rng),
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
  if (pieces.length === 0) {
    const question = rng.chance(0.6);
    pieces.push({
      text: GRAMMAR.pick(question ? TEMPLATES.fillerQuestion : TEMPLATES.fillerStatement, vars, rng),
      keywords: [],
      question,
    });
    if (rng.chance(ctx.style.verbose))
      pieces.push({ text: GRAMMAR.pick(TEMPLATES.fillerExtra, vars, rng), keywords: [], question: false });
  }

  // Personality: one prefix on the first sentence, one suffix on the last (SPEC.md §1: Big Five shapes tone).
  const style = ctx.style;
  const first = pieces[0]!;
  const prefixBank = rng.chance(style.blunt)
    ? 'bluntPrefix'
    : rng.chance(style.exclaim)
      ? 'exclaimPrefix'
      : rng.chance(style.reserved)
        ? 'reservedPrefix'
        : rng.chance(style.curious)
          ? 'curiousPrefix'
          : rng.chance(style.planner)
            ? 'plannerPrefix'
            : null;
  if (prefixBank !== null) first.text = `${GRAMMAR.expand(`{${prefixBank}}`, vars, rng)}, ${first.text}`;
  const last = pieces[pieces.length - 1]!;
  if (rng.chance(style.worry)) last.text = `${last.text}, ${GRAMMAR.expand('{worrySuffix}', vars, rng)}`;
  else if (rng.chance(style.polite))
    last.text = `${last.text}, ${GRAMMAR.expand('{politeSuffix}', vars, rng)}`;

  const punctuation = (): string => (rng.chance(style.exclaim) ? '!' : '.');
  const text = pieces.map((piece) => finish(piece, punctuation())).join(' ');
  const placeholders = ctx.round.images.map(() => '<image>').join(' ');
  return placeholders === '' ? text : `${placeholders} ${text}`;
}

function knownPiece(ctx: RoundContext, known: Preference, rng: Rng): string {
  const vars = { ...baseVars(ctx), known: known.item };
  if (known.condition !== null)
    return GRAMMAR.pick(ASSISTANT_TEMPLATES.askCondition!, { ...vars, when: known.condition.when }, rng);
  return GRAMMAR.pick(
    ASSISTANT_TEMPLATES[known.polarity === 'like' ? 'personalize' : 'personalizeDislike']!,
    vars,
    rng,
  );
}

/** The assistant reply: responsive to the round, personalized with preferences the user already shared. */
export function composeAssistantTurn(ctx: RoundContext, rng: Rng): string {
  const plan = ctx.view.plan;
  const vars: Record<string, string> = baseVars(ctx);
  const out: string[] = [];
  const slot = ctx.round.slots[0];
  if (slot !== undefined) {
    const pref = plan.preferences.find((p) => p.id === slot.refId);
    const drift = plan.drift.find((d) => d.id === slot.refId);
    const concept = plan.concepts.find((c) => c.id === slot.refId);
    const image = plan.images.find((i) => i.id === (slot.imageId ?? slot.refId));
    let key = 'statement';
    vars.kw = slot.keywords[0] ?? ctx.topic;
    if (pref !== undefined) {
      key = pref.polarity;
      vars.item = pref.item;
    } else if (drift !== undefined) {
      const opened = plan.preferences.find((p) => p.id === drift.preferenceId);
      const closed = plan.preferences.find((p) => p.id === drift.previousPreferenceId);
      key =
        opened === undefined
          ? 'statement'
          : closed === undefined
            ? opened.polarity
            : `drift${cap(opened.polarity)}`;
      vars.item = opened?.item ?? '';
      vars.prev = closed?.item ?? 'the old favourite';
    } else if (slot.kind === 'relationship') {
      key = 'relationship';
      vars.person = plan.people.find((p) => p.id === slot.refId)?.name ?? 'them';
    } else if (slot.kind === 'goal') {
      key = 'goal';
      vars.goal = plan.goals.find((g) => g.id === slot.refId)?.description ?? 'that';
    } else if (concept !== undefined) {
      key = 'concept';
      vars.concept = concept.name;
    } else if (image !== undefined) {
      key = 'image';
      vars.caption = image.caption;
    }
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES[key]!, vars, rng)));
  } else if (ctx.round.noise !== null) {
    const kind = noiseTemplateKind(ctx, ctx.round.noise);
    out.push(sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES[kind] ?? ASSISTANT_TEMPLATES.noise!, vars, rng)));
  } else if (ctx.round.images.length > 0) {
    const image = plan.images.find((i) => i.id === ctx.round.images[0]);
    out.push(
      sentence(GRAMMAR.pick(ASSISTANT_TEMPLATES.image!, { ...vars, caption: image?.caption ?? 'that' }, rng)),
    );
  } else {
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantAck, vars, rng)));
  }
  const terse = ctx.style.blunt > 0;
  if (rng.chance(terse ? 0.5 : 0.75)) out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantAdvice, vars, rng)));
  // The chunk's state is taken at its first round: drop preferences that ended since then.
  const known = ctx.state.known.filter(
    (pref) => pref.validUntil === null || ctx.round.time < Date.parse(pref.validUntil),
  );
  if (known.length > 0 && rng.chance(0.3)) out.push(sentence(knownPiece(ctx, rng.pick(known), rng)));
  if (rng.chance(ctx.style.worry * 1.5))
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantReassure, vars, rng)));
  if (rng.chance(terse ? 0.25 : 0.55))
    out.push(sentence(GRAMMAR.pick(TEMPLATES.assistantFollow, vars, rng), '?'));
  return out.join(' ');
}
