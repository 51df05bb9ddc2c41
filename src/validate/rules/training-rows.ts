import { renderTraceInput } from '../../export/render.js';
import { followsAnswerConvention } from '../../qa/answer-convention.js';
import type { RuleCheck, RuleFailure } from '../types.js';
import { countImagePlaceholders } from './image-refs.js';
import { parseTrajectoryStep } from './trajectory-tags.js';

/**
 * What the exported training rows will say, checked before export: every memory-task row quotes
 * images only as its own (`<image>` count = images attached, as ms-swift fills tags in order),
 * no target is empty (a no-change update says `NO_CHANGE`), and every reasoning trajectory ends
 * with the answer convention of its question (the option letter for multiple choice — the same
 * as the RL `solution` and the evaluation sets; src/qa/answer-convention.ts).
 *
 * @example trainingRowsCheck.run(indexUser({ plan, dialogue, memory }), options)
 */
export const trainingRowsCheck: RuleCheck = {
  name: 'training_rows',
  description: 'training rows: <image> tags match images, no empty target, one answer convention',
  run({ bundle }) {
    const failures: RuleFailure[] = [];
    const userId = bundle.plan.userId;
    const memory = bundle.memory;
    if (memory === null) return failures;
    const fail = (location: string, reason: string) =>
      failures.push({ check: 'training_rows', userId, location, reason });
    for (const trace of memory.traces) {
      const where = `traces[${trace.id}]`;
      const rendered = renderTraceInput(trace.input, (id) => id);
      const tags = countImagePlaceholders(rendered.text);
      if (tags !== rendered.images.length)
        fail(where, `${tags} <image> tags for ${rendered.images.length} attached images`);
      if (trace.gold.text.trim() === '') fail(where, `empty ${trace.task} target (write NO_CHANGE)`);
      // A teacher target is exported only when it agrees with gold; then it must not be empty.
      if (trace.teacher?.agrees === true && trace.teacher.text.trim() === '')
        fail(where, `empty teacher ${trace.task} target`);
    }
    const qaById = new Map(bundle.plan.qa.map((qa) => [qa.id, qa]));
    for (const trajectory of memory.trajectories) {
      const qa = qaById.get(trajectory.qaId);
      const last = trajectory.messages[trajectory.messages.length - 1];
      if (qa === undefined || last === undefined) continue;
      const parsed = parseTrajectoryStep(last);
      if (!parsed.ok || parsed.kind !== 'answer') continue; // trajectory_tags reports it
      if (!followsAnswerConvention(qa, parsed.answer ?? '')) {
        fail(
          `trajectories[${trajectory.qaId}]`,
          `${qa.answerType} answer "${(parsed.answer ?? '').slice(0, 60)}" does not follow the convention (expected the ${qa.answerType === 'mc' ? 'option letter' : 'answer text'})`,
        );
      }
    }
    return failures;
  },
};
