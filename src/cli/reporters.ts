import cliProgress from 'cli-progress';
import type { RunEvent, RunReporter } from '../pipeline/progress.js';

export type OutputMode = 'auto' | 'quiet' | 'json';

function formatEta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '--';
  if (seconds < 60) return `${Math.ceil(seconds)}s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60
    ? `${minutes}m${Math.round(seconds % 60)}s`
    : `${Math.floor(minutes / 60)}h${minutes % 60}m`;
}

/**
 * Picks how run progress is shown: a live bar per stage on a TTY, plain periodic lines
 * otherwise (CI logs), one JSON object per event with `--json`, nothing with `--quiet`.
 * Every mode but quiet ends with a summary table.
 */
export function createReporter(mode: OutputMode, stream: NodeJS.WriteStream = process.stderr): RunReporter {
  if (mode === 'quiet') return () => {};
  if (mode === 'json') return (event) => process.stdout.write(`${JSON.stringify(event)}\n`);
  return stream.isTTY ? createTtyReporter(stream) : createPlainReporter(stream);
}

function createPlainReporter(stream: NodeJS.WriteStream): RunReporter {
  let lastLine = 0;
  const ends: Array<Extract<RunEvent, { type: 'stage-end' }>> = [];
  return (event) => {
    switch (event.type) {
      case 'run-start':
        stream.write(
          `persona-forge: ${event.stages.join(' → ')} into ${event.runDir} (seed ${event.seed}${event.shard === null ? '' : `, shard ${event.shard}`})\n`,
        );
        break;
      case 'stage-start':
        stream.write(
          `[${event.stage}] ${event.total} ${event.unit}${event.resumed > 0 ? `, ${event.resumed} done by a previous run` : ''}\n`,
        );
        break;
      case 'stage-progress': {
        const now = Date.now();
        if (now - lastLine < 2000 && !(event.total > 0 && event.done >= event.total)) return;
        lastLine = now;
        stream.write(
          `[${event.stage}] ${event.done}${event.total > 0 ? `/${event.total}` : ''} ${event.unit} · ${event.ratePerSec.toFixed(1)}/s · ETA ${formatEta(event.etaSec)} · ${event.tokens} tokens · $${event.costUsd.toFixed(4)} · ${event.cacheHits} cache hits · ${event.failures} failed\n`,
        );
        break;
      }
      case 'stage-skip':
        stream.write(`[${event.stage}] skipped: ${event.reason}\n`);
        break;
      case 'stage-end':
        ends.push(event);
        stream.write(
          `[${event.stage}] done: ${event.in} ${event.units.in} in → ${event.out} ${event.units.out} out, ${event.quarantined} quarantined, ${event.seconds.toFixed(1)}s${event.offline ? ' (offline)' : ''}\n`,
        );
        break;
      case 'run-end':
        stream.write(summaryTable(ends));
        stream.write(
          event.ok
            ? `done in ${event.seconds.toFixed(1)}s → ${event.runDir}\n`
            : `stopped: ${event.message ?? 'failed'}\n`,
        );
        break;
    }
  };
}

function createTtyReporter(stream: NodeJS.WriteStream): RunReporter {
  const multibar = new cliProgress.MultiBar(
    {
      stream,
      clearOnComplete: false,
      hideCursor: true,
      format:
        ' {stage} |{bar}| {value}/{total} · {rate}/s · ETA {etaText} · {tokens} tok · ${cost} · {hits} hits · {failures} failed',
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  const ends: Array<Extract<RunEvent, { type: 'stage-end' }>> = [];
  const payload = (stage: string) => ({
    stage: stage.padEnd(8),
    rate: '0.0',
    etaText: '--',
    tokens: 0,
    cost: '0.0000',
    hits: 0,
    failures: 0,
  });
  return (event) => {
    switch (event.type) {
      case 'stage-start':
        bars.set(event.stage, multibar.create(Math.max(event.total, 1), event.resumed, payload(event.stage)));
        break;
      case 'stage-progress': {
        const bar = bars.get(event.stage);
        bar?.setTotal(Math.max(event.total, 1));
        bar?.update(event.done, {
          ...payload(event.stage),
          rate: event.ratePerSec.toFixed(1),
          etaText: formatEta(event.etaSec),
          tokens: event.tokens,
          cost: event.costUsd.toFixed(4),
          hits: event.cacheHits,
          failures: event.failures,
        });
        break;
      }
      case 'stage-end': {
        ends.push(event);
        const bar = bars.get(event.stage);
        if (bar !== undefined) bar.update(bar.getTotal());
        break;
      }
      case 'stage-skip':
        multibar.log(`${event.stage}: skipped (${event.reason})\n`);
        break;
      case 'run-end':
        multibar.stop();
        stream.write(summaryTable(ends));
        stream.write(
          event.ok
            ? `done in ${event.seconds.toFixed(1)}s → ${event.runDir}\n`
            : `stopped: ${event.message ?? 'failed'}\n`,
        );
        break;
      default:
        break;
    }
  };
}

function summaryTable(ends: Array<Extract<RunEvent, { type: 'stage-end' }>>): string {
  if (ends.length === 0) return '';
  const rows = ends.map((e) => [
    e.stage,
    `${e.in} ${e.units.in}`,
    `${e.out} ${e.units.out}`,
    String(e.quarantined),
    `${e.seconds.toFixed(1)}s`,
    e.offline ? 'offline' : 'llm',
  ]);
  const head = ['stage', 'in', 'out', 'quarantined', 'time', 'backend'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const line = (cells: string[]) => `  ${cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ')}\n`;
  return `\n${line(head)}${line(widths.map((w) => '-'.repeat(w)))}${rows.map(line).join('')}\n`;
}
