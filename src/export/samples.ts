import { canonicalAnswer } from '../qa/answer-convention.js';
import type { ExportConfig, RlTaskName, SftTaskName } from '../schemas/export-config.js';
import type { EvidenceSlot, QaTarget, UserPlan } from '../schemas/plan.js';
import { joinPath } from './eval/persona-mme.js';
import { PROMPTS } from './prompts.js';
import { questionProfile } from './question-profile.js';
import type { ExportBundle } from './read-run.js';
import { type Message, renderTraceInput, snapshotAt } from './render.js';
import { rlForm } from './rl-form.js';
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

/** What rows are made from: the plan and the memory record (never the dialogue). */
export type RowSource = Pick<ExportBundle, 'plan' | 'memory'>;

interface SlotIndex {
  byId: Map<string, EvidenceSlot>;
  byRef: Map<string, number>;
  /** Per slot, in plan order: its time (epoch ms) and its statement in lower case. */
  times: number[];
  statements: string[];
}

const slotIndex = new WeakMap<object, SlotIndex>();

function indexSlots(plan: Pick<UserPlan, 'slots'>): SlotIndex {
  let index = slotIndex.get(plan);
  if (index === undefined) {
    const byRef = new Map<string, number>();
    for (const slot of plan.slots) {
      const time = Date.parse(slot.time);
      byRef.set(slot.refId, Math.min(byRef.get(slot.refId) ?? time, time));
      if (slot.imageId !== null) byRef.set(slot.imageId, Math.min(byRef.get(slot.imageId) ?? time, time));
    }
    index = {
      byId: new Map(plan.slots.map((slot) => [slot.id, slot])),
      byRef,
      times: plan.slots.map((slot) => Date.parse(slot.time)),
      statements: plan.slots.map((slot) => slot.statement.toLowerCase()),
    };
    slotIndex.set(plan, index);
  }
  return index;
}

/**
 * When the memory state a question's system prompt shows is taken: just before the first time
 * anything the question tests was said — its evidence, earlier statements of the same fact (a
 * preference stated, dropped and taken up again; a photo shown twice), and any statement naming
 * the answer — so the answer is never in the prompt and the model has to retrieve it.
 * Without evidence, the question time.
 */
export function promptSnapshotTime(plan: Pick<UserPlan, 'slots'>, qa: QaTarget): string {
  const index = indexSlots(plan);
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
    for (let i = 0; i < index.times.length; i++) {
      const time = index.times[i] as number;
      if (time < earliest && (index.statements[i] as string).includes(answer)) earliest = time;
    }
  }
  return new Date(Math.min(earliest - 1, Date.parse(qa.questionTime))).toISOString();
}

