import type { ModelTokenizer } from './model-tokenizer.js';

/**
 * Token counts of chat rows (Qwen's `<|im_start|>role … <|im_end|>` template), counted message by message: the framing of each role once,
 * and each distinct long content once (system prompts repeat on every row), so a file costs
 * about one tokenizer pass over its distinct text.
 */
export class ChatRowCounter {
  private readonly frames = new Map<string, number>();
  private readonly seen = new Map<string, number>();

  constructor(private readonly tokenizer: ModelTokenizer) {}

  private frame(role: string): number {
    let n = this.frames.get(role);
    if (n === undefined) {
      n = this.tokenizer.count(`<|im_start|>${role}\n<|im_end|>\n`);
      this.frames.set(role, n);
    }
    return n;
  }

  content(text: string): number {
    if (text.length < 256) return this.tokenizer.count(text);
    let n = this.seen.get(text);
    if (n === undefined) {
      n = this.tokenizer.count(text);
      if (this.seen.size >= 4096) this.seen.clear();
      this.seen.set(text, n);
    }
    return n;
  }

  /** Bytes (an upper bound of the token count) and the exact count, computed only when asked. */
  row(messages: Array<{ role: string; content: string }>, generationPrompt: boolean) {
    let bytes = 0;
    let images = 0;
    for (const m of messages) {
      const tags = m.content.split('<image>').length - 1;
      // A tag is replaced by the image's own tokens; the text around it is counted.
      if (tags > 0) m.content = m.content.replaceAll('<image>', '');
      bytes += Buffer.byteLength(m.content, 'utf8') + this.frame(m.role);
      images += tags;
    }
    const prompt = generationPrompt ? this.tokenizer.count('<|im_start|>assistant\n') : 0;
    return {
      bytes: bytes + prompt,
      images,
      tokens: () => messages.reduce((sum, m) => sum + this.frame(m.role) + this.content(m.content), prompt),
    };
  }
}
