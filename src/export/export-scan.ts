import { join } from 'node:path';
import type { MixConfig } from '../schemas/export-config.js';
import { writeJson } from '../util/fs.js';
import type { ThreadPool } from '../util/thread-pool.js';
import { createPersonaMmeWriter } from './eval/persona-mme.js';
import { createPersonaMemWriter } from './eval/personamem.js';
import type { ExportDatasetOptions, ExportSummary } from './export-dataset.js';
import { type ExportJob, type Split, scanUser, type UserScan } from './export-user.js';
import { keptPositions, mixQuotas, quotaRank } from './mix.js';
import { type ExportSpans, readExportLines, readExportSpans } from './read-run.js';

/**
 * Export's first pass (see `exportDataset`): every user scanned, the evaluation sets written,
 * the mix's choice made. It holds every candidate's id and key; what it returns holds only the
 * kept ids, per user, for the second pass.
 */

const SPLITS: Split[] = ['train', 'test'];

/** What pass 1 leaves for pass 2. */
export interface Scanned {
  /** Per user, the ids of the candidates the mix kept. */
  keep: Map<string, string[]>;
  /** Users the scan read (the others failed a schema), with the fingerprint of their candidates. */
  digests: Map<string, string>;
  /** Pool-relative paths of the images the scanned users' dialogues show. */
  imagePaths: Set<string>;
}

/**
 * Pass 1: scans every user (on the pool's threads when there is one), writes the evaluation sets
 * in user order, fills the summary's user, candidate and offline figures, and makes the mix's
 * choice. Every candidate's id and key is held only here: pass 2 gets the kept ids per user.
 */
export async function scanAndChoose(
  runDir: string,
  exclude: ReadonlySet<string>,
  outDir: string,
  options: ExportDatasetOptions,
  pool: ThreadPool | null,
  summary: ExportSummary,
): Promise<Scanned> {
  const { config, seed } = options;
  // Per kind, split and task: the candidate ids, each one's key in the mix's seeded order and
  // its user (parallel arrays).
  const byTask = () => ({ train: new Map<string, Candidates>(), test: new Map<string, Candidates>() });
  const candidates = { sft: byTask(), rl: byTask() };
  const users: string[] = [];
  const scanned: Scanned = { keep: new Map(), digests: new Map(), imagePaths: new Set() };
  const realizers = new Set<string>();
  const mme = createPersonaMmeWriter(join(outDir, 'eval', 'persona-mme'));
  const personamem = createPersonaMemWriter(join(outDir, 'eval', 'personamem'));
  const locomo: unknown[] = [];
  const locomoUsers: Record<string, string> = {};
  // With workers, this thread only finds where each user's lines are; the workers read them.
  const scans =
    pool === null
      ? inline(readExportLines(runDir, exclude), (lines) =>
          scanUser(lines, config, seed, options.trustedRecords === true),
        )
      : pool.map<ExportSpans, UserScan>(
          readExportSpans(runDir, exclude),
          (spans) => ({ kind: 'scan', spans }) satisfies ExportJob,
        );
  for await (const { item: lines, result: scan } of scans) {
    if (!scan.ok) continue;
    const split = scan.split;
    for (const path of scan.imagePaths) scanned.imagePaths.add(path);
    summary.users[split]++;
    realizers.add(scan.realizer);
    if (scan.dialogueOffline) summary.offline.realizer = true;
    if (scan.memoryOffline) summary.offline.memory = true;
    scanned.digests.set(lines.userId, scan.digest);
    const user = users.push(lines.userId) - 1;
    for (const candidate of scan.candidates) {
      const tasks = candidates[candidate.kind][split];
      let list = tasks.get(candidate.task);
      if (list === undefined) {
        list = { ids: [], keys: [], users: [] };
        tasks.set(candidate.task, list);
      }
      list.ids.push(candidate.id);
      list.keys.push(candidate.key);
      list.users.push(user);
    }
    if (scan.evalParts !== undefined) {
      // Built by the scan (on a worker thread); written here in user order.
      await mme.addUser(scan.evalParts.personaMme);
      personamem.addUser(scan.evalParts.personaMem);
      const sample = scan.evalParts.locomo;
      if (sample !== null) {
        // LoCoMo's kind of id, numbered in user order (the user id stays in the dataset card's mapping).
        sample.sample_id = `conv-${locomo.length + 1}`;
        locomoUsers[sample.sample_id] = lines.userId;
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

  for (const kind of ['sft', 'rl'] as const) {
    for (const split of SPLITS) {
      const tasks = candidates[kind][split];
      summary.candidates[kind][split] = Object.fromEntries(
        [...tasks].sort(([a], [b]) => (a < b ? -1 : 1)).map(([task, list]) => [task, list.ids.length]),
      );
      const quotas = mixQuotas(summary.candidates[kind][split], config[kind].mix as MixConfig);
      for (const [task, list] of tasks) {
        const rank = (id: string) => quotaRank(seed, id);
        for (const i of keptPositions(list.ids, quotas[task] ?? 0, rank, list.keys)) {
          const userId = users[list.users[i] as number] as string;
          const kept = scanned.keep.get(userId);
          if (kept === undefined) scanned.keep.set(userId, [list.ids[i] as string]);
          else kept.push(list.ids[i] as string);
        }
      }
    }
  }
  return scanned;
}

/** One task's candidates in one split: parallel arrays. */
interface Candidates {
  ids: string[];
  /** `quotaKey` of each id's rank. */
  keys: number[];
  /** Each id's user, as its position among the scanned users. */
  users: number[];
}

/** `fn` over each item on this thread, shaped like `ThreadPool.map`'s results. */
export async function* inline<T, R>(
  items: AsyncIterable<T>,
  fn: (item: T) => R,
): AsyncGenerator<{ item: T; result: R }> {
  for await (const item of items) yield { item, result: fn(item) };
}
