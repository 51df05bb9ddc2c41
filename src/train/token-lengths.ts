import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Recipe } from '../schemas/recipe.js';
import { ChatRowCounter } from '../util/chat-row-tokens.js';
import { loadModelTokenizer, type ModelTokenizer } from '../util/model-tokenizer.js';
import { TimestampColumnTracker } from './arrow-timestamps.js';
import type { TrainCommand } from './command.js';
import { forEachRow, type Row, resolveImagePath } from './dataset-rows.js';
import { IMAGE_FACTOR, qwenImageTokens, readImageSize } from './image-tokens.js';
import { isMultimodal, truncationEffect, truncationStrategy } from './training-summary.js';

/** qwen_vl_utils' default `max_pixels` (16384 tokens of 28 × 28) when the recipe sets none. */
const DEFAULT_MAX_PIXELS = 16384 * IMAGE_FACTOR * IMAGE_FACTOR;

/** A preflight line of these checks (the shape of the preflight's `PreflightCheck`). */
export interface TokenCheck {
  name: 'tokens' | 'dataset';
  status: 'pass' | 'warn' | 'fail';
  message: string;
}

/** Token lengths of one dataset file as the trained model's tokenizer counts them. */
export interface TokenLengths {
  file: string;
  tokenizer: string;
  rows: number;
  /** Rows whose chat-templated text (+ image tokens) exceeds `max_length`. */
  overMaxLength: number;
  longest: number;
  /** GRPO: rows whose `solution` alone exceeds `max_completion_length`. */
  answersOverBudget: number;
  longestAnswer: number;
  /**
   * Multimodal models: images sized from their files (Qwen2-VL's smart_resize under max_pixels),
   * and those that could not be read, counted at the max_pixels bound instead.
   */
  images: { sized: number; bounded: number; bound: number } | undefined;
  /** Columns `datasets` will type as timestamps (every value parses as Arrow ISO-8601). */
  timestampColumns: string[];
}

/**
 * The tokenizer spec for a recipe: `model.tokenizer`, else `model.id` when it is a local folder
 * holding tokenizer.json, else `model.modelType` (a named tokenizer such as `qwen3`).
 */
export function tokenizerSpec(recipe: Recipe, cwd: string): string | undefined {
  if (recipe.model.tokenizer !== undefined) return recipe.model.tokenizer;
  const local = path.resolve(cwd, recipe.model.id);
  if (existsSync(path.join(local, 'tokenizer.json'))) return local;
  return recipe.model.modelType;
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) =>
        typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '',
      )
      .join('');
  return '';
}

/**
 * A row's messages in the Qwen chat layout ms-swift's qwen templates use
 * (`<|im_start|>role\ncontent<|im_end|>\n` per message; GRPO prompts end with the generation
 * prompt `<|im_start|>assistant\n`), and its `<image>` count.
 */
function messagesOf(row: Row): Array<{ role: string; content: string }> {
  const messages = Array.isArray(row.messages)
    ? (row.messages as Array<{ role?: unknown; content?: unknown }>)
    : [];
  return messages.map((m) => ({ role: String(m.role ?? ''), content: text(m.content) }));
}

/** Where a row's images are looked up, as ms-swift does (see `resolveImagePath`). */
export interface ImageLookup {
  cwd: string;
  rootImageDir?: string | undefined;
}

/**
 * Counts every row of a dataset file with the model's tokenizer: rows over `max_length` (the
 * chat-templated text plus, for a multimodal model, each image's tokens from its file's size
 * through Qwen2-VL's smart_resize, or the `max_pixels` bound when the file cannot be read), and
 * for GRPO the `solution` answers longer than `max_completion_length`. A row whose UTF-8 size is
 * within the limit is not tokenized (a byte-level BPE token is at least one byte).
 *
 * @example
 * const t = await measureTokenLengths(recipe, 'export/rl/train.jsonl', await loadModelTokenizer('qwen3'));
 * t.overMaxLength; // 0
 */
