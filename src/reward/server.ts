import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { LlmClient } from '../llm/types.js';
import { RewardServerConfig, type RewardServerConfigInput } from '../schemas/reward.js';
import { createRewardApp, type RewardApp } from './app.js';
import { loadJudgeCache } from './judge-cache.js';
import { createMemoryRetriever } from './memory-retrieve.js';

export interface StartRewardServerOptions {
  /** The llm layer client serving the judge (and the embedder for memory retrieval). */
  llm: LlmClient;
  /** Parsed config; `host`/`port`/`token` below win over its `server` section. @default {} */
  config?: RewardServerConfigInput;
  /** @default config.server.host, else '127.0.0.1' (never all interfaces unless told) */
  host?: string;
  /** 0 picks a free port. @default config.server.port, else 8000 */
  port?: number;
  /** Bearer token; no auth when unset. */
  token?: string;
  /** Longest wait for in-flight requests on close before connections are cut. @default 30000 */
  shutdownTimeoutMs?: number;
}

export interface RewardServer {
  /** `http://host:port` actually bound. */
  url: string;
  host: string;
  port: number;
  app: RewardApp;
  /** Stops accepting, lets in-flight requests finish, flushes the judge cache file. */
  close(): Promise<void>;
}

/**
 * Binds the reward app to a socket (127.0.0.1:8000 by default). The judge cache is replayed
 * from `cache.file` when configured, and `/v1/memory/retrieve` serves `memory.runDir` snapshots
 * or inline `memory_snapshot` columns.
 *
 * @example
 * const server = await startRewardServer({ llm, config, port: 0 });
 * process.once('SIGTERM', () => void server.close());
 */
export async function startRewardServer(options: StartRewardServerOptions): Promise<RewardServer> {
  const probe = RewardServerConfig.parse(options.config ?? {});
  const cache = probe.cache.enabled
    ? await loadJudgeCache({
        maxEntries: probe.cache.maxEntries,
        ...(probe.cache.file === undefined ? {} : { file: probe.cache.file }),
      })
    : undefined;
  const app = createRewardApp({
    llm: options.llm,
    config: options.config ?? {},
    ...(cache === undefined ? {} : { cache }),
    ...(options.token === undefined ? {} : { token: options.token }),
    retriever: createMemoryRetriever({
      llm: options.llm,
      runDir: probe.memory.runDir,
      cacheEntries: probe.memory.cacheEntries,
    }),
  });
  const host = options.host ?? probe.server.host;
  const port = options.port ?? probe.server.port;
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const started = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(started));
    started.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const shutdownTimeoutMs = options.shutdownTimeoutMs ?? 30_000;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
    host: address.address,
    port: address.port,
    app,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        // close() stops accepting and waits for open requests; idle keep-alive sockets are
        // released on a short interval so a finished request's socket does not hold us open.
        const sweep = setInterval(
          () => (server as { closeIdleConnections?: () => void }).closeIdleConnections?.(),
          50,
        );
        const hard = setTimeout(
          () => (server as { closeAllConnections?: () => void }).closeAllConnections?.(),
          shutdownTimeoutMs,
        );
        hard.unref();
        server.close((error) => {
          clearInterval(sweep);
          clearTimeout(hard);
          if (error !== undefined) reject(error);
          else resolve();
        });
      }).then(() => cache?.flush());
      return closing;
    },
  };
}
