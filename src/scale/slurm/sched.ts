import { PersonaForgeError } from '../../errors/index.js';
import { collectProcess, execaRunProcess, type RunProcess } from '../../train/process.js';

/** How persona-forge reaches the Slurm commands (a seam for tests; real processes by default). */
export interface SlurmCommands {
  runProcess?: RunProcess;
  /** Environment of the Slurm commands (`SLURM_CONF` etc.). @default process.env */
  env?: Record<string, string | undefined>;
}

function envOf(options: SlurmCommands): Record<string, string> {
  return Object.fromEntries(
    Object.entries(options.env ?? process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** Runs one Slurm command; a missing binary or a non-zero exit is a `PersonaForgeError`. */
export async function slurmCommand(
  file: string,
  args: string[],
  options: SlurmCommands = {},
): Promise<string> {
  const result = await collectProcess(options.runProcess ?? execaRunProcess, file, args, envOf(options));
  if (result.exitCode === 127 || (result.exitCode === undefined && result.stderr.trim() === '')) {
    throw new PersonaForgeError(
      'TRAINING_JOB_FAILED',
      `${file} was not found: \`${file} ${args.join(' ')}\` could not start (it is not on PATH)`,
      {
        hint: `${file} comes with the Slurm client tools: run this on a Slurm login node, or add them to PATH`,
      },
    );
  }
  if (result.exitCode !== 0) {
    const detail = (result.stderr.trim() || result.stdout.trim()).split('\n').slice(-5).join('\n');
    throw new PersonaForgeError(
      'TRAINING_JOB_FAILED',
      `${file} ${args.join(' ')} failed (exit ${result.exitCode ?? 'unknown'}): ${detail}`,
      {
        hint:
          result.exitCode === 127
            ? `${file} is not on PATH: run this on a Slurm login node`
            : 'see the Slurm message above',
      },
    );
  }
  return result.stdout;
}

/**
 * `sbatch --parsable [args] <script>` → the job id (`--parsable` prints `id` or `id;cluster`).
 *
 * @example
 * const id = await sbatch('out/q/slurm/run.sbatch');
 */
export async function sbatch(
  script: string,
  args: string[] = [],
  options: SlurmCommands = {},
): Promise<string> {
  const out = (await slurmCommand('sbatch', ['--parsable', ...args, script], options)).trim();
  const id = out.split('\n').pop()?.split(';')[0]?.trim() ?? '';
  if (!/^\d+$/.test(id)) {
    throw new PersonaForgeError('TRAINING_JOB_FAILED', `sbatch printed "${out}", not a job id`);
  }
  return id;
}

/** Slurm's word for where a job (or array task) stands: PENDING, RUNNING, COMPLETED, FAILED, … */
export type JobStates = Map<string, string>;

/**
 * The state of each job and array task among `ids`: `sacct` when accounting is on, else `squeue`
 * for queued/running jobs and `scontrol show job` for recently finished ones. Ids Slurm no longer
 * knows are absent from the map.
 */
export async function jobStates(ids: string[], options: SlurmCommands = {}): Promise<JobStates> {
  const states: JobStates = new Map();
  if (ids.length === 0) return states;
  try {
    const out = await slurmCommand(
      'sacct',
      ['-n', '-P', '-X', '-j', ids.join(','), '-o', 'JobID,State'],
      options,
    );
    for (const line of out.split('\n')) {
      const [id, state] = line.split('|');
      if (id !== undefined && state !== undefined && id !== '') states.set(id, state.split(' ')[0] ?? state);
    }
    return states;
  } catch {
    // accounting disabled: fall back to the controller's memory
  }
  for (const id of ids) {
    let text: string;
    try {
      text = await slurmCommand('scontrol', ['show', 'job', '-o', id], options);
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const job = /JobId=(\d+)/.exec(line)?.[1];
      const task = /ArrayTaskId=(\S+)/.exec(line)?.[1];
      const state = /JobState=(\S+)/.exec(line)?.[1];
      if (job === undefined || state === undefined) continue;
      const arrayJob = /ArrayJobId=(\d+)/.exec(line)?.[1];
      states.set(task !== undefined && arrayJob !== undefined ? `${arrayJob}_${task}` : job, state);
    }
  }
  return states;
}

/** Whether any of these states means the job may still run. */
export function isActive(state: string): boolean {
  return ['PENDING', 'RUNNING', 'CONFIGURING', 'COMPLETING', 'REQUEUED', 'RESIZING', 'SUSPENDED'].includes(
    state,
  );
}
