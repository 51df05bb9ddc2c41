import { existsSync } from 'node:fs';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { InputError } from '../errors/index.js';
import type { ExportConfig } from '../schemas/export-config.js';
import { backgroundWrites } from '../util/background.js';
import { BufferRegions, createByteRing, RingReader } from '../util/byte-ring.js';
import { readJson, readJsonl, writeFileAtomic, writeJson } from '../util/fs.js';
import { createThreadPool } from '../util/thread-pool.js';
import { renderDatasetCard } from './dataset-card.js';
import type { PersonaMemLeftOut } from './eval/personamem.js';
import { inline, scanAndChoose } from './export-scan.js';
import {
  type ExportJob,
  type ExportJobData,
  RL_COLUMNS,
  renderKeptRows,
  SFT_COLUMNS,
  type Split,
  type UserRows,
} from './export-user.js';
import { openJsonlWriter } from './jsonl-writer.js';
import { openParquetWriter } from './parquet.js';
import { poolImageBytes } from './pool-image-bytes.js';
import { readUnitDrops } from './prune.js';
import { type ExportSpans, readExportLines, readExportSpans } from './read-run.js';

export { RL_COLUMNS, SFT_COLUMNS } from './export-user.js';

export interface ExportDatasetOptions {
  config: ExportConfig;
  seed: number;
  /** Users to leave out; default: the `quarantined` list of `<runDir>/validation.json` when present. */
  exclude?: ReadonlySet<string>;
  /** Output folder. @default `<runDir>/export` */
  outDir?: string;
  /** Settings recorded in the dataset card (pipeline name, model per role, …). */
  generation?: Record<string, unknown>;
  /**
   * The plan and dialogue files are exactly what this version's stages wrote (see
   * `StageContext.unchangedOutput`): their records are read without their schemas. @default false
   */
  trustedRecords?: boolean;
  /**
   * Worker threads that scan users and render rows (≤ 1: all on this thread). The output is the
   * same bytes either way: results are assembled in user order.
   * @default 0
   */
  workers?: number;
}
const SPLITS: Split[] = ['train', 'test'];
/**
 * Bytes of each worker's ring: room for a few dozen users' rows while earlier ones are written
 * (a user's rows bigger than the whole ring go in a message of their own).
 */
const RING_BYTES = 32 * 1024 * 1024;

/** What an export wrote. */
export interface ExportSummary {
  users: Record<Split, number>;
  excluded: number;
  sft: Record<Split, Record<string, number>>;
  rl: Record<Split, Record<string, number>>;
  candidates: { sft: Record<Split, Record<string, number>>; rl: Record<Split, Record<string, number>> };
  eval: {
    personaMme: { users: number; questions: number };
    /** `leftOut` once any user had a PersonaMem question. */
    personamem: { questions: number; contexts: number; leftOut?: PersonaMemLeftOut };
    locomo: { samples: number; questions: number };
  };
  offline: { realizer: boolean; memory: boolean; judges: boolean | null };
  /** Pool images copied into the export, and referenced ones missing from the pool. */
  images: { copied: number; missing: string[] };
  /** Rows the mix chose and left out because ms-swift would train on them wrongly (see `rowShapeProblems`). */
  rejectedRows: { count: number; examples: Array<{ id: string; reasons: string[] }> };
  realizers: string[];
  files: Array<{ path: string; bytes: number }>;
}

/**
 * Exports a validated run: evaluation sets (Persona-MME, PersonaMem CSV, LoCoMo), SFT and RL
 * samples mixed by the configured ratios and split by persona, jsonl + parquet, and a dataset
 * card. Streams users twice: pass 1 names every candidate row (from a `packed-v2` memory
 * record's index: no decoding) and writes the eval sets; the mix then chooses; pass 2 decodes
 * each memory record once and builds only the kept rows, which go to the jsonl files and, batch
 * by batch, to the Parquet encoder on this thread while the workers render the next users.
 *
 * @example const summary = await exportDataset('out/quickstart', { config: ExportConfig.parse({}), seed: 42 });
 */
