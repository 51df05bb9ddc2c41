import { renderProfile, snapshotAt } from '../../export/render.js';
import { promptSnapshotTime } from '../../export/samples.js';
import type { RuleCheck, RuleFailure } from '../types.js';

/**
 * No shortcut through the system prompt: the profile a question's prompt shows (the memory state
 * before the evidence it tests, src/export/samples.ts) never contains the planned answer. A model
 * trained on a prompt that holds the answer learns to copy it instead of retrieving it.
 *
 * @example goldInPromptCheck.run(indexUser(bundle), options)
 */
export const goldInPromptCheck: RuleCheck = {
  name: 'gold_in_prompt',
  description: 'no question shows its answer in the system prompt',
  run({ bundle }) {
    const memory = bundle.memory;
    if (memory === null) return [];
    const failures: RuleFailure[] = [];
    for (const qa of bundle.plan.qa) {
      const answer = qa.answer
        .trim()
        .replace(/[.!]+$/, '')
        .toLowerCase();
      if (qa.answerType === 'binary' || answer.length < 4) continue;
      const snapshot = snapshotAt(memory.snapshots, promptSnapshotTime(bundle.plan, qa));
      if (renderProfile(snapshot).toLowerCase().includes(answer))
        failures.push({
          check: 'gold_in_prompt',
          userId: bundle.plan.userId,
          location: `plan.qa[${qa.id}]`,
          reason: `the system prompt's profile (memory at ${snapshot?.time ?? 'start'}) contains the answer "${qa.answer}"`,
        });
    }
    return failures;
  },
};
