import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PipelineConfig } from '../schemas/pipeline.js';
import { ChatRowCounter } from '../util/chat-row-tokens.js';
import { readJsonl } from '../util/fs.js';
import type { ModelTokenizer } from '../util/model-tokenizer.js';

/** One task's share of the exported rows beside the share the mix configured. */
export interface MixRow {
  kind: 'sft' | 'rl';
  task: string;
  rows: number;
  /** % of the split's exported rows (train). */
  exported: number;
  /** % the configured weights give this task (renormalised over the tasks with weight). */
  configured: number;
}

/** Token lengths of one exported file's rows against the recipe's max_length. */
export interface LengthCheck {
  file: string;
  rows: number;
  /** One per row: exact where counted, else chars × the ratio measured on the counted rows. */
  tokens: number[];
  /** Rows counted exactly with the tokenizer (a seeded sample and every row near the limit). */
  counted: number;
  maxLength: number;
  /** Rows longer than max_length: ms-swift drops them (truncation_strategy delete, its default). */
  over: number;
  max: number;
  p95: number;
}

/** A few exported rows of one task, as a reader checks them. */
export interface SampleRow {
  kind: 'sft' | 'rl';
  task: string;
  id: string;
  /** The last user message (the question or the input), shortened. */
  input: string;
  /** The label: the assistant's target or the RL solution, shortened. */
  label: string;
  /** The dialogue turns the label rests on (the QA target's evidence), shortened. */
  evidence: string[];
  userId: string;
  /** The plan's QA target id the row comes from (its evidence), when it comes from one. */
  qaId: string;
}

export interface ExportChecks {
  mix: MixRow[];
  lengths: LengthCheck[];
  samples: SampleRow[];
  tokenizer: string;
}

interface Row {
  id: string;
  user_id?: string;
  task: string;
  messages: Array<{ role: string; content: string }>;
  images?: string[];
  solution?: string;
}

const SAMPLE_PER_FILE = 32;
/**
 * Twice the tokens per character of English text (≈ 0.25): a row this could put near the limit is
 * counted exactly, up to `MAX_NEAR_LIMIT` rows per file (then the measured ratio decides).
 */
const UPPER_TOKENS_PER_CHAR = 0.5;
const MAX_NEAR_LIMIT = 2000;
const SAMPLES_PER_TASK = 5;

function short(text: string, max = 280): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

/**
 * Reads the export folder of a run: each task's exported share against the configured mix, the
 * token length of every SFT/RL train and test row against `maxLength` (counted with the trained
 * model's tokenizer: a seeded sample of rows and every row whose estimate comes near the limit
 * exactly, the rest from the characters-per-token ratio of those), and five rows per task with
 * their label and evidence. A run without `export/` gives empty lists.
 */
