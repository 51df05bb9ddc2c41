import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers.js';
import {
  buildTrainCommand,
  formatDryRun,
  loadRecipe,
  planNodes,
  recipeJsonSchemaOf,
} from './recipes-support.js';

const SHIPPED = ['personavlm-sft', 'personavlm-grpo', 'memlistener-sft', 'memlistener-dapo'] as const;
const BUILD = { cwd: '/work/run', pluginPath: '/opt/persona-forge/python/persona_forge_swift.py' };
const sharedArgs = path.resolve(repoRoot, '../shared/ms-swift/ms-swift-args.json');

/** Flag names of an argv (`--name value…`). */
function flagNames(argv: string[]): string[] {
  return argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2));
}

describe('shipped recipes', () => {
  for (const name of SHIPPED) {
    it(`${name}: dry-run snapshot`, async () => {
      const recipe = await loadRecipe(path.join(repoRoot, 'recipes', `${name}.yaml`), { env: {} });
      const text = formatDryRun(recipe, planNodes(recipe, BUILD), undefined);
      await expect(text).toMatchFileSnapshot(`__snapshots__/${name}.dry-run.txt`);
      expect(text).toMatch(/^swift (sft|rlhf) /m);
    });

    it(`${name}: every emitted flag is in the project's ms-swift name list`, async () => {
      const recipe = await loadRecipe(path.join(repoRoot, 'recipes', `${name}.yaml`), { env: {} });
      const cmd = buildTrainCommand(recipe, BUILD);
      const data = JSON.parse(readFileSync(path.join(repoRoot, 'data/ms-swift/arguments.json'), 'utf8'));
      const allowed = new Set([...data.subcommands[cmd.subcommand]['4'], ...data.inherited['4']]);
      for (const flag of flagNames(cmd.argv)) expect(allowed, flag).toContain(flag);
    });

    it.skipIf(!existsSync(sharedArgs))(
      `${name}: every emitted flag is a real ms-swift argument (shared list)`,
      async () => {
        const recipe = await loadRecipe(path.join(repoRoot, 'recipes', `${name}.yaml`), { env: {} });
        const cmd = buildTrainCommand(recipe, BUILD);
        const shared = JSON.parse(readFileSync(sharedArgs, 'utf8'));
        const allowed = new Set([...shared[cmd.subcommand], ...shared.inherited_confirmed]);
        for (const flag of flagNames(cmd.argv)) expect(allowed, flag).toContain(flag);
      },
    );
  }

  it('carry SPEC.md numbers', async () => {
    const load = (n: string) => loadRecipe(path.join(repoRoot, 'recipes', `${n}.yaml`), { env: {} });
    const sft = buildTrainCommand(await load('personavlm-sft'), BUILD).argv.join(' ');
    expect(sft).toContain(
      '--learning_rate 2e-5 --lr_scheduler_type cosine --warmup_ratio 0.03 --max_steps 1200',
    );
    expect(sft).toContain('--max_pixels 230400 --max_length 16384');
    expect(sft).toContain('--deepspeed zero3');
    const rl = buildTrainCommand(await load('personavlm-grpo'), BUILD);
    expect(rl.batch.globalBatchSize).toBe(72);
    expect(rl.argv.join(' ')).toContain('--num_generations 6 --num_iterations 1');
    expect(rl.argv.join(' ')).toContain('--repetition_penalty 1.05');
    expect(rl.argv.join(' ')).toContain('--multi_turn_scheduler pf_retrieval --max_turns 4');
    const dapo = buildTrainCommand(await load('memlistener-dapo'), BUILD).argv.join(' ');
    for (const piece of [
      '--loss_type dapo',
      '--epsilon 0.2 --epsilon_high 0.28',
      '--dynamic_sample true --max_resample_times 3',
      '--beta 0.001',
      '--num_generations 8',
      '--learning_rate 1e-6',
      '--warmup_ratio 0.01',
      '--per_device_train_batch_size 1',
      '--gradient_accumulation_steps 8',
      '--num_train_epochs 1',
      '--max_grad_norm 1',
      '--max_completion_length 512',
      '--temperature 1 --top_p 0.9 --top_k 50',
      '--vllm_max_model_len 11264',
      '--model_type qwen3 --template qwen3_nothinking',
    ]) {
      expect(dapo).toContain(piece);
    }
  });

  it('exports a JSON Schema', () => {
    const schema = recipeJsonSchemaOf();
    expect(schema).toHaveProperty('properties.stage');
    expect(schema).toHaveProperty('properties.extraArgs');
  });
});
