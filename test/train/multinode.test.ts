import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError, RecipeError, TrainingJobError } from '../../src/errors/index.js';
import {
  launchOverSsh,
  parseHostfile,
  planNodes,
  type RunProcess,
  trainCommand,
} from '../../src/train/index.js';
import { sftRecipe, tempDir } from './helpers.js';

const twoNodes = (dir: string) =>
  sftRecipe(dir, {
    distributed: { nodes: 2, gpusPerNode: 8 },
    hyperparameters: {
      learningRate: 2e-5,
      maxSteps: 10,
      maxLength: 64,
      globalBatchSize: 64,
      perDeviceBatchSize: 1,
    },
  });

describe('multi-node', () => {
  it('parses hostfiles', () => {
    expect(parseHostfile('# rank 0 first\ngpu01 slots=8\n\nroot@gpu02 slots=8 # second\n')).toEqual([
      'gpu01',
      'root@gpu02',
    ]);
    expect(() => parseHostfile('gpu01 gpus=8')).toThrowError(InputError);
  });

  it('builds the same command per node with its NODE_RANK and the first host as master', () => {
    const dir = tempDir();
    const plans = planNodes(twoNodes(dir), { hosts: ['gpu01', 'root@gpu02'], cwd: '/w' });
    expect(plans.map((p) => p.command.env.NODE_RANK)).toEqual(['0', '1']);
    expect(plans.map((p) => p.command.env.MASTER_ADDR)).toEqual(['gpu01', 'gpu01']);
    expect(plans[0]?.command.argv).toEqual(plans[1]?.command.argv);
    expect(plans[0]?.command.batch.gradientAccumulationSteps).toBe(4); // 64 = 1 × 8 × 2 nodes × 4
    expect(plans[1]?.sshArgv?.slice(0, 2)).toEqual(['ssh', 'root@gpu02']);
    expect(plans[1]?.sshArgv?.[2]).toMatch(
      /^cd \/w && CUDA_VISIBLE_DEVICES=0,1,2,3,4,5,6,7 NPROC_PER_NODE=8 NNODES=2 NODE_RANK=1 MASTER_ADDR=gpu01 .* swift sft /,
    );
    expect(() => planNodes(twoNodes(dir), { hosts: ['gpu01'] })).toThrowError(RecipeError);
  });

  it('--launch starts every node over ssh through the process seam and surfaces a failing node', async () => {
    const dir = tempDir();
    const calls: string[][] = [];
    const runProcess: RunProcess = (file, args, options) => {
      calls.push([file, ...args]);
      const fail = args.includes('gpu02');
      if (fail) options.onStderr?.('RuntimeError: NCCL timeout\n');
      return {
        pid: 1,
        kill: () => {},
        result: Promise.resolve({ exitCode: fail ? 1 : 0, signal: undefined }),
      };
    };
    const lines: string[] = [];
    const error = await launchOverSsh(planNodes(twoNodes(dir), { hosts: ['gpu01', 'gpu02'], cwd: '/w' }), {
      runProcess,
      output: (l) => lines.push(l),
      env: {},
    }).catch((e: unknown) => e);
    expect(calls.map((c) => c.slice(0, 4))).toEqual([
      ['ssh', '-o', 'BatchMode=yes', 'gpu01'],
      ['ssh', '-o', 'BatchMode=yes', 'gpu02'],
    ]);
    expect(error).toBeInstanceOf(TrainingJobError);
    expect((error as TrainingJobError).stderrTail).toContain('NCCL timeout');
    expect(lines).toContain('[1 gpu02] RuntimeError: NCCL timeout');
  });

  it("train --hosts prints every node's command (no launch)", async () => {
    const dir = tempDir();
    const recipeFile = path.join(dir, 'r.yaml');
    writeFileSync(
      recipeFile,
      `name: mn\nstage: sft\nmodel: { id: m }\ndata: { train: [${dir}/none.jsonl] }\nhyperparameters: { learningRate: 1.0e-5, maxSteps: 1, maxLength: 64, globalBatchSize: 16, perDeviceBatchSize: 1 }\ndistributed: { nodes: 2, gpusPerNode: 8 }\noutputDir: ${dir}/out\npreflight: { minFreeDiskGb: 0 }\n`,
    );
    const hostfile = path.join(dir, 'hosts');
    writeFileSync(hostfile, 'gpu01\ngpu02\n');
    let text = '';
    const code = await trainCommand(recipeFile, {
      hosts: hostfile,
      print: (t) => (text += t),
      env: { PATH: '/nonexistent' },
      cwd: dir,
    });
    expect(code).toBe(1); // preflight fails here: no swift, no dataset
    expect(text).toContain('## node 0 (gpu01)');
    expect(text).toContain('## node 1 (gpu02)');
    expect(text).toContain('export NODE_RANK=1');
    expect(text).toMatch(/# over ssh: ssh gpu02 /);
    expect(text).toContain('FAIL swift: swift not found on PATH');
  });
});
