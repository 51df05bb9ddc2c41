/// <reference lib="dom" />
/** Exported SFT / RL / eval rows of one file and task, as chat, with token counts. */
import type { SampleRow } from '../types.js';
import { esc, getJson, hashQuery, nav, userHref } from './html.js';

interface SamplesResponse {
  catalogue: Array<{ file: string; kind: string; split: string; tasks: Record<string, number> }>;
  total: number;
  rows: SampleRow[];
}

const PAGE = 20;

function rowHtml(row: SampleRow): string {
  const extra = Object.entries(row.extra)
    .map(
      ([key, value]) =>
        `<div><code>${esc(key)}</code>: ${esc(value.length > 400 ? `${value.slice(0, 400)}…` : value)}</div>`,
    )
    .join('');
  return `<article class="sample" data-id="${esc(row.id)}"><div class="meta">${esc(row.id)} · <a href="${userHref(row.user)}">${esc(row.user)}</a> · ${esc(row.task)} · <strong>${row.tokens}</strong> tokens</div>
${row.messages.map((m) => `<div class="msg ${esc(m.role)}"><div class="meta">${esc(m.role)} · ${m.tokens} tokens</div><pre>${esc(m.content)}</pre></div>`).join('')}${extra === '' ? '' : `<div class="extra">${extra}</div>`}</article>`;
}

export async function renderSamplesPage(root: HTMLElement): Promise<void> {
  const query = hashQuery();
  const { catalogue } = await getJson<SamplesResponse>('/api/samples');
  const file = query.get('file') ?? catalogue[0]?.file ?? '';
  const task = query.get('task') ?? '';
  const user = query.get('user') ?? '';
  const offset = Number(query.get('offset') ?? 0) || 0;
  const params = new URLSearchParams({ file, offset: String(offset), limit: String(PAGE) });
  if (task !== '') params.set('task', task);
  if (user !== '') params.set('user', user);
  const found =
    file === ''
      ? { total: 0, rows: [] as SampleRow[] }
      : await getJson<SamplesResponse>(`/api/samples?${params}`);
  const link = (f: string, t: string, o = 0) =>
    `#/samples?${new URLSearchParams({ file: f, ...(t === '' ? {} : { task: t }), ...(user === '' ? {} : { user }), ...(o === 0 ? {} : { offset: String(o) }) })}`;
  const files = catalogue
    .map(
      (c) =>
        `<li${c.file === file ? ' class="active"' : ''}><a href="${link(c.file, '')}">${esc(c.file)}</a> ${Object.entries(
          c.tasks,
        )
          .map(
            ([t, n]) =>
              `<a class="task${c.file === file && t === task ? ' active' : ''}" href="${link(c.file, t)}">${esc(t)} (${n})</a>`,
          )
          .join(' ')}</li>`,
    )
    .join('');
  const pager = `${offset > 0 ? `<a href="${link(file, task, Math.max(0, offset - PAGE))}">← previous</a> ` : ''}${offset + PAGE < found.total ? `<a href="${link(file, task, offset + PAGE)}">next →</a>` : ''}`;
  root.innerHTML = `${nav('samples')}<h1>Samples</h1><ul class="files">${files === '' ? '<li>No exported rows in this run.</li>' : files}</ul>
<p>${esc(file)}${task === '' ? '' : ` · ${esc(task)}`}${user === '' ? '' : ` · user ${esc(user)}`}: rows ${found.total === 0 ? 0 : offset + 1}–${offset + found.rows.length} of ${found.total} ${pager}</p>
${found.rows.map(rowHtml).join('')}<p>${pager}</p>`;
  window.scrollTo(0, 0);
}
