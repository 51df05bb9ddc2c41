/// <reference lib="dom" />
/**
 * The corpus browser: one page script, hash routes (`#/`, `#/user/<id>`, `#/samples`, `#/run`),
 * every page drawn from the server's JSON API.
 */
import { esc } from './html.js';
import { renderIndexPage } from './index-page.js';
import { renderRunPage } from './run-page.js';
import { renderSamplesPage } from './samples-page.js';
import { renderUserPage } from './user-page.js';

const root = document.getElementById('app') as HTMLElement;

async function route(): Promise<void> {
  const hash = location.hash.replace(/^#/, '') || '/';
  const path = hash.split('?')[0] ?? '/';
  root.onclick = null;
  delete root.dataset.page;
  root.onkeydown = null;
  try {
    if (path.startsWith('/user/')) {
      await renderUserPage(root, decodeURIComponent(path.slice('/user/'.length)));
    } else if (path === '/samples') {
      await renderSamplesPage(root);
    } else if (path === '/run') {
      await renderRunPage(root);
    } else {
      await renderIndexPage(root);
    }
  } catch (error) {
    root.innerHTML = `<p class="error">${esc(error instanceof Error ? error.message : error)}</p>`;
  }
}

window.addEventListener('hashchange', () => void route());
void route();
