/**
 * Labels on model-written turns are checked by a model on write: photo turns
 * (`photo-description/1`) and corrections (`correction-check/1`), each one batched, cached call
 * per chunk that has such a round, on the judge role (else the realizer's endpoint). Offline
 * text is not asked about: its writer and the offline readers share the plan's words.
 */
import { labelRole } from '../../llm/label-role.js';
import type { LlmClient } from '../../llm/types.js';
import type { PlanView } from '../plan-view.js';
import { checkCorrections } from './correction.js';
import { checkPhotos } from './photo.js';
import type { RoundLabelOptions, RoundLabelProblem, WrittenRound } from './types.js';

export { CORRECTION_PROMPT_VERSION } from './correction.js';
export { PHOTO_PROMPT_VERSION } from './photo.js';
export type { RoundLabelProblem, WrittenRound } from './types.js';

/**
 * The photo and correction rounds of a written chunk whose message does not carry its label, and
 * the calls made; nothing (no call) when the text was written offline or no model can read it.
 *
 * @example const { problems } = await checkRoundLabels(llm, view, 2, rounds, { stage: 'synth', modelWritten: true });
 */
export async function checkRoundLabels(
  llm: LlmClient | undefined,
  view: PlanView,
  sessionIndex: number,
  rounds: readonly WrittenRound[],
  options: RoundLabelOptions & { modelWritten: boolean },
): Promise<{ problems: RoundLabelProblem[]; calls: number }> {
  const role = llm === undefined || !options.modelWritten ? null : labelRole(llm);
  if (llm === undefined || role === null) return { problems: [], calls: 0 };
  const photos = await checkPhotos(llm, role, view.plan, rounds, options);
  const corrections = await checkCorrections(llm, role, view, sessionIndex, rounds, options);
  return {
    problems: [...photos.problems, ...corrections.problems],
    calls: photos.calls + corrections.calls,
  };
}
