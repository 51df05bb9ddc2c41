import { canonicalAnswer } from '../qa/answer-convention.js';
import type { ExportConfig, RlTaskName, SftTaskName } from '../schemas/export-config.js';
import type { EvidenceSlot, QaTarget, UserPlan } from '../schemas/plan.js';
import { joinPath } from './eval/persona-mme.js';
import { PROMPTS } from './prompts.js';
import type { ExportBundle } from './read-run.js';
import { type Message, renderProfile, renderTraceInput, snapshotAt } from './render.js';
import { formatMinute, optionLabel } from './time-format.js';

/** One SFT row (ms-swift `messages`, plus `images` and the `task` column). */
export interface SftRow {
  id: string;
  user_id: string;
  task: SftTaskName;
  messages: Message[];
  images: string[];
}

/**
 * One RL row: prompt-only `messages` plus the columns reward functions read. `choices` is a list
 * of strings (empty for open questions), `gt_ops` the reference op lines ("" outside tree_ops),
 * `memory_snapshot` the memory state at question time as a JSON string ("" when none).
 */
export interface RlRow {
  id: string;
  user_id: string;
  task: RlTaskName;
  answer_type: 'open' | 'mc' | 'binary';
  messages: Message[];
  images: string[];
  solution: string;
  choices: string[];
  gt_ops: string;
  question_time: string;
  memory_snapshot: string;
}

const slotIndex = new WeakMap<object, { byId: Map<string, EvidenceSlot>; byRef: Map<string, number> }>();

/**
 * When the memory state a question's system prompt shows is taken: just before the first time
 * anything the question tests was said — its evidence, earlier statements of the same fact (a
 * preference stated, dropped and taken up again; a photo shown twice), and any statement naming
 * the answer — so the answer is never in the prompt and the model has to retrieve it.
 * Without evidence, the question time.
 */
export function promptSnapshotTime(plan: Pick<UserPlan, 'slots'>, qa: QaTarget): string {
  let index = slotIndex.get(plan);
  if (index === undefined) {
    const byRef = new Map<string, number>();
    for (const slot of plan.slots) {
      const time = Date.parse(slot.time);
      byRef.set(slot.refId, Math.min(byRef.get(slot.refId) ?? time, time));
      if (slot.imageId !== null) byRef.set(slot.imageId, Math.min(byRef.get(slot.imageId) ?? time, time));
    }
    index = { byId: new Map(plan.slots.map((slot) => [slot.id, slot])), byRef };
    slotIndex.set(plan, index);
  }
  let earliest = Number.POSITIVE_INFINITY;
  for (const id of qa.evidenceSlotIds) {
    const slot = index.byId.get(id);
    if (slot === undefined) continue;
    earliest = Math.min(earliest, index.byRef.get(slot.refId) ?? Number.POSITIVE_INFINITY);
    if (slot.imageId !== null) earliest = Math.min(earliest, index.byRef.get(slot.imageId) ?? earliest);
  }
  if (!Number.isFinite(earliest)) return qa.questionTime;
  const answer = qa.answer.toLowerCase().replace(/^(likes|dislikes) /, '');
  if (qa.answerType !== 'binary' && answer.length >= 4) {
    for (const slot of plan.slots) {
      const time = Date.parse(slot.time);
      if (time < earliest && slot.statement.toLowerCase().includes(answer)) earliest = time;
    }
  }
  return new Date(Math.min(earliest - 1, Date.parse(qa.questionTime))).toISOString();
}

