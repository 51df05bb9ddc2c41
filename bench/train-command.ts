// Figures for the training launcher: how fast recipes become checked ms-swift commands and how
// fast logging.jsonl lines parse (a 400-step GRPO run logs a few hundred lines; this is headroom).
// Run: npx --no-install tsx bench/train-command.ts
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildTrainCommand, loadRecipe, parseLogLine } from '../src/train/index.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const recipe = await loadRecipe(path.join(root, 'recipes/personavlm-grpo.yaml'), { env: {} });

const builds = 5000;
let t = performance.now();
let flags = 0;
for (let i = 0; i < builds; i++)
  flags = buildTrainCommand(recipe, { cwd: '/w', nodeRank: i % 4 }).argv.length;
const buildMs = performance.now() - t;

const lines = 200_000;
const line =
  '{"loss": 0.0123, "grad_norm": 0.5, "learning_rate": 1.9e-06, "epoch": 0.4, "reward": 1.75, "reward_std": 0.3, "global_step/max_steps": "160/400", "percentage": "40.00%", "elapsed_time": "2h 24m", "remaining_time": "3h 36m", "memory(GiB)": 71.2, "train_speed(s/it)": 54.1}';
t = performance.now();
let parsed = 0;
for (let i = 0; i < lines; i++) if (parseLogLine(line)?.kind === 'progress') parsed++;
const parseMs = performance.now() - t;

console.log(
  JSON.stringify({
    commandBuilds: builds,
    argvLength: flags,
    buildMicrosPerCommand: Number(((buildMs * 1000) / builds).toFixed(1)),
    logLinesParsed: parsed,
    logLinesPerSecond: Math.round(lines / (parseMs / 1000)),
  }),
);