export async function exportDataset(runDir: string, options: ExportDatasetOptions): Promise<ExportSummary> {
  const { config, seed } = options;
  const outDir = options.outDir ?? join(runDir, 'export');
  const exclude = options.exclude ?? (await quarantinedUsers(runDir));
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
  const threads = (options.workers ?? 0) > 1 ? (options.workers as number) : 0;
  const rings = Array.from({ length: threads }, () => createByteRing(RING_BYTES));
  const readers = rings.map((ring) => new RingReader(ring));
  const pool =
    threads > 0
      ? createThreadPool({
          size: threads,
          module: new URL('./export-user.ts', import.meta.url),
          exportName: 'exportUserJob',
          // Each worker writes the rows it renders to a ring of its own, read here in place.
          dataFor: (worker) =>
            ({
              runDir,
              config,
              seed,
              trusted: options.trustedRecords === true,
              ring: { id: worker, buffer: rings[worker] as SharedArrayBuffer },
            }) satisfies ExportJobData,
          // One user's records at a time: a bounded heap keeps the run under its memory budget.
          maxHeapMb: 192,
          // This thread encodes a Parquet batch (up to ~0.2 s) at times: the workers go on meanwhile.
          ahead: 8,
        })
      : null;
  // The images the kept users show are copied while pass 2 renders rows (file copies, no CPU here).
  let images: Promise<ExportSummary['images']> | null = null;
  // The files being written: given up (their temporary files removed) if the export fails.
  const open: Array<{ abort(): Promise<void> }> = [];
  const opened = <T extends { abort(): Promise<void> }>(writer: T): T => {
    open.push(writer);
    return writer;
  };

  try {
    // Pass 1: every candidate named, the evaluation sets written, the mix's choice made.
    const { keep, digests, imagePaths } = await scanAndChoose(
      runDir,
      exclude,
      outDir,
      options,
      pool,
      summary,
    );
    if (config.copyImages) {
      images = copyImages(join(runDir, config.imagePoolDir), join(outDir, config.imageRoot), imagePaths);
      images.catch(() => {}); // awaited after pass 2
    }
    // Pass 2: write the kept rows in user order (users that failed a schema in pass 1 are skipped).
    const writers = {
      sft: {
        train: opened(await openJsonlWriter(join(outDir, 'sft', 'train.jsonl'))),
        test: opened(await openJsonlWriter(join(outDir, 'sft', 'test.jsonl'))),
      },
      rl: {
        train: opened(await openJsonlWriter(join(outDir, 'rl', 'train.jsonl'))),
        test: opened(await openJsonlWriter(join(outDir, 'rl', 'test.jsonl'))),
      },
    };
    // Parquet is encoded on this thread while the workers render the next users' rows.
    // Parquet `images` carry each file's bytes (the Hub viewer's Image feature), read from the pool.
    const imageBytes = poolImageBytes(join(runDir, config.imagePoolDir), config.imageRoot);
    const parquetOut = (kind: 'sft' | 'rl', split: 'train' | 'test') =>
      opened(
        openParquetWriter(join(outDir, kind, `${split}.parquet`), kind === 'sft' ? SFT_COLUMNS : RL_COLUMNS, {
          imageBytes,
        }),
      );
    const parquetWriters = config.parquet
      ? {
          sft: { train: parquetOut('sft', 'train'), test: parquetOut('sft', 'test') },
          rl: { train: parquetOut('rl', 'train'), test: parquetOut('rl', 'test') },
        }
      : null;
    // Rows are made from plans and memory records: the dialogues are read again only when some
    // users lost rounds to quarantine (their plan and memory are pruned against the dialogue).
    const drops = await readUnitDrops(runDir);
    const join2 = { drops, dialogues: drops.size > 0 };
    const scanned = (user: { userId: string }) => digests.has(user.userId);
    // A user's kept ids go with its job, and are forgotten here once it is sent.
    const keptOf = (userId: string) => {
      const ids = keep.get(userId) ?? [];
      keep.delete(userId);
      return ids;
    };
    const regions = new BufferRegions();
    const rendered =
      pool === null
        ? inline(only(readExportLines(runDir, exclude, join2), scanned), (lines) =>
            renderKeptRows(lines, config, seed, new Set(keptOf(lines.userId)), regions),
          )
        : pool.map<ExportSpans, UserRows>(
            only(readExportSpans(runDir, exclude, join2), scanned),
            (spans) => ({ kind: 'rows', spans, keep: keptOf(spans.userId) }) satisfies ExportJob,
          );
    for await (const { item: lines, result } of rendered) {
      if (result.digest !== digests.get(lines.userId))
        throw new InputError(
          join(runDir, 'memory/memory.jsonl'),
          `user ${lines.userId}: the record names other rows than its index did in the first pass (the run changed during export, or the record's index disagrees with its traces)`,
        );
      // A row ms-swift would train on wrongly (an empty message, a tag without its image) is never
      // written: it is listed with its reasons (validate's training_rows rule should have caught it).
      for (const rejected of result.rejected) {
        summary.rejectedRows.count++;
        if (summary.rejectedRows.examples.length < 20)
          summary.rejectedRows.examples.push({ id: rejected.id, reasons: rejected.problems });
      }
      const rows = { sft: 0, rl: 0 };
      for (const row of result.rows) {
        const byTask = summary[row.kind][result.split];
        byTask[row.task] = (byTask[row.task] ?? 0) + 1;
        rows[row.kind]++;
      }
      // The rows' bytes: in place in the worker's ring (released once written), or their own buffer.
      const ring = result.ring === undefined ? undefined : readers[result.ring];
      const bytes = ring?.bytes(result.region) ?? (result.region as { bytes: Uint8Array }).bytes;
      ring?.track(result.region);
      let writing = 1;
      const written = () => {
        if (--writing === 0) ring?.done(result.region);
      };
      for (const kind of ['sft', 'rl'] as const) {
        if (rows[kind] === 0) continue;
        const chunk = result.parquet[kind];
        if (chunk !== null) parquetWriters?.[kind][result.split].pushChunk(chunk, bytes);
        const { from, to } = result.jsonl[kind];
        writing++;
        await writers[kind][result.split].writeBytes(bytes.subarray(from, to), rows[kind], written);
      }
      written();
    }
    // Each file's last batch is encoded while the others' last bytes reach the disk.
    await Promise.all(
      (['sft', 'rl'] as const).flatMap((kind) =>
        SPLITS.map(async (split) => {
          await writers[kind][split].close();
          await parquetWriters?.[kind][split].close();
        }),
      ),
    );
    if (images !== null) summary.images = await images;
  } catch (error) {
    await Promise.all(open.map((writer) => writer.abort()));
    throw error;
  } finally {
    await pool?.close();
    await images?.catch(() => {});
  }
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

/**
 * Copies pool-relative image files (sorted, so the order of work is stable; up to 8 at a time);
 * lists the missing ones.
 */
async function copyImages(
  poolDir: string,
  targetDir: string,
  paths: ReadonlySet<string>,
): Promise<{ copied: number; missing: string[] }> {
  const result = { copied: 0, missing: [] as string[] };
  const copies = backgroundWrites(8);
  const folders = new Set<string>();
  for (const path of [...paths].sort()) {
    const source = join(poolDir, path);
    if (!existsSync(source)) {
      result.missing.push(path);
      continue;
    }
    const target = join(targetDir, path);
    if (!folders.has(dirname(target))) {
      folders.add(dirname(target));
      await mkdir(dirname(target), { recursive: true });
    }
    await copies.add(() => copyFile(source, target));
    result.copied++;
  }
  await copies.drain();
  return result;
}

async function* only<T>(items: AsyncIterable<T>, keep: (item: T) => boolean): AsyncGenerator<T> {
  for await (const item of items) if (keep(item)) yield item;
}

/**
 * The users validate quarantined: those `validation.json` lists, and those it could not read at
 * all (a record failing its schema, e.g. a memory record whose index disagrees with its traces),
 * which the run's `quarantine.jsonl` names as validate `input` failures.
 */
async function quarantinedUsers(runDir: string): Promise<Set<string>> {
  const users = new Set<string>();
  const path = join(runDir, 'validation.json');
  if (!existsSync(path)) return users;
  const report = (await readJson(path)) as { quarantined?: Array<{ userId: string }> };
  for (const entry of report.quarantined ?? []) users.add(entry.userId);
  const quarantine = join(runDir, 'quarantine.jsonl');
  if (existsSync(quarantine))
    for await (const record of readJsonl(quarantine)) {
      const { stage, check, inputId } = record as { stage?: unknown; check?: unknown; inputId?: unknown };
      if (stage === 'validate' && check === 'input' && typeof inputId === 'string') users.add(inputId);
    }
  return users;
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
