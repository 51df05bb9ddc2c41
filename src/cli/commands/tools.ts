import type { Command } from 'commander';
import { writeJsonSchemas } from '../../config/index.js';
import { pushToHub } from '../../export/index.js';
import { PipelineConfig } from '../../schemas/pipeline.js';
import { Recipe } from '../../schemas/recipe.js';
import { trainChainCommand, trainCommand } from '../../train/index.js';
import { parseNumber } from '../main.js';

interface TrainFlags {
  dryRun?: boolean;
  nodeRank?: number;
  masterAddr?: string;
  resume?: boolean;
  hosts?: string;
  launch?: boolean;
}

/** schema, push, train. */
export function registerToolCommands(program: Command): void {
  program
    .command('schema')
    .description('write JSON Schemas for pipeline and recipe files (for editor completion)')
    .requiredOption('--out <dir>', 'directory to write pipeline.schema.json and recipe.schema.json into')
    .action(async (flags: { out: string }) => {
      const written = await writeJsonSchemas(flags.out, { pipeline: PipelineConfig, recipe: Recipe });
      for (const path of written) console.log(path);
    });

  program
    .command('push <export-dir>')
    .description('upload an export directory to a Hugging Face dataset repo (token from HF_TOKEN)')
    .requiredOption('--repo <org/name>', 'dataset repository')
    .option('--private', 'create the repository private')
    .option('--dry-run', 'list the files and sizes, upload nothing')
    .option('--hub-url <url>', 'Hub endpoint (default https://huggingface.co)')
    .action(async (exportDir: string, flags: { repo: string; private?: boolean; dryRun?: boolean; hubUrl?: string }) => {
      const token = process.env.HF_TOKEN;
      const result = await pushToHub(exportDir, {
        repo: flags.repo,
        private: flags.private === true,
        dryRun: flags.dryRun === true,
        ...(flags.hubUrl === undefined ? {} : { hubUrl: flags.hubUrl }),
        ...(token === undefined ? {} : { token }),
      });
      for (const file of result.files) console.log(`${String(file.bytes).padStart(12)}  ${file.path}`);
      console.log(`${result.files.length} files, ${result.totalBytes} bytes${result.dryRun ? ' (dry run: nothing uploaded)' : ` → ${result.commit?.url ?? result.repo}`}`);
    });

  program
    .command('train <recipe...>')
    .description('launch ms-swift from a recipe; `train chain <sft.yaml> <rl.yaml>` runs SFT then RL from its checkpoint')
    .option('--dry-run', 'print each node\'s environment and swift command, then the preflight; start nothing')
    .option('--node-rank <n>', 'this node\'s rank in a multi-node run', (v) => Math.trunc(parseNumber(v)))
    .option('--master-addr <host>', 'rank-0 host for multi-node runs')
    .option('--resume', 'resume from the latest checkpoint')
    .option('--hosts <file>', 'hostfile: print every node\'s command (with --launch, start them over ssh)')
    .option('--launch', 'with --hosts: start every node over ssh')
    .action(async (args: string[], flags: TrainFlags) => {
      const [recipe, ...rest] = args as [string, ...string[]];
      const options = {
        ...(flags.dryRun === undefined ? {} : { dryRun: flags.dryRun }),
        ...(flags.nodeRank === undefined ? {} : { nodeRank: flags.nodeRank }),
        ...(flags.masterAddr === undefined ? {} : { masterAddr: flags.masterAddr }),
        ...(flags.resume === undefined ? {} : { resume: flags.resume }),
        ...(flags.hosts === undefined ? {} : { hosts: flags.hosts }),
        ...(flags.launch === undefined ? {} : { launch: flags.launch }),
      };
      if (recipe === 'chain') {
        const [sft, rl] = rest;
        if (sft === undefined || rl === undefined || rest.length > 2) {
          throw new Error('usage: persona-forge train chain <sft.yaml> <rl.yaml> [--dry-run]');
        }
        process.exitCode = await trainChainCommand(sft, rl, options);
        return;
      }
      if (rest.length > 0) throw new Error(`unexpected argument "${rest[0]}" (did you mean \`train chain ${recipe} ${rest[0]}\`?)`);
      process.exitCode = await trainCommand(recipe, options);
    });
}
