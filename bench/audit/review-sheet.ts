/**
 * The review sheet of `bench/audit/review.ts`: 20 records per task drawn from a finished run,
 * each with its label and the evidence it rests on, written as markdown (for a person) and
 * jsonl (for a person or a model to fill `decision`); a judge endpoint can fill it, and the
 * acceptance rate per task is given with a 95% Wilson interval.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { formatMinute } from '../../src/memory/retrieval/format-block.js';
import { matchChoice } from '../../src/reward/choice-match.js';
import type { UserDialogue } from '../../src/schemas/dialogue.js';
import type { UserMemory } from '../../src/schemas/memory.js';
import { decodeUserMemoryRecord } from '../../src/schemas/memory-record-codec.js';
import type { UserPlan } from '../../src/schemas/plan.js';
import { createRng } from '../../src/util/rng.js';

/** One record to review: a question and its gold, or a memory target and its input. */
export interface ReviewRecord {
  id: string;
  userId: string;
  /** The QA task or the memory-trace task. */
  task: string;
  kind: 'question' | 'memory';
  /** What is asked (the question with its time), or the memory task's input, rendered. */
  prompt: string;
  choices: string[];
  /** The label under review: the gold answer (option text for multiple choice) or the memory target. */
  label: string;
  /** The turns the label rests on: `[time] speaker: text` (with `<image: caption>` for photos). */
  evidence: string[];
  /** True when the plan says nothing before the question answers it (the label is "not said"). */
  unanswerable: boolean;
  decision: 'accept' | 'reject' | null;
  note: string;
}

const jsonl = <T>(file: string): T[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);

/** The question text as the reasoning rows and evaluation sets show it: `[time] question` and lettered options. */
export function questionPrompt(time: string, question: string, choices: readonly string[]): string {
  const options = choices.map((choice, i) => `(${String.fromCharCode(97 + i)}) ${choice}`).join('\n');
  return `[${formatMinute(time)}] ${question}${options === '' ? '' : `\nOptions:\n${options}`}`;
}

/**
 * Draws up to `perTask` records of every task (seeded, so the same run gives the same sheet):
 * the questions of the users in `splits`, and the memory traces of those users.
 *
 * @example sampleRecords('out/quickstart', { perTask: 20, seed: 42, splits: ['test'] })
 */
export function sampleRecords(
  runDir: string,
  options: { perTask?: number; seed?: number; splits?: readonly string[]; memory?: boolean } = {},
): ReviewRecord[] {
  const perTask = options.perTask ?? 20;
  const plans = jsonl<UserPlan>(join(runDir, 'plan/plan.jsonl')).filter(
    (plan) => options.splits === undefined || options.splits.includes(plan.split),
  );
  const dialogues = new Map(
    jsonl<UserDialogue>(join(runDir, 'dialogues/dialogues.jsonl')).map((d) => [d.userId, d]),
  );
  const byTask = new Map<string, ReviewRecord[]>();
  const add = (record: ReviewRecord) => {
    const list = byTask.get(record.task) ?? [];
    list.push(record);
    byTask.set(record.task, list);
  };
  for (const plan of plans) {
    const turns = (dialogues.get(plan.userId)?.sessions ?? []).flatMap((s) => s.turns);
    const captions = new Map(plan.images.map((image) => [image.id, image.caption]));
    const line = (turn: (typeof turns)[number]) =>
      `[${formatMinute(turn.time)}] ${turn.speaker}: ${turn.images.map((id) => `<image: ${captions.get(id) ?? id}> `).join('')}${turn.text.replaceAll('<image>', '').trim()}`;
    for (const qa of plan.qa) {
      const evidence = turns.filter((turn) => turn.slots.some((slot) => qa.evidenceSlotIds.includes(slot)));
      add({
        id: `${plan.userId}:${qa.id}`,
        userId: plan.userId,
        task: qa.task,
        kind: 'question',
        prompt: questionPrompt(qa.questionTime, qa.question, qa.choices),
        choices: [...qa.choices],
        label: qa.correctIndex === null ? qa.answer : (qa.choices[qa.correctIndex] ?? qa.answer),
        evidence: evidence.map(line),
        unanswerable: qa.unanswerable,
        decision: null,
        note: '',
      });
    }
  }
  if (options.memory !== false) {
    const users = new Set(plans.map((plan) => plan.userId));
    for (const stored of jsonl<Record<string, unknown>>(join(runDir, 'memory/memory.jsonl'))) {
      const memory = decodeUserMemoryRecord(stored) as unknown as UserMemory;
      if (!users.has(memory.userId)) continue;
      for (const trace of memory.traces)
        add({
          id: `${memory.userId}:${trace.task}:${trace.id}`,
          userId: memory.userId,
          task: `memory:${trace.task}`,
          kind: 'memory',
          prompt: JSON.stringify(trace.input).slice(0, 4000),
          choices: [],
          label: trace.gold.text,
          evidence: [],
          unanswerable: false,
          decision: null,
          note: '',
        });
    }
  }
  const out: ReviewRecord[] = [];
  for (const task of [...byTask.keys()].sort()) {
    const rng = createRng(options.seed ?? 42, 'audit', task);
    out.push(...rng.sample(byTask.get(task) ?? [], perTask));
  }
  return out;
}

