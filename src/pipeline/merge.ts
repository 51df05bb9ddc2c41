import { cp, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { InputError, PersonaForgeError } from '../errors/index.js';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { readJsonl } from '../util/fs.js';
import { stableStringify } from '../util/hash.js';
import { hashOutputs, outputDigests, packageVersion } from './manifest.js';
import { stageOutputs } from './runner.js';
import { clearMarker, stageFingerprints, stateDir, writeLinesAtomic, writeMarker } from './stage-state.js';
import type { StageEntry } from './types.js';

interface ShardManifest {
  shard: string | null;
  pipeline: { configHash: string };
  config: PipelineConfig;
  status: string;
  /** sha256 of every file the shard produced (posix paths relative to it). */
  files?: Record<string, string>;
}

/**
 * Combines the outputs of `--shard i/n` runs into one run directory as if the corpus had been
 * made in one run: per-user stage outputs are merged in user order, quarantines concatenated,
 * and stage markers written for the unsharded configuration, so running the pipeline on the
 * merged directory resumes with the whole-corpus stages (validate, export, report).
 *
 * @example
 * const config = await mergeShards(['out/s0', 'out/s1'], 'out/all', defaultStages);
 */
export async function mergeShards(
  dirs: string[],
  outDir: string,
  stages: Record<string, StageEntry>,
): Promise<PipelineConfig> {
  if (dirs.length === 0) throw new InputError('merge', 'name at least one shard directory');
  const manifests: ShardManifest[] = [];
  for (const dir of dirs) {
    const path = join(dir, 'manifest.json');
    let manifest: ShardManifest;
    try {
      manifest = JSON.parse(await readFile(path, 'utf8')) as ShardManifest;
    } catch (error) {
      throw new InputError(path, 'cannot read the shard manifest; did that shard run finish?', {
        cause: error,
      });
    }
    manifests.push(manifest);
  }
  const first = manifests[0] as ShardManifest;
  const count = Number(first.shard?.split('/')[1] ?? 1);
  const seen = new Map<number, string>();
  const fail = (message: string, hint?: string) =>
    new PersonaForgeError('MERGE_INVALID', message, hint === undefined ? {} : { hint });
  manifests.forEach((manifest, i) => {
    const dir = dirs[i] as string;
    if (manifest.shard === null || manifest.shard === undefined) {
      throw fail(`${dir} is not a shard (it was run without --shard)`);
    }
    if (manifest.pipeline.configHash !== first.pipeline.configHash) {
      throw fail(`${dir} was made with a different pipeline configuration than ${dirs[0]}`);
    }
    if (manifest.status !== 'complete') {
      throw fail(
        `${dir} is not complete (status ${manifest.status})`,
        'run the same command in that shard again to finish it',
      );
    }
    const [index, n] = manifest.shard.split('/').map(Number);
    if (n !== count) throw fail(`${dir} is shard ${manifest.shard}, expected one of n=${count}`);
    const twin = seen.get(index as number);
    if (twin !== undefined)
      throw fail(`${dir} and ${twin} are both shard ${manifest.shard}: each shard once`);
    seen.set(index as number, dir);
  });
  if (seen.size !== count) {
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !seen.has(i));
    throw new PersonaForgeError(
      'MERGE_INVALID',
      `shards ${missing.map((i) => `${i}/${count}`).join(', ')} are missing`,
    );
  }

  // Every file a shard recorded is what it wrote: an edited, truncated or missing file would be
  // merged as data (or lose its users, blamed on a stage), so it stops the merge naming the file.
  for (const [i, manifest] of manifests.entries()) {
    const dir = dirs[i] as string;
    if (manifest.files === undefined)
      throw fail(`${join(dir, 'manifest.json')} records no file digests`, 'run that shard again');
    for (const [rel, sha256] of Object.entries(manifest.files)) {
      const now = (await hashOutputs(resolve(dir), [rel]))[rel];
      if (now === sha256) continue;
      throw fail(
        `${join(dir, rel)} ${now === undefined ? 'is missing' : 'does not match the sha256 its shard manifest recorded (edited, truncated or damaged)'}`,
        'run the same command in that shard again to rebuild it (finished users are kept), then merge',
      );
    }
  }

  const config = first.config;
  const runDir = resolve(outDir);
  const fingerprints = stageFingerprints(config, null);
  // A directory merged into before keeps nothing of the whole-corpus stages: they run again.
  for (const name of config.stages) {
    if (stages[name]?.stage.kind === 'reduce') await clearMarker(runDir, name);
  }
  // Side files a per-user stage writes beside its output (e.g. the image pool) are the same in
  // every shard: copy them first, then overwrite the per-user outputs with the merged ones.
  for (const dir of dirs) {
    await cp(resolve(dir), runDir, {
      recursive: true,
      force: false,
      filter: (source) => {
        const rel = source.slice(resolve(dir).length + 1);
        return !(
          rel === '.state' ||
          rel.startsWith('.state/') ||
          rel === 'manifest.json' ||
          rel === '.pf-lock' ||
          rel === 'quarantine.jsonl'
        );
      },
    });
  }
  for (const name of config.stages) {
    const entry = stages[name];
    if (entry === undefined || entry.stage.kind !== 'map') continue;
    const output = entry.stage.output;
    const records: Array<{ userId: string; line: string }> = [];
    const quarantine: Array<{ inputId: string; line: string }> = [];
    for (const dir of dirs) {
      for await (const record of readJsonl(join(dir, output), { allowMissing: true })) {
        const userId = String((record as { userId: unknown }).userId);
        records.push({ userId, line: JSON.stringify(record) });
      }
      for await (const record of readJsonl(join(stateDir(dir), `${name}.quarantine.jsonl`), {
        allowMissing: true,
      })) {
        quarantine.push({
          inputId: String((record as { inputId: unknown }).inputId),
          line: stableStringify(record),
        });
      }
    }
    records.sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
    quarantine.sort((a, b) => (a.inputId < b.inputId ? -1 : a.inputId > b.inputId ? 1 : 0));
    await writeLinesAtomic(
      join(runDir, output),
      records.map((r) => r.line),
    );
    await writeLinesAtomic(
      join(stateDir(runDir), `${name}.quarantine.jsonl`),
      quarantine.map((q) => q.line),
    );
    await writeMarker(runDir, {
      stage: name,
      fingerprint: fingerprints[name] as string,
      in: records.length + quarantine.length,
      out: records.length,
      quarantined: quarantine.length,
      offline: true,
      version: await packageVersion(),
      files: await outputDigests(runDir, stageOutputs(entry.stage)),
    });
  }
  return config;
}