export async function measureTokenLengths(
  recipe: Recipe,
  file: string,
  tokenizer: ModelTokenizer,
  lookup: ImageLookup = { cwd: process.cwd() },
): Promise<TokenLengths> {
  const grpo = recipe.stage === 'grpo';
  const maxLength = recipe.hyperparameters.maxLength;
  const budget = recipe.grpo?.maxCompletionLength ?? 512;
  const maxPixels = recipe.data.maxPixels ?? DEFAULT_MAX_PIXELS;
  const bound = Math.floor(maxPixels / (IMAGE_FACTOR * IMAGE_FACTOR)) + 2;
  const images = isMultimodal(recipe) ? { sized: 0, bounded: 0, bound } : undefined;
  const sizes = new Map<string, number | undefined>();
  const imageTokens = (row: Row, count: number): number => {
    if (images === undefined) return 0;
    const list = Array.isArray(row.images) ? (row.images as unknown[]) : [];
    let total = 0;
    for (let i = 0; i < count; i++) {
      const entry = list[i];
      const name = typeof entry === 'string' ? entry : (entry as { path?: unknown } | null)?.path;
      const file =
        typeof name === 'string' ? resolveImagePath(name, lookup.cwd, lookup.rootImageDir) : undefined;
      let tokens = file === undefined ? undefined : sizes.get(file);
      if (file !== undefined && !sizes.has(file)) {
        const size = readImageSize(file);
        tokens = size === undefined ? undefined : qwenImageTokens(size.width, size.height, maxPixels);
        sizes.set(file, tokens);
      }
      if (tokens === undefined) images.bounded++;
      else images.sized++;
      total += tokens ?? bound;
    }
    return total;
  };
  const times = new TimestampColumnTracker();
  const out: TokenLengths = {
    file,
    tokenizer: tokenizer.name,
    rows: 0,
    overMaxLength: 0,
    longest: 0,
    answersOverBudget: 0,
    longestAnswer: 0,
    images,
    timestampColumns: [],
  };
  const counter = new ChatRowCounter(tokenizer);
  await forEachRow(
    file,
    (row) => {
      out.rows++;
      times.add(row);
      // A byte-level BPE token is at least one byte: a row within the limit in bytes is not counted.
      const r = counter.row(messagesOf(row), grpo);
      const extra = imageTokens(row, r.images);
      const tokens = r.bytes + extra <= maxLength ? -1 : r.tokens() + extra;
      if (tokens > maxLength) out.overMaxLength++;
      out.longest = Math.max(out.longest, tokens);
      if (grpo && typeof row.solution === 'string') {
        const answer = Buffer.byteLength(row.solution, 'utf8') <= budget ? -1 : counter.content(row.solution);
        if (answer > budget) out.answersOverBudget++;
        out.longestAnswer = Math.max(out.longestAnswer, answer);
      }
    },
    () => {
      // malformed lines are the dataset check's to report
    },
  );
  out.timestampColumns = times.columns();
  return out;
}

function overLengthCheck(recipe: Recipe, t: TokenLengths): TokenCheck {
  const max = recipe.hyperparameters.maxLength;
  const i = t.images;
  const images =
    i === undefined || i.sized + i.bounded === 0
      ? ''
      : `; ${i.sized} image(s) sized from their files${i.bounded === 0 ? '' : `, ${i.bounded} unreadable counted at the max_pixels bound of ${i.bound} tokens`}`;
  const head = `${t.file}: ${t.overMaxLength} of ${t.rows} rows over max_length ${max} (${t.tokenizer}${images})`;
  if (t.overMaxLength === 0) return { name: 'tokens', status: 'pass', message: head };
  return {
    name: 'tokens',
    status: 'warn',
    message: `${head}; longest ${t.longest} tokens; truncation_strategy ${truncationStrategy(recipe)}: ${truncationEffect(recipe)}`,
  };
}

function answerCheck(recipe: Recipe, t: TokenLengths): TokenCheck | undefined {
  if (recipe.stage !== 'grpo') return undefined;
  const g = recipe.grpo;
  const budget = g?.maxCompletionLength ?? 512;
  if (t.answersOverBudget === 0) {
    return {
      name: 'tokens',
      status: 'pass',
      message: `${t.file}: every answer (solution) fits max_completion_length ${budget}`,
    };
  }
  const consequence =
    g?.overlongFilter === true
      ? 'with overlong_filter true a completion that long is truncated and gets no gradient at all'
      : g?.softOverlong !== undefined
        ? 'the soft_overlong reward punishes completions that long'
        : 'completions that long are cut off at the budget';
  return {
    name: 'tokens',
    status: 'warn',
    message: `${t.file}: ${t.answersOverBudget} of ${t.rows} answers (solution) run longer than max_completion_length ${budget} (longest ${t.longestAnswer} tokens, ${t.tokenizer}); ${consequence}; raise grpo.maxCompletionLength`,
  };
}

