import type { createRewardApp } from '../../../src/reward/index.js';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are inspected loosely in tests
export type Loose = any;
export const read = (response: Response): Promise<Loose> => response.json() as Promise<Loose>;

export const THINK_ANSWER = (answer: string) => `<think>the user said so</think><answer>${answer}</answer>`;

/** POSTs JSON (or a raw string) to the app in process. */
export function post(
  app: ReturnType<typeof createRewardApp>,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}
