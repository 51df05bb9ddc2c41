import { z } from 'zod';
import type { MemoryTaskName, MemoryTrace, TeacherTarget, TraceTurn } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';
import {
  askTeacher,
  PersonalityAnswer,
  SemanticAnswer,
  type TeacherContext,
  teacherTarget,
} from './teacher.js';
import { CoreAnswer, EpisodesAnswer, ProceduralAnswer } from './teacher-session.js';

// Lenient (STYLE.md): every part optional; a part a valid answer leaves out is asked again per
// trace. An answer with no part at all is no answer (e.g. `{"unexpected": …}`): it fails the
// schema, so the llm layer re-asks the same session prompt and never caches it.
const SpanAnswer = z
  .object({
    turns: z
      .array(
        z.object({
          i: z.number().int(),
          semantic_write: SemanticAnswer.nullish(),
          personality_inference: PersonalityAnswer.nullish(),
        }),
      )
      .nullish(),
    tree_ops: z.array(z.object({ end: z.number().int(), ops: z.string() })).nullish(),
    core_update: CoreAnswer.nullish(),
    episodic_summary: EpisodesAnswer.nullish(),
    procedural_update: ProceduralAnswer.nullish(),
  })
  .refine(
    (answer) =>
      (answer.turns ?? []).length > 0 ||
      (answer.tree_ops ?? []).length > 0 ||
      (answer.core_update ?? answer.episodic_summary ?? answer.procedural_update) != null,
    { message: 'the answer has none of the parts asked for' },
  );
type SpanAnswer = z.infer<typeof SpanAnswer>;

/** The memory state the span starts from (gold: the plan decided it), sent once per span. */
export interface SpanState {
  core: CoreMemory;
  /** Big Five [O, C, E, A, N], one decimal. */
  personality: number[];
  procedural: Array<{ key: string; sentence: string }>;
  tree: Record<string, string>;
}

/** One trace of the span and the gold its teacher target is compared with. */
export interface SpanItem {
  trace: MemoryTrace;
  gold: unknown;
}

/** The system prompt of a span call: fixed for a run (the same tasks), so servers cache it as a prefix. */
export function spanSystemPrompt(tasks: readonly MemoryTaskName[]): string {
  const has = (task: MemoryTaskName) => tasks.includes(task);
  // Field names are in the answer's JSON Schema; the prompt says only what each part means.
  const parts = [
    "You supervise a personal assistant's memory of its user. Input: state at the session start (core memory, Big Five OCEAN 1-5, procedural memory, PersonaTree: nested, a path joins keys with dots); turns [index, U/A (user/assistant), text, image ids?]; ask. Answer in JSON:",
    has('semantic_write') || has('personality_inference')
      ? '- turns, one per ask.turns index i:' +
        (has('semantic_write')
          ? ' semantic_write = does it state lasting personal information (preference, habit, fact, relationship, goal, named object in an image), content one sentence or null;'
          : '') +
        (has('personality_inference')
          ? ' personality_inference = Big Five 1-5 it shows, 3 = no evidence'
          : '')
      : '',
    has('tree_ops')
      ? '- tree_ops, one per ask.chunks end: the tree ops for the turns since the previous chunk, one per line: ADD(path, "value"), UPDATE(path, "value") (merged with what still holds), DELETE(path, None) or NO_OP()'
      : '',
    has('core_update')
      ? "- core_update at session_end: core memory kept up to date (human: name, age, gender, preferences as '; '-separated clauses like 'likes jasmine tea', interests, facts; persona: identity, roles, interactionStyle)"
      : '',
    has('episodic_summary')
      ? '- episodic_summary at session_end: topic episodes covering each turn once'
      : '',
    has('procedural_update')
      ? '- procedural_update at session_end: at most 5 goals and habits, latest state'
      : '',
  ];
  return parts.filter((line) => line !== '').join('\n');
}

/** Dotted leaves as a nested object: shared path prefixes are sent once (flat if a leaf is also a prefix). */
function nestTree(values: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    let node = root;
    for (const key of keys.slice(0, -1)) {
      if (node[key] === undefined) node[key] = {};
      const next = node[key];
      if (typeof next !== 'object' || next === null) return values;
      node = next as Record<string, unknown>;
    }
    const leaf = keys.at(-1) as string;
    if (node[leaf] !== undefined) return values;
    node[leaf] = value;
  }
  return root;
}

