import { createHash } from 'node:crypto';

/** Characters per cache block: 16 tokens at the fake's 4 characters per token (vLLM's default block). */
const BLOCK_CHARS = 64;

/**
 * The fake server's prefix cache, as vLLM's automatic prefix caching and SGLang's radix cache
 * serve one: a prompt's leading blocks identical to the leading blocks of an earlier prompt to
 * the same server are cached. Counted in whole blocks of 64 characters of the serialized messages
 * (each message as its role, a newline, its content, a newline), 16 tokens each (characters / 4,
 * as the fake counts tokens), never more than the prompt's tokens. Nothing is evicted.
 *
 * @example const cache = createPrefixCache(); cache(messages, 120) // 0 the first time
 */
export function createPrefixCache(): (
  messages: ReadonlyArray<{ role: string; content: string }>,
  promptTokens: number,
) => number {
  const seen = new Set<string>();
  return (messages, promptTokens) => {
    const text = messages.map((message) => `${message.role}\n${message.content}\n`).join('');
    let hash = createHash('sha1');
    let blocks = 0;
    let hit = true;
    for (let at = 0; at + BLOCK_CHARS <= text.length; at += BLOCK_CHARS) {
      hash.update(text.slice(at, at + BLOCK_CHARS));
      const key = hash.copy().digest('base64');
      if (hit && seen.has(key)) blocks++;
      else hit = false;
      seen.add(key);
      hash = createHash('sha1').update(key);
    }
    return Math.min(promptTokens, blocks * (BLOCK_CHARS / 4));
  };
}
