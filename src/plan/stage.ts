import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { enrichPersona, type SampledUser, samplePersonas } from '../persona/index.js';
import type { MapStage, StageContext } from '../pipeline/types.js';
import { explanationShares } from '../qa/index.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { type ImageRef, UserPlan } from '../schemas/plan.js';
import { resolvePlanSettings } from '../schemas/plan-config.js';
import { writeFileAtomic } from '../util/fs.js';
import { hashValue } from '../util/hash.js';
import { buildUserPlan } from './build-user-plan.js';
import { buildImagePool, loadImageDirectory, writeImagePool } from './images/index.js';

/** Where the stage writes the image pool inside the run directory. */
export const PLAN_IMAGE_DIR = 'plan/images';
const POOL_MARKER = '.pool-complete';

/** Pools per run directory, so `process` reuses what `source` built. */
const pools = new Map<string, Promise<ImageRef[]>>();

/**
 * The image pool of a run: built-in scenes (metadata from the seed; PNGs rendered once under
 * `<runDir>/plan/images/`, marked complete so a resumed run skips them) or a user directory.
 * Empty when multimodal rounds are off.
 */
export function loadRunImagePool(
  runDir: string,
  config: PipelineConfig,
  seed: number,
  options: { refresh?: boolean } = {},
): Promise<ImageRef[]> {
  const key = `${runDir}\u0000${seed}`;
  // The stage's start checks the files again: the runner may have removed a pool of another configuration.
  if (options.refresh === true) pools.delete(key);
  let pool = pools.get(key);
  if (pool === undefined) {
    pool = (async () => {
      const settings = resolvePlanSettings(config.plan);
      if (!settings.multimodal.enabled) return [];
      const images = settings.images;
      if (images.source === 'directory') return loadImageDirectory(images.dir as string, images.captionsFile);
      const refs = buildImagePool(images, seed);
      const dir = join(runDir, PLAN_IMAGE_DIR);
      const marker = join(dir, POOL_MARKER);
      // The marker names what the pool was rendered from: another seed or image setting
      // renders a new pool in place of the old one.
      const key = `${hashValue({ refs, pixels: images.pixels })}\n`;
      const done = await readFile(marker, 'utf8').then(
        (text) => text === key,
        () => false,
      );
      if (!done) {
        await rm(dir, { recursive: true, force: true });
        await writeImagePool(refs, dir, { pixels: images.pixels });
        await writeFileAtomic(marker, key);
      }
      return refs;
    })();
    pools.set(key, pool);
    // A failed load must not poison later runs in the same process.
    pool.catch(() => pools.delete(key));
  }
  return pool;
}

/**
 * The plan stage: samples personas (`personas:` section), enriches each (Big Five, role, core
 * memory — through the `realizer` role or offline) and builds its `UserPlan`.
 *
 * @example registry.plan = { stage: planStage, roles: ['realizer'] };
 */
export const planStage: MapStage<UserPlan> = {
  kind: 'map',
  name: 'plan',
  inputs: [],
  output: 'plan/plan.jsonl',
  sideOutputs: [PLAN_IMAGE_DIR],
  schema: UserPlan,
  async source(ctx: StageContext) {
    await loadRunImagePool(ctx.runDir, ctx.config, ctx.seed, { refresh: true });
    const users = await samplePersonas(ctx.config.personas, { seed: ctx.seed });
    // Over every user, before any shard is taken: a shard's plans equal the unsharded run's.
    const explanationKeep = explanationShares(users.map((user) => user.persona.education));
    return users.map((user) => ({ ...user, explanationKeep }));
  },
  async process(inputs, ctx) {
    const user = inputs.source as SampledUser & { explanationKeep?: Record<string, number> };
    const enriched = await enrichPersona(user.persona, {
      llm: ctx.llm,
      rng: ctx.rng(user.userId, 'enrich'),
      config: ctx.config.personas,
    });
    const images = await loadRunImagePool(ctx.runDir, ctx.config, ctx.seed);
    return buildUserPlan(
      { userId: user.userId, split: user.split, enriched, images },
      {
        config: ctx.config.plan,
        seed: ctx.seed,
        ...(user.explanationKeep === undefined ? {} : { explanationKeep: user.explanationKeep }),
      },
    );
  },
};