const indexOf = (trace: MemoryTrace): number => {
  const input = trace.input as { turn?: TraceTurn; turns?: TraceTurn[] };
  return input.turn?.index ?? input.turns?.at(-1)?.index ?? -1;
};

/** The part of a span answer that is one trace's target, or undefined when the answer left it out. */
function partFor(answer: SpanAnswer, trace: MemoryTrace): unknown {
  const index = indexOf(trace);
  switch (trace.task) {
    case 'semantic_write':
    case 'personality_inference':
      return answer.turns?.find((turn) => turn.i === index)?.[trace.task] ?? undefined;
    case 'tree_ops': {
      const ops = answer.tree_ops?.find((chunk) => chunk.end === index)?.ops;
      return ops === undefined ? undefined : { ops };
    }
    default:
      return answer[trace.task] ?? undefined;
  }
}

/** What a teacher that agrees with gold would answer: sizes `estimate`'s completion tokens. */
function goldAnswer(items: SpanItem[]): SpanAnswer {
  const answer: SpanAnswer = {};
  for (const { trace, gold } of items) {
    const index = indexOf(trace);
    if (trace.task === 'semantic_write' || trace.task === 'personality_inference') {
      answer.turns ??= [];
      let turn = answer.turns.find((item) => item.i === index);
      if (turn === undefined) {
        turn = { i: index };
        answer.turns.push(turn);
      }
      turn[trace.task] = gold as never;
    } else if (trace.task === 'tree_ops') {
      answer.tree_ops = [...(answer.tree_ops ?? []), { end: index, ops: gold as string }];
    } else if (trace.task === 'episodic_summary') {
      answer.episodic_summary = {
        episodes: (gold as Array<{ summary: string; keywords: string[]; turnIndices: number[] }>).map(
          (e) => ({
            topic_summary: e.summary,
            keywords: e.keywords,
            source_dialog_indices: e.turnIndices,
          }),
        ),
      };
    } else if (trace.task === 'procedural_update') {
      answer.procedural_update = {
        entries: (gold as Array<{ key: string; sentence: string }>).map(({ key, sentence }) => ({
          key,
          sentence,
        })),
      };
    } else {
      answer.core_update = gold as CoreMemory;
    }
  }
  return answer;
}

/**
 * Asks the teacher for every target of one session in a single structured call: the compact
 * state at the session start and the session's turns once, instead of one call per trace that
 * re-sends context. Each part of the answer is compared with its trace's gold as `teacherTarget`
 * does; a part the answer leaves out (or an answer that never fits the schema) is asked again
 * per trace. Sets `trace.teacher` and returns the tasks left without a target.
 *
 * @example
 * const failed = await askSpanTeacher(context, tasks, { state, turns }, items);
 */
export async function askSpanTeacher(
  context: TeacherContext,
  tasks: readonly MemoryTaskName[],
  span: { state: SpanState; sessionIndex: number; turns: TraceTurn[] },
  items: SpanItem[],
  maxRounds = Number.POSITIVE_INFINITY,
): Promise<string[]> {
  const parts = splitSpan(span.turns, items, maxRounds);
  const failed = await Promise.all(
    parts.map((part) =>
      askOneSpan(
        context,
        tasks,
        {
          state: part.tree === undefined ? span.state : { ...span.state, tree: part.tree },
          sessionIndex: span.sessionIndex,
          turns: part.turns,
        },
        part.items,
      ),
    ),
  );
  return failed.flat();
}

/** Turns of context a personality-inference step shows (and reads its user messages from): five rounds. */
export const PERSONALITY_CONTEXT_TURNS = 10;

const isTurnTask = (item: SpanItem) =>
  item.trace.task === 'semantic_write' || item.trace.task === 'personality_inference';

/**
 * A long session in parts of at most `maxRounds` user turns, cut where a PersonaTree chunk ends
 * (else after an assistant reply), so a model's answer stays within its output limit. Each part
 * gets the tree as its first chunk found it; the session-end targets go with the last part, which
 * then shows the whole session when it asks for episodes. A later part also shows the
 * {@link PERSONALITY_CONTEXT_TURNS} turns before it, the context a per-trace prompt shows (its
 * first personality window reads them); it is asked only about its own turns.
 */
