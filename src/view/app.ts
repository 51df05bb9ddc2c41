/**
 * The browser's HTTP API and static files (hono, as the reward server): read-only, every answer
 * from the index and one user's records at a time.
 */
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { Hono } from 'hono';
import { isPersonaForgeError } from '../errors/index.js';
import type { ClientAssets } from './client-bundle.js';
import type { RunFacts } from './run-facts.js';
import { collectRunPage } from './run-page.js';
import { readSamples, sampleCatalogue } from './samples.js';
import { SamplesQuery } from './schemas.js';
import { searchDialogues } from './search.js';
import type { IndexedUser, IndexRow, ViewIndex } from './types.js';
import { readUserMemory } from './user-memory.js';
import { readUserPage } from './user-page.js';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

function page(title: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${title.replace(/[<&]/g, '')}</title><link rel="stylesheet" href="/app.css"></head><body><div id="app">Loading…</div><script src="/app.js"></script></body></html>`;
}

export function createViewApp(options: {
  runDir: string;
  index: ViewIndex;
  facts: RunFacts;
  assets: ClientAssets;
  /**
   * The Host headers answered (e.g. `127.0.0.1:8400`, `localhost:8400`), read on each request;
   * null answers any. On loopback this keeps a web page that rebinds its own name to 127.0.0.1
   * from reading the corpus.
   */
  allowedHosts?: () => ReadonlySet<string> | null;
}): Hono {
  const { runDir, index, facts, assets } = options;
  const byId = new Map<string, IndexedUser>(index.users.map((u) => [u.userId, u]));
  const rows: IndexRow[] = index.users.map(({ plan: _p, dialogue: _d, memory: _m, ...row }) => row);
  const run = collectRunPage(facts);
  const app = new Hono();
  // Read-only: anything but GET/HEAD is refused.
  app.use('*', async (c, next) => {
    const hosts = options.allowedHosts?.() ?? null;
    if (hosts !== null && !hosts.has((c.req.header('host') ?? '').toLowerCase()))
      return c.json({ error: `host "${c.req.header('host') ?? ''}" is not this server` }, 403);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return c.json({ error: 'read-only' }, 405);
    await next();
  });
  app.onError((error, c) => {
    const status = isPersonaForgeError(error) && error.code === 'NOT_FOUND' ? 404 : 500;
    return c.json(
      { error: error.message, ...(isPersonaForgeError(error) ? { code: error.code } : {}) },
      status,
    );
  });
  app.get('/', (c) => c.html(page(`persona-forge view — ${run.name}`)));
  app.get('/app.js', (c) => c.body(assets.script, 200, { 'content-type': 'text/javascript; charset=utf-8' }));
  app.get('/app.css', (c) => c.body(assets.style, 200, { 'content-type': 'text/css; charset=utf-8' }));
  app.get('/api/index', (c) =>
    c.json({ run: { name: run.name, verdict: run.verdict, status: run.status }, users: rows }),
  );
  app.get('/api/search', async (c) =>
    c.json({ users: await searchDialogues(runDir, index.users, c.req.query('text') ?? '') }),
  );
  app.get('/api/user/:id', async (c) => {
    const user = byId.get(c.req.param('id'));
    if (user === undefined) return c.json({ error: `no user "${c.req.param('id')}" in this run` }, 404);
    return c.json(await readUserPage(runDir, user, facts));
  });
  app.get('/api/user/:id/memory', async (c) => {
    const user = byId.get(c.req.param('id'));
    if (user === undefined) return c.json({ error: `no user "${c.req.param('id')}" in this run` }, 404);
    return c.json(await readUserMemory(runDir, user));
  });
  app.get('/api/samples', async (c) => {
    const catalogue = sampleCatalogue(index.samples);
    const query = SamplesQuery.safeParse(c.req.query());
    if (!query.success)
      return c.json(
        {
          error: `GET /api/samples: ${query.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
        },
        400,
      );
    const { file, task, user, offset, limit } = query.data;
    if (file === undefined) return c.json({ catalogue, total: 0, rows: [] });
    if (!index.samples.some((f) => f.path === file))
      return c.json({ error: `GET /api/samples: no exported file "${file}" in this run` }, 404);
    const found = await readSamples(runDir, index.samples, {
      file,
      offset,
      limit,
      ...(task === undefined || task === '' ? {} : { task }),
      ...(user === undefined || user === '' ? {} : { user }),
    });
    return c.json({ catalogue, ...found });
  });
  app.get('/api/run', (c) => c.json(run));
  app.get('/images/*', async (c) => {
    const root = join(runDir, 'plan', 'images');
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path.slice('/images/'.length));
    } catch {
      return c.json({ error: `not an image path: ${c.req.path}` }, 404);
    }
    const path = normalize(join(root, relative));
    const type = IMAGE_TYPES[extname(path).toLowerCase()];
    if (!path.startsWith(root + sep) || type === undefined)
      return c.json({ error: 'not an image of this run' }, 404);
    try {
      return c.body(new Uint8Array(await readFile(path)), 200, {
        'content-type': type,
        'cache-control': 'max-age=3600',
      });
    } catch {
      return c.json({ error: `no image ${c.req.path}` }, 404);
    }
  });
  return app;
}
