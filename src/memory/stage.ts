import type { MapStage } from '../pipeline/types.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { UserMemory } from '../schemas/memory.js';
import { encodeUserMemoryRecord } from '../schemas/memory-record-codec.js';
import { UserPlan } from '../schemas/plan.js';
import { onlinePersonalityTargets } from './gold/online-labels/personality.js';
import { replayMemory } from './replay.js';
import { createCachingEmbedder, createRecordingEmbedder } from './retrieval/caching-embedder.js';
import { createOfflineEmbedder } from './retrieval/offline-embedder.js';
import { embedderFromLlm } from './retrieval/retrieve.js';
import { MEMORY_OUTPUT } from './snapshot.js';

/**
 * The `memory` pipeline stage: replays each user's realized dialogue (`synth`) against the plan
 * and writes `memory/memory.jsonl` — session-end snapshots, per-step memory traces (gold, plus
 * teacher targets when the teacher role has an endpoint), PersonaTree versions and reasoning
 * trajectories. Dense retrieval embeds through the `embedder` role (offline embedding when it
 * has no endpoint). With an online embedder, a dry replay (offline vectors, no teacher) first lists
 * every text the replay embeds, and they are sent in one batched request (split by the endpoint's
 * `embeddingBatchSize`) and cached by content, so a user costs a few embedding calls, not one per search.
 *
 * @example defaultStages.memory = { stage: memoryStage, roles: ['embedder', 'judge'] };
 */
export const memoryStage: MapStage<UserMemory> = {
  kind: 'map',
  name: 'memory',
  inputs: ['plan', 'synth'],
  output: MEMORY_OUTPUT,
  schema: UserMemory,
  // Stored compactly: snapshots as per-session deltas, repeated turns and tree states once.
  encode: (record) => encodeUserMemoryRecord(record),
  workerModule: { url: import.meta.url, exportName: 'memoryStage' },
  async process(inputs, ctx) {
    const plan = UserPlan.parse(inputs.plan);
    const dialogue = UserDialogue.parse(inputs.synth);
    const config = ctx.config.memory;
    // Model-written text: the personality targets are a model's reading (offline: null, the cue reader).
    const personalityTargets = await onlinePersonalityTargets(ctx.llm, dialogue, { stage: 'memory' });
    const options = { config, seed: ctx.seed, stage: 'memory', personalityTargets };
    let embedder = embedderFromLlm(ctx.llm, config.embedderRole, 'memory');
    if (!ctx.llm.isOffline(config.embedderRole)) {
      const recording = createRecordingEmbedder(
        createOfflineEmbedder(ctx.config.llm.offline.embeddingDimensions),
      );
      await replayMemory(plan, dialogue, { ...options, embedder: recording.embed, llm: null });
      const cached = createCachingEmbedder(embedder);
      await cached.prefetch(recording.texts());
      embedder = cached.embed;
    }
    return replayMemory(plan, dialogue, { ...options, embedder, llm: ctx.llm });
  },
};
