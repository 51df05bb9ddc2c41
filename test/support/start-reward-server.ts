/**
 * Starts the reward server for out-of-process tests (the python plugin's unittest suite, the
 * bench) and prints one JSON line `{"url": …, "memoryRunDir": …}` once it listens. It stops on
 * SIGTERM/SIGINT or when its stdin closes, so a dying parent never leaves it running.
 *
 *   npx --no-install tsx test/support/start-reward-server.ts --port 0 [--token-env VAR] [--fixture-memory]
 *     [--offline-judge | --judge-down | --judge-flaky] [--on-failure JSON] [--body-limit BYTES] [--group-size N]
 *
 * `--judge-down` points the judge at a port whose listener drops every connection unanswered (an
 * outage); `--judge-flaky` makes the judge's first packed call answer HTTP 500 (a transient fault)
 * and every call holding an item with the word FLAKY answer 500 (an item the judge keeps failing);
 * `--on-failure` is the `onFailure` section of rewards.yaml as JSON.
 */
import { rm } from 'node:fs/promises';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { parseArgs } from 'node:util';
import { type FakeChatRequest, startFakeLlmServer } from '../../src/dev/fake-llm/index.js';
import { createLlmClient } from '../../src/llm/index.js';
import { startRewardServer } from '../../src/reward/index.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';
import { memoryRunDir } from '../reward/support/memory-fixture.js';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    'token-env': { type: 'string' },
    'fixture-memory': { type: 'boolean', default: false },
    // Offline heuristic judges (labelled) instead of the deterministic fake judge (score 1 / CORRECT).
    'offline-judge': { type: 'boolean', default: false },
    'judge-down': { type: 'boolean', default: false },
    'judge-flaky': { type: 'boolean', default: false },
    'body-limit': { type: 'string' },
    'group-size': { type: 'string' },
    'on-failure': { type: 'string' },
  },
});

const runDir = values['fixture-memory'] ? await memoryRunDir() : undefined;
const offline = values['offline-judge'];
/** The deterministic judge: every packed item CORRECT (accuracy) or score 1 (the others). */
let judgeCalls = 0;
const judgeAnswer = (request: FakeChatRequest) => {
  const system = request.messages.find((message) => message.role === 'system')?.content ?? '';
  const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
  const ids = [...user.matchAll(/### Item (\d+)/g)].map((match) => Number(match[1]));
  if (values['judge-flaky'] && ((ids.length > 1 && judgeCalls++ === 0) || user.includes('FLAKY')))
    throw new Error('flaky judge: HTTP 500');
  return {
    results: ids.map((id) => (system.includes('"label"') ? { id, label: 'CORRECT' } : { id, score: 1 })),
  };
};
// The real llm layer against the fake OpenAI-compatible judge (or the offline backend).
// An outage: the judge's port is held by a listener that drops every connection unanswered. (A
// closed port would do until the OS hands it to the next test's judge, which then answers.)
const down = values['judge-down'] && !offline;
const judge = offline || down ? undefined : await startFakeLlmServer({ respond: judgeAnswer });
const outage = down ? await droppingListener() : undefined;
const judgeUrl = outage?.url ?? judge?.url;
const llm = createLlmClient(
  LlmConfig.parse(
    judgeUrl === undefined
      ? {}
      : {
          endpoints: { judge: { baseUrl: judgeUrl, model: 'fake-judge', maxRetries: 0 } },
          roles: { judge: 'judge' },
        },
  ),
  { cache: false, env: {} },
);
const tokenEnv = values['token-env'];
const token = tokenEnv === undefined ? undefined : process.env[tokenEnv];
const server = await startRewardServer({
  llm,
  host: values.host,
  port: Number(values.port),
  ...(token === undefined ? {} : { token }),
  config: {
    judge: { allowOffline: offline },
    memory: runDir === undefined ? {} : { runDir },
    ...(values['on-failure'] === undefined ? {} : { onFailure: JSON.parse(values['on-failure']) }),
    ...(values['body-limit'] === undefined
      ? {}
      : { limits: { bodyLimitBytes: Number(values['body-limit']) } }),
    ...(values['group-size'] === undefined ? {} : { openrlhf: { groupSize: Number(values['group-size']) } }),
  },
  shutdownTimeoutMs: 2000,
});
process.stdout.write(`${JSON.stringify({ url: server.url, memoryRunDir: runDir ?? null })}\n`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await server.close();
  await judge?.close();
  outage?.server.close();
  if (runDir !== undefined) await rm(runDir, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
process.stdin.on('end', () => void stop());
process.stdin.on('close', () => void stop());
process.stdin.resume();

/** A TCP listener on a free port of this process that closes every connection at once. */
async function droppingListener(): Promise<{ server: Server; url: string }> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/v1` };
}
