import { describe, expect, it } from 'vitest';
import { RecipeError } from '../errors/index.js';
import { Recipe } from '../schemas/recipe.js';
import { buildTrainCommand, formatCommandLine, launchEnv } from './command.js';
import { shellQuote, swiftValue } from './shell.js';

const grpo = (over: Record<string, unknown> = {}) =>
  Recipe.parse({
    name: 'g',
    stage: 'grpo',
    model: { id: 'Qwen/Qwen3-8B', modelType: 'qwen3', template: 'qwen3_nothinking' },
    data: { exportDir: 'export' },
    hyperparameters: {
      learningRate: 1e-6,
      numTrainEpochs: 1,
      maxLength: 10240,
      perDeviceBatchSize: 1,
      gradientAccumulationSteps: 8,
    },
    grpo: { numGenerations: 8, lossType: 'dapo' },
    distributed: { gpusPerNode: 2 },
    rewards: { serverUrl: 'http://10.0.0.5:8000', tokenEnv: 'MY_TOKEN', functions: [{ name: 'tree_ops' }] },
    outputDir: 'out',
    ...over,
  });

describe('swift value formatting', () => {
  it('writes booleans, lists, dicts and small rates the way ms-swift parses them', () => {
    expect(swiftValue(true)).toEqual(['true']);
    expect(swiftValue(['a', 'b'])).toEqual(['a', 'b']);
    expect(swiftValue({ min_lr_rate: 0.1 })).toEqual(['{"min_lr_rate":0.1}']);
    expect(swiftValue(2e-5)).toEqual(['2e-5']);
    expect(swiftValue(0.05)).toEqual(['0.05']);
    expect(shellQuote('{"a":1}')).toBe(`'{"a":1}'`);
    expect(shellQuote("it's")).toBe(`'it'"'"'s'`);
  });
});

