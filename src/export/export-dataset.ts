import { existsSync } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExportConfig, MixConfig } from '../schemas/export-config.js';
import { readJson, writeFileAtomic, writeJson } from '../util/fs.js';
import { sha256 } from '../util/hash.js';
import { renderDatasetCard } from './dataset-card.js';
import { buildLocomoSample } from './eval/locomo.js';
import { createPersonaMmeWriter } from './eval/persona-mme.js';
import { createPersonaMemWriter } from './eval/personamem.js';
import { openJsonlWriter } from './jsonl-writer.js';
import { mixQuotas, selectByQuota } from './mix.js';
import { writeParquetFromJsonl } from './parquet.js';
import { type ExportBundle, readExportBundles } from './read-run.js';
import { rowShapeProblems } from './row-shape.js';
import { type RlRow, rlCandidates, type SftRow, sftCandidates } from './samples.js';

export const SFT_COLUMNS = ['id', 'user_id', 'task', 'messages', 'images'] as const;
export const RL_COLUMNS = [
  'id',
  'user_id',
  'task',
  'answer_type',
  'messages',
  'images',
  'solution',
  'choices',
  'gt_ops',
  'question_time',
  'memory_snapshot',
] as const;

export interface ExportDatasetOptions {
  config: ExportConfig;
  seed: number;
  /** Users to leave out; default: the `quarantined` list of `<runDir>/validation.json` when present. */
  exclude?: ReadonlySet<string>;
  /** Output folder. @default `<runDir>/export` */
  outDir?: string;
  /** Settings recorded in the dataset card (pipeline name, model per role, …). */
  generation?: Record<string, unknown>;
}

type Split = 'train' | 'test';
const SPLITS: Split[] = ['train', 'test'];

/** What an export wrote. */
export interface ExportSummary {
  users: Record<Split, number>;
  excluded: number;
  sft: Record<Split, Record<string, number>>;
  rl: Record<Split, Record<string, number>>;
  candidates: { sft: Record<Split, Record<string, number>>; rl: Record<Split, Record<string, number>> };
  eval: {
    personaMme: { users: number; questions: number };
    personamem: { questions: number; contexts: number };
    locomo: { samples: number; questions: number };
  };
  offline: { realizer: boolean; memory: boolean; judges: boolean | null };
  /** Pool images copied into the export, and referenced ones missing from the pool. */
  images: { copied: number; missing: string[] };
  /** Rows left out because ms-swift would train on them wrongly (see `rowShapeProblems`). */
  rejectedRows: { count: number; examples: Array<{ id: string; reasons: string[] }> };
  realizers: string[];
  files: Array<{ path: string; bytes: number }>;
}

/**
 * Exports a validated run: evaluation sets (Persona-MME, PersonaMem CSV, LoCoMo), SFT and RL
 * samples mixed by the configured ratios and split by persona, jsonl + parquet, and a dataset
 * card. Streams users twice (once to count candidates and write eval sets, once to write the
 * kept rows), then converts each jsonl to parquet one file at a time.
 *
 * @example const summary = await exportDataset('out/quickstart', { config: ExportConfig.parse({}), seed: 42 });
 */
