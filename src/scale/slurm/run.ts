import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { InputError, PersonaForgeError } from '../../errors/index.js';
import { writeFileAtomic, writeJson } from '../../util/fs.js';
import { isActive, jobStates, type SlurmCommands, sbatch, slurmCommand } from './sched.js';
import { type RunScriptsOptions, renderRunScripts, submitHint, withDependency } from './scripts.js';

/** One `sbatch` persona-forge made for a run directory. */
const Submission = z.object({
  kind: z.enum(['run', 'merge']),
  jobId: z.string(),
  /** Array indexes of a `run` submission (`0-2`, or `1,4` when resubmitting failed shards). */
  array: z.string().optional(),
  dependsOn: z.string().optional(),
  at: z.string(),
});

/** `<out>/slurm/jobs.json`: the scripts' inputs and every submission, newest last. */
export const SlurmJobsFile = z.object({
  version: z.literal(1),
  pipeline: z.string(),
  out: z.string(),
  shards: z.number().int().positive(),
  submissions: z.array(Submission),
});
export type SlurmJobsFile = z.infer<typeof SlurmJobsFile>;

/** Options of {@link slurmRun}. */
export interface SlurmRunOptions extends RunScriptsOptions, SlurmCommands {
  /** Submit the array and the dependent merge with `sbatch --parsable`. */
  submit?: boolean;
  now?: () => Date;
}

/** What {@link slurmRun} wrote and submitted. */
export interface SlurmRunResult {
  runScript: string;
  mergeScript: string;
  jobsFile: string;
  arrayJobId?: string;
  mergeJobId?: string;
}

export function slurmPaths(out: string): { dir: string; run: string; merge: string; jobs: string } {
  const dir = path.join(path.resolve(out), 'slurm');
  return {
    dir,
    run: path.join(dir, 'run.sbatch'),
    merge: path.join(dir, 'merge.sbatch'),
    jobs: path.join(dir, 'jobs.json'),
  };
}

async function writeScript(file: string, text: string): Promise<void> {
  await writeFileAtomic(file, text);
  const { chmod } = await import('node:fs/promises');
  await chmod(file, 0o755);
}

/**
 * `persona-forge slurm run`: writes `<out>/slurm/run.sbatch` (the shard array) and
 * `<out>/slurm/merge.sbatch` (the merge into `<out>`); with `submit`, submits the array, writes
 * `--dependency=afterok:<array>` into the merge script, submits it, and records both ids in
 * `<out>/slurm/jobs.json`.
 *
 * @example
 * await slurmRun({ pipeline: 'pipelines/quickstart.yaml', out: 'out/q', shards: 3, submit: true });
 */
export async function slurmRun(options: SlurmRunOptions): Promise<SlurmRunResult> {
  const scripts = renderRunScripts(options);
  const cwd = path.resolve(options.cwd ?? process.cwd());
  const out = path.resolve(cwd, options.out);
  const paths = slurmPaths(out);
  const { mkdir } = await import('node:fs/promises');
  await mkdir(scripts.logDir, { recursive: true });
  await writeScript(paths.run, scripts.runScript);
  await writeScript(paths.merge, scripts.mergeScript);
  const jobs: SlurmJobsFile = {
    version: 1,
    pipeline: path.resolve(cwd, options.pipeline),
    out,
    shards: options.shards,
    submissions: [],
  };
  const result: SlurmRunResult = { runScript: paths.run, mergeScript: paths.merge, jobsFile: paths.jobs };
  if (options.submit === true) {
    const now = options.now ?? (() => new Date());
    const arrayJobId = await sbatch(paths.run, [], options);
    jobs.submissions.push({
      kind: 'run',
      jobId: arrayJobId,
      array: `0-${options.shards - 1}`,
      at: now().toISOString(),
    });
    await writeJson(paths.jobs, jobs);
    await writeScript(paths.merge, withDependency(scripts.mergeScript, arrayJobId));
    const mergeJobId = await sbatch(paths.merge, [], options);
    jobs.submissions.push({
      kind: 'merge',
      jobId: mergeJobId,
      dependsOn: arrayJobId,
      at: now().toISOString(),
    });
    result.arrayJobId = arrayJobId;
    result.mergeJobId = mergeJobId;
  }
  await writeJson(paths.jobs, jobs);
  return result;
}