/** The sheet as markdown: one section per task, a checkbox pair per record. */
export function sheetMarkdown(records: readonly ReviewRecord[], runDir: string): string {
  const lines = [
    `# Label review: ${runDir}`,
    '',
    'For each record, read the evidence and mark whether a careful annotator accepts the label',
    '(the gold answer, or the memory target). Mark `decision` in `review.jsonl` the same way',
    '(`accept` or `reject`, a `note` for a rejection), then run `bench/audit/review.ts --score`.',
  ];
  let task = '';
  for (const record of records) {
    if (record.task !== task) {
      task = record.task;
      lines.push('', `## ${task}`);
    }
    lines.push('', `### ${record.id}`, '', '```', record.prompt, '```', '', `**label:** ${record.label}`);
    if (record.evidence.length > 0) lines.push('', '**evidence:**', ...record.evidence.map((e) => `- ${e}`));
    if (record.unanswerable)
      lines.push('', '**unanswerable:** by the plan nothing the user said before the question answers it.');
    lines.push('', '- [ ] accept  - [ ] reject  — note:');
  }
  return `${lines.join('\n')}\n`;
}

/** Wilson score interval (95%) of `accepted` of `n`. */
export function wilson(accepted: number, n: number): { rate: number; low: number; high: number } {
  if (n === 0) return { rate: 0, low: 0, high: 1 };
  const z = 1.959964;
  const p = accepted / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return { rate: round(p), low: round(Math.max(0, centre - half)), high: round(Math.min(1, centre + half)) };
}

/** Acceptance per task over the records that carry a decision. */
export function acceptance(records: readonly ReviewRecord[]) {
  const tasks: Record<string, { marked: number; accepted: number; rate: number; low: number; high: number }> =
    {};
  for (const record of records) {
    if (record.decision === null) continue;
    const entry = tasks[record.task] ?? { marked: 0, accepted: 0, rate: 0, low: 0, high: 1 };
    entry.marked++;
    if (record.decision === 'accept') entry.accepted++;
    tasks[record.task] = entry;
  }
  for (const entry of Object.values(tasks)) Object.assign(entry, wilson(entry.accepted, entry.marked));
  return tasks;
}

const JUDGE_SYSTEM = `You check the labels of a dataset about one user's long conversation with their assistant.
Read the user's turns below, then answer the question yourself, from those turns only.
Reply with <answer>your answer</answer>: the option letter for a question with lettered options.`;

const ChatResponse = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * Marks the question records with a judge model: the judge answers each question blind (the
 * evidence turns and the question, never the label), and the label is accepted when the judge's
 * answer is the label. Memory records are left for a person. A failed call throws: an outage is
 * not a rejection.
 *
 * @example await judgeRecords(records, { baseUrl: 'http://127.0.0.1:9000/v1', model: 'fake' })
 */
export async function judgeRecords(
  records: ReviewRecord[],
  judge: { baseUrl: string; model: string; apiKey?: string },
): Promise<void> {
  for (const record of records) {
    if (record.kind !== 'question') continue;
    const context = record.evidence.length === 0 ? '(no turns)' : record.evidence.join('\n');
    const response = await fetch(`${judge.baseUrl.replace(/\/$/, '')}/chat/completions`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(judge.apiKey === undefined ? {} : { authorization: `Bearer ${judge.apiKey}` }),
      },
      body: JSON.stringify({
        model: judge.model,
        temperature: 0,
        messages: [
          { role: 'system', content: `${JUDGE_SYSTEM}\n\nTurns:\n${context}` },
          { role: 'user', content: record.prompt },
        ],
      }),
    });
    if (!response.ok)
      throw new Error(`judge ${judge.baseUrl}: HTTP ${response.status} on record ${record.id}`);
    const parsed = ChatResponse.safeParse(await response.json());
    if (!parsed.success) throw new Error(`judge ${judge.baseUrl}: malformed reply on record ${record.id}`);
    const content = parsed.data.choices[0]?.message.content ?? '';
    const answer = (/<answer>([\s\S]*?)<\/answer>/.exec(content)?.[1] ?? content).trim();
    const right =
      record.choices.length > 0
        ? matchChoice(answer, record.choices) === record.choices.indexOf(record.label)
        : answer.toLowerCase() === record.label.trim().toLowerCase();
    record.decision = right ? 'accept' : 'reject';
    record.note = right ? '' : `judge answered "${answer.slice(0, 80)}"`;
  }
}