function splitSpan(
  turns: TraceTurn[],
  items: SpanItem[],
  maxRounds: number,
): Array<{ turns: TraceTurn[]; items: SpanItem[]; tree?: Record<string, string> }> {
  if (turns.filter((turn) => turn.speaker === 'user').length <= maxRounds) return [{ turns, items }];
  const treeEnds = new Set(
    items.filter((item) => item.trace.task === 'tree_ops').map((item) => indexOf(item.trace)),
  );
  const ranges: TraceTurn[][] = [[]];
  let rounds = 0;
  turns.forEach((turn, position) => {
    (ranges.at(-1) as TraceTurn[]).push(turn);
    if (turn.speaker === 'user') rounds++;
    const next = turns[position + 1];
    const cut = treeEnds.size > 0 ? treeEnds.has(turn.index) : next?.speaker === 'user';
    if (rounds >= maxRounds && cut && next !== undefined) {
      ranges.push([]);
      rounds = 0;
    }
  });
  let before = 0;
  return ranges.map((range, part) => {
    const indices = new Set(range.map((turn) => turn.index));
    const context = turns.slice(Math.max(0, before - PERSONALITY_CONTEXT_TURNS), before);
    before += range.length;
    const last = part === ranges.length - 1;
    const own = items.filter((item) =>
      isTurnTask(item) || item.trace.task === 'tree_ops' ? indices.has(indexOf(item.trace)) : last,
    );
    const firstChunk = own.find((item) => item.trace.task === 'tree_ops');
    const tree = (firstChunk?.trace.input as { tree?: Record<string, string> } | undefined)?.tree;
    const whole = last && own.some((item) => item.trace.task === 'episodic_summary');
    return {
      turns: whole ? turns : [...context, ...range],
      items: own,
      ...(part > 0 && tree !== undefined ? { tree } : {}),
    };
  });
}

async function askOneSpan(
  context: TeacherContext,
  tasks: readonly MemoryTaskName[],
  span: { state: SpanState; sessionIndex: number; turns: TraceTurn[] },
  items: SpanItem[],
): Promise<string[]> {
  if (items.length === 0) return [];
  const sessionEnd = items.some((item) =>
    ['core_update', 'episodic_summary', 'procedural_update'].includes(item.trace.task),
  );
  const input = {
    state: { ...span.state, tree: nestTree(span.state.tree) },
    session: span.sessionIndex,
    turns: span.turns.map((turn) => [
      turn.index,
      turn.speaker === 'user' ? 'U' : 'A',
      turn.text,
      ...(turn.images.length > 0 ? [turn.images] : []),
    ]),
    ask: {
      turns: [...new Set(items.filter(isTurnTask).map((item) => indexOf(item.trace)))],
      chunks: items.filter((item) => item.trace.task === 'tree_ops').map((item) => indexOf(item.trace)),
      session_end: sessionEnd,
    },
  };
  const result = await context.llm.safeStructured(context.role, {
    messages: [
      { role: 'system', content: spanSystemPrompt(tasks) },
      { role: 'user', content: JSON.stringify(input) },
    ],
    stage: context.stage,
    temperature: 0,
    schema: SpanAnswer,
    schemaName: 'memory_session',
    offline: () => goldAnswer(items),
  });
  const model = context.llm.modelFor(context.role);
  const failed: string[] = [];
  if (!result.ok) {
    // The session call failed after the llm layer's retries: no per-trace fallback (its targets
    // differ from the session answer's), so every target of the span is missing and the user is
    // quarantined with a retryable code; the rerun asks this same session prompt again.
    for (const { trace } of items) {
      trace.teacher = null;
      failed.push(trace.task);
    }
    return failed;
  }
  await Promise.all(
    items.map(async ({ trace, gold }) => {
      const part = partFor(result.value, trace);
      const target: TeacherTarget | null =
        part === undefined
          ? await askTeacher(context, trace.task, trace.input, gold)
          : teacherTarget(trace.task, part, gold, model, context.treeAgreement);
      trace.teacher = target;
      if (target === null) failed.push(trace.task);
    }),
  );
  return failed;
}
