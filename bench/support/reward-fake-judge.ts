/**
 * The fake judge for bench/reward.ts in its own process (a real judge is remote): the fake
 * OpenAI-compatible server answering every packed item after `--latency-ms`. Prints
 * `{"url": …}` once listening; stops when stdin closes.
 */
import { parseArgs } from 'node:util';
import { startFakeLlmServer } from '../../src/dev/fake-llm/index.js';

const { values } = parseArgs({ options: { 'latency-ms': { type: 'string', default: '100' } } });
const server = await startFakeLlmServer({
  latencyMs: Number(values['latency-ms']),
  respond: (request) => {
    const user = request.messages.find((message) => message.role === 'user')?.content ?? '';
    const ids = [...user.matchAll(/### Item (\d+)/g)].map((match) => Number(match[1]));
    return { results: ids.map((id) => ({ id, score: 0.5 })) };
  },
});
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.stdin.on('close', () => void server.close().then(() => process.exit(0)));
process.stdin.resume();
