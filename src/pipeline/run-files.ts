import { createReadStream } from 'node:fs';
import { access, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { isTempFile, tempPathFor, writeJson } from '../util/fs.js';
import { gitCommit, hashOutputs, packageVersion } from './manifest.js';
import { stateDir, writeLinesAtomic } from './stage-state.js';
import type { RunPipelineOptions, RunSummary, Stage } from './types.js';

/**
 * The run directory's own files, kept by the runner: stage journals of another configuration,
 * the run-wide `quarantine.jsonl`, `manifest.json`, temp files an interrupted write left behind,
 * and the user count a reduce stage's progress is measured against.
 */

/** A journal left by a run of a different configuration cannot be resumed: start that stage afresh. */
export async function resetJournalIfStale(
  runDir: string,
  stage: string,
  fingerprint: string,
): Promise<boolean> {
  const fingerprintFile = join(stateDir(runDir), `${stage}.fingerprint`);
  let previous: string | null = null;
  try {
    previous = (await readFile(fingerprintFile, 'utf8')).trim();
  } catch {
    previous = null;
  }
  if (previous !== fingerprint) {
    const { writeFile } = await import('node:fs/promises');
    await rm(join(stateDir(runDir), `${stage}.journal.jsonl`), { force: true });
    await writeFile(fingerprintFile, `${fingerprint}\n`);
    return true;
  }
  return false;
}

/** Whether a stage has a journal to resume from. */
export async function journalExists(runDir: string, stage: string): Promise<boolean> {
  return access(join(stateDir(runDir), `${stage}.journal.jsonl`)).then(
    () => true,
    () => false,
  );
}

/** `quarantine.jsonl` = every stage's quarantined records, in stage order. */
export async function writeRunQuarantine(runDir: string, stages: string[]): Promise<void> {
  const lines: string[] = [];
  for (const name of stages) {
    try {
      const text = await readFile(join(stateDir(runDir), `${name}.quarantine.jsonl`), 'utf8');
      for (const line of text.split('\n')) if (line !== '') lines.push(line);
    } catch {
      // stage not run yet
    }
  }
  await writeLinesAtomic(join(runDir, 'quarantine.jsonl'), lines);
}

export async function writeManifest(
  runDir: string,
  options: RunPipelineOptions,
  summary: RunSummary,
  times: { startedAt: string; finishedAt: string; configHash: string; status: string },
): Promise<void> {
  const usage = options.llm.usage();
  const roles = [...new Set(Object.values(options.stages).flatMap((entry) => entry.roles))].sort();
  await writeJson(join(runDir, 'manifest.json'), {
    tool: 'persona-forge',
    version: await packageVersion(),
    gitCommit: await gitCommit(),
    status: times.status,
    message: summary.message ?? null,
    startedAt: times.startedAt,
    finishedAt: times.finishedAt,
    pipeline: { file: options.configFile, name: options.config.name, configHash: times.configHash },
    seed: options.config.seed,
    shard: options.shard == null ? null : `${options.shard.index}/${options.shard.count}`,
    offline: Object.fromEntries(roles.map((role) => [role, options.llm.isOffline(role)])),
    stages: summary.stages,
    usage,
    config: options.config,
    files: await hashOutputs(runDir, [
      'quarantine.jsonl',
      ...declaredOutputs(options.config.stages, options.stages),
    ]),
  });
}

/** Users in the last per-user output among `inputs` (what a reduce stage will read). */
export async function usersIn(inputs: string[], outputs: Record<string, string>): Promise<number> {
  for (const name of [...inputs].reverse()) {
    const path = outputs[name];
    if (path === undefined) continue;
    try {
      // Streamed, and newlines found natively: the memory file is hundreds of MB at scale.
      let n = 0;
      for await (const chunk of createReadStream(path)) {
        const buffer = chunk as Buffer;
        for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) n++;
      }
      return n;
    } catch {
      return 0;
    }
  }
  return 0;
}

/**
 * Removes temporary files an interrupted write left behind (a crash between writing and
 * renaming), so a resumed run ends with exactly the files of an uninterrupted one. Only the
 * run's own paths are swept (`paths`: its stage outputs, manifest, quarantine and state): the
 * temporary name of each, and temporary files inside the folders among them. Nothing else in
 * the folder is touched.
 */
export async function removeStrayTempFiles(runDir: string, paths: string[]): Promise<void> {
  const walk = async (dir: string): Promise<void> => {
    let entries: Array<import('node:fs').Dirent>;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (isTempFile(entry.name)) await rm(full, { force: true });
    }
  };
  for (const path of new Set([...paths, 'manifest.json', 'quarantine.jsonl'])) {
    const full = join(runDir, path);
    await rm(tempPathFor(full), { force: true });
    await walk(full);
  }
  await walk(stateDir(runDir));
}

/** Every path the named stages write, relative to the run directory (what a run owns). */
export function declaredOutputs(names: string[], stages: RunPipelineOptions['stages']): string[] {
  return names.flatMap((name) => {
    const entry = stages[name];
    return entry === undefined ? [] : stageOutputs(entry.stage);
  });
}

/** Every path a stage writes, relative to the run directory. */
export function stageOutputs(stage: Stage): string[] {
  return stage.kind === 'map' ? [stage.output, ...(stage.sideOutputs ?? [])] : stage.outputs;
}
