/// <reference lib="dom" />
/** The run: go/no-go, stages, the fidelity table, every alarm with links to its records. */
import type { RunPage } from '../types.js';
import { esc, getJson, nav, userHref } from './html.js';

const value = (v: number, unit: string) => `${v}${unit === '%' ? '%' : ` ${esc(unit)}`}`;

export async function renderRunPage(root: HTMLElement): Promise<void> {
  const run = await getJson<RunPage>('/api/run');
  const flagLink = (check: string) => `#/?flag=${encodeURIComponent(check)}`;
  const offline = Object.entries(run.offline)
    .filter(([, on]) => on)
    .map(([role]) => role);
  root.innerHTML = `${nav('run')}<h1>${esc(run.name || 'run')}</h1>
<div class="verdict-box ${run.verdict}" id="verdict"><strong>${run.verdict === 'go' ? 'GO' : 'NO-GO'}</strong> · run ${esc(run.status)}${run.reasons.length === 0 ? '' : `<ul>${run.reasons.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>`}</div>
${offline.length === 0 ? '' : `<p class="warn">Offline roles (no model): ${offline.map(esc).join(', ')}.</p>`}
<table class="totals">${Object.entries(run.totals)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`)
    .join('')}</table>
<h2>Stages</h2><table><tr><th>stage</th><th>in</th><th>out</th><th>quarantined</th><th>status</th></tr>${run.stages.map((s) => `<tr><td>${esc(s.name)}</td><td>${s.in ?? ''}</td><td>${s.out ?? ''}</td><td>${s.quarantined ?? ''}</td><td>${esc(s.status)}</td></tr>`).join('')}</table>
<h2>Fidelity</h2><table class="fidelity"><tr><th>figure</th><th>what</th><th>run</th><th>target</th><th></th><th>records</th></tr>${run.fidelity
    .map(
      (f) =>
        `<tr class="${f.ok === false ? 'off' : ''}"><td><code>${esc(f.name)}</code></td><td>${esc(f.description)}</td><td>${value(f.value, f.unit)}${f.count === null || f.of === null || f.unit !== '%' ? '' : ` <small>(${f.count}/${f.of})</small>`}</td><td>${f.target === null ? '–' : `${f.kind === 'max' ? '≤' : '≈'} ${f.target}`}</td><td>${f.ok === null ? '–' : f.ok ? 'ok' : '<strong>off</strong>'}</td><td>${f.check === null || (f.count === 0 && f.ok !== false) ? '' : `<a href="${flagLink(f.check)}">users flagged ${esc(f.check)}</a>`}</td></tr>`,
    )
    .join('')}</table>
<h2>Alarms</h2>${
    run.alarms.length === 0
      ? '<p>No check failed.</p>'
      : run.alarms
          .map(
            (a) =>
              `<div class="alarm-item" data-check="${esc(a.check)}"><h3><code>${esc(a.check)}</code> ${a.failures} failures on ${a.users} users <a href="${flagLink(a.check)}">(all flagged users)</a></h3><p>${esc(a.description)}</p><ul>${a.records.map((r) => `<li><a href="${userHref(r.userId, r.location)}">${esc(r.location || r.userId)}</a> ${esc(r.reason)}</li>`).join('')}</ul></div>`,
          )
          .join('')
  }
<h2>Quarantine</h2>${
    run.quarantine.length === 0
      ? '<p>Nothing quarantined.</p>'
      : `<table><tr><th>stage</th><th>reason</th><th>records</th><th>users</th></tr>${run.quarantine
          .map(
            (q) =>
              `<tr><td>${esc(q.stage)}</td><td>${esc(q.reason)}</td><td>${q.count}</td><td>${q.users
                .slice(0, 12)
                .map((u) => `<a href="${userHref(u)}">${esc(u)}</a>`)
                .join(' ')}${q.users.length > 12 ? ' …' : ''}</td></tr>`,
          )
          .join('')}</table>`
  }`;
  window.scrollTo(0, 0);
}