function questionMessages(bundle: RowSource, qa: QaTarget, open = false, candidate?: string): Message[] {
  const snapshot =
    bundle.memory === null ? null : snapshotAt(bundle.memory.snapshots, promptSnapshotTime(bundle.plan, qa));
  const options =
    candidate !== undefined
      ? `\nIs the answer "${candidate}"? Reply Yes or No.`
      : open || qa.answerType === 'open'
        ? ''
        : `\nOptions:\n${qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`).join('\n')}`;
  return [
    { role: 'system', content: `${PROMPTS.reasoning}\n\n${questionProfile(snapshot, bundle.plan, qa)}` },
    { role: 'user', content: `[${formatMinute(qa.questionTime)}] ${qa.question}${options}` },
  ];
}

/**
 * One candidate row, named before it is built: `id` and `task` are known without rendering, so
 * a pass that keeps only some rows builds only those (`build` renders the row; `shape` only what
 * `rowShapeProblems` reads).
 */
export interface Candidate<T> {
  id: string;
  task: T extends { task: infer K } ? K : never;
  build(): T;
  /** The row's messages and images (what `rowShapeProblems` checks), without the other columns. */
  shape(): { messages: Message[]; images: string[] };
}

/**
 * The photo an RL question is asked with, or null. A concept-name question ("What name did I give
 * the ball from my photos?", `semantic_information_recall` with a photo as evidence) is asked
 * beside the photo it was shown in, as PersonaVLM's multimodal RL stage does: the name is not in
 * the picture, so the model still has to recall it. Questions about a photo's content
 * (`visual_detail_recall`: a colour, a count) never get it — the picture would hold the answer.
 */
function questionPhoto(bundle: RowSource, qa: QaTarget, imagePath: (id: string) => string): string | null {
  if (qa.task !== 'semantic_information_recall') return null;
  const slots = indexSlots(bundle.plan).byId;
  for (const id of qa.evidenceSlotIds) {
    const imageId = slots.get(id)?.imageId;
    if (imageId !== null && imageId !== undefined) return imagePath(imageId);
  }
  return null;
}

/** The question's user turn with the photo's `<image>` tag in front (ms-swift: one tag per image). */
function withPhoto(messages: Message[], photo: string | null): Message[] {
  if (photo === null) return messages;
  return messages.map((message) =>
    message.role === 'user' ? { ...message, content: `<image>${message.content}` } : message,
  );
}

/**
 * A candidate from its builders (`shape` defaults to `build`). Made through this call, so the
 * builders are arguments: the TypeScript loader then leaves them unnamed instead of naming each
 * of the hundreds of thousands of closures an export makes (a measurable cost at 700 users).
 */
function candidate<T extends { messages: Message[]; images: string[] }>(
  id: string,
  task: Candidate<T>['task'],
  build: () => T,
  shape: Candidate<T>['shape'] = build,
): Candidate<T> {
  return { id, task, build, shape };
}

/** The id of the row a memory trace becomes (its SFT row; a tree step's RL row too). */
export function traceCandidateId(userId: string, trace: { id: string; task: string }): string {
  return `${userId}:${trace.task}:${trace.id}`;
}

/**
 * Every SFT candidate of one user, in a fixed order: reasoning trajectories (retrieval results as
 * `user` or `tool` turns), then the memory-task traces in record order.
 *
 * @example for (const row of sftCandidates(bundle, config)) console.log(row.task);
 */
export function* sftCandidates(bundle: RowSource, config: ExportConfig): Generator<SftRow> {
  for (const candidate of sftCandidateList(bundle, config)) yield candidate.build();
}

/** `sftCandidates` as unbuilt candidates (same ids, tasks and order). */
export function* sftCandidateList(bundle: RowSource, config: ExportConfig): Generator<Candidate<SftRow>> {
  const userId = bundle.plan.userId;
  const memory = bundle.memory;
  if (memory === null) return;
  const qaById = new Map(bundle.plan.qa.map((qa) => [qa.id, qa]));
  for (const trajectory of memory.trajectories) {
    const qa = qaById.get(trajectory.qaId);
    if (qa === undefined) continue;
    const id = `${userId}:reasoning:${qa.id}`;
    yield candidate<SftRow>(id, 'reasoning', () => {
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
      return { id, user_id: userId, task: 'reasoning', messages, images: [] };
    });
  }
  const imagePath = imagePathFor(bundle, config);
  for (const trace of memory.traces) {
    const id = traceCandidateId(userId, trace);
    yield candidate<SftRow>(id, trace.task, () => {
      const rendered = renderTrace(trace.input, imagePath);
      const target =
        config.sft.preferTeacher && trace.teacher?.agrees === true ? trace.teacher.text : trace.gold.text;
      return {
        id,
        user_id: userId,
        task: trace.task,
        messages: [
          { role: 'system', content: PROMPTS[trace.task] },
          { role: 'user', content: rendered.text },
          { role: 'assistant', content: target },
        ],
        images: [...rendered.images],
      };
    });
  }
}

/**
 * Every RL candidate of one user: each QA target (open / mc / binary, PersonaVLM) with its
 * memory snapshot at question time, then each PersonaTree chunk trace as a MemListener op-list
 * prompt with `gt_ops`.
 *
 * @example [...rlCandidates(bundle, config)].map((row) => row.answer_type)
 */
export function* rlCandidates(bundle: RowSource, config: ExportConfig): Generator<RlRow> {
  for (const candidate of rlCandidateList(bundle, config)) yield candidate.build();
}

/** `rlCandidates` as unbuilt candidates (same ids, tasks and order). */
export function* rlCandidateList(bundle: RowSource, config: ExportConfig): Generator<Candidate<RlRow>> {
  const userId = bundle.plan.userId;
  const imagePath = imagePathFor(bundle, config);
  for (const qa of bundle.plan.qa) {
    const photo = questionPhoto(bundle, qa, imagePath);
    const snapshot = () =>
      bundle.memory === null ? null : snapshotAt(bundle.memory.snapshots, qa.questionTime);
    // One form per question (rl-form.ts): multiple choice, open (one true answer without the
    // options, judged against the planned answer text) or yes/no.
    const { form, candidate: asked, solution } = rlForm(userId, qa);
    const id = `${userId}:${form}:${qa.id}`;
    const messages = () => questionMessages(bundle, qa, form !== 'mc', asked);
    yield candidate<RlRow>(
      id,
      form,
      () => ({
        id,
        user_id: userId,
        task: form,
        answer_type: form,
        messages: withPhoto(messages(), photo),
        images: photo === null ? [] : [photo],
        solution: solution ?? (form === 'mc' ? canonicalAnswer(qa) : qa.answer),
        choices:
          form === 'mc'
            ? qa.choices.map((choice, i) => `${optionLabel(i)} ${choice}`)
            : form === 'binary'
              ? ['Yes', 'No']
              : [],
        gt_ops: '',
        question_time: formatMinute(qa.questionTime),
        // Key order is the schema's (records are parsed by zod), so plain JSON is byte-stable.
        memory_snapshot: snapshotJson(snapshot()),
      }),
      () => ({ messages: withPhoto(messages(), photo), images: photo === null ? [] : [photo] }),
    );
  }
  for (const trace of bundle.memory?.traces ?? []) {
    if (trace.task !== 'tree_ops') continue;
    // The same id as its SFT candidate: a tree step is an SFT row and an RL row of two files.
    const id = traceCandidateId(userId, trace);
    yield candidate<RlRow>(id, 'tree_ops', () => {
      const rendered = renderTrace(trace.input, imagePath);
      return {
        id,
        user_id: userId,
        task: 'tree_ops',
        answer_type: 'open',
        messages: [
          { role: 'system', content: PROMPTS.tree_ops },
          { role: 'user', content: rendered.text },
        ],
        images: [...rendered.images],
        solution: trace.gold.text,
        choices: [],
        gt_ops: trace.gold.text,
        question_time: formatMinute(trace.time),
        memory_snapshot: '',
      };
    });
  }
}

/**
 * A trace input rendered once per image-path function: the SFT and the RL candidate of a tree
 * step show the same prompt (records are never mutated, so the input object is the key).
 */
const renderedTraces = new WeakMap<object, { imagePath: unknown; text: string; images: string[] }>();
function renderTrace(input: Record<string, unknown>, imagePath: (id: string) => string) {
  let rendered = renderedTraces.get(input);
  if (rendered === undefined || rendered.imagePath !== imagePath) {
    rendered = { imagePath, ...renderTraceInput(input, imagePath) };
    renderedTraces.set(input, rendered);
  }
  return rendered;
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

/** One image-path function per plan and configuration (so rendered traces are shared between SFT and RL). */
const imagePaths = new WeakMap<object, WeakMap<object, (id: string) => string>>();
function imagePathFor(bundle: RowSource, config: ExportConfig): (id: string) => string {
  let byConfig = imagePaths.get(bundle.plan);
  if (byConfig === undefined) {
    byConfig = new WeakMap();
    imagePaths.set(bundle.plan, byConfig);
  }
  let imagePath = byConfig.get(config);
  if (imagePath === undefined) {
    const paths = new Map(bundle.plan.images.map((image) => [image.id, image.path]));
    imagePath = (id: string) => joinPath(config.imageRoot, paths.get(id) ?? id);
    byConfig.set(config, imagePath);
  }
  return imagePath;
}
