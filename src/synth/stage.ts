import type { MapStage } from '../pipeline/types.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { UserPlan } from '../schemas/plan.js';
import { createLlmRealizer } from './llm-realizer.js';
import { createOfflineRealizer } from './offline/realizer.js';
import { realizeDialogue } from './realize-dialogue.js';

/**
 * The `synth` pipeline stage: realizes each user's plan into `dialogues/dialogues.jsonl`. Uses
 * the LLM realizer when the `realizer` role has an endpoint, the offline realizer otherwise
 * (`realizer: 'offline'`, `offline: true`). A `SynthError` thrown by `realizeDialogue`
 * (slots never expressed after regenerations) quarantines the user.
 *
 * @example defaultStages.synth = { stage: synthStage, roles: ['realizer', 'judge'] };
 */
export const synthStage: MapStage<UserDialogue> = {
  kind: 'map',
  name: 'synth',
  inputs: ['plan'],
  output: 'dialogues/dialogues.jsonl',
  schema: UserDialogue,
  async process(inputs, ctx) {
    const plan = UserPlan.parse(inputs.plan);
    const offline = ctx.llm.isOffline('realizer');
    const offlineRealizer = createOfflineRealizer({ seed: ctx.seed });
    const realizer = offline
      ? offlineRealizer
      : createLlmRealizer({
          llm: ctx.llm,
          offline: (request) => offlineRealizer.realizeChunk(request),
          temperature: ctx.config.synth.temperature,
          stage: 'synth',
          seed: ctx.seed,
          signal: ctx.signal,
        });
    return realizeDialogue(plan, {
      realizer,
      llm: ctx.llm,
      config: ctx.config.synth,
      seed: ctx.seed,
      stage: 'synth',
      signal: ctx.signal,
    });
  },
};
