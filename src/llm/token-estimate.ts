import type { ChatMessage } from './types.js';

/**
 * Rough token count without a tokenizer: the larger of the whitespace-separated word count and
 * characters / 4 (the usual English BPE ratio). Used for budget pre-checks, tokens/min limits,
 * the offline backend and the fake server's `usage`, never for billing an answered call (that
 * uses the server's own `usage`).
 *
 * @example estimateTokens('hello there world') // 5 (17 chars / 4, rounded up)
 */
export function estimateTokens(text: string): number {
  let words = 0;
  let inWord = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const space = code === 32 || code === 10 || code === 9 || code === 13;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return Math.max(words, Math.ceil(text.length / 4));
}

/** Prompt tokens of a chat request: each message's content plus 4 tokens of role framing. */
export function estimateMessagesTokens(messages: readonly Pick<ChatMessage, 'content'>[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message.content) + 4;
  return total;
}
