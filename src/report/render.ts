import { BIG_FIVE_TRAITS } from '../schemas/common.js';
import type { ReportData } from './collect.js';
import { HEADER_CSS, renderExportChecks, renderRunHeader } from './render-header.js';
import { barChart, escapeXml, histogram, lineChart, type Series, timelineChart } from './svg.js';

function figure(id: string, caption: string, chart: string): string {
  return `<figure data-chart="${id}">${chart}<figcaption>${escapeXml(caption)}</figcaption></figure>`;
}

function sortedBars(counts: Record<string, number>): Array<{ label: string; value: number }> {
  return Object.entries(counts)
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => b.value - a.value || (a.label < b.label ? -1 : 1));
}

/**
 * Renders the self-contained report: inline CSS and SVG only, no scripts, no network, so it
 * opens from disk anywhere. Every chart sits in a `<figure data-chart=…>`.
 *
 * @example const html = renderReport(await collectReportData(runDir, { maxUsers: 8 }));
 */
export function renderReport(data: ReportData): string {
  const offlineRoles = Object.entries(data.offline)
    .filter(([, offline]) => offline)
    .map(([role]) => role);
  const banner =
    offlineRoles.length > 0
      ? `<p class="offline">Offline: the roles ${offlineRoles.map((r) => `<code>${escapeXml(r)}</code>`).join(', ')} were served by persona-forge's deterministic offline backend (no language model).</p>`
      : '';
  const nothingLeft = data.users > 0 && (data.usersLeft === 0 || data.quarantinedUsers >= data.users);
  const reasons =
    data.topReasons.length === 0
      ? ''
      : `<table><tr><th>stage</th><th>reason</th><th>records</th><th>examples</th></tr>${data.topReasons
          .map(
            (r) =>
              `<tr><td>${escapeXml(r.stage)}</td><td>${escapeXml(r.reason)}</td><td>${r.count}</td><td>${escapeXml((r.examples ?? []).join(', '))}</td></tr>`,
          )
          .join('')}</table>`;
  const alarm = nothingLeft
    ? `<div class="alarm" role="alert"><strong>Nothing usable left: ${data.quarantinedUsers} of ${data.users} users were quarantined.</strong> Top reasons (see quarantine.jsonl):${reasons}</div>`
    : '';
  const sections: string[] = [];
  if (!nothingLeft && reasons !== '') {
    sections.push(
      `<section data-section="quarantine"><h2>Quarantine</h2><p>${data.quarantined} records of ${data.quarantinedUsers} users; the most common reasons, with the first quarantined ids (quarantine.jsonl has every record):</p>${reasons}</section>`,
    );
  }
  const total = data.multimodal.userTurns;
  const ratio = total === 0 ? 0 : data.multimodal.imageTurns / total;
  sections.push(`<section><h2>Overview</h2><table>
<tr><th>users</th><td>${data.users}</td></tr>
<tr><th>user turns</th><td>${total}</td></tr>
<tr><th>multimodal turns</th><td>${data.multimodal.imageTurns} (${(ratio * 100).toFixed(1)}%)</td></tr>
<tr><th>quarantined records</th><td>${data.quarantined}</td></tr>
</table></section>`);
  sections.push(
    `<section><h2>Dialogues</h2>${figure('turns-per-dialogue', 'User turns per dialogue', histogram(data.turnsPerDialogue, { title: 'Turns per dialogue', xLabel: 'user turns' }))}${figure(
      'multimodal-ratio',
      'Share of user turns carrying an image, per user',
      histogram(
        data.multimodal.perUser.map((r) => r * 100),
        { title: 'Multimodal ratio', xLabel: '% of user turns with images', bins: 10 },
      ),
    )}</section>`,
  );
  sections.push(
    `<section><h2>Session timelines and drift</h2>${figure(
      'timelines',
      `Sessions and drift events of the first ${data.timelines.length} users`,
      timelineChart(
        data.timelines.map((t) => ({ label: t.userId, sessions: t.sessions, events: t.events })),
        { title: 'Timelines' },
      ),
    )}</section>`,
  );
  const personality = data.personality
    .map((user, i) => {
      const series: Series[] = [];
      const endDay = Math.max(0, ...user.planned.map((p) => p.day), ...user.tracked.map((p) => p.day));
      BIG_FIVE_TRAITS.forEach((trait, t) => {
        series.push({
          name: trait,
          colorIndex: t,
          points: stepPoints(
            user.planned.map((p) => ({ x: p.day, y: p.bigFive[trait] })),
            endDay,
          ),
        });
        if (user.tracked.length > 0)
          series.push({
            name: `${trait} (PEM)`,
            colorIndex: t,
            hideInLegend: true,
            points: user.tracked.map((p) => ({ x: p.day, y: p.bigFive[trait] })),
            dashed: true,
          });
      });
      return figure(
        `personality-${i}`,
        `${user.userId}: planned Big Five (solid) vs tracked by PEM (dashed)`,
        lineChart(series, {
          title: `Personality ${user.userId}`,
          xLabel: 'day',
          yMin: 1,
          yMax: 5,
          width: 760,
        }),
      );
    })
    .join('');
  sections.push(`<section><h2>Personality trajectories</h2>${personality}</section>`);
  sections.push(
    `<section><h2>Preferences</h2>${figure('preference-mix', 'Preferences by category (initial and drifted)', barChart(sortedBars(data.preferenceMix), { title: 'Preference category mix' }))}${figure('drift-mix', 'Drift events by type', barChart(sortedBars(data.driftMix), { title: 'Drift events' }))}</section>`,
  );
  sections.push(
    `<section><h2>Questions</h2>${figure('qa-family', 'QA targets by family', barChart(sortedBars(data.qaByFamily), { title: 'QA families' }))}${figure('qa-tasks', 'QA targets by task', barChart(sortedBars(data.qaByTask), { title: 'QA tasks', width: 760 }))}</section>`,
  );
  const failures = data.validation === null ? [] : sortedBars(data.validation.failuresByCheck);
  // "Clean" is said only when no check failed and no fidelity figure is off target.
  const offFigures = Object.values(data.validation?.fidelity ?? {}).filter((f) => f.ok === false).length;
  const clean = failures.every((f) => f.value === 0) && offFigures === 0;
  const caption = clean
    ? 'Failures by check: none failed, and every fidelity figure below is on target'
    : `Failures by check${offFigures > 0 ? ` (the checks are not the whole story: ${offFigures} fidelity figure${offFigures === 1 ? ' is' : 's are'} off target, see Fidelity)` : ''}`;
  sections.push(
    `<section><h2>Validation</h2>${data.validation === null ? '<p>No validation.json in this run.</p>' : `<p>Judges: ${escapeXml(data.validation.judgeMode ?? 'n/a')}</p>${figure('validation', caption, barChart(failures.length > 0 ? failures : [{ label: 'no checks', value: 0 }], { title: 'Validation failures', width: 760 }))}`}</section>`,
  );
  const fidelity = Object.entries(data.validation?.fidelity ?? {});
  if (fidelity.length > 0) {
    const defects = fidelity.filter(([, f]) => f.kind === 'max');
    const shapes = fidelity.filter(([, f]) => f.kind !== 'max' && f.target !== null);
    const row = ([name, f]: (typeof fidelity)[number]) =>
      `<tr><td><code>${escapeXml(name)}</code></td><td>${escapeXml(f.description)}</td><td>${f.value}${escapeXml(f.unit === '%' ? '%' : ` ${f.unit}`)}</td><td>${f.target === null ? '–' : `${f.kind === 'max' ? '≤ ' : '≈ '}${f.target}`}</td><td>${f.ok === null ? '–' : f.ok ? 'ok' : '<strong>off</strong>'}</td></tr>`;
    const pairs = shapes.flatMap(([name, f]) => [
      { label: `${name} · run`, value: f.value },
      { label: `${name} · published`, value: f.target as number },
    ]);
    sections.push(
      `<section data-section="fidelity"><h2>Fidelity</h2><p>Does the corpus say what its labels say, and does it have the published shapes? Measured on every record of this run (validation.json, <code>fidelity</code>).</p>${figure(
        'fidelity-defects',
        'Defect rates (%): 0 is the target, except the repeated-openings budget',
        barChart(
          defects.map(([name, f]) => ({ label: name, value: f.value })),
          { title: 'Fidelity defects', unit: '%', width: 760 },
        ),
      )}${pairs.length > 0 ? figure('fidelity-shapes', 'Proportions: this run beside the paper or real file', barChart(pairs, { title: 'Proportions vs published', width: 760 })) : ''}<table><tr><th>figure</th><th>what</th><th>run</th><th>target</th><th></th></tr>${fidelity.map(row).join('')}</table></section>`,
    );
  }
  sections.push(
    "<section><h2>Usage and cost</h2><p>The header shows model calls, tokens and cost per online stage of this invocation; <code>manifest.json</code> (<code>usage</code>) has each invocation's. Offline stages call no model, so an offline report is the same however often the run was resumed.</p></section>",
  );
  const header =
    data.header === undefined
      ? ''
      : renderRunHeader(data.header, nothingLeft ? ['nothing usable is left'] : []);
  const checks = data.exportChecks === undefined ? '' : renderExportChecks(data.exportChecks);
  if (checks !== '') sections.unshift(checks);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>persona-forge report${data.name === '' ? '' : ` — ${escapeXml(data.name)}`}</title>
<style>body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1000px;color:#222}h1{font-size:1.6rem}h2{border-bottom:1px solid #ddd;padding-bottom:.2rem;margin-top:2rem}figure{margin:1rem 0}figcaption{color:#666;font-size:12px}table{border-collapse:collapse}th,td{padding:.2rem .8rem;border-bottom:1px solid #eee;text-align:left}.offline{background:#fff6dd;border:1px solid #f0d58c;padding:.5rem .8rem}.alarm{background:#c62828;color:#fff;padding:.8rem 1rem;margin:1rem 0}.alarm table{background:#fff;color:#222;margin-top:.5rem}svg{max-width:100%;height:auto}${HEADER_CSS}</style>
</head><body><h1>persona-forge report${data.name === '' ? '' : ` — ${escapeXml(data.name)}`}</h1>${header}${alarm}${banner}${sections.join('\n')}</body></html>
`;
}

/** Planned personality is piecewise constant: draw it as steps, held to `endDay`. */
function stepPoints(
  points: Array<{ x: number; y: number }>,
  endDay: number,
): Array<{ x: number; y: number }> {
  const out: Array<{ x: number; y: number }> = [];
  points.forEach((p, i) => {
    const prev = out[out.length - 1];
    if (i > 0 && prev !== undefined) out.push({ x: p.x, y: prev.y });
    out.push(p);
  });
  const last = out[out.length - 1];
  if (last !== undefined && last.x < endDay) out.push({ x: endDay, y: last.y });
  return out;
}
