import { InputError } from '../../errors/index.js';
import { createEvalOracle } from './responders/eval-oracle.js';
import { type FakeLlmServer, startFakeLlmServer } from './server.js';

export interface RunFakeLlmCliOptions {
  /** @default 8001 (`persona-forge serve` defaults to 8000) */
  port?: number;
  /** @default 0 */
  latencyMs?: number;
  /** Share of requests given a random fault. @default 0 */
  faultRate?: number;
  /** The model names `/v1/models` lists, comma-separated (every name is answered). @default 'fake' */
  model?: string;
  /** An eval set the fake answers as an oracle (see createEvalOracle). */
  oracle?: string;
  /** Share of the oracle's questions answered right. @default 0.7 */
  oracleRate?: number;
  /** How user turns are written: `free` (like a chat model) or `plain`. @default 'free' */
  dialect?: string;
  /** Share of free-written facts planted as contradictions. @default 0 */
  contradictionRate?: number;
  /** Where the ready line goes. @default console.log */
  log?: (line: string) => void;
}

/**
 * `persona-forge dev fake-llm --port N [--model NAME] [--latency MS] [--faults RATE]`: serves the fake
 * OpenAI-compatible API until the process is stopped, so users can try the online path without
 * a model (`run … --llm-base-url http://127.0.0.1:N/v1 --llm-model fake`).
 *
 * @example const server = await runFakeLlmCli({ port: 8000 });
 */
export async function runFakeLlmCli(options: RunFakeLlmCliOptions = {}): Promise<FakeLlmServer> {
  const dialect = options.dialect ?? 'free';
  if (dialect !== 'free' && dialect !== 'plain')
    throw new InputError('dev fake-llm', `"free" or "plain" (got "${dialect}")`, { field: '--dialect' });
  const contradictionRate = options.contradictionRate ?? 0;
  if (!(contradictionRate >= 0 && contradictionRate <= 1))
    throw new InputError('dev fake-llm', `a share from 0 to 1 (got ${contradictionRate})`, {
      field: '--contradictions',
    });
  const respond =
    options.oracle === undefined
      ? undefined
      : await createEvalOracle({ set: options.oracle, rate: options.oracleRate ?? 0.7 });
  const server = await startFakeLlmServer({
    ...(respond === undefined ? {} : { respond }),
    port: options.port ?? 8001,
    latencyMs: options.latencyMs ?? 0,
    models: (options.model ?? 'fake')
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== ''),
    dialect: { name: dialect, contradictionRate },
    ...(options.faultRate === undefined ? {} : { faults: { rate: options.faultRate, retryAfterSeconds: 1 } }),
  });
  const log = options.log ?? console.log;
  if (options.oracle !== undefined)
    log(
      `eval oracle over ${options.oracle}: the gold answer for ${Math.round((options.oracleRate ?? 0.7) * 100)}% of its questions`,
    );
  const models = (options.model ?? 'fake').split(',').map((name) => name.trim());
  const model = models[0] ?? 'fake';
  log(`fake OpenAI-compatible server on ${server.url} (models: ${models.join(', ')}); stop with Ctrl-C`);
  log(
    `try: persona-forge run pipelines/quickstart.yaml --out out/fake --llm-base-url ${server.url} --llm-model ${model}`,
  );
  return server;
}
