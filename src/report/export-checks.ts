import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PipelineConfig } from '../schemas/pipeline.js';
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

/** Chat-template tokens around each message (`<|im_start|>role\n … <|im_end|>\n`) and the reply prompt. */
const PER_MESSAGE = 4;
const REPLY_PROMPT = 3;
const SAMPLE_PER_FILE = 48;
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
  let stats: { sft?: { train?: Record<string, number> }; rl?: { train?: Record<string, number> } };
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
  const memo = new Map<string, number>();
  const count = (text: string) => {
    let n = memo.get(text);
    if (n === undefined) {
      n = options.tokenizer.count(text);
      if (memo.size < 50_000) memo.set(text, n);
    }
    return n;
  };
  const exact = (row: Row) =>
    row.messages.reduce((sum, m) => sum + count(m.content) + PER_MESSAGE, REPLY_PROMPT) +
    (row.images?.length ?? 0) * options.imageTokens;
  const chars = (row: Row) => row.messages.reduce((sum, m) => sum + m.content.length, 0);
  const evidence = await evidenceIndex(runDir);
  for (const kind of ['sft', 'rl'] as const) {
    const perTask = new Map<string, number>();
    const seen = new Map<string, number>();
    // Five rows spread over each task's rows (not the first user's five).
    const stride = (task: string) =>
      Math.max(1, Math.floor((stats[kind]?.train?.[task] ?? SAMPLES_PER_TASK) / SAMPLES_PER_TASK));
    for (const split of ['train', 'test']) {
      const file = `export/${kind}/${split}.jsonl`;
      const rows: Array<{ chars: number; images: number; row: Row | null }> = [];
      let lineCount = 0;
      for await (const record of readJsonl(join(runDir, file), { allowMissing: true })) {
        const row = record as Row;
        lineCount++;
        rows.push({ chars: chars(row), images: row.images?.length ?? 0, row });
        const index = seen.get(row.task) ?? 0;
        if (split === 'train') seen.set(row.task, index + 1);
        if (
          split === 'train' &&
          index % stride(row.task) === 0 &&
          (perTask.get(row.task) ?? 0) < SAMPLES_PER_TASK
        ) {
          perTask.set(row.task, (perTask.get(row.task) ?? 0) + 1);
          checks.samples.push(sampleOf(kind, row, evidence));
        }
      }
      if (lineCount === 0) continue;
      // A seeded, evenly spaced sample is counted exactly; it sets the chars-per-token ratio.
      const step = Math.max(1, Math.floor(rows.length / SAMPLE_PER_FILE));
      const tokens = new Array<number>(rows.length).fill(-1);
      let sampleTokens = 0;
      let sampleChars = 0;
      for (let i = 0; i < rows.length; i += step) {
        const entry = rows[i] as (typeof rows)[number];
        tokens[i] = exact(entry.row as Row);
        sampleTokens += tokens[i] as number;
        sampleChars += entry.chars;
      }
      const perChar = sampleChars === 0 ? 0.3 : sampleTokens / sampleChars;
      let counted = 0;
      rows.forEach((entry, i) => {
        if (tokens[i] !== -1) {
          counted++;
          return;
        }
        const estimate = Math.round(entry.chars * perChar) + entry.images * options.imageTokens;
        // Near or over the limit the estimate is not trusted: those rows are counted exactly.
        if (estimate >= 0.7 * options.maxLength) {
          tokens[i] = exact(entry.row as Row);
          counted++;
        } else tokens[i] = estimate;
      });
      const sorted = [...tokens].sort((a, b) => a - b);
      checks.lengths.push({
        file,
        rows: rows.length,
        tokens,
        counted,
        maxLength: options.maxLength,
        over: tokens.filter((n) => n > options.maxLength).length,
        max: sorted[sorted.length - 1] ?? 0,
        p95: percentile(sorted, 0.95),
      });
    }
  }
  return checks;
}

/** Per user, the text of each turn by evidence slot, and each QA target's slots, from plan and dialogues. */
async function evidenceIndex(
  runDir: string,
): Promise<{ qa: Map<string, string[]>; slotTurns: Map<string, string[]> }> {
  const qa = new Map<string, string[]>();
  const slotTurns = new Map<string, string[]>();
  for await (const record of readJsonl(join(runDir, 'plan/plan.jsonl'), { allowMissing: true })) {
    const plan = record as { userId: string; qa: Array<{ id: string; evidenceSlotIds?: string[] }> };
    for (const target of plan.qa) qa.set(`${plan.userId}:${target.id}`, target.evidenceSlotIds ?? []);
  }
  for await (const record of readJsonl(join(runDir, 'dialogues/dialogues.jsonl'), { allowMissing: true })) {
    const dialogue = record as {
      userId: string;
      sessions: Array<{ turns: Array<{ time: string; speaker: string; text: string; slots?: string[] }> }>;
    };
    for (const session of dialogue.sessions)
      for (const turn of session.turns)
        for (const slot of turn.slots ?? []) {
          const key = `${dialogue.userId}:${slot}`;
          const list = slotTurns.get(key) ?? [];
          list.push(`[${turn.time.slice(0, 16).replace('T', ' ')}] ${turn.speaker}: ${turn.text}`);
          slotTurns.set(key, list);
        }
  }
  return { qa, slotTurns };
}

function sampleOf(
  kind: 'sft' | 'rl',
  row: Row,
  index: { qa: Map<string, string[]>; slotTurns: Map<string, string[]> },
): SampleRow {
  const user = row.user_id ?? row.id.split(':')[0] ?? '';
  const lastUser = [...row.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  const lastAssistant = [...row.messages].reverse().find((m) => m.role === 'assistant')?.content ?? '';
  const qaId = row.id.split(':').at(-1) ?? '';
  const slots = index.qa.get(`${user}:${qaId}`) ?? [];
  return {
    kind,
    task: row.task,
    id: row.id,
    input: short(lastUser),
    label: short(row.solution ?? lastAssistant),
    evidence: slots.flatMap((slot) =>
      (index.slotTurns.get(`${user}:${slot}`) ?? []).slice(0, 2).map((t) => short(t, 200)),
    ),
  };
}
