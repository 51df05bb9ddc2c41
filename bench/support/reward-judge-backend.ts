import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createLlmClient } from '../../src/llm/index.js';
import type { LlmClient } from '../../src/llm/types.js';
import { LlmConfig } from '../../src/schemas/llm-config.js';

/**
 * The judge the reward bench scores against: the fake OpenAI-compatible server (own process)
 * answering each call after `latencyMs`, reached through the real llm layer with
 * `maxConcurrency` calls in flight (so the bound is maxConcurrency / latency calls per second).
 */
export async function createJudgeBackend(options: {
  latencyMs: number;
  maxConcurrency: number;
}): Promise<{ llm: LlmClient; label: string; close(): Promise<void> }> {
  const script = fileURLToPath(new URL('./reward-fake-judge.ts', import.meta.url));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, '--latency-ms', String(options.latencyMs)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fake judge exited with ${code}`)));
  });
  const { url } = JSON.parse(first) as { url: string };
  const llm = createLlmClient(
    LlmConfig.parse({
      endpoints: {
        judge: { baseUrl: url, model: 'fake-model', maxConcurrency: options.maxConcurrency, maxRetries: 0 },
      },
      roles: { judge: 'judge' },
    }),
    { cache: false, env: {} },
  );
  return {
    llm,
    label: 'fake OpenAI-compatible server (src/dev/fake-llm, own process) through createLlmClient',
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
}
