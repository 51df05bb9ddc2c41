/// <reference lib="dom" />
/**
 * One user: the plan's timeline and personality, the dialogue session by session (planned slots,
 * images, noise and removed units marked), the questions (a click scrolls to their evidence),
 * memory targets and trajectories.
 */
import type { Removal, UserMemoryPage, UserPage, ViewQuestion, ViewSession, ViewTurn } from '../types.js';
import { esc, getJson, hashQuery, nav, when } from './html.js';

const removed = (r: Removal | null) =>
  r === null ? '' : `<div class="removal">quarantined (${esc(r.check)}): ${esc(r.reason)}</div>`;

function turnHtml(turn: ViewTurn): string {
  const classes = [
    'turn',
    turn.speaker,
    turn.slots.length > 0 ? 'planned' : '',
    turn.noise === null ? '' : 'noise',
    turn.quarantined === null ? '' : 'removed',
  ];
  const slots = turn.slots
    .map((s) => `<span class="slot" title="${esc(s.statement)}">${esc(s.id)} · ${esc(s.kind)}</span>`)
    .join('');
  const images = turn.images
    .map((i) =>
      i.url === null
        ? `<span class="badge">image ${esc(i.id)}</span>`
        : `<img src="${esc(i.url)}" alt="${esc(i.caption)}" title="${esc(i.caption)}" loading="lazy">`,
    )
    .join('');
  const text = turn.quarantined === null ? esc(turn.text) : `<del>${esc(turn.text)}</del>`;
  const evidence =
    turn.evidenceOf.length > 0
      ? `<span class="evidence-of">evidence of ${turn.evidenceOf.map(esc).join(', ')}</span>`
      : '';
  return `<div class="${classes.filter((c) => c !== '').join(' ')}" id="t-${esc(turn.id)}" data-turn="${esc(turn.id)}">
<div class="meta"><span class="who">${esc(turn.speaker)}</span> ${esc(turn.id)} · ${esc(when(turn.time))}${turn.noise === null ? '' : ` <span class="badge warn">noise: ${esc(turn.noise)}</span>`} ${evidence}</div>
${slots === '' ? '' : `<div class="slots">${slots}</div>`}${images === '' ? '' : `<div class="images">${images}</div>`}<div class="text">${text}</div>${removed(turn.quarantined)}</div>`;
}

function sessionHtml(session: ViewSession): string {
  return `<section class="session${session.quarantined === null ? '' : ' removed'}" id="s-${session.index}"><h3>Session ${session.index} <small>${esc(when(session.start))} → ${esc(when(session.end))} · ${session.turns.length} turns</small></h3>${removed(session.quarantined)}<p class="topics">${session.topics.map(esc).join(' · ')}</p>${session.turns.map(turnHtml).join('')}</section>`;
}

function questionHtml(q: ViewQuestion): string {
  const choices =
    q.choices === null
      ? ''
      : `<ol type="a" class="choices">${q.choices.map((c, i) => `<li${i === q.correctIndex ? ' class="gold"' : ''}>${esc(c)}</li>`).join('')}</ol>`;
  return `<li class="question${q.dropped === null ? '' : ' removed'}" id="q-${esc(q.id)}" data-evidence="${esc(q.evidenceTurns.join(' '))}" tabindex="0">
<div class="meta">${esc(q.id)} · ${esc(q.family)} · ${esc(q.task)} · asked ${esc(when(q.time))}${q.unanswerable ? ' · <span class="badge">unanswerable</span>' : ''}</div>
<div class="q">${q.dropped === null ? esc(q.question) : `<del>${esc(q.question)}</del>`}</div>${choices}
<div class="gold-answer">gold: <strong>${esc(q.answer)}</strong> (${esc(q.answerType)})</div>
<div class="meta">evidence: ${q.evidenceTurns.length === 0 ? 'none' : q.evidenceTurns.map(esc).join(', ')}</div>${removed(q.dropped)}</li>`;
}

