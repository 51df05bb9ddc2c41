import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { barChart, escapeXml } from '../report/svg.js';
import { writeFileAtomic } from '../util/fs.js';
import { createRng } from '../util/rng.js';
import type { EvalRecord } from './run.js';

/** One row of the summary: a group of items, its mean score and 95% bootstrap interval. */
export interface SummaryRow {
  format: string;
  /**
   * `overall`, `aspect` (Persona-MME's six), `task`, `category` (LoCoMo) or `context`. Persona-MME's
   * overall is over its primary multiple-choice cases; its personality-alignment test is the
   * separate `alignment` row, as the paper reports them.
   */
  by: 'overall' | 'alignment' | 'aspect' | 'task' | 'category' | 'context';
  group: string;
  n: number;
  score: number;
  low: number;
  high: number;
  /** Mean LLM-judge verdict of the group's open answers, when a judge scored them. */
  judged?: number;
}

export interface EvalSummary {
  strategy: string;
  model: string;
  /** Questions asked (scored + failed). */
  items: number;
  /** Questions scored: the denominators of the rows. */
  scored: number;
  /** Questions whose model call failed after retries: never scored, never in a row. */
  errors: number;
  /** The distinct failure reasons with their counts, most common first. */
  errorReasons: Array<{ reason: string; count: number }>;
  rows: SummaryRow[];
}

/**
 * The one definition of a benchmark's headline group, used by `eval` and `eval compare` alike:
 * Persona-MME's personality-alignment cases are their own `alignment` row (as the paper reports
 * them), every other question is in `overall`.
 */
export function headlineGroup(
  record: Pick<EvalRecord, 'format' | 'aspect' | 'task'>,
): 'overall' | 'alignment' {
  return record.format === 'persona-mme' && /alignment/i.test(record.aspect ?? record.task)
    ? 'alignment'
    : 'overall';
}

/** True when the item was answered and scored (a failed call has an `error` and no score). */
export function isScored(record: EvalRecord): record is EvalRecord & { score: number } {
  return record.error === undefined && typeof record.score === 'number';
}

/** The distinct failure reasons of the failed items, most common first. */
export function errorReasons(records: readonly EvalRecord[]): Array<{ reason: string; count: number }> {
  const counts = new Map<string, number>();
  for (const record of records) {
    if (record.error === undefined) continue;
    counts.set(record.error, (counts.get(record.error) ?? 0) + 1);
  }
  return [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, count]) => ({ reason, count }));
}

const BOOTSTRAP = 1000;

