/// <reference lib="dom" />
/** The index: every user with split, sessions, turns, quarantine and flags; filter and search. */
import type { IndexRow } from '../types.js';
import { esc, getJson, hashQuery, nav, userHref } from './html.js';

interface IndexResponse {
  run: { name: string; verdict: string; status: string };
  users: IndexRow[];
}

let cached: IndexResponse | null = null;

/** What a row matches in the free filter: its id, items, tasks and flags. */
const haystack = (row: IndexRow) =>
  [row.userId, ...row.items, ...row.tasks, ...row.flags].join('\n').toLowerCase();

export async function renderIndexPage(root: HTMLElement): Promise<void> {
  cached ??= await getJson<IndexResponse>('/api/index');
  const { run, users } = cached;
  const query = hashQuery();
  const flags = [...new Set(users.flatMap((u) => u.flags))].sort();
  const tasks = [...new Set(users.flatMap((u) => u.tasks))].sort();
  const splits = [...new Set(users.map((u) => u.split))].sort();
  const options = (values: string[], selected: string | null, all: string) =>
    `<option value="">${all}</option>${values.map((v) => `<option${v === selected ? ' selected' : ''}>${esc(v)}</option>`).join('')}`;
  root.innerHTML = `${nav('index')}
<h1>${esc(run.name || 'run')} <span class="verdict ${run.verdict}">${esc(run.verdict)}</span></h1>
<form class="filters" id="filters">
  <input name="q" placeholder="user, item, task or flag" value="${esc(query.get('q') ?? '')}" size="28">
  <select name="split">${options(splits, query.get('split'), 'every split')}</select>
  <select name="task">${options(tasks, query.get('task'), 'every task')}</select>
  <select name="flag">${options(flags, query.get('flag'), 'any flags')}</select>
  <select name="quarantine">${options(['user', 'units', 'none'], query.get('quarantine'), 'quarantined or not')}</select>
  <input name="text" placeholder="text said in the dialogue" value="${esc(query.get('text') ?? '')}" size="24">
  <button type="submit">Search text</button>
</form>
<p id="count"></p>
<table class="users"><thead><tr><th>user</th><th>split</th><th>sessions</th><th>turns</th><th>image turns</th><th>questions</th><th>quarantine</th><th>flags</th></tr></thead><tbody id="rows"></tbody></table>`;
  const form = root.querySelector('#filters') as HTMLFormElement;
  const body = root.querySelector('#rows') as HTMLElement;
  const count = root.querySelector('#count') as HTMLElement;
  let textHits: Set<string> | null = null;

  const draw = () => {
    const data = new FormData(form);
    const get = (name: string) => String(data.get(name) ?? '').trim();
    const q = get('q').toLowerCase();
    const [split, task, flag, quarantine] = [get('split'), get('task'), get('flag'), get('quarantine')];
    const params = new URLSearchParams();
    for (const name of ['q', 'split', 'task', 'flag', 'quarantine', 'text'])
      if (get(name) !== '') params.set(name, get(name));
    history.replaceState(null, '', `#/${params.size > 0 ? `?${params}` : ''}`);
    const shown = users.filter(
      (u) =>
        (q === '' || haystack(u).includes(q)) &&
        (split === '' || u.split === split) &&
        (task === '' || u.tasks.includes(task)) &&
        (flag === '' || u.flags.includes(flag)) &&
        (quarantine === '' ||
          (quarantine === 'none' ? u.quarantine === null : u.quarantine === quarantine)) &&
        (textHits === null || textHits.has(u.userId)),
    );
    count.textContent = `${shown.length} of ${users.length} users${textHits === null ? '' : ` (dialogue text "${get('text')}": ${textHits.size})`}`;
    body.innerHTML = shown
      .map(
        (u) =>
          `<tr data-user="${esc(u.userId)}"${u.quarantine === 'user' ? ' class="quarantined"' : ''}><td><a href="${userHref(u.userId)}">${esc(u.userId)}</a></td><td>${esc(u.split)}</td><td>${u.sessions}</td><td>${u.turns}</td><td>${u.imageTurns}</td><td>${u.questions}</td><td>${u.quarantine === null ? '' : `<span class="badge bad">${u.quarantine === 'user' ? 'whole user' : 'some units'}</span>`}</td><td>${u.flags.map((f) => `<span class="badge">${esc(f)}</span>`).join(' ')}</td></tr>`,
      )
      .join('');
  };
  const searchText = async () => {
    const text = String(new FormData(form).get('text') ?? '').trim();
    textHits =
      text === ''
        ? null
        : new Set((await getJson<{ users: string[] }>(`/api/search?text=${encodeURIComponent(text)}`)).users);
    draw();
  };
  form.addEventListener('input', (event) => {
    if ((event.target as HTMLInputElement).name !== 'text') draw();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void searchText();
  });
  if ((query.get('text') ?? '') !== '') await searchText();
  else draw();
}