/**
 * Where ms-swift writes a row out as JSON with `datasets`' types, a jsonl column typed as
 * timestamps fails: the validation split it cuts from the training set is saved through
 * `check_json_format` (AttributeError on a datetime), and in vLLM server mode the rows' columns
 * go to `swift rollout` in the `requests.post(json=…)` body of `vllm_client.py` (a datetime is not
 * JSON serializable) whenever a multi-turn scheduler or `vllm_server_pass_dataset` passes them.
 */
function timestampChecks(recipe: Recipe, command: TrainCommand, t: TokenLengths): TokenCheck[] {
  if (!/\.jsonl$/i.test(t.file) || t.timestampColumns.length === 0) return [];
  const columns = `Hugging Face datasets reads column(s) ${t.timestampColumns.join(', ')} as timestamps`;
  const out: TokenCheck[] = [];
  if ((recipe.data.splitDatasetRatio ?? 0) > 0 && command.datasets.val.length === 0) {
    out.push({
      name: 'dataset',
      status: 'fail',
      message: `${t.file}: ${columns}, and ms-swift cannot save the validation split it cuts (split_dataset_ratio ${recipe.data.splitDatasetRatio}) with datetime values (AttributeError in check_json_format); set data.useTestAsVal: true (the export's test split) or data.format: parquet instead of data.splitDatasetRatio`,
    });
  }
  const server =
    recipe.stage === 'grpo' && recipe.distributed.vllm.enabled && recipe.distributed.vllm.mode === 'server';
  const passed = recipe.environment !== undefined || command.argv.includes('--vllm_server_pass_dataset');
  if (server && passed) {
    out.push({
      name: 'dataset',
      status: 'fail',
      message: `${t.file}: ${columns}, and in vLLM server mode ms-swift posts each row's columns to swift rollout as JSON, which a datetime cannot be (TypeError: not JSON serializable); set data.format: parquet (its columns keep their string type)`,
    });
  }
  return out;
}

/**
 * The preflight's token checks for every local dataset of the command: rows over `max_length`
 * (and what ms-swift does to them), GRPO answers over `max_completion_length`, and the
 * validation-split save that timestamp-typed columns break. Counted with the model's own
 * tokenizer ({@link tokenizerSpec}); without one the check says how to name it.
 */
export async function checkTokenLengths(
  recipe: Recipe,
  command: TrainCommand,
  cwd: string,
): Promise<TokenCheck[]> {
  const spec = tokenizerSpec(recipe, cwd);
  let tokenizer: ModelTokenizer;
  try {
    if (spec === undefined) throw new Error('the recipe names no model.modelType');
    tokenizer = await loadModelTokenizer(spec);
  } catch (error) {
    return [
      {
        name: 'tokens',
        status: 'warn',
        message: `token lengths not counted: ${(error as Error).message}; set model.tokenizer (a model folder with tokenizer.json, or qwen3 / qwen2_5_vl)`,
      },
    ];
  }
  const out: TokenCheck[] = [];
  for (const file of [...command.datasets.train, ...command.datasets.val]) {
    if (!path.isAbsolute(file) || !existsSync(file)) continue;
    let t: TokenLengths;
    try {
      t = await measureTokenLengths(recipe, file, tokenizer, {
        cwd: command.cwd,
        rootImageDir: command.env.ROOT_IMAGE_DIR,
      });
    } catch (error) {
      out.push({
        name: 'tokens',
        status: 'warn',
        message: `${file}: token lengths not counted: ${(error as Error).message}`,
      });
      continue;
    }
    out.push(overLengthCheck(recipe, t));
    const answers = answerCheck(recipe, t);
    if (answers !== undefined) out.push(answers);
    out.push(...timestampChecks(recipe, command, t));
  }
  return out;
}
