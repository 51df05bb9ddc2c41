import type { QaTarget } from '../../schemas/plan.js';
import type { RuleCheck, RuleFailure, UserIndex } from '../types.js';

/**
 * The rule's own reading of quantities and colours in text (not the phrase banks that write the
 * turns): digits, number words, and the article / "pair" forms of one and two; colours with their
 * spelling variants.
 */
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const COUNT_FORMS: Record<number, string[]> = {
  1: ['a', 'an', 'single', 'lone'],
  2: ['pair of', 'couple of'],
};
const COLOUR_VARIANTS: Record<string, string[]> = { grey: ['gray'], gray: ['grey'], purple: ['violet'] };

const FUNCTION_WORDS =
  'for|of|to|in|on|at|with|and|or|but|the|a|an|my|your|his|her|their|our|its|this|that|these|those|about|from|by|as|into|is|are|was|were|be|it|i|you|we|they|some|any';
const escapeRe = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Singular and plural forms of an object name. */
function nounForms(name: string): string[] {
  const n = name.toLowerCase();
  return [n, `${n}s`, `${n}es`, n.endsWith('y') ? `${n.slice(0, -1)}ies` : n];
}

/**
 * The pattern of `object` said with the asked value (a count or a colour): "a book" says one,
 * "two books" says two; "a books goal" says nothing about a count.
 */
function valuePattern(object: string, attribute: 'count' | 'color', value: string): RegExp {
  const forms = nounForms(object);
  const nouns = (attribute === 'count' ? (value === '1' ? forms.slice(0, 1) : forms.slice(1)) : forms)
    .map(escapeRe)
    .join('|');
  const words =
    attribute === 'count'
      ? [value, NUMBER_WORDS[Number(value)] ?? value, ...(COUNT_FORMS[Number(value)] ?? [])]
      : [value.toLowerCase(), ...(COLOUR_VARIANTS[value.toLowerCase()] ?? [])];
  return new RegExp(
    // Up to two modifiers between ("two purple kites", "a small yellow ball"), never a function
    // word: "an ad for kite surfing" says nothing about a kite.
    `\\b(${words.map(escapeRe).join('|')})\\s+(?:(?!(?:${FUNCTION_WORDS})\\b)[a-z-]+\\s+){0,2}(${nouns})\\b`,
    'i',
  );
}

/**
 * Whether `text` says it in one sentence. A match inside a sentence is a match in the whole
 * text, so a text with no match anywhere is not split into sentences.
 */
function saysValue(text: string, pattern: RegExp): boolean {
  return pattern.test(text) && text.split(/[.!?;:\n]/).some((sentence) => pattern.test(sentence));
}

/** Whether `text` says that `object` has the asked value (a count or a colour), in one sentence. */
export function valueReadable(
  text: string,
  object: string,
  attribute: 'count' | 'color',
  value: string,
): boolean {
  return saysValue(text, valuePattern(object, attribute, value));
}

/** Texts (user and assistant turns) said before `iso`. */
function textsBefore(index: UserIndex, iso: string): string[] {
  const time = Date.parse(iso);
  const out: string[] = [];
  index.bundle.dialogue.sessions.forEach((session, s) => {
    session.turns.forEach((turn, t) => {
      if ((index.turnTimes[s]?.[t] ?? Number.POSITIVE_INFINITY) < time) out.push(turn.text);
    });
  });
  return out;
}

/** The problem of a visual-detail question whose answer the text before it gives away, or null. */
export function visualAnswerInText(index: UserIndex, qa: QaTarget): string | null {
  if (qa.task !== 'visual_detail_recall') return null;
  const count = /\bhow many\b/i.test(qa.question);
  const slot = qa.evidenceSlotIds.map((id) => index.slotsById.get(id)).find((s) => s?.imageId != null);
  const photo = slot?.imageId == null ? undefined : index.imagesById.get(slot.imageId);
  const lower = qa.question.toLowerCase();
  const object = photo?.objects
    .map((o) => o.name)
    .filter((name) => nounForms(name).some((form) => new RegExp(`\\b${escapeRe(form)}\\b`).test(lower)))
    .sort((a, b) => b.length - a.length)[0];
  if (object === undefined) return null;
  const pattern = valuePattern(object, count ? 'count' : 'color', qa.answer);
  const said = textsBefore(index, qa.questionTime).find((text) => saysValue(text, pattern));
  return said === undefined
    ? null
    : `the answer "${qa.answer}" is readable before the question: "${said.slice(0, 120)}"`;
}

/** M²A photo questions ("What did the photo … show?") whose caption a turn of the conversation already says. */
export function m2aPhotoAnswersInText(index: UserIndex): { asked: number; readable: string[] } {
  const m2a = index.bundle.m2a;
  if (m2a === undefined || 'skipped' in m2a) return { asked: 0, readable: [] };
  const texts: string[] = [];
  const conversation = m2a.sample.conversation as Record<string, unknown>;
  for (const [key, value] of Object.entries(conversation))
    if (/^session_\d+$/.test(key) && Array.isArray(value))
      for (const turn of value as Array<{ text: string }>) texts.push(turn.text.toLowerCase());
  let asked = 0;
  const readable: string[] = [];
  for (const qa of m2a.sample.qa) {
    if (!/\bphoto\b.*\bshow\??$/i.test(qa.question.text)) continue;
    asked++;
    // Each "N colour object" part of the caption, as a turn could say it.
    const parts = String(qa.answer)
      .toLowerCase()
      .replace(/ on an? [a-z ]+ background$/, '')
      .split(/,\s*|\s+and\s+/)
      .filter((part) => part.trim().split(/\s+/).length >= 2);
    if (parts.some((part) => texts.some((text) => text.includes(part.trim()))))
      readable.push(`${qa.question.text} → ${String(qa.answer)}`);
  }
  return { asked, readable };
}

/**
 * Visual questions need the image (issue 27, item 1): no text before a visual-detail question —
 * the user's words or the assistant's — says the asked colour or count of the asked object, and
 * no M²A photo question's caption is said in the conversation.
 *
 * @example visualAnswerTextCheck.run(indexUser(bundle), options)
 */
export const visualAnswerTextCheck: RuleCheck = {
  name: 'visual_answer_text',
  description: 'a visual question is answerable only from its image, not from the words around it',
  run(index) {
    const userId = index.bundle.plan.userId;
    const failures: RuleFailure[] = [];
    for (const qa of index.bundle.plan.qa) {
      const problem = visualAnswerInText(index, qa);
      if (problem !== null)
        failures.push({
          check: 'visual_answer_text',
          userId,
          location: `plan.qa[${qa.id}]`,
          reason: problem,
        });
    }
    for (const item of m2aPhotoAnswersInText(index).readable)
      failures.push({
        check: 'visual_answer_text',
        userId,
        location: 'm2a.qa',
        reason: `the photo's caption is said in the conversation: ${item}`,
      });
    return failures;
  },
};