export async function exportDataset(runDir: string, options: ExportDatasetOptions): Promise<ExportSummary> {
  const { config, seed } = options;
  const outDir = options.outDir ?? join(runDir, 'export');
  const exclude = options.exclude ?? (await quarantinedUsers(runDir));
  const splitOf = (bundle: ExportBundle): Split => {
    if (config.split.by === 'plan') return bundle.plan.split;
    const draw =
      Number.parseInt(sha256(`${seed}\u241fsplit\u241f${bundle.plan.userId}`).slice(0, 8), 16) / 0x100000000;
    return draw < config.split.testRatio ? 'test' : 'train';
  };
  const summary: ExportSummary = {
    users: { train: 0, test: 0 },
    excluded: exclude.size,
    sft: { train: {}, test: {} },
    rl: { train: {}, test: {} },
    candidates: { sft: { train: {}, test: {} }, rl: { train: {}, test: {} } },
    eval: {
      personaMme: { users: 0, questions: 0 },
      personamem: { questions: 0, contexts: 0 },
      locomo: { samples: 0, questions: 0 },
    },
    offline: { realizer: false, memory: false, judges: null },
    images: { copied: 0, missing: [] },
    rejectedRows: { count: 0, examples: [] },
    realizers: [],
    files: [],
  };
  const realizers = new Set<string>();

  // Pass 1: candidate ids per split and task; evaluation sets.
  const sftIds = { train: new Map<string, string[]>(), test: new Map<string, string[]>() };
  const rlIds = { train: new Map<string, string[]>(), test: new Map<string, string[]>() };
  const mme = createPersonaMmeWriter(join(outDir, 'eval', 'persona-mme'), config);
  const personamem = createPersonaMemWriter(join(outDir, 'eval', 'personamem'), config);
  const locomo: unknown[] = [];
  const locomoUsers: Record<string, string> = {};
  const seen = new Set<string>();
  const imagePaths = new Set<string>();
  const rejected = new Set<string>();
  for await (const bundle of readExportBundles(runDir, exclude)) {
    const split = splitOf(bundle);
    seen.add(bundle.plan.userId);
    const pool = new Map(bundle.plan.images.map((image) => [image.id, image.path]));
    for (const session of bundle.dialogue.sessions) {
      for (const turn of session.turns) for (const id of turn.images) imagePaths.add(pool.get(id) ?? id);
    }
    summary.users[split]++;
    realizers.add(bundle.dialogue.realizer);
    if (bundle.dialogue.offline) summary.offline.realizer = true;
    if (bundle.memory?.offline === true) summary.offline.memory = true;
    // A row ms-swift would train on wrongly (an empty message, a tag without its image) is never
    // written: it is listed with its reasons (validate's training_rows rule should have caught it).
    const check = (row: SftRow | RlRow) => {
      const problems = rowShapeProblems(row);
      if (problems.length === 0) return true;
      summary.rejectedRows.count++;
      if (summary.rejectedRows.examples.length < 20)
        summary.rejectedRows.examples.push({ id: row.id, reasons: problems });
      rejected.add(row.id);
      return false;
    };
    for (const row of sftCandidates(bundle, config)) if (check(row)) push(sftIds[split], row.task, row.id);
    for (const row of rlCandidates(bundle, config)) if (check(row)) push(rlIds[split], row.task, row.id);
    if (config.eval.splits.includes(split)) {
      await mme.addUser(bundle);
      personamem.addUser(bundle);
      const sample = buildLocomoSample(bundle, config);
      if (sample !== null) {
        // LoCoMo's kind of id, numbered in user order (the user id stays in the dataset card's mapping).
        sample.sample_id = `conv-${locomo.length + 1}`;
        locomoUsers[sample.sample_id] = bundle.plan.userId;
        locomo.push(sample);
        summary.eval.locomo.samples++;
        summary.eval.locomo.questions += sample.qa.length;
      }
    }
  }
  summary.realizers = [...realizers].sort();
  summary.eval.personaMme = await mme.finish();
  summary.eval.personamem = await personamem.finish();
  await writeJson(join(outDir, 'eval', 'locomo.json'), locomo);
  if (locomo.length > 0) await writeJson(join(outDir, 'eval', 'locomo-users.json'), locomoUsers);

  const keep = new Set<string>();
  for (const split of SPLITS) {
    summary.candidates.sft[split] = counts(sftIds[split]);
    summary.candidates.rl[split] = counts(rlIds[split]);
    for (const id of selectByQuota(
      sftIds[split],
      mixQuotas(summary.candidates.sft[split], config.sft.mix as MixConfig),
      seed,
    ))
      keep.add(id);
    for (const id of selectByQuota(
      rlIds[split],
      mixQuotas(summary.candidates.rl[split], config.rl.mix as MixConfig),
      seed,
    ))
      keep.add(id);
  }

  // Pass 2: write the kept rows in user order (users that failed a schema in pass 1 are skipped).
  const writers = {
    sft: {
      train: await openJsonlWriter(join(outDir, 'sft', 'train.jsonl')),
      test: await openJsonlWriter(join(outDir, 'sft', 'test.jsonl')),
    },
    rl: {
      train: await openJsonlWriter(join(outDir, 'rl', 'train.jsonl')),
      test: await openJsonlWriter(join(outDir, 'rl', 'test.jsonl')),
    },
  };
  for await (const bundle of readExportBundles(runDir, exclude, { trusted: true })) {
    if (!seen.has(bundle.plan.userId)) continue;
    const split = splitOf(bundle);
    for (const row of sftCandidates(bundle, config)) {
      if (!keep.has(row.id)) continue;
      await writers.sft[split].write(pick(row, SFT_COLUMNS));
      summary.sft[split][row.task] = (summary.sft[split][row.task] ?? 0) + 1;
    }
    for (const row of rlCandidates(bundle, config)) {
      if (!keep.has(row.id)) continue;
      await writers.rl[split].write(pick(row, RL_COLUMNS));
      summary.rl[split][row.task] = (summary.rl[split][row.task] ?? 0) + 1;
    }
  }
  for (const kind of ['sft', 'rl'] as const) for (const split of SPLITS) await writers[kind][split].close();

  if (config.parquet) {
    // Batch by batch from the jsonl just written: memory stays bounded by one row group.
    for (const kind of ['sft', 'rl'] as const) {
      for (const split of SPLITS) {
        const columns = kind === 'sft' ? SFT_COLUMNS : RL_COLUMNS;
        await writeParquetFromJsonl(
          join(outDir, kind, `${split}.jsonl`),
          join(outDir, kind, `${split}.parquet`),
          columns,
        );
      }
    }
  }
  if (config.copyImages)
    summary.images = await copyImages(
      join(runDir, config.imagePoolDir),
      join(outDir, config.imageRoot),
      imagePaths,
    );
  const validation = join(runDir, 'validation.json');
  if (existsSync(validation)) {
    const report = (await readJson(validation)) as { judgeMode?: string };
    summary.offline.judges = report.judgeMode === 'offline-heuristic';
  }
  await writeJson(join(outDir, 'stats.json'), { ...summary, files: undefined });
  await writeFileAtomic(
    join(outDir, 'README.md'),
    renderDatasetCard(summary, {
      config,
      seed,
      generation: options.generation ?? {},
      parquet: config.parquet,
    }),
  );
  summary.files = await listFiles(outDir);
  return summary;
}

