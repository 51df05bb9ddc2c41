/// <reference lib="dom" />
/** Escaping and small formatting helpers of the browser's templates. */

export function esc(value: unknown): string {
  return String(value ?? '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** `2024-01-19T14:34:00.000Z` → `2024-01-19 14:34`. */
export function when(iso: string): string {
  return iso.replace('T', ' ').slice(0, 16);
}

export function userHref(userId: string, at?: string): string {
  return `#/user/${encodeURIComponent(userId)}${at === undefined || at === '' ? '' : `?at=${encodeURIComponent(at)}`}`;
}

export async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  const body = (await response.json()) as T & { error?: string };
  if (!response.ok) throw new Error(body.error ?? `${url}: HTTP ${response.status}`);
  return body;
}

/** The query part of the location hash (`#/samples?file=…`). */
export function hashQuery(): URLSearchParams {
  const hash = location.hash;
  const q = hash.indexOf('?');
  return new URLSearchParams(q === -1 ? '' : hash.slice(q + 1));
}

export function nav(active: string): string {
  const link = (href: string, label: string, key: string) =>
    `<a href="${href}"${key === active ? ' class="active"' : ''}>${label}</a>`;
  return `<nav>${link('#/', 'Users', 'index')}${link('#/samples', 'Samples', 'samples')}${link('#/run', 'Run', 'run')}</nav>`;
}