function questionMessages(bundle: ExportBundle, qa: QaTarget, open = false): Message[] {
  const snapshot =
    bundle.memory === null ? null : snapshotAt(bundle.memory.snapshots, promptSnapshotTime(bundle.plan, qa));
  const options =
    open || qa.answerType === 'open'
      ? ''
      : `\nOptions:\n${qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`).join('\n')}`;
  return [
    { role: 'system', content: `${PROMPTS.reasoning}\n\n${renderProfile(snapshot)}` },
    { role: 'user', content: `[${formatMinute(qa.questionTime)}] ${qa.question}${options}` },
  ];
}

/**
 * Every SFT candidate of one user, in a fixed order: reasoning trajectories (retrieval results as
 * `user` or `tool` turns), then the memory-task traces in record order.
 *
 * @example for (const row of sftCandidates(bundle, config)) console.log(row.task);
 */
export function* sftCandidates(bundle: ExportBundle, config: ExportConfig): Generator<SftRow> {
  const userId = bundle.plan.userId;
  const memory = bundle.memory;
  if (memory === null) return;
  const qaById = new Map(bundle.plan.qa.map((qa) => [qa.id, qa]));
  for (const trajectory of memory.trajectories) {
    const qa = qaById.get(trajectory.qaId);
    if (qa === undefined) continue;
    const messages = questionMessages(bundle, qa);
    trajectory.messages.forEach((content, i) => {
      messages.push({ role: 'assistant', content });
      const step = trajectory.steps[i];
      if (i < trajectory.messages.length - 1 && step?.retrieve != null) {
        const block = step.retrievedBlock ?? '(no matching memory)';
        // The memory stage may already wrap its block (formatMemoryBlock); wrap only bare text.
        const content = block.trimStart().startsWith('<memory>') ? block : `<memory>\n${block}\n</memory>`;
        messages.push({ role: config.sft.retrievalRole, content });
      }
    });
    yield { id: `${userId}:reasoning:${qa.id}`, user_id: userId, task: 'reasoning', messages, images: [] };
  }
  const imagePath = imagePathFor(bundle, config);
  for (const trace of memory.traces) {
    const rendered = renderTraceInput(trace.input, imagePath);
    const target =
      config.sft.preferTeacher && trace.teacher?.agrees === true ? trace.teacher.text : trace.gold.text;
    yield {
      id: `${userId}:${trace.task}:${trace.id}`,
      user_id: userId,
      task: trace.task,
      messages: [
        { role: 'system', content: PROMPTS[trace.task] },
        { role: 'user', content: rendered.text },
        { role: 'assistant', content: target },
      ],
      images: rendered.images,
    };
  }
}

/**
 * Every RL candidate of one user: each QA target (open / mc / binary, PersonaVLM) with its
 * memory snapshot at question time, then each PersonaTree chunk trace as a MemListener op-list
 * prompt with `gt_ops`.
 *
 * @example [...rlCandidates(bundle, config)].map((row) => row.answer_type)
 */
export function* rlCandidates(bundle: ExportBundle, config: ExportConfig): Generator<RlRow> {
  const userId = bundle.plan.userId;
  for (const qa of bundle.plan.qa) {
    const snapshot = bundle.memory === null ? null : snapshotAt(bundle.memory.snapshots, qa.questionTime);
    yield {
      id: `${userId}:${qa.answerType}:${qa.id}`,
      user_id: userId,
      task: qa.answerType,
      answer_type: qa.answerType,
      messages: questionMessages(bundle, qa),
      images: [],
      solution: canonicalAnswer(qa),
      choices:
        qa.answerType === 'mc'
          ? qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`)
          : [...qa.choices],
      gt_ops: '',
      question_time: formatMinute(qa.questionTime),
      // Key order is the schema's (records are parsed by zod), so plain JSON is byte-stable.
      memory_snapshot: snapshotJson(snapshot),
    };
    // Open-ended verifiable variant (PersonaVLM's RL mix): the same in-situ question without
    // options, judged against the planned answer text.
    if (qa.answerType === 'mc') {
      yield {
        id: `${userId}:open:${qa.id}`,
        user_id: userId,
        task: 'open',
        answer_type: 'open',
        messages: questionMessages(bundle, qa, true),
        images: [],
        solution: qa.answer,
        choices: [],
        gt_ops: '',
        question_time: formatMinute(qa.questionTime),
        memory_snapshot: snapshotJson(snapshot),
      };
    }
  }
  const imagePath = imagePathFor(bundle, config);
  for (const trace of bundle.memory?.traces ?? []) {
    if (trace.task !== 'tree_ops') continue;
    const rendered = renderTraceInput(trace.input, imagePath);
    yield {
      id: `${userId}:tree_ops:${trace.id}`,
      user_id: userId,
      task: 'tree_ops',
      answer_type: 'open',
      messages: [
        { role: 'system', content: PROMPTS.tree_ops },
        { role: 'user', content: rendered.text },
      ],
      images: rendered.images,
      solution: trace.gold.text,
      choices: [],
      gt_ops: trace.gold.text,
      question_time: formatMinute(trace.time),
      memory_snapshot: '',
    };
  }
}

/** One snapshot's JSON, serialized once: every question between two sessions shares it. */
const snapshotJsonCache = new WeakMap<object, string>();
function snapshotJson(snapshot: object | null): string {
  if (snapshot === null) return '';
  let json = snapshotJsonCache.get(snapshot);
  if (json === undefined) {
    json = JSON.stringify(snapshot);
    snapshotJsonCache.set(snapshot, json);
  }
  return json;
}

function imagePathFor(bundle: ExportBundle, config: ExportConfig) {
  const paths = new Map(bundle.plan.images.map((image) => [image.id, image.path]));
  return (id: string) => joinPath(config.imageRoot, paths.get(id) ?? id);
}