/** Copies pool-relative image files (sorted, so the order of work is stable); lists the missing ones. */
async function copyImages(
  poolDir: string,
  targetDir: string,
  paths: ReadonlySet<string>,
): Promise<{ copied: number; missing: string[] }> {
  const result = { copied: 0, missing: [] as string[] };
  for (const path of [...paths].sort()) {
    const source = join(poolDir, path);
    if (!existsSync(source)) {
      result.missing.push(path);
      continue;
    }
    await mkdir(dirname(join(targetDir, path)), { recursive: true });
    await copyFile(source, join(targetDir, path));
    result.copied++;
  }
  return result;
}

function push(map: Map<string, string[]>, task: string, id: string) {
  const ids = map.get(task);
  if (ids === undefined) map.set(task, [id]);
  else ids.push(id);
}

function counts(map: Map<string, string[]>): Record<string, number> {
  return Object.fromEntries(
    [...map].sort(([a], [b]) => (a < b ? -1 : 1)).map(([task, ids]) => [task, ids.length]),
  );
}

function pick<T extends SftRow | RlRow>(row: T, columns: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const column of columns) out[column] = (row as unknown as Record<string, unknown>)[column];
  return out;
}

async function quarantinedUsers(runDir: string): Promise<Set<string>> {
  const path = join(runDir, 'validation.json');
  if (!existsSync(path)) return new Set();
  const report = (await readJson(path)) as { quarantined?: Array<{ userId: string }> };
  return new Set((report.quarantined ?? []).map((entry) => entry.userId));
}

/** Every file under `dir` (relative path, size), sorted: what a Hub push uploads. */
export async function listFiles(dir: string): Promise<Array<{ path: string; bytes: number }>> {
  const { readdir } = await import('node:fs/promises');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: Array<{ path: string; bytes: number }> = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const full = join(entry.parentPath, entry.name);
    files.push({
      path: full
        .slice(dir.length + 1)
        .split('\\')
        .join('/'),
      bytes: (await stat(full)).size,
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
