import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { readSlurmJobs } from './slurm/run.js';
import { jobStates, type SlurmCommands } from './slurm/sched.js';

/** Where one shard (or an unsharded run) stands. */
export interface ShardStatus {
  /** Shard index, or null for the run directory itself. */
  shard: number | null;
  dir: string;
  /** `complete`, `stopped`, `failed`, `empty` (from the manifest), `in progress` or `not started`. */
  status: string;
  /** The last per-user stage that finished, or the one under way. */
  stage: string | null;
  /** Users through `stage`. */
  done: number;
  /** Users in this shard (known once the plan stage ran). */
  total: number | null;
  quarantined: number;
  costUsd: number;
  /** `<job id>` or `<array job>_<index>` and Slurm's state for it, when jobs were submitted. */
  job?: { id: string; state: string };
}

/** `persona-forge status DIR`. */
export interface RunStatus {
  dir: string;
  shards: ShardStatus[];
  merged: ShardStatus;
  merge?: { id: string; state: string };
  totals: { done: number; total: number; quarantined: number; costUsd: number };
}

interface ManifestView {
  status?: string;
  stages?: Array<{
    name: string;
    kind: string;
    status: string;
    in: number;
    out: number;
    quarantined: number;
  }>;
  usage?: { total?: { costUsd?: number } };
}

async function readJsonFile<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return null;
  }
}

async function countLines(file: string): Promise<number> {
  try {
    const text = await readFile(file);
    let n = 0;
    for (const byte of text) if (byte === 10) n++;
    return n;
  } catch {
    return 0;
  }
}

/** One run directory's progress from its manifest, stage markers and journals (read-only). */
export async function readRunProgress(dir: string, shard: number | null): Promise<ShardStatus> {
  const manifest = await readJsonFile<ManifestView>(path.join(dir, 'manifest.json'));
  const state = path.join(dir, '.state');
  const names = (await readdir(state).catch(() => [] as string[])).sort();
  const markers = new Map<string, { in: number; out: number; quarantined: number }>();
  for (const name of names) {
    if (!name.endsWith('.done.json')) continue;
    const marker = await readJsonFile<{ stage: string; in: number; out: number; quarantined: number }>(
      path.join(state, name),
    );
    if (marker !== null) markers.set(marker.stage, marker);
  }
  const order = manifest?.stages?.filter((s) => s.kind === 'map').map((s) => s.name) ?? [
    'plan',
    'synth',
    'memory',
  ];
  let stage: string | null = null;
  let done = 0;
  let quarantined = 0;
  for (const name of order) {
    const marker = markers.get(name);
    if (marker === undefined) continue;
    stage = name;
    done = marker.out;
    quarantined += marker.quarantined;
  }
  const total = markers.get(order[0] ?? 'plan')?.in ?? null;
  let status = manifest?.status ?? (names.length === 0 ? 'not started' : 'in progress');
  const underWay = order.find((name) => !markers.has(name) && names.includes(`${name}.journal.jsonl`));
  if (underWay !== undefined) {
    const journaled = await countLines(path.join(state, `${underWay}.journal.jsonl`));
    if (manifest?.status !== 'complete') status = 'in progress';
    stage = underWay;
    done = journaled;
  }
  return {
    shard,
    dir,
    status,
    stage,
    done,
    total,
    quarantined,
    costUsd: manifest?.usage?.total?.costUsd ?? 0,
  };
}

function expandTasks(spec: string): number[] {
  const out: number[] = [];
  for (const part of spec.replace(/%\d+$/, '').split(',')) {
    const [a, b] = part.split('-').map(Number);
    if (a === undefined || Number.isNaN(a)) continue;
    for (let i = a; i <= (b ?? a); i++) out.push(i);
  }
  return out;
}

/**
 * `persona-forge status DIR`: per shard done / total / quarantined / cost from the shards'
 * manifests and journals, and each Slurm job's state when jobs were submitted and the Slurm
 * commands are on PATH.
 *
 * @example
 * const s = await runStatus('out/q'); console.log(s.totals);
 */
export async function runStatus(dir: string, options: SlurmCommands = {}): Promise<RunStatus> {
  const root = path.resolve(dir);
  const shardNames = (await readdir(path.join(root, 'shards')).catch(() => [] as string[]))
    .filter((n) => /^\d+$/.test(n))
    .sort((a, b) => Number(a) - Number(b));
  const jobs = await readSlurmJobs(root).catch(() => null);
  const count = jobs?.shards ?? shardNames.length;
  const shards: ShardStatus[] = [];
  for (let i = 0; i < count; i++) shards.push(await readRunProgress(path.join(root, 'shards', String(i)), i));
  const merged = await readRunProgress(root, null);
  const result: RunStatus = {
    dir: root,
    shards,
    merged,
    totals: { done: 0, total: 0, quarantined: 0, costUsd: 0 },
  };
  if (jobs !== null) {
    const runs = jobs.submissions.filter((s) => s.kind === 'run');
    const lastMerge = jobs.submissions.filter((s) => s.kind === 'merge').at(-1);
    const ids = [...runs.map((s) => s.jobId), ...(lastMerge === undefined ? [] : [lastMerge.jobId])];
    const states = await jobStates(ids, options).catch(() => new Map<string, string>());
    const byTask = new Map<string, string>();
    for (const [id, state] of states) {
      const m = /^(\d+)_(.+)$/.exec(id);
      if (m === null) continue;
      for (const i of expandTasks(m[2] as string)) byTask.set(`${m[1]}_${i}`, state);
    }
    for (const shard of shards) {
      const submission = runs.filter((s) => expandTasks(s.array ?? '').includes(shard.shard ?? -1)).at(-1);
      if (submission === undefined) continue;
      const id = `${submission.jobId}_${shard.shard}`;
      shard.job = { id, state: byTask.get(id) ?? 'UNKNOWN' };
    }
    if (lastMerge !== undefined) {
      result.merge = { id: lastMerge.jobId, state: states.get(lastMerge.jobId) ?? 'UNKNOWN' };
    }
  }
  const parts = shards.length > 0 ? shards : [merged];
  for (const s of parts) {
    result.totals.done += s.done;
    result.totals.total += s.total ?? 0;
    result.totals.quarantined += s.quarantined;
    result.totals.costUsd += s.costUsd;
  }
  return result;
}

/** The status as a plain table. */
export function formatRunStatus(status: RunStatus): string {
  const rows = [['shard', 'status', 'stage', 'done/total', 'quarantined', 'cost $', 'slurm job']];
  const row = (s: ShardStatus) => [
    s.shard === null ? 'merged' : String(s.shard),
    s.status,
    s.stage ?? '-',
    `${s.done}/${s.total ?? '?'}`,
    String(s.quarantined),
    s.costUsd.toFixed(4),
    s.job === undefined ? '-' : `${s.job.id} ${s.job.state}`,
  ];
  for (const s of status.shards) rows.push(row(s));
  const mergedRow = row(status.merged);
  if (status.merge !== undefined) mergedRow[6] = `${status.merge.id} ${status.merge.state}`;
  rows.push(mergedRow);
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  const lines = rows.map((r) =>
    r
      .map((cell, c) => cell.padEnd(widths[c] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const t = status.totals;
  lines.push('', `total: ${t.done}/${t.total} users, ${t.quarantined} quarantined, $${t.costUsd.toFixed(4)}`);
  return `${lines.join('\n')}\n`;
}
