import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { PreflightError } from '../errors/index.js';
import type { Recipe } from '../schemas/recipe.js';
import {
  type BuildTrainCommandOptions,
  buildTrainCommand,
  requiredColumns,
  type TrainCommand,
} from './command.js';
import { scanDataset } from './dataset-rows.js';
import { collectProcess, execaRunProcess, type RunProcess } from './process.js';
import { checkTokenLengths } from './token-lengths.js';

/** One preflight result line. `warn` never fails the preflight. */
export interface PreflightCheck {
  name: 'command' | 'swift' | 'dataset' | 'tokens' | 'reward-server' | 'gpus' | 'disk';
  status: 'pass' | 'fail' | 'warn';
  message: string;
}

/** All checks; `ok` is false when any check failed. */
export interface PreflightReport {
  ok: boolean;
  checks: PreflightCheck[];
  command: TrainCommand | undefined;
}

/** Options of {@link runPreflight}; all optional. */
export interface PreflightOptions extends BuildTrainCommandOptions {
  /** Environment (PATH, CUDA_VISIBLE_DEVICES, the token variable). @default process.env */
  env?: Record<string, string | undefined>;
  runProcess?: RunProcess;
  fetch?: typeof fetch;
  /** Skip the dataset checks (e.g. `train chain` before the SFT run exists). @default false */
  skipDatasets?: boolean;
}

const FunctionsResponse = z.object({
  functions: z.array(
    z.object({
      name: z.string(),
      description: z.string().optional(),
      requiredColumns: z.array(z.string()).default([]),
      usesJudge: z.boolean().optional(),
    }),
  ),
});