describe('buildTrainCommand', () => {
  it('builds swift rlhf --rlhf_type grpo with plugin ORM names and the environment', () => {
    const cmd = buildTrainCommand(grpo(), {
      cwd: '/w',
      pluginPath: '/p/persona_forge_swift.py',
      nodeRank: 1,
      masterAddr: 'gpu01',
    });
    expect(cmd.argv.slice(0, 4)).toEqual(['swift', 'rlhf', '--rlhf_type', 'grpo']);
    const line = cmd.argv.join(' ');
    expect(line).toContain('--reward_funcs pf_tree_ops');
    expect(line).toContain('--external_plugins /p/persona_forge_swift.py');
    expect(line).toContain('--dataset /w/export/rl/train.jsonl');
    expect(line).toContain('--tuner_type full');
    expect(line).toContain('--use_vllm true --vllm_mode colocate');
    expect(line).not.toContain('--reward_weights');
    expect(cmd.env).toMatchObject({
      NPROC_PER_NODE: '2',
      NNODES: '1',
      NODE_RANK: '1',
      MASTER_ADDR: 'gpu01',
      CUDA_VISIBLE_DEVICES: '0,1',
      PERSONA_FORGE_URL: 'http://10.0.0.5:8000',
    });
    expect(cmd.envRefs).toEqual({ PERSONA_FORGE_TOKEN: 'MY_TOKEN' });
  });

  it('never prints the token, but launches with it', () => {
    const cmd = buildTrainCommand(grpo(), { cwd: '/w' });
    expect(formatCommandLine(cmd)).toContain('PERSONA_FORGE_TOKEN="$MY_TOKEN"');
    expect(formatCommandLine(cmd)).not.toContain('s3cret');
    expect(launchEnv(cmd, { MY_TOKEN: 's3cret', PATH: '/bin' })).toMatchObject({
      PERSONA_FORGE_TOKEN: 's3cret',
      PATH: '/bin',
    });
  });

  it('emits --train_type for ms-swift 3.x', () => {
    const cmd = buildTrainCommand(grpo({ swiftVersion: 3 }), { cwd: '/w' });
    expect(cmd.argv).toContain('--train_type');
    expect(cmd.argv).not.toContain('--tuner_type');
  });

  it('refuses an extraArgs flag that is not a real argument, naming the closest one', () => {
    expect(() => buildTrainCommand(grpo({ extraArgs: { num_generation: 4 } }), { cwd: '/w' })).toThrowError(
      RecipeError,
    );
    expect(() => buildTrainCommand(grpo({ extraArgs: { num_generation: 4 } }), { cwd: '/w' })).toThrowError(
      /--num_generation is not an argument of `swift rlhf` in ms-swift 4.x/,
    );
    try {
      buildTrainCommand(grpo({ extraArgs: { num_generation: 4 } }), { cwd: '/w' });
    } catch (error) {
      expect((error as RecipeError).hint).toBe('did you mean --num_generations?');
    }
  });

  it('lets extraArgs override or drop a built flag', () => {
    const cmd = buildTrainCommand(grpo({ extraArgs: { seed: 7, use_hf: null } }), { cwd: '/w' });
    expect(cmd.argv.join(' ')).toContain('--seed 7');
    expect(cmd.argv).not.toContain('--use_hf');
  });

  it('writes weights and LoRA flags, and the retrieval scheduler with max_turns = retrievals + 1', () => {
    const cmd = buildTrainCommand(
      grpo({
        rewards: {
          functions: [{ name: 'accuracy' }, { name: 'consistency' }, { name: 'format', weight: 0.5 }],
        },
        environment: { maxRetrievals: 3 },
        tuner: { type: 'lora', lora: { rank: 16 } },
      }),
      { cwd: '/w' },
    );
    const line = cmd.argv.join(' ');
    expect(line).toContain('--reward_funcs pf_accuracy pf_consistency pf_format --reward_weights 1 1 0.5');
    expect(line).toContain('--multi_turn_scheduler pf_retrieval --max_turns 4');
    expect(line).toContain('--tuner_type lora --lora_rank 16 --lora_alpha 32');
  });

  it('vLLM server mode moves the scheduler to swift rollout', () => {
    const cmd = buildTrainCommand(
      grpo({
        distributed: {
          gpusPerNode: 2,
          vllm: { mode: 'server', serverHosts: ['10.0.0.9'], serverPorts: [8001] },
        },
        environment: {},
      }),
      { cwd: '/w' },
    );
    expect(cmd.argv.join(' ')).toContain(
      '--vllm_mode server --vllm_server_host 10.0.0.9 --vllm_server_port 8001 --vllm_server_pass_dataset true',
    );
    expect(cmd.argv).not.toContain('--multi_turn_scheduler');
    expect(cmd.rollout?.argv.join(' ')).toContain('swift rollout --model Qwen/Qwen3-8B');
    expect(cmd.rollout?.argv.join(' ')).toContain(
      '--multi_turn_scheduler pf_retrieval --max_turns 4 --vllm_use_async_engine true',
    );
  });
});

describe('DAPO overlong settings', () => {
  it('soft overlong punishment adds ms-swift soft_overlong reward with its lengths and weight', () => {
    const cmd = buildTrainCommand(
      grpo({
        grpo: { numGenerations: 8, overlongFilter: false, softOverlong: { cacheLength: 128, weight: 0.5 } },
      }),
    );
    const line = formatCommandLine(cmd);
    expect(line).toContain('--overlong_filter false');
    expect(line).toContain('--reward_funcs pf_tree_ops soft_overlong --reward_weights 1 0.5');
    expect(line).toContain('--soft_cache_length 128');
    expect(line).not.toContain('--soft_max_length'); // ms-swift takes max_completion_length
  });

  it('rejects a cache length that is not below the soft maximum (ms-swift asserts it)', () => {
    expect(() => grpo({ grpo: { maxCompletionLength: 512, softOverlong: { cacheLength: 512 } } })).toThrow(
      /cacheLength \(512\) must be below the soft maximum length \(512\)/,
    );
  });
});
