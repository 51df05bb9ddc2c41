import { formatAlarm } from '../validate/alarms.js';
import type { ExportChecks } from './export-checks.js';
import type { RunHeader, StageUsage } from './run-header.js';
import { barChart, escapeXml, histogram } from './svg.js';

function figure(id: string, caption: string, chart: string): string {
  return `<figure data-chart="${id}">${chart}<figcaption>${escapeXml(caption)}</figcaption></figure>`;
}

/** USD with enough digits to show small online costs. */
function usd(value: number): string {
  return value === 0 ? '$0' : value < 0.01 ? `$${value.toFixed(4)}` : `$${value.toFixed(2)}`;
}

/**
 * The top of the report: the verdict (go / no-go with its reasons), what the run is (version,
 * commit, seed, config hash, offline or the model per role, calls, tokens and cost per stage) and
 * the fidelity alarms in red. Everything comes from `collectRunHeader`.
 */
export function renderRunHeader(header: RunHeader, extraReasons: string[] = []): string {
  const reasons = [...header.reasons, ...extraReasons];
  const go = reasons.length === 0;
  const verdict = go
    ? '<div class="verdict go" data-verdict="go"><strong>GO</strong>: every fidelity figure is on target and the run completed; read the sample rows below before training.</div>'
    : `<div class="verdict nogo" data-verdict="no-go" role="alert"><strong>NO-GO</strong>: ${reasons.map((r) => escapeXml(r)).join('; ')}.</div>`;
  const alarms =
    header.alarms.length === 0
      ? ''
      : `<div class="alarm" role="alert" data-alarms="${header.alarms.length}"><strong>Fidelity alarms: ${header.alarms.length} figure${header.alarms.length === 1 ? '' : 's'} off target</strong><ul>${header.alarms
          .map((alarm) => `<li><code>${escapeXml(formatAlarm(alarm))}</code></li>`)
          .join(
            '',
          )}</ul>Examples of each are in validation.json; <code>run --strict</code> fails on them.</div>`;
  const roles = header.roles
    .map(
      (role) =>
        `<tr><th>${escapeXml(role.role)}</th><td>${role.offline ? 'offline (deterministic backend, no model)' : `online: <code>${escapeXml(role.model)}</code>`}</td></tr>`,
    )
    .join('');
  const stages = header.stages
    .map(
      (stage) =>
        `<tr><td>${escapeXml(stage.stage)}</td><td>${stage.offline ? 'offline' : 'online'}</td><td>${stage.offline ? '–' : stage.calls}</td><td>${stage.offline ? '–' : stage.cacheHits}</td><td>${stage.offline ? '–' : tokensCell(stage)}</td><td>${stage.offline ? '$0' : usd(stage.costUsd)}</td></tr>`,
    )
    .join('');
  return `<header class="run-header" data-section="run-header">${verdict}${alarms}<table class="facts">
<tr><th>persona-forge</th><td>${escapeXml(header.version ?? '?')}${header.commit === null ? '' : ` (commit <code>${escapeXml(header.commit.slice(0, 12))}</code>)`}</td></tr>
<tr><th>seed</th><td>${header.seed ?? '?'}</td></tr>
<tr><th>config hash</th><td><code>${escapeXml((header.configHash ?? '?').slice(0, 16))}</code></td></tr>
${roles}
</table><table class="usage"><tr><th>stage</th><th>mode</th><th>model calls</th><th>cache hits</th><th>tokens</th><th>cost</th></tr>${stages}<tr><th>total</th><td></td><td></td><td></td><td></td><td>${usd(header.totalCostUsd)}</td></tr></table><p class="note">Usage: ${escapeXml(header.usageSource)}; offline stages call no model and cost nothing.</p></header>`;
}