/** Finds an executable on PATH (no shell involved). */
export function which(name: string, env: Record<string, string | undefined>): string | undefined {
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

function cleanEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function checkSwift(
  recipe: Recipe,
  env: Record<string, string | undefined>,
  run: RunProcess,
): Promise<PreflightCheck> {
  const swift = which('swift', env);
  if (swift === undefined) {
    return {
      name: 'swift',
      status: 'fail',
      message: 'swift not found on PATH; install ms-swift (pip install ms-swift) on this node',
    };
  }
  // ms-swift has no --version flag: its version is swift/version.py. Ask the interpreter of the
  // console script's shebang; anything else (wrappers, test fakes) is asked `swift --version`.
  const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(readFileSync(swift, 'utf8').slice(0, 200));
  const interpreter = shebang?.[1]?.endsWith('/env') ? shebang[2] : shebang?.[1];
  const probe =
    interpreter !== undefined && /python/.test(interpreter)
      ? await collectProcess(
          run,
          interpreter,
          ['-c', 'from swift.version import __version__; print(__version__)'],
          cleanEnv(env),
        )
      : await collectProcess(run, swift, ['--version'], cleanEnv(env));
  const version = /(\d+)\.(\d+)\.\S*/.exec(probe.stdout)?.[0];
  if (probe.exitCode !== 0 || version === undefined) {
    return {
      name: 'swift',
      status: 'warn',
      message: `${swift} found, version unknown (${probe.stderr.trim().split('\n').at(-1) ?? ''})`,
    };
  }
  const major = Number(version.split('.')[0]);
  if (major !== recipe.swiftVersion) {
    return {
      name: 'swift',
      status: 'fail',
      message: `ms-swift ${version} at ${swift}, but the recipe targets ${recipe.swiftVersion}.x; set swiftVersion: ${major} or install ms-swift ${recipe.swiftVersion}.x`,
    };
  }
  return { name: 'swift', status: 'pass', message: `ms-swift ${version} at ${swift}` };
}

async function checkRewards(
  recipe: Recipe,
  env: Record<string, string | undefined>,
  fetchImpl: typeof fetch,
): Promise<{ check: PreflightCheck; columns: string[] }> {
  const r = recipe.rewards;
  if (r === undefined)
    return { check: { name: 'reward-server', status: 'pass', message: 'no rewards' }, columns: [] };
  const base = r.serverUrl.replace(/\/+$/, '');
  const token = env[r.tokenEnv];
  const headers: Record<string, string> =
    token === undefined || token === '' ? {} : { authorization: `Bearer ${token}` };
  const get = async (p: string) =>
    fetchImpl(`${base}${p}`, {
      headers,
      signal: AbortSignal.timeout(recipe.preflight.rewardServerTimeoutMs),
    });
  try {
    const health = await get('/health');
    if (!health.ok) {
      const auth =
        health.status !== 401 && health.status !== 403
          ? ''
          : `: ${token === undefined || token === '' ? `${r.tokenEnv} is not set` : `the token in ${r.tokenEnv} was refused`} (rewards.tokenEnv)`;
      return {
        check: {
          name: 'reward-server',
          status: 'fail',
          message: `${base}/health answered HTTP ${health.status}${auth}`,
        },
        columns: [],
      };
    }
    const res = await get('/v1/rewards/functions');
    if (!res.ok) {
      return {
        check: {
          name: 'reward-server',
          status: 'fail',
          message: `${base}/v1/rewards/functions answered HTTP ${res.status}`,
        },
        columns: [],
      };
    }
    const { functions } = FunctionsResponse.parse(await res.json());
    const known = new Map(functions.map((f) => [f.name, f]));
    const missing = r.functions.map((f) => f.name).filter((n) => !known.has(n));
    if (missing.length > 0) {
      return {
        check: {
          name: 'reward-server',
          status: 'fail',
          message: `reward server ${base} does not know reward function(s) ${missing.join(', ')}; it serves: ${[...known.keys()].join(', ') || '(none)'}`,
        },
        columns: [],
      };
    }
    const columns = r.functions.flatMap((f) => known.get(f.name)?.requiredColumns ?? []);
    // The server probes its judge on /health: a judge that is down fails the first GRPO batch.
    const judge = (
      (await health.json().catch(() => ({}))) as { judge?: { available?: boolean; error?: string } }
    ).judge;
    const judged = r.functions.filter((f) => known.get(f.name)?.usesJudge === true).map((f) => f.name);
    if (judged.length > 0 && judge?.available === false) {
      return {
        check: {
          name: 'reward-server',
          status: 'fail',
          message: `reward server ${base} is up but its judge is not available (${judge.error ?? 'no reason given'}); ${judged.join(', ')} need it — fix the judge endpoint in rewards.yaml before training`,
        },
        columns,
      };
    }
    return {
      check: {
        name: 'reward-server',
        status: 'pass',
        message: `${base} healthy; serves ${r.functions.map((f) => f.name).join(', ')}`,
      },
      columns,
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    return {
      check: {
        name: 'reward-server',
        status: 'fail',
        message: `reward server ${base} is unreachable (${cause}); start it with \`persona-forge serve\` or fix rewards.serverUrl`,
      },
      columns: [],
    };
  }
}

async function checkDatasets(
  recipe: Recipe,
  command: TrainCommand,
  extraColumns: string[],
  cwd: string,
): Promise<PreflightCheck[]> {
  const needed = [...new Set([...requiredColumns(recipe), ...extraColumns])];
  const files = [...command.datasets.train, ...command.datasets.val];
  const rootImageDir = command.env.ROOT_IMAGE_DIR;
  const out: PreflightCheck[] = [];
  for (const file of files) {
    if (!path.isAbsolute(file)) {
      out.push({ name: 'dataset', status: 'warn', message: `${file}: hub dataset id, not checked` });
      continue;
    }
    try {
      const scan = await scanDataset(file, { required: needed, cwd, rootImageDir });
      if (scan.rows === 0 && scan.problemCount === 0) {
        out.push({ name: 'dataset', status: 'fail', message: `${file} is empty` });
        continue;
      }
      const images =
        scan.images.referenced === 0
          ? 'no images'
          : `${scan.images.referenced} image references (${scan.images.distinct} files${rootImageDir === undefined ? '' : ` via ROOT_IMAGE_DIR=${rootImageDir}`}) open`;
      out.push(
        scan.problemCount > 0
          ? {
              name: 'dataset',
              status: 'fail',
              message: `${scan.problemCount} problem(s) in ${scan.rows} rows:\n  ${scan.problems.join('\n  ')}${scan.problemCount > scan.problems.length ? `\n  … and ${scan.problemCount - scan.problems.length} more` : ''}`,
            }
          : {
              name: 'dataset',
              status: 'pass',
              message: `${file}: ${scan.rows} rows; ${needed.join(', ')} on every row; <image> tags match images; ${images}`,
            },
      );
    } catch (error) {
      const missingFile = !existsSync(file);
      out.push({
        name: 'dataset',
        status: 'fail',
        message: missingFile
          ? `dataset not found: ${file}; run \`persona-forge export <run-dir>\` or fix data.exportDir / data.train`
          : (error as Error).message,
      });
    }
  }
  return out;
}

async function checkGpus(
  command: TrainCommand,
  env: Record<string, string | undefined>,
  run: RunProcess,
): Promise<PreflightCheck> {
  const wanted = (command.env.CUDA_VISIBLE_DEVICES ?? '')
    .split(',')
    .filter((s) => s !== '')
    .map(Number);
  const smi = which('nvidia-smi', env);
  if (smi !== undefined) {
    const res = await collectProcess(run, smi, ['-L'], cleanEnv(env));
    const count = res.stdout.split('\n').filter((l) => /^GPU \d+/.test(l)).length;
    const maxId = Math.max(...wanted);
    if (res.exitCode !== 0)
      return { name: 'gpus', status: 'fail', message: `nvidia-smi -L failed: ${res.stderr.trim()}` };
    return count > maxId
      ? { name: 'gpus', status: 'pass', message: `${count} GPUs visible; using ${wanted.join(',')}` }
      : {
          name: 'gpus',
          status: 'fail',
          message: `the layout uses GPUs ${wanted.join(',')} but nvidia-smi lists ${count}`,
        };
  }
  const inherited = env.CUDA_VISIBLE_DEVICES;
  if (inherited !== undefined && inherited !== '') {
    const n = inherited.split(',').length;
    return n >= wanted.length
      ? {
          name: 'gpus',
          status: 'pass',
          message: `CUDA_VISIBLE_DEVICES lists ${n} GPUs; the layout needs ${wanted.length}`,
        }
      : {
          name: 'gpus',
          status: 'fail',
          message: `CUDA_VISIBLE_DEVICES lists ${n} GPUs but the layout needs ${wanted.length} per node`,
        };
  }
  return {
    name: 'gpus',
    status: 'warn',
    message: `no nvidia-smi and no CUDA_VISIBLE_DEVICES: cannot count GPUs (the layout needs ${wanted.length})`,
  };
}

async function checkDisk(recipe: Recipe, outputDir: string): Promise<PreflightCheck> {
  let dir = outputDir;
  while (!existsSync(dir) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  const s = await statfs(dir);
  const freeGb = (Number(s.bavail) * Number(s.bsize)) / 1024 ** 3;
  const need = recipe.preflight.minFreeDiskGb;
  return freeGb >= need
    ? { name: 'disk', status: 'pass', message: `${freeGb.toFixed(1)} GiB free at ${dir} (need ${need})` }
    : {
        name: 'disk',
        status: 'fail',
        message: `only ${freeGb.toFixed(1)} GiB free at ${dir}; the recipe asks for ${need} (preflight.minFreeDiskGb)`,
      };
}

/**
 * Checks a recipe before launch on this node: the command builds (real flag names, batch
 * arithmetic), `swift` is on PATH with the recipe's major version, every row of every local
 * dataset carries the needed columns (the recipe's plus those the reward functions declare), has
 * no empty message, as many `<image>` tags as images, and images that open where ms-swift looks,
 * the token lengths of every row with the model's own tokenizer (rows over `max_length`, GRPO
 * answers over `max_completion_length`, timestamp-typed columns a validation split cannot save),
 * the reward server answers `/health` and serves every requested function, the GPU layout fits,
 * and the output file system has room. Never throws for a failed check; see {@link assertPreflight}.
 *
 * @example
 * const report = await runPreflight(recipe);
 * if (!report.ok) console.error(formatPreflight(report));
 */
export async function runPreflight(recipe: Recipe, options: PreflightOptions = {}): Promise<PreflightReport> {
  const env = options.env ?? process.env;
  const run = options.runProcess ?? execaRunProcess;
  const checks: PreflightCheck[] = [];
  let command: TrainCommand | undefined;
  try {
    command = buildTrainCommand(recipe, options);
    const b = command.batch;
    checks.push({
      name: 'command',
      status: 'pass',
      message: `batch ${b.perDeviceBatchSize} per device × ${b.worldSize} GPUs × ${b.gradientAccumulationSteps} accumulation = ${b.globalBatchSize}${b.generationBatchSize === undefined ? '' : `; generation batch ${b.generationBatchSize}`}; all flags are ms-swift ${recipe.swiftVersion}.x arguments`,
    });
  } catch (error) {
    checks.push({ name: 'command', status: 'fail', message: (error as Error).message });
  }
  checks.push(await checkSwift(recipe, env, run));
  const rewards =
    recipe.stage === 'grpo' ? await checkRewards(recipe, env, options.fetch ?? fetch) : undefined;
  if (rewards !== undefined) checks.push(rewards.check);
  if (command !== undefined) {
    if (options.skipDatasets !== true) {
      checks.push(
        ...(await checkDatasets(recipe, command, rewards?.columns ?? [], options.cwd ?? process.cwd())),
      );
      checks.push(...(await checkTokenLengths(recipe, command, options.cwd ?? process.cwd())));
    }
    checks.push(await checkGpus(command, env, run));
    checks.push(await checkDisk(recipe, command.outputDir));
  }
  return { ok: checks.every((c) => c.status !== 'fail'), checks, command };
}

/**
 * Throws `PreflightError` listing every failed check.
 *
 * @example
 * assertPreflight(await runPreflight(recipe));
 */
export function assertPreflight(report: PreflightReport): void {
  const failures = report.checks.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.message}`);
  if (failures.length > 0) throw new PreflightError(failures);
}

/**
 * Preflight results as text lines (`PASS|WARN|FAIL name: message`).
 *
 * @example
 * console.log(formatPreflight(report));
 */
export function formatPreflight(report: PreflightReport): string {
  return report.checks.map((c) => `${c.status.toUpperCase().padEnd(4)} ${c.name}: ${c.message}`).join('\n');
}
