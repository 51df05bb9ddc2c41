import { stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { InputError } from '../errors/index.js';
import { createViewApp } from './app.js';
import { clientAssets } from './client-bundle.js';
import { loadIndex } from './index-store.js';
import { readRunFacts } from './run-facts.js';

/** Names of this machine: bound to one of them, the server answers only requests addressed to it. */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export interface ViewServerOptions {
  runDir: string;
  /** @default '127.0.0.1' (loopback: the corpus is not shown to the network unless asked) */
  host?: string;
  /** 0 picks a free port. @default 8400 */
  port?: number;
}

export interface ViewServer {
  url: string;
  users: number;
  /** Whether the index was read from beside the run or built now. */
  index: 'reused' | 'built';
  /** Seconds spent building or reading the index. */
  indexSeconds: number;
  /** False when the run folder could not take the index (it is then rebuilt next time). */
  indexSaved: boolean;
  close(): Promise<void>;
}

/**
 * Serves the corpus browser of `runDir`.
 *
 * @example const server = await startViewServer({ runDir: 'out/quickstart', port: 0 }); console.log(server.url);
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const runDir = options.runDir;
  const info = await stat(runDir).catch(() => null);
  if (info === null || !info.isDirectory()) throw new InputError(runDir, 'not a run directory');
  const facts = await readRunFacts(runDir);
  const started = performance.now();
  const loaded = await loadIndex(runDir, facts);
  const indexSeconds = (performance.now() - started) / 1000;
  if (loaded.index.users.length === 0)
    throw new InputError(
      runDir,
      'no user records (plan/plan.jsonl, dialogues/dialogues.jsonl): is this a run directory?',
    );
  const host = options.host ?? '127.0.0.1';
  let allowed: Set<string> | null = null;
  const app = createViewApp({
    runDir,
    index: loaded.index,
    facts,
    assets: await clientAssets(),
    allowedHosts: () => allowed,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 8400 }, () =>
      resolve(started),
    );
    started.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new InputError('--port', `${options.host ?? '127.0.0.1'}:${options.port ?? 8400} is in use`, {
              hint: 'pick another with --port N, or --port 0 for a free one',
            })
          : error,
      ),
    );
  });
  const address = server.address() as AddressInfo;
  if (LOOPBACK.has(host))
    allowed = new Set(['127.0.0.1', 'localhost', '[::1]'].map((name) => `${name}:${address.port}`));
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}/`,
    users: loaded.index.users.length,
    index: loaded.source,
    indexSeconds,
    indexSaved: loaded.saved,
    close: () =>
      new Promise<void>((resolve, reject) => {
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        server.close((error) => (error === undefined ? resolve() : reject(error)));
      }),
  };
}
