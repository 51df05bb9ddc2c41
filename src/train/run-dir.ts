import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** One ms-swift versioned run directory `<output_dir>/v<N>-<YYYYMMDD-HHMMSS>/`. */
export interface RunDir {
  path: string;
  version: number;
  timestamp: string;
}

/** One `checkpoint-<global_step>/` folder. */
export interface Checkpoint {
  path: string;
  step: number;
  /** LoRA checkpoints hold `adapter_config.json` (ms-swift detects adapters the same way). */
  isAdapter: boolean;
}

const RUN_DIR = /^v(\d+)-(\d{8}-\d{6})$/;
const CHECKPOINT = /^checkpoint-(\d+)$/;

function dirs(parent: string): string[] {
  if (!existsSync(parent)) return [];
  return readdirSync(parent).filter((name) => {
    try {
      return statSync(path.join(parent, name)).isDirectory();
    } catch {
      return false;
    }
  });
}

/**
 * The versioned run directories under an output dir, oldest first (by N, as ms-swift numbers them).
 *
 * @example
 * listRunDirs('output/personavlm-sft').at(-1)?.path; // '…/v3-20260101-120000'
 */
export function listRunDirs(outputDir: string): RunDir[] {
  const out: RunDir[] = [];
  for (const name of dirs(outputDir)) {
    const m = RUN_DIR.exec(name);
    if (m?.[1] !== undefined && m[2] !== undefined) {
      out.push({ path: path.join(outputDir, name), version: Number(m[1]), timestamp: m[2] });
    }
  }
  return out.sort((a, b) => a.version - b.version || a.timestamp.localeCompare(b.timestamp));
}

/**
 * The `checkpoint-N` folders of one run directory, by ascending step.
 *
 * @example
 * listCheckpoints(run.path).map((c) => c.step); // [200, 400]
 */
export function listCheckpoints(runDir: string): Checkpoint[] {
  const out: Checkpoint[] = [];
  for (const name of dirs(runDir)) {
    const m = CHECKPOINT.exec(name);
    if (m?.[1] === undefined) continue;
    const p = path.join(runDir, name);
    out.push({ path: p, step: Number(m[1]), isAdapter: existsSync(path.join(p, 'adapter_config.json')) });
  }
  return out.sort((a, b) => a.step - b.step);
}

/**
 * The checkpoint to resume from or chain on: the highest step of the newest run directory that
 * has any checkpoint (a newer run that died before its first save is skipped, since a resumed
 * ms-swift run always writes a new `vN+1` directory).
 *
 * @example
 * latestCheckpoint('output/personavlm-sft')?.path; // '…/v2-20260101-120000/checkpoint-1200'
 */
export function latestCheckpoint(outputDir: string): Checkpoint | undefined {
  const runs = listRunDirs(outputDir);
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i];
    if (run === undefined) continue;
    const last = listCheckpoints(run.path).at(-1);
    if (last !== undefined) return last;
  }
  return undefined;
}
