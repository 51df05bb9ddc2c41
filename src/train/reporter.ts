import cliProgress from 'cli-progress';
import { formatProgress, type ProgressEvent } from './progress.js';

/** Where the launcher shows output and progress. */
export interface ProgressReporter {
  /** Raw child output (already newline-terminated chunks). */
  output(chunk: string): void;
  progress(event: ProgressEvent): void;
  /** A persona-forge status line. */
  info(line: string): void;
  stop(): void;
}

/**
 * A console reporter: a cli-progress bar (step/max_steps, loss, reward, lr, ETA) on a TTY, plain
 * `step i/N …` lines otherwise (logs, CI, ssh without a terminal).
 *
 * @example
 * const reporter = createConsoleReporter({ stream: process.stderr });
 */
export function createConsoleReporter(
  options: { stream?: NodeJS.WritableStream & { isTTY?: boolean }; tty?: boolean } = {},
): ProgressReporter {
  const stream = options.stream ?? process.stderr;
  const tty = options.tty ?? stream.isTTY === true;
  if (!tty) {
    return {
      output: (chunk) => stream.write(chunk),
      progress: (e) => stream.write(`[persona-forge] ${formatProgress(e)}\n`),
      info: (line) => stream.write(`[persona-forge] ${line}\n`),
      stop: () => {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      stream: stream as NodeJS.WritableStream,
      format: '{bar} {value}/{total} | loss {loss} | reward {reward} | lr {lr} | eta {remaining}',
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let bar: cliProgress.SingleBar | undefined;
  const fmt = (v: number | undefined, digits: number) => (v === undefined ? '-' : v.toFixed(digits));
  return {
    output: (chunk) => multi.log(chunk.endsWith('\n') ? chunk : `${chunk}\n`),
    progress: (e) => {
      if (e.isEval) {
        multi.log(`${formatProgress(e)}\n`);
        return;
      }
      const payload = {
        loss: fmt(e.loss, 4),
        reward: fmt(e.reward, 4),
        lr: e.learningRate === undefined ? '-' : e.learningRate.toExponential(2),
        remaining: e.remaining ?? '-',
      };
      if (bar === undefined) bar = multi.create(e.maxSteps, e.step, payload);
      else {
        bar.setTotal(e.maxSteps);
        bar.update(e.step, payload);
      }
    },
    info: (line) => multi.log(`[persona-forge] ${line}\n`),
    stop: () => multi.stop(),
  };
}
