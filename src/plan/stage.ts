import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { enrichPersona, type SampledUser, samplePersonas } from '../persona/index.js';
import type { MapStage, StageContext } from '../pipeline/types.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { type ImageRef, UserPlan } from '../schemas/plan.js';
import { resolvePlanSettings } from '../schemas/plan-config.js';
import { writeFileAtomic } from '../util/fs.js';
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
export function loadRunImagePool(runDir: string, config: PipelineConfig, seed: number): Promise<ImageRef[]> {
  const key = `${runDir}\u0000${seed}`;
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
      const done = await access(marker).then(
        () => true,
        () => false,
      );
      if (!done) {
        await writeImagePool(refs, dir, { pixels: images.pixels });
        await writeFileAtomic(marker, `${refs.length}\n`);
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
  schema: UserPlan,
  async source(ctx: StageContext) {
    await loadRunImagePool(ctx.runDir, ctx.config, ctx.seed);
    const users = await samplePersonas(ctx.config.personas, { seed: ctx.seed });
    return users.map((user) => ({ ...user }));
  },
  async process(inputs, ctx) {
    const user = inputs.source as SampledUser;
    const enriched = await enrichPersona(user.persona, {
      llm: ctx.llm,
      rng: ctx.rng(user.userId, 'enrich'),
      config: ctx.config.personas,
    });
    const images = await loadRunImagePool(ctx.runDir, ctx.config, ctx.seed);
    return buildUserPlan(
      { userId: user.userId, split: user.split, enriched, images },
      { config: ctx.config.plan, seed: ctx.seed },
    );
  },
};