export async function collectExportChecks(
  runDir: string,
  config: Pick<PipelineConfig, 'export'>,
  options: { tokenizer: ModelTokenizer; maxLength: number; imageTokens: number },
): Promise<ExportChecks> {
  const checks: ExportChecks = { mix: [], lengths: [], samples: [], tokenizer: options.tokenizer.name };
  let stats: Record<'sft' | 'rl', Partial<Record<'train' | 'test', Record<string, number>>> | undefined>;
  try {
    stats = JSON.parse(await readFile(join(runDir, 'export/stats.json'), 'utf8')) as typeof stats;
  } catch {
    return checks;
  }
  for (const kind of ['sft', 'rl'] as const) {
    const exported = stats[kind]?.train ?? {};
    const weights = config.export[kind].mix.weights as Record<string, number>;
    const withWeight = Object.entries(weights).filter(([, w]) => w > 0);
    const weightSum = withWeight.reduce((sum, [, w]) => sum + w, 0);
    const total = Object.values(exported).reduce((sum, n) => sum + n, 0);
    const tasks = [...new Set([...withWeight.map(([task]) => task), ...Object.keys(exported)])].sort();
    for (const task of tasks) {
      const rows = exported[task] ?? 0;
      checks.mix.push({
        kind,
        task,
        rows,
        exported: total === 0 ? 0 : Math.round((rows / total) * 1000) / 10,
        configured: weightSum === 0 ? 0 : Math.round(((weights[task] ?? 0) / weightSum) * 1000) / 10,
      });
    }
  }
  // The same counter as the training preflight (`train --dry-run`), so both read the same lengths.
  const counter = new ChatRowCounter(options.tokenizer);
  const exact = (row: Row, kind: 'sft' | 'rl') =>
    counter
      .row(
        row.messages.map((m) => ({ role: m.role, content: m.content })),
        kind === 'rl',
      )
      .tokens() +
    (row.images?.length ?? 0) * options.imageTokens;
  const chars = (row: Row) => row.messages.reduce((sum, m) => sum + m.content.length, 0);
  // One streaming pass per file; only numbers are kept (the files are hundreds of MB at scale).
  for (const kind of ['sft', 'rl'] as const) {
    const perTask = new Map<string, number>();
    const seen = new Map<string, number>();
    // Five rows spread over each task's rows (not the first user's five).
    const stride = (task: string) =>
      Math.max(1, Math.floor((stats[kind]?.train?.[task] ?? SAMPLES_PER_TASK) / SAMPLES_PER_TASK));
    for (const split of ['train', 'test'] as const) {
      const file = `export/${kind}/${split}.jsonl`;
      const expected = Object.values(stats[kind]?.[split] ?? {}).reduce((sum, n) => sum + n, 0);
      // An evenly spaced sample is counted exactly; it sets the characters-per-token ratio.
      const step = Math.max(1, Math.floor(expected / SAMPLE_PER_FILE));
      const tokens: number[] = [];
      const estimated: Array<{ index: number; chars: number; images: number }> = [];
      let sampleTokens = 0;
      let sampleChars = 0;
      let nearLimit = 0;
      for await (const record of readJsonl(join(runDir, file), { allowMissing: true })) {
        const row = record as Row;
        const index = tokens.length;
        const size = chars(row);
        const images = row.images?.length ?? 0;
        if (index % step === 0) {
          const n = exact(row, kind);
          tokens.push(n);
          sampleTokens += n - images * options.imageTokens;
          sampleChars += size;
        } else if (
          nearLimit < MAX_NEAR_LIMIT &&
          size * UPPER_TOKENS_PER_CHAR + images * options.imageTokens >= 0.7 * options.maxLength
        ) {
          // Possibly near or over the limit: counted, not estimated.
          nearLimit++;
          tokens.push(exact(row, kind));
        } else {
          tokens.push(Number.NaN);
          estimated.push({ index, chars: size, images });
        }
        const taskIndex = seen.get(row.task) ?? 0;
        if (split === 'train') seen.set(row.task, taskIndex + 1);
        if (
          split === 'train' &&
          taskIndex % stride(row.task) === 0 &&
          (perTask.get(row.task) ?? 0) < SAMPLES_PER_TASK
        ) {
          perTask.set(row.task, (perTask.get(row.task) ?? 0) + 1);
          checks.samples.push(sampleOf(kind, row));
        }
      }
      if (tokens.length === 0) continue;
      const perChar = sampleChars === 0 ? 0.3 : sampleTokens / sampleChars;
      for (const entry of estimated)
        tokens[entry.index] = Math.round(entry.chars * perChar) + entry.images * options.imageTokens;
      const sorted = [...tokens].sort((x, y) => x - y);
      checks.lengths.push({
        file,
        rows: tokens.length,
        tokens,
        counted: tokens.length - estimated.length,
        maxLength: options.maxLength,
        over: tokens.filter((n) => n > options.maxLength).length,
        max: sorted[sorted.length - 1] ?? 0,
        p95: percentile(sorted, 0.95),
      });
    }
  }
  await addEvidence(runDir, checks.samples);
  return checks;
}

/**
 * Fills in each sample's evidence: the dialogue turns carrying its QA target's evidence slots.
 * Reads plan and dialogues once, keeping only the sampled users' turns.
 */
async function addEvidence(runDir: string, samples: SampleRow[]): Promise<void> {
  const wanted = new Map<string, SampleRow[]>();
  for (const sample of samples) {
    const list = wanted.get(sample.userId) ?? [];
    list.push(sample);
    wanted.set(sample.userId, list);
  }
  const slotsOf = new Map<SampleRow, string[]>();
  for await (const record of readJsonl(join(runDir, 'plan/plan.jsonl'), { allowMissing: true })) {
    const plan = record as { userId: string; qa: Array<{ id: string; evidenceSlotIds?: string[] }> };
    for (const sample of wanted.get(plan.userId) ?? []) {
      const target = plan.qa.find((qa) => qa.id === sample.qaId);
      if (target !== undefined) slotsOf.set(sample, target.evidenceSlotIds ?? []);
    }
  }
  for await (const record of readJsonl(join(runDir, 'dialogues/dialogues.jsonl'), { allowMissing: true })) {
    const dialogue = record as {
      userId: string;
      sessions: Array<{ turns: Array<{ time: string; speaker: string; text: string; slots?: string[] }> }>;
    };
    const users = wanted.get(dialogue.userId);
    if (users === undefined) continue;
    for (const session of dialogue.sessions)
      for (const turn of session.turns)
        for (const sample of users) {
          const slots = slotsOf.get(sample) ?? [];
          if (sample.evidence.length < 3 && (turn.slots ?? []).some((slot) => slots.includes(slot)))
            sample.evidence.push(
              short(`[${turn.time.slice(0, 16).replace('T', ' ')}] ${turn.speaker}: ${turn.text}`, 200),
            );
        }
  }
}

function sampleOf(kind: 'sft' | 'rl', row: Row): SampleRow {
  const lastUser = [...row.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const lastAssistant = [...row.messages].reverse().find((m) => m.role === 'assistant')?.content ?? '';
  return {
    kind,
    task: row.task,
    id: row.id,
    userId: row.user_id ?? row.id.split(':')[0] ?? '',
    qaId: row.id.split(':').at(-1) ?? '',
    input: short(lastUser),
    label: short(row.solution ?? lastAssistant),
    evidence: [],
  };
}
