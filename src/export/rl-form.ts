import type { QaTarget } from '../schemas/plan.js';

/** FNV-1a of a string: a stable draw per question, independent of row order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * The one RL form a question takes (a question is never both a multiple-choice and an open row):
 * - a yes/no question ("Would I enjoy an afternoon around X?") is a binary row;
 * - a multiple-choice question with exactly one true answer without its options (`openable`
 *   not false) is an open row for one in three questions (a stable draw on user and question
 *   id), so the RL file keeps PersonaVLM's open share; the rest stay multiple choice;
 * - a question with several true answers once its options are gone (a suggestion, a colour
 *   among several photos of the concept) stays multiple choice.
 *
 * @example rlForm('user-0001', qa) // 'open'
 */
export function rlForm(userId: string, qa: QaTarget): 'mc' | 'open' | 'binary' {
  if (qa.answerType === 'open' && /^(yes|no)$/i.test(qa.answer.trim())) return 'binary';
  if (qa.answerType === 'mc' && qa.openable !== false && hash(`${userId}:${qa.id}`) % 3 === 0) return 'open';
  return qa.answerType;
}