const targetHtml = (t: UserMemoryPage['targets'][number]) =>
  `<div class="target"><div class="meta"><a href="#" class="unit-link" data-at="${esc(t.turnId)}">${esc(t.turnId)}</a> · ${esc(when(t.time))}</div><pre>${esc(t.target)}</pre></div>`;

const trajectoryHtml = (t: UserMemoryPage['trajectories'][number]) =>
  `<details class="trajectory"><summary>${esc(t.qaId)} · ${t.retrievals} retrievals${t.firstRetrievalHit ? '' : ' · first retrieval missed'}</summary><p>${esc(t.question)}</p>${t.messages.map((m) => `<pre>${esc(m)}</pre>`).join('')}</details>`;

/** Marks the evidence turns of a question and scrolls the first into view. */
function showEvidence(root: HTMLElement, item: HTMLElement): void {
  for (const el of root.querySelectorAll('.turn.focus')) el.classList.remove('focus');
  for (const el of root.querySelectorAll('.question.active')) el.classList.remove('active');
  item.classList.add('active');
  const ids = (item.dataset.evidence ?? '').split(' ').filter((id) => id !== '');
  const turns = ids
    .map((id) => document.getElementById(`t-${id}`))
    .filter((el): el is HTMLElement => el !== null);
  for (const turn of turns) turn.classList.add('focus');
  turns[0]?.scrollIntoView({ block: 'center' });
}

