/**
 * Tiny server-side SVG chart primitives. Charts are plain SVG inlined in the report, so the
 * page is self-contained, opens from disk and needs no script to draw.
 */
export interface Series {
  name: string;
  points: Array<{ x: number; y: number }>;
  dashed?: boolean;
  /** Palette index (defaults to the series position); series sharing one are drawn alike. */
  colorIndex?: number;
  /** Leave out of the legend (e.g. the dashed twin of a solid series). */
  hideInLegend?: boolean;
}

const PALETTE = [
  '#4e79a7',
  '#f28e2b',
  '#e15759',
  '#76b7b2',
  '#59a14f',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

export function color(i: number): string {
  return PALETTE[i % PALETTE.length] as string;
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/**
 * Horizontal bar chart of labelled values.
 *
 * @example barChart([{ label: 'food', value: 35 }], { title: 'Preference mix' })
 */
export function barChart(
  bars: Array<{ label: string; value: number }>,
  options: { title: string; unit?: string; width?: number },
): string {
  const width = options.width ?? 640;
  const rowHeight = 22;
  const labelWidth = Math.min(260, 12 + 7 * Math.max(4, ...bars.map((b) => b.label.length)));
  const height = 30 + rowHeight * Math.max(bars.length, 1);
  const max = Math.max(1e-9, ...bars.map((b) => b.value));
  const plotWidth = width - labelWidth - 70;
  const rows = bars.map((bar, i) => {
    const y = 24 + i * rowHeight;
    const w = Math.max(1, (bar.value / max) * plotWidth);
    return `<text x="${labelWidth - 6}" y="${y + 14}" text-anchor="end">${escapeXml(bar.label)}</text><rect class="mark" x="${labelWidth}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 6}" fill="${color(i)}"><title>${escapeXml(bar.label)}: ${fmt(bar.value)}${options.unit ?? ''}</title></rect><text x="${(labelWidth + w + 4).toFixed(1)}" y="${y + 14}">${fmt(bar.value)}${escapeXml(options.unit ?? '')}</text>`;
  });
  return svg(width, height, options.title, rows.join(''));
}

/**
 * Up to `count` round tick values covering [min, max] (steps of 1, 2 or 5 × 10^k).
 *
 * @example niceTicks(0, 16384, 5) // [0, 5000, 10000, 15000]
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  const span = max - min;
  if (!(span > 0)) return [min];
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const ticks: number[] = [];
  for (let t = Math.ceil(min / step) * step; t <= max + step * 1e-9; t += step)
    ticks.push(Math.round(t * 1e6) / 1e6);
  return ticks;
}

/** Tick marks and labels along a horizontal axis at `y`, mapping values with `sx`. */
function xTicks(ticks: number[], sx: (x: number) => number, y: number): string {
  return ticks
    .map(
      (t) =>
        `<line class="tick" x1="${sx(t).toFixed(1)}" y1="${y}" x2="${sx(t).toFixed(1)}" y2="${y + 4}" stroke="#888"/><text class="tick-label" x="${sx(t).toFixed(1)}" y="${y + 15}" text-anchor="middle">${fmt(t)}</text>`,
    )
    .join('');
}

/** Tick marks and labels along a vertical axis at `x`. */
function yTicks(ticks: number[], sy: (y: number) => number, x: number): string {
  return ticks
    .map(
      (t) =>
        `<line class="tick" x1="${x - 4}" y1="${sy(t).toFixed(1)}" x2="${x}" y2="${sy(t).toFixed(1)}" stroke="#888"/><text class="tick-label" x="${x - 6}" y="${(sy(t) + 4).toFixed(1)}" text-anchor="end">${fmt(t)}</text>`,
    )
    .join('');
}

/** Histogram of values in `bins` equal-width buckets, with axis ticks; `marker` draws a limit line. */
export function histogram(
  values: number[],
  options: {
    title: string;
    bins?: number;
    xLabel: string;
    width?: number;
    marker?: { value: number; label: string };
  },
): string {
  const width = options.width ?? 640;
  const height = 250;
  const bins = options.bins ?? 12;
  if (values.length === 0) return svg(width, height, options.title, '<text x="20" y="60">no data</text>');
  let min = values.reduce((a, b) => Math.min(a, b), Number.POSITIVE_INFINITY);
  let max = values.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  if (options.marker !== undefined) {
    min = Math.min(min, 0);
    max = Math.max(max, options.marker.value * 1.05);
  }
  const span = max - min || 1;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) counts[Math.min(bins - 1, Math.floor(((v - min) / span) * bins))]! += 1;
  const top = Math.max(...counts);
  const plotW = width - 80;
  const plotH = height - 80;
  const barW = plotW / bins;
  const sx = (x: number) => 60 + ((x - min) / span) * plotW;
  const sy = (y: number) => 30 + plotH - (y / top) * plotH;
  const marks = counts.map((count, i) => {
    const h = (count / top) * plotH;
    const lo = min + (span * i) / bins;
    const hi = min + (span * (i + 1)) / bins;
    return `<rect class="mark" x="${(60 + i * barW + 1).toFixed(1)}" y="${(30 + plotH - h).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${Math.max(h, 0.5).toFixed(1)}" fill="${color(0)}"><title>${fmt(lo)}–${fmt(hi)}: ${count}</title></rect>`;
  });
  const marker =
    options.marker === undefined
      ? ''
      : `<line class="limit" x1="${sx(options.marker.value).toFixed(1)}" y1="26" x2="${sx(options.marker.value).toFixed(1)}" y2="${30 + plotH}" stroke="#c62828" stroke-width="2" stroke-dasharray="4 3"/><text x="${(sx(options.marker.value) - 4).toFixed(1)}" y="22" text-anchor="end" fill="#c62828">${escapeXml(options.marker.label)}</text>`;
  const axis = `<line x1="60" y1="${30 + plotH}" x2="${60 + plotW}" y2="${30 + plotH}" stroke="#888"/><line x1="60" y1="30" x2="60" y2="${30 + plotH}" stroke="#888"/>${xTicks(niceTicks(min, max, 6), sx, 30 + plotH)}${yTicks(niceTicks(0, top, 4), sy, 60)}<text x="${60 + plotW / 2}" y="${height - 8}" text-anchor="middle">${escapeXml(options.xLabel)}</text><text x="14" y="${30 + plotH / 2}" transform="rotate(-90 14 ${30 + plotH / 2})" text-anchor="middle">rows</text>`;
  return svg(width, height, options.title, axis + marks.join('') + marker);
}

/** Line chart of several series sharing x (e.g. days) and y axes. */
export function lineChart(
  series: Series[],
  options: { title: string; xLabel: string; yMin?: number; yMax?: number; width?: number; height?: number },
): string {
  const width = options.width ?? 640;
  const height = options.height ?? 260;
  const all = series.flatMap((s) => s.points);
  if (all.length === 0) return svg(width, height, options.title, '<text x="20" y="60">no data</text>');
  const xMin = Math.min(...all.map((p) => p.x));
  const xMax = Math.max(...all.map((p) => p.x));
  const yMin = options.yMin ?? Math.min(...all.map((p) => p.y));
  const yMax = options.yMax ?? Math.max(...all.map((p) => p.y));
  const plotW = width - 180;
  const plotH = height - 70;
  const sx = (x: number) => 50 + ((x - xMin) / (xMax - xMin || 1)) * plotW;
  const sy = (y: number) => 30 + plotH - ((y - yMin) / (yMax - yMin || 1)) * plotH;
  let legendRow = 0;
  const lines = series.map((s, i) => {
    const c = color(s.colorIndex ?? i);
    const d = s.points
      .map((p, j) => `${j === 0 ? 'M' : 'L'}${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
      .join(' ');
    const dash = s.dashed === true ? ' stroke-dasharray="5 3"' : '';
    const first = s.points[0];
    const single =
      s.points.length === 1 && first !== undefined
        ? `<circle class="mark" cx="${sx(first.x).toFixed(1)}" cy="${sy(first.y).toFixed(1)}" r="3" fill="${c}"/>`
        : '';
    const legend =
      s.hideInLegend === true
        ? ''
        : `<text x="${width - 120}" y="${36 + legendRow++ * 16}" fill="${c}">${escapeXml(s.name)}</text>`;
    return `<path class="mark" d="${d}" fill="none" stroke="${c}" stroke-width="2"${dash}><title>${escapeXml(s.name)}</title></path>${single}${legend}`;
  });
  const axis = `<line x1="50" y1="${30 + plotH}" x2="${50 + plotW}" y2="${30 + plotH}" stroke="#888"/><line x1="50" y1="30" x2="50" y2="${30 + plotH}" stroke="#888"/>${yTicks(niceTicks(yMin, yMax, 4), sy, 50)}${xTicks(niceTicks(xMin, xMax, 8), sx, 30 + plotH)}<text x="${50 + plotW / 2}" y="${height - 6}" text-anchor="middle">${escapeXml(options.xLabel)}</text>`;
  return svg(width, height, options.title, axis + lines.join(''));
}

/**
 * One row per user: sessions as ticks (width ∝ rounds) and drift events as diamonds, on a
 * shared day axis from each user's horizon start.
 */
export function timelineChart(
  rows: Array<{
    label: string;
    sessions: Array<{ day: number; rounds: number }>;
    events: Array<{ day: number; label: string; kind: string }>;
  }>,
  options: { title: string; width?: number },
): string {
  const width = options.width ?? 900;
  const rowH = 28;
  const height = 62 + rows.length * rowH;
  const maxDay = Math.max(
    1,
    ...rows.flatMap((r) => [...r.sessions.map((s) => s.day), ...r.events.map((e) => e.day)]),
  );
  const x0 = 130;
  const plotW = width - x0 - 20;
  const sx = (d: number) => x0 + (d / maxDay) * plotW;
  const kinds: Record<string, string> = { add: '#59a14f', modify: '#f28e2b', delete: '#e15759' };
  const body = rows.map((row, i) => {
    const y = 30 + i * rowH;
    const sessions = row.sessions
      .map(
        (s) =>
          `<rect class="mark" x="${sx(s.day).toFixed(1)}" y="${y + 6}" width="${Math.max(2, Math.min(12, s.rounds / 4)).toFixed(1)}" height="12" fill="#4e79a7" opacity="0.7"><title>day ${fmt(s.day)}: ${s.rounds} rounds</title></rect>`,
      )
      .join('');
    const events = row.events
      .map((e) => {
        const cx = sx(e.day);
        return `<path class="mark" d="M${cx.toFixed(1)},${y + 4} l5,8 l-5,8 l-5,-8 z" fill="${kinds[e.kind] ?? '#333'}"><title>day ${fmt(e.day)} ${escapeXml(e.kind)}: ${escapeXml(e.label)}</title></path>`;
      })
      .join('');
    return `<text x="${x0 - 8}" y="${y + 16}" text-anchor="end">${escapeXml(row.label)}</text><line x1="${x0}" y1="${y + 12}" x2="${x0 + plotW}" y2="${y + 12}" stroke="#ddd"/>${sessions}${events}`;
  });
  const dayTicks = niceTicks(0, maxDay, 8)
    .map(
      (t) =>
        `<line class="tick" x1="${sx(t).toFixed(1)}" y1="${height - 30}" x2="${sx(t).toFixed(1)}" y2="${height - 26}" stroke="#888"/><text class="tick-label" x="${sx(t).toFixed(1)}" y="${height - 17}" text-anchor="middle">${fmt(t)}</text>`,
    )
    .join('');
  const legend = `${dayTicks}<text x="${x0}" y="${height - 4}">days since start (0–${fmt(maxDay)}) · ▮ session · ◆ drift: </text><text x="${x0 + 300}" y="${height - 4}" fill="#59a14f">add</text><text x="${x0 + 335}" y="${height - 4}" fill="#f28e2b">modify</text><text x="${x0 + 385}" y="${height - 4}" fill="#e15759">delete</text>`;
  return svg(width, height, options.title, body.join('') + legend);
}

function svg(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(title)}"><style>text{font:11px sans-serif}</style>${body}</svg>`;
}
