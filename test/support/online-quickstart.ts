import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import type { FakeLlmServerOptions } from '../../src/dev/fake-llm/server.js';
import { runPipelineFile } from '../../src/pipeline/run-file.js';

const quickstart = join(resolve(import.meta.dirname, '../..'), 'pipelines/quickstart.yaml');

/**
 * Runs of the quickstart with 2 train users (no test users) in this process, the given model roles
 * served by a `dev fake-llm` server with no answer cache (the fake's judge knows what it wrote in
 * this process: nothing may come from a disk cache). Call it at the top of a test file: the
 * servers and run folders are removed after the file's tests.
 */
export function onlineQuickstart(tempPrefix: string) {
  const dirs: string[] = [];
  const servers: FakeLlmServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return {
    /** A fake model server, closed after the file's tests. */
    async server(options: FakeLlmServerOptions): Promise<FakeLlmServer> {
      const server = await startFakeLlmServer(options);
      servers.push(server);
      return server;
    },
    /** Runs `stages` with `roles` on `server`: the run folder, and the error the run ended with (null if none). */
    async run(
      server: FakeLlmServer,
      stages: string[],
      roles: string[],
    ): Promise<{ out: string; error: unknown }> {
      const out = await mkdtemp(join(tmpdir(), tempPrefix));
      dirs.push(out);
      const error = await runPipelineFile(quickstart, {
        outDir: out,
        overrides: {
          personas: { train: 2, test: 0 },
          stages,
          llm: {
            endpoints: {
              fake: { baseUrl: server.url, model: 'fake-model', maxConcurrency: 8, timeoutMs: 5_000 },
            },
            roles: Object.fromEntries(roles.map((role) => [role, 'fake'])),
            cache: { enabled: false },
          },
        },
      }).then(
        () => null,
        (e: unknown) => e,
      );
      return { out, error };
    },
  };
}