export async function renderUserPage(root: HTMLElement, userId: string): Promise<void> {
  const page = await getJson<UserPage>(`/api/user/${encodeURIComponent(userId)}`);
  const units = page.sessions.flatMap((s) => [
    ...(s.quarantined === null ? [] : [{ id: s.quarantined.id, at: s.turns[0]?.id ?? '', r: s.quarantined }]),
    ...s.turns
      .filter((t) => t.quarantined !== null && t.quarantined.id === t.id && s.quarantined === null)
      .map((t) => ({ id: t.id, at: t.id, r: t.quarantined as Removal })),
  ]);
  const dropped = page.questions.filter((q) => q.dropped !== null);
  const targetTotal = Object.values(page.targetCounts).reduce((a, b) => a + b, 0);
  root.innerHTML = `${nav('')}
<h1>${esc(page.userId)} <small>${esc(page.split)}${page.persona === null ? '' : ` · ${esc(page.persona.name)}`}</small>${page.quarantine === 'user' ? ' <span class="badge bad">quarantined user</span>' : ''}</h1>
${page.persona === null ? '' : `<p class="persona">${esc(page.persona.description)}</p>`}
${page.missing.length === 0 ? '' : `<p class="warn">No record of this user in ${page.missing.map(esc).join(', ')}.</p>`}
${page.userQuarantine.length === 0 ? '' : `<div class="alarm"><strong>Quarantined:</strong><ul>${page.userQuarantine.map((q) => `<li>${esc(q.stage)} · ${esc(q.check)}: ${esc(q.reason)}</li>`).join('')}</ul></div>`}
${units.length + dropped.length === 0 ? '' : `<section id="removed"><h2>Removed by validation</h2><ul>${units.map((u) => `<li><a href="#" class="unit-link" data-at="${esc(u.at)}"><del>${esc(u.id)}</del></a> ${esc(u.r.check)}: ${esc(u.r.reason)}</li>`).join('')}${dropped.map((q) => `<li><a href="#" class="question-link" data-q="${esc(q.id)}"><del>${esc(q.id)}</del></a> ${esc(q.dropped?.reason)}</li>`).join('')}</ul></section>`}
${page.examples.length === 0 ? '' : `<section><h2>Check failures</h2><ul>${page.examples.map((e) => `<li><a href="#" class="unit-link" data-at="${esc(e.location)}">${esc(e.location)}</a> ${esc(e.check)}: ${esc(e.reason)}</li>`).join('')}</ul></section>`}
${page.charts === null ? '' : `<section><h2>Plan</h2><figure data-chart="timeline">${page.charts.timeline}</figure><figure data-chart="personality">${page.charts.personality}</figure></section>`}
<details><summary>Preferences (${page.preferences.length}) and drift (${page.drift.length})</summary><table><tr><th>id</th><th>item</th><th>polarity</th><th>category</th><th>from</th><th>until</th><th>origin</th></tr>${page.preferences.map((p) => `<tr><td>${esc(p.id)}</td><td>${esc(p.item)}</td><td>${esc(p.polarity)}</td><td>${esc(p.category)}</td><td>${esc(when(p.validFrom))}</td><td>${p.validUntil === null ? '' : esc(when(p.validUntil))}</td><td>${esc(p.origin)}</td></tr>`).join('')}</table>
<table><tr><th>drift</th><th>type</th><th>when</th><th>item</th><th>cause</th></tr>${page.drift.map((d) => `<tr><td>${esc(d.id)}</td><td>${esc(d.type)}</td><td>${esc(when(d.time))}</td><td>${esc(d.item)}</td><td>${esc(d.cause)}</td></tr>`).join('')}</table>
<ul>${page.goals.map((g) => `<li>goal: ${esc(g.description)} — ${g.states.map((s) => `${esc(when(s.time))} ${esc(s.status)}`).join(', ')}</li>`).join('')}</ul></details>
<div class="columns"><div class="dialogue"><h2>Dialogue</h2>${page.sessions.map(sessionHtml).join('')}</div>
<div class="side"><h2>Questions (${page.questions.length})</h2><ol class="questions">${page.questions.map(questionHtml).join('')}</ol>
<h2>Memory targets (${targetTotal})</h2>${Object.entries(page.targetCounts)
    .map(
      ([task, n]) =>
        `<details class="lazy" data-task="${esc(task)}"><summary>${esc(task)} (${n})</summary></details>`,
    )
    .join('')}
<h2>Trajectories</h2><details class="lazy" data-task=""><summary>the reasoning of every question</summary></details>
</div></div>`;
  // Memory targets and trajectories are fetched and drawn when opened: most readers open few.
  let memory: Promise<UserMemoryPage> | null = null;
  for (const details of root.querySelectorAll<HTMLDetailsElement>('details.lazy'))
    details.addEventListener('toggle', async () => {
      if (!details.open || details.dataset.drawn === '1') return;
      details.dataset.drawn = '1';
      memory ??= getJson<UserMemoryPage>(`/api/user/${encodeURIComponent(page.userId)}/memory`);
      const { targets, trajectories } = await memory;
      const task = details.dataset.task ?? '';
      details.insertAdjacentHTML(
        'beforeend',
        task === ''
          ? trajectories.map(trajectoryHtml).join('')
          : targets
              .filter((t) => t.task === task)
              .map(targetHtml)
              .join(''),
      );
    });
  root.onclick = onClick;
  root.onkeydown = (event) => {
    const item = (event.target as HTMLElement).closest('.question') as HTMLElement | null;
    if (item !== null && event.key === 'Enter') showEvidence(root, item);
  };
  const at = hashQuery().get('at');
  if (at !== null) focusTurn(root, at);
  else window.scrollTo(0, 0);
  // Which page is drawn (for tests and bench/view.ts to wait on).
  root.dataset.page = `user:${page.userId}`;
}

function focusTurn(root: HTMLElement, id: string): void {
  for (const el of root.querySelectorAll('.turn.focus')) el.classList.remove('focus');
  const turn = document.getElementById(`t-${id}`) ?? document.getElementById(`q-${id}`);
  turn?.classList.add('focus');
  turn?.scrollIntoView({ block: 'center' });
}

function onClick(event: Event): void {
  const root = event.currentTarget as HTMLElement;
  const target = event.target as HTMLElement;
  const unit = target.closest('.unit-link') as HTMLElement | null;
  if (unit !== null) {
    event.preventDefault();
    focusTurn(root, unit.dataset.at ?? '');
    return;
  }
  const qlink = target.closest('.question-link') as HTMLElement | null;
  if (qlink !== null) {
    event.preventDefault();
    document.getElementById(`q-${qlink.dataset.q ?? ''}`)?.scrollIntoView({ block: 'center' });
    return;
  }
  const item = target.closest('.question') as HTMLElement | null;
  if (item !== null) showEvidence(root, item);
}
