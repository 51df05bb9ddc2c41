import type { MapStage } from '../pipeline/types.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { UserPlan } from '../schemas/plan.js';
import { createLlmRealizer } from './llm-realizer.js';
import { createOfflineRealizer } from './offline/realizer.js';
import { type RealizeStats, realizeDialogue } from './realize-dialogue.js';

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
          replyWords: ctx.config.synth.replyWords,
          stage: 'synth',
          seed: ctx.seed,
          signal: ctx.signal,
        });
    const stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 };
    try {
      return await realizeDialogue(
        plan,
        {
          realizer,
          llm: ctx.llm,
          config: ctx.config.synth,
          seed: ctx.seed,
          stage: 'synth',
          signal: ctx.signal,
        },
        stats,
      );
    } finally {
      // Counted on the model path (offline text never regenerates and is never unsure).
      if (!offline) countStats(ctx.count, stats);
    }
  },
};

/** The realization's counts, summed over users into the stage's notes in manifest.json. */
function countStats(count: ((name: string, n: number) => void) | undefined, stats: RealizeStats): void {
  if (count === undefined) return;
  const perChunk = stats.regenerationsPerChunk ?? [];
  count(
    'chunks',
    perChunk.reduce((a, b) => a + b, 0),
  );
  count('realizerCalls', stats.chunks);
  count('regenerations', stats.regenerations);
  perChunk.forEach((n, regenerations) => {
    if (n > 0) count(`chunksRegenerated${regenerations}x`, n);
  });
  count('judgeCalls', stats.judgeCalls);
  if (stats.labelCalls !== undefined) count('labelCalls', stats.labelCalls);
  const meaning = stats.meaning;
  if (meaning === undefined) return;
  count('meaningUnsure', meaning.unsure);
  count('meaningContradicts', meaning.contradicts);
  count('meaningUndecided', meaning.undecided);
  count('judgeSaysYes', meaning.judged.yes);
  count('judgeSaysNo', meaning.judged.no);
  count('judgeSaysOpposite', meaning.judged.opposite);
}
