import type { QaTarget } from '../schemas/plan.js';

/** FNV-1a of a string: a stable draw per question, independent of row order. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** How one question becomes one RL row. */
export interface RlForm {
  form: 'mc' | 'open' | 'binary';
  /** For a yes/no check of a multiple-choice question: the option asked about ("Is it X?"). */
  candidate?: string;
  /** The row's `solution`: the option letter, the answer text, or Yes / No. */
  solution?: string;
}

/** PersonaVLM's RL mix (SPEC.md §1): open-ended 21.0%, multiple choice 55.6%, binary 23.4%. */
const OPEN_SHARE = 21;
const BINARY_SHARE = 23.4;

/**
 * The one RL form a question takes (a question is never two rows), drawn stably per user and
 * question in PersonaVLM's proportions:
 * - a yes/no question ("Would I enjoy an afternoon around X?") is a binary row;
 * - a multiple-choice question with exactly one true answer without its options (`openable`
 *   not false) may be an open row, judged against the answer text;
 * - a multiple-choice question may be a yes/no check of one of its options ("… Is it X?"): the
 *   answer (Yes) or a distractor (No), each false by construction of the question;
 * - otherwise it stays multiple choice. A question with several true answers once its options
 *   are gone (a suggestion, a colour among several photos of the concept) is never open.
 *
 * @example rlForm('user-0001', qa) // { form: 'open' }
 */
export function rlForm(userId: string, qa: QaTarget): RlForm {
  if (qa.answerType === 'open' && /^(yes|no)$/i.test(qa.answer.trim()))
    return { form: 'binary', solution: qa.answer.trim().toLowerCase() === 'yes' ? 'Yes' : 'No' };
  if (qa.answerType !== 'mc' || qa.correctIndex === null || qa.choices.length < 2)
    return { form: qa.answerType };
  const draw = hash(`${userId}:${qa.id}`);
  const slot = (draw % 1000) / 10;
  if (slot < OPEN_SHARE && qa.openable !== false) return { form: 'open' };
  if (slot >= OPEN_SHARE && slot < OPEN_SHARE + BINARY_SHARE) {
    // Half the checks ask about the answer, half about one distractor.
    const yes = (draw >>> 10) % 2 === 0;
    const wrong = qa.choices.filter((_, i) => i !== qa.correctIndex);
    const candidate = yes ? qa.choices[qa.correctIndex] : wrong[(draw >>> 11) % wrong.length];
    if (candidate !== undefined) return { form: 'binary', candidate, solution: yes ? 'Yes' : 'No' };
  }
  return { form: 'mc' };
}
