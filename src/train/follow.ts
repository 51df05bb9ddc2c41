import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { type FinalEvent, type ProgressEvent, parseLogLine } from './progress.js';
import { type Checkpoint, listCheckpoints, listRunDirs, type RunDir } from './run-dir.js';

/** Callbacks of {@link followRun}. */
export interface FollowRunHandlers {
  onRunDir?(run: RunDir): void;
  onProgress?(event: ProgressEvent): void;
  onFinal?(event: FinalEvent): void;
  onCheckpoint?(checkpoint: Checkpoint): void;
}

/** A running follower; `poll()` reads what is new, `stop()` does a last poll and ends the timer. */
export interface RunFollower {
  poll(): void;
  stop(): void;
  runDir(): RunDir | undefined;
  checkpoints(): Checkpoint[];
}

/**
 * Follows ms-swift's output while it trains: waits for a run directory newer than those present
 * at start (`ignore`), then tails its `logging.jsonl` and watches for `checkpoint-N` folders.
 * Polling (not fs.watch) so it behaves the same on network file systems.
 *
 * @example
 * const f = followRun('output/sft', { onProgress: (e) => console.log(e.step) }, { intervalMs: 1000 });
 */
export function followRun(
  outputDir: string,
  handlers: FollowRunHandlers,
  options: { intervalMs?: number; ignore?: string[] } = {},
): RunFollower {
  const ignore = new Set(options.ignore ?? listRunDirs(outputDir).map((r) => r.path));
  let run: RunDir | undefined;
  let offset = 0;
  let pending = '';
  const seen = new Map<number, Checkpoint>();

  const readNew = (file: string) => {
    if (!existsSync(file)) return;
    const size = statSync(file).size;
    if (size <= offset) return;
    const fd = openSync(file, 'r');
    try {
      const buf = Buffer.alloc(size - offset);
      readSync(fd, buf, 0, buf.length, offset);
      offset = size;
      pending += buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const parsed = parseLogLine(line);
      if (parsed?.kind === 'progress') handlers.onProgress?.(parsed.event);
      else if (parsed?.kind === 'final') handlers.onFinal?.(parsed.event);
    }
  };

  const poll = () => {
    if (run === undefined) {
      run = listRunDirs(outputDir)
        .filter((r) => !ignore.has(r.path))
        .at(-1);
      if (run === undefined) return;
      handlers.onRunDir?.(run);
    }
    readNew(path.join(run.path, 'logging.jsonl'));
    for (const c of listCheckpoints(run.path)) {
      if (seen.has(c.step)) continue;
      seen.set(c.step, c);
      handlers.onCheckpoint?.(c);
    }
  };
  const timer = setInterval(poll, options.intervalMs ?? 1000);
  timer.unref();
  return {
    poll,
    stop() {
      clearInterval(timer);
      poll();
    },
    runDir: () => run,
    checkpoints: () => [...seen.values()].sort((a, b) => a.step - b.step),
  };
}