/** Percentile bootstrap of the mean (seeded: the same items give the same interval). */
export function bootstrapInterval(values: readonly number[], seed = 7): { low: number; high: number } {
  if (values.length === 0) return { low: 0, high: 0 };
  const rng = createRng(seed);
  const means: number[] = [];
  for (let b = 0; b < BOOTSTRAP; b++) {
    let sum = 0;
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(rng.next() * values.length)] as number;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return {
    low: means[Math.floor(0.025 * BOOTSTRAP)] as number,
    high: means[Math.floor(0.975 * BOOTSTRAP) - 1] as number,
  };
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** Per format: overall, per task, per LoCoMo category, per context length. */
export function summarize(
  records: readonly EvalRecord[],
  meta: { strategy: string; model: string },
): EvalSummary {
  const groups = new Map<
    string,
    { row: Omit<SummaryRow, 'n' | 'score' | 'low' | 'high'>; values: number[]; judged: number[] }
  >();
  const add = (format: string, by: SummaryRow['by'], group: string, record: EvalRecord) => {
    const key = `${format}\u0000${by}\u0000${group}`;
    let entry = groups.get(key);
    if (entry === undefined) {
      entry = { row: { format, by, group }, values: [], judged: [] };
      groups.set(key, entry);
    }
    entry.values.push(record.score as number);
    if (record.judgeScore !== undefined) entry.judged.push(record.judgeScore);
  };
  // Failed items are errors, reported apart: a dead endpoint is not a wrong answer.
  for (const record of records.filter(isScored)) {
    const alignment = headlineGroup(record) === 'alignment';
    if (alignment) add(record.format, 'alignment', 'personality alignment', record);
    else add(record.format, 'overall', 'all', record);
    if (record.aspect != null && !alignment) add(record.format, 'aspect', record.aspect, record);
    add(record.format, 'task', record.task, record);
    if (record.category !== null) add(record.format, 'category', String(record.category), record);
    if (record.contextLength !== null) add(record.format, 'context', record.contextLength, record);
  }
  const rows: SummaryRow[] = [...groups.values()].map(({ row, values, judged }) => {
    const interval = bootstrapInterval(values);
    const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
    return {
      ...row,
      n: values.length,
      score: round(mean),
      low: round(interval.low),
      high: round(interval.high),
      ...(judged.length === 0
        ? {}
        : { judged: round(judged.reduce((sum, v) => sum + v, 0) / judged.length) }),
    };
  });
  const order = { overall: 0, alignment: 1, aspect: 2, task: 3, category: 4, context: 5 };
  rows.sort(
    (a, b) => a.format.localeCompare(b.format) || order[a.by] - order[b.by] || a.group.localeCompare(b.group),
  );
  return {
    strategy: meta.strategy,
    model: meta.model,
    items: records.length,
    scored: records.filter(isScored).length,
    errors: records.filter((r) => r.error !== undefined).length,
    errorReasons: errorReasons(records),
    rows,
  };
}

const FORMAT_TITLES: Record<string, string> = {
  'persona-mme': 'Persona-MME (accuracy, %)',
  personamem: 'PersonaMem (accuracy, %)',
  locomo: 'LoCoMo (token F1 ×100; adversarial: accuracy)',
};

/** The tables as the papers print them: one per benchmark, tasks as rows, score ×100 with the 95% interval. */
export function summaryMarkdown(summary: EvalSummary): string {
  const lines = [
    `# Evaluation: ${summary.model}, strategy ${summary.strategy}`,
    '',
    `${summary.items} questions: ${summary.scored} scored, ${summary.errors} failed (errors are not scored).`,
  ];
  if (summary.errors > 0) {
    lines.push('', '## Errors (not scored)', '', '| reason | questions |', '|---|---:|');
    for (const error of summary.errorReasons.slice(0, 10))
      lines.push(`| ${error.reason.replaceAll('|', '\\|').replaceAll('\n', ' ')} | ${error.count} |`);
  }
  for (const format of [...new Set(summary.rows.map((row) => row.format))]) {
    const rows = summary.rows.filter((r) => r.format === format);
    const judged = rows.some((row) => row.judged !== undefined);
    lines.push(
      '',
      `## ${FORMAT_TITLES[format] ?? format}`,
      '',
      `| group | n | score | 95% CI |${judged ? ' LLM judge |' : ''}`,
      `|---|---:|---:|---|${judged ? '---:|' : ''}`,
    );
    for (const row of rows) {
      const label =
        row.by === 'overall'
          ? '**overall**'
          : row.by === 'aspect'
            ? `*${row.group}*`
            : row.by === 'task' || row.by === 'alignment'
              ? row.group
              : `${row.by} ${row.group}`;
      const judge = judged ? ` ${row.judged === undefined ? '' : (row.judged * 100).toFixed(1)} |` : '';
      lines.push(
        `| ${label} | ${row.n} | ${(row.score * 100).toFixed(1)} | ${(row.low * 100).toFixed(1)}–${(row.high * 100).toFixed(1)} |${judge}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A self-contained HTML page: one bar chart per benchmark (score per task) and the tables. */
export function summaryHtml(summary: EvalSummary): string {
  const charts = [...new Set(summary.rows.map((row) => row.format))].map((format) =>
    barChart(
      summary.rows
        .filter((row) => row.format === format && (row.by === 'task' || row.by === 'overall'))
        .map((row) => ({
          label: row.by === 'overall' ? 'overall' : row.group,
          value: Math.round(row.score * 1000) / 10,
        })),
      { title: FORMAT_TITLES[format] ?? format, unit: '' },
    ),
  );
  const table = summaryMarkdown({ ...summary, errors: 0 })
    .split('\n')
    .filter((line) => line.startsWith('|') && !line.startsWith('|---'))
    .map(
      (line) =>
        `<tr>${line
          .split('|')
          .slice(1, -1)
          .map((cell) => `<td>${escapeXml(cell.trim().replaceAll('**', ''))}</td>`)
          .join('')}</tr>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><title>persona-forge eval: ${escapeXml(summary.model)}</title><style>body{font:14px system-ui,sans-serif;margin:24px;max-width:900px}td{padding:2px 8px;border-bottom:1px solid #eee}</style></head><body><h1>Evaluation: ${escapeXml(summary.model)} (${escapeXml(summary.strategy)})</h1><p>${summary.items} questions: ${summary.scored} scored, ${summary.errors} failed (errors are not scored).</p>${
    summary.errors > 0
      ? `<div class="alarm" role="alert" style="background:#c62828;color:#fff;padding:.8rem 1rem"><strong>${summary.errors} of ${summary.items} questions failed and are not scored.</strong><ul>${summary.errorReasons
          .slice(0, 5)
          .map((e) => `<li>${escapeXml(e.reason)} (${e.count})</li>`)
          .join('')}</ul></div>`
      : ''
  }${charts.join('')}<table>${table}</table></body></html>\n`;
}

export async function writeSummary(
  out: string,
  records: readonly EvalRecord[],
  meta: { strategy: string; model: string },
): Promise<EvalSummary> {
  const summary = summarize(records, meta);
  await writeFileAtomic(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
  await writeFileAtomic(join(out, 'summary.md'), summaryMarkdown(summary));
  await writeFileAtomic(join(out, 'report.html'), summaryHtml(summary));
  return summary;
}

export async function readRecords(dir: string): Promise<EvalRecord[]> {
  let text: string;
  try {
    text = await readFile(join(dir, 'items.jsonl'), 'utf8');
  } catch {
    throw new InputError(dir, 'has no items.jsonl: give a folder `persona-forge eval` wrote');
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as EvalRecord);
}

/** One per-task delta between two evaluations, with its paired bootstrap interval. */
export interface CompareRow {
  format: string;
  task: string;
  n: number;
  a: number;
  b: number;
  delta: number;
  low: number;
  high: number;
  /** The interval excludes 0. */
  significant: boolean;
}

/**
 * Per-task deltas (B − A: B is the second folder given, A the first) over the items both scored,
 * with paired bootstrap intervals (items resampled together, so the interval is of the per-item
 * differences). `(overall)` and `(alignment)` are the groups `eval` calls overall and alignment
 * (`headlineGroup`), so over the same items their n and scores are `eval`'s own. Items that failed
 * in either evaluation are left out and counted in `skipped`.
 */
export function compareRecords(a: readonly EvalRecord[], b: readonly EvalRecord[]): CompareRow[] {
  const byId = new Map(a.map((record) => [record.id, record]));
  const groups = new Map<
    string,
    { format: string; task: string; diffs: number[]; a: number[]; b: number[] }
  >();
  for (const right of b) {
    const left = byId.get(right.id);
    if (left === undefined || !isScored(left) || !isScored(right)) continue;
    for (const task of [right.task, `(${headlineGroup(right)})`]) {
      const key = `${right.format}\u0000${task}`;
      let entry = groups.get(key);
      if (entry === undefined) {
        entry = { format: right.format, task, diffs: [], a: [], b: [] };
        groups.set(key, entry);
      }
      entry.diffs.push(right.score - left.score);
      entry.a.push(left.score);
      entry.b.push(right.score);
    }
  }
  const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
  const headline = (task: string) => (task === '(overall)' ? 0 : task === '(alignment)' ? 1 : 2);
  return [...groups.values()]
    .map((entry) => {
      const interval = bootstrapInterval(entry.diffs);
      return {
        format: entry.format,
        task: entry.task,
        n: entry.diffs.length,
        a: round(mean(entry.a)),
        b: round(mean(entry.b)),
        delta: round(mean(entry.diffs)),
        low: round(interval.low),
        high: round(interval.high),
        significant: interval.low > 0 || interval.high < 0,
      };
    })
    .sort(
      (x, y) =>
        x.format.localeCompare(y.format) ||
        headline(x.task) - headline(y.task) ||
        x.task.localeCompare(y.task),
    );
}

/** How many items of each side were left out of a comparison (failed, or only in one folder). */
export function compareCoverage(
  a: readonly EvalRecord[],
  b: readonly EvalRecord[],
): { paired: number; failedA: number; failedB: number; onlyA: number; onlyB: number } {
  const idsA = new Set(a.map((r) => r.id));
  const idsB = new Set(b.map((r) => r.id));
  const scoredA = new Set(a.filter(isScored).map((r) => r.id));
  const scoredB = new Set(b.filter(isScored).map((r) => r.id));
  return {
    paired: [...scoredB].filter((id) => scoredA.has(id)).length,
    failedA: a.length - scoredA.size,
    failedB: b.length - scoredB.size,
    onlyA: [...idsA].filter((id) => !idsB.has(id)).length,
    onlyB: [...idsB].filter((id) => !idsA.has(id)).length,
  };
}

export function compareMarkdown(
  rows: readonly CompareRow[],
  names: [string, string],
  coverage?: ReturnType<typeof compareCoverage>,
): string {
  const lines = [
    `# eval compare: A = ${names[0]}, B = ${names[1]}`,
    '',
    'A is the first folder given, B the second; Δ = B − A (positive: B scores higher). Overall and alignment are defined as in `eval`.',
  ];
  if (coverage !== undefined) {
    lines.push(
      '',
      `${coverage.paired} questions scored in both; left out: ${coverage.failedA} failed in A, ${coverage.failedB} failed in B, ${coverage.onlyA} only in A, ${coverage.onlyB} only in B.`,
    );
  }
  lines.push(
    '',
    '| benchmark | task | n | A | B | Δ (B−A) | 95% CI | |',
    '|---|---|---:|---:|---:|---:|---|---|',
  );
  for (const row of rows) {
    lines.push(
      `| ${row.format} | ${row.task} | ${row.n} | ${(row.a * 100).toFixed(1)} | ${(row.b * 100).toFixed(1)} | ${signed(row.delta * 100)} | ${signed(row.low * 100)}–${signed(row.high * 100)} | ${row.significant ? '**≠0**' : ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A number with its sign always printed (+3.0, −1.5, 0.0). */
function signed(value: number): string {
  const text = Math.abs(value).toFixed(1);
  return text === '0.0' ? text : value > 0 ? `+${text}` : `-${text}`;
}

export function compareHtml(
  rows: readonly CompareRow[],
  names: [string, string],
  coverage?: ReturnType<typeof compareCoverage>,
): string {
  const chart = barChart(
    rows.map((row) => ({
      label: `${row.format}: ${row.task}${row.significant ? ' *' : ''}`,
      value: Math.round(row.delta * 1000) / 10,
    })),
    { title: `Δ score ×100 = B − A (B = ${names[1]}, A = ${names[0]}; * interval excludes 0)` },
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>persona-forge eval compare</title></head><body style="font:14px system-ui,sans-serif;margin:24px">${chart}<pre>${escapeXml(compareMarkdown(rows, names, coverage))}</pre></body></html>\n`;
}