/** Exported mix against the configured one, token lengths against max_length, and sample rows. */
export function renderExportChecks(checks: ExportChecks): string {
  const sections: string[] = [];
  if (checks.mix.length > 0) {
    const rows = checks.mix
      .map((row) => {
        const off = Math.abs(row.exported - row.configured) > Math.max(2, row.configured * 0.2);
        return `<tr${off ? ' class="off"' : ''}><td>${row.kind}</td><td>${escapeXml(row.task)}</td><td>${row.rows}</td><td>${row.exported}%</td><td>${row.configured}%</td></tr>`;
      })
      .join('');
    const bars = checks.mix.flatMap((row) => [
      { label: `${row.kind} ${row.task} · exported`, value: row.exported },
      { label: `${row.kind} ${row.task} · configured`, value: row.configured },
    ]);
    sections.push(
      `<section data-section="mix"><h2>Exported mix vs configured mix (train)</h2>${figure('export-mix', 'Share of train rows per task: exported beside the mix weights (%)', barChart(bars, { title: 'Task mix', unit: '%', width: 760 }))}<table><tr><th>data</th><th>task</th><th>rows</th><th>exported</th><th>configured</th></tr>${rows}</table><p class="note">A highlighted row is more than 2 points (or 20%) from its weight: the task had too few candidates for the ratio.</p></section>`,
    );
  }
  if (checks.lengths.length > 0) {
    const over = checks.lengths.reduce((sum, check) => sum + check.over, 0);
    const table = checks.lengths
      .map(
        (check) =>
          `<tr${check.over > 0 ? ' class="off"' : ''}><td><code>${escapeXml(check.file)}</code></td><td>${check.rows}</td><td>${check.p95}</td><td>${check.max}</td><td>${check.maxLength}</td><td>${check.over}</td><td>${check.counted}</td></tr>`,
      )
      .join('');
    const charts = checks.lengths
      .map((check, i) =>
        figure(
          `token-lengths-${i}`,
          `${check.file}: tokens per row (${checks.tokenizer} tokenizer); max_length ${check.maxLength} marked`,
          histogram(check.tokens, {
            title: `Tokens per row, ${check.file}`,
            xLabel: 'tokens per row',
            bins: 32,
            marker: { value: check.maxLength, label: `max_length ${check.maxLength}` },
          }),
        ),
      )
      .join('');
    sections.push(
      `<section data-section="lengths"><h2>Token lengths vs max_length</h2>${over > 0 ? `<div class="alarm" role="alert"><strong>${over} rows are longer than max_length</strong>: ms-swift drops them (truncation_strategy delete, its default) or cuts them (left).</div>` : `<p>No row is longer than max_length ${checks.lengths[0]?.maxLength}.</p>`}<table><tr><th>file</th><th>rows</th><th>p95</th><th>max</th><th>max_length</th><th>over</th><th>counted exactly</th></tr>${table}</table><p class="note">Counted with the <code>${escapeXml(checks.tokenizer)}</code> tokenizer (report.tokenizer) plus the chat template's tokens per message and each image's tokens (report.imageTokens); rows neither sampled nor near the limit are estimated from the counted rows' characters per token.</p>${charts}</section>`,
    );
  }
  if (checks.samples.length > 0) {
    const rows = [...checks.samples]
      .sort((a, b) => a.kind.localeCompare(b.kind) || a.task.localeCompare(b.task))
      .map(
        (sample) =>
          `<tr class="sample-row"><td>${sample.kind}</td><td>${escapeXml(sample.task)}</td><td><code>${escapeXml(sample.id)}</code></td><td>${escapeXml(sample.input)}</td><td>${escapeXml(sample.label)}</td><td>${sample.evidence.length === 0 ? '–' : sample.evidence.map((e) => escapeXml(e)).join('<br>')}</td></tr>`,
      )
      .join('');
    sections.push(
      `<section data-section="samples"><h2>Sample rows (5 per task)</h2><p>Read them: does each label follow from its input and evidence?</p><table class="samples"><tr><th>data</th><th>task</th><th>id</th><th>input (last user message)</th><th>label</th><th>evidence turns</th></tr>${rows}</table></section>`,
    );
  }
  return sections.join('\n');
}

/** CSS of the header and the checks. */
export const HEADER_CSS =
  '.verdict{padding:.8rem 1rem;margin:1rem 0;font-size:1.05rem}.verdict.go{background:#e8f5e9;border:1px solid #66bb6a}.verdict.nogo{background:#c62828;color:#fff}.facts th{width:10rem}.note{color:#666;font-size:12px}tr.off td{background:#fdecea}.samples{table-layout:fixed;width:100%}.samples td{vertical-align:top;font-size:12px;overflow-wrap:anywhere}.samples th:nth-child(1){width:2.5rem}.samples th:nth-child(2){width:7rem}.samples th:nth-child(3){width:9rem}';

/** Tokens of an online stage, with the prompt tokens its endpoint served from the prefix cache when it reported any. */
function tokensCell(stage: StageUsage): string {
  const total = stage.tokens.toLocaleString('en-US');
  const cached = stage.cachedPromptTokens ?? 0;
  return cached === 0 ? total : `${total} (${cached.toLocaleString('en-US')} prompt tokens cached)`;
}