/** Reads `<out>/slurm/jobs.json`. */
export async function readSlurmJobs(out: string): Promise<SlurmJobsFile> {
  const file = slurmPaths(out).jobs;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new InputError(file, 'no Slurm jobs were recorded for this run directory', {
      hint: 'submit first with `persona-forge slurm run <pipeline> --out DIR --shards N --submit`',
    });
  }
  const parsed = SlurmJobsFile.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new InputError(file, `not a persona-forge jobs file: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  return parsed.data;
}

/** Whether a run directory's manifest says every stage it ran finished. */
export async function runComplete(dir: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as {
      status?: string;
    };
    return manifest.status === 'complete';
  } catch {
    return false;
  }
}

/** The newest submission of a kind. */
export function latest(jobs: SlurmJobsFile, kind: 'run' | 'merge'): z.infer<typeof Submission> | undefined {
  return jobs.submissions.filter((s) => s.kind === kind).at(-1);
}

/** What {@link slurmResume} did. */
export interface SlurmResumeResult {
  /** Shard indexes resubmitted (empty when every shard is complete). */
  resubmitted: number[];
  arrayJobId?: string;
  mergeJobId?: string;
  /** Nothing to do: the merged run is complete. */
  complete: boolean;
}

/**
 * `persona-forge slurm resume DIR`: resubmits the shards whose run is not complete (each resumes
 * per user from its own journal) as `--array=<those indexes>`, cancels a merge job left waiting
 * on the failed array, and submits a new merge depending on the resubmitted tasks. Refuses while
 * the previous jobs are still queued or running.
 */
export async function slurmResume(
  out: string,
  options: SlurmCommands & { now?: () => Date } = {},
): Promise<SlurmResumeResult> {
  const jobs = await readSlurmJobs(out);
  const paths = slurmPaths(out);
  if (jobs.submissions.length === 0) {
    throw new InputError(
      paths.jobs,
      'these scripts were written but never submitted (`slurm run` without --submit): there is nothing to resume',
      { hint: `submit them first: ${submitHint(paths.run, paths.merge)}` },
    );
  }
  const now = options.now ?? (() => new Date());
  const lastRun = latest(jobs, 'run');
  const lastMerge = latest(jobs, 'merge');
  const ids = [lastRun?.jobId, lastMerge?.jobId].filter((id): id is string => id !== undefined);
  const states = await jobStates(ids, options);
  const running = [...states.entries()].filter(
    ([id, state]) => isActive(state) && !(id === lastMerge?.jobId && state === 'PENDING'),
  );
  if (running.length > 0) {
    throw new PersonaForgeError(
      'RUN_LOCKED',
      `jobs of this run are still queued or running: ${running.map(([id, s]) => `${id} ${s}`).join(', ')}`,
      { hint: 'wait for them (persona-forge status DIR) or scancel them first' },
    );
  }
  const failed: number[] = [];
  for (let i = 0; i < jobs.shards; i++) {
    if (!(await runComplete(path.join(jobs.out, 'shards', String(i))))) failed.push(i);
  }
  if (failed.length === 0 && (await runComplete(jobs.out))) return { resubmitted: [], complete: true };
  if (lastMerge !== undefined && states.get(lastMerge.jobId) === 'PENDING') {
    await slurmCommand('scancel', [lastMerge.jobId], options);
  }
  const result: SlurmResumeResult = { resubmitted: failed, complete: false };
  const mergeText = await readFile(paths.merge, 'utf8');
  if (failed.length > 0) {
    const array = failed.join(',');
    const arrayJobId = await sbatch(paths.run, [`--array=${array}`], options);
    jobs.submissions.push({ kind: 'run', jobId: arrayJobId, array, at: now().toISOString() });
    await writeJson(paths.jobs, jobs);
    await writeScript(paths.merge, withDependency(mergeText, arrayJobId));
    result.arrayJobId = arrayJobId;
  } else {
    await writeScript(
      paths.merge,
      mergeText
        .split('\n')
        .filter((l) => !l.startsWith('#SBATCH --dependency='))
        .join('\n'),
    );
  }
  const mergeJobId = await sbatch(paths.merge, [], options);
  jobs.submissions.push({
    kind: 'merge',
    jobId: mergeJobId,
    ...(result.arrayJobId === undefined ? {} : { dependsOn: result.arrayJobId }),
    at: now().toISOString(),
  });
  await writeJson(paths.jobs, jobs);
  result.mergeJobId = mergeJobId;
  return result;
}
