import { PersonaForgeError, RunStopError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import { BIG_FIVE_TRAITS, type BigFive, SCHEMA_VERSION } from '../schemas/common.js';
import type { Turn, UserDialogue } from '../schemas/dialogue.js';
import type {
  MemorySnapshot,
  MemoryTaskName,
  MemoryTrace,
  ReasoningTrajectory,
  TraceTurn,
  TreeVersion,
  UserMemory,
} from '../schemas/memory.js';
import type { QaTarget, UserPlan } from '../schemas/plan.js';
import { createRng } from '../util/rng.js';
import { indexPlan } from './gold/plan-index.js';
import {
  goldCore,
  goldEpisodes,
  goldPersonalityScores,
  goldProceduralDrops,
  goldProceduralUpdates,
  goldSemanticDecision,
  type KnownState,
  observeSlots,
} from './gold/session-targets.js';
import {
  formatCoreMemory,
  formatEpisodes,
  formatPersonalityScores,
  formatProcedural,
  formatSemanticDecision,
} from './gold/targets.js';
import { askTeacher, type TeacherContext, teacherClient } from './gold/teacher.js';
import {
  askSpanTeacher,
  PERSONALITY_CONTEXT_TURNS,
  type SpanItem,
  type SpanState,
} from './gold/teacher-span.js';
import { goldTreeOps, initialTreeValues } from './gold/tree-gold.js';
import { describePersonality } from './persona/pem.js';
import { createPersonaMemory, type MemoryConfigInput } from './persona/persona-memory.js';
import { roundChunkEnds } from './round-chunks.js';
import { buildTrajectory } from './trajectory.js';
import { formatTreeOps } from './tree/parse-ops.js';
import { applyTreeOps, createPersonaTree } from './tree/persona-tree.js';
import { loadTreeSchema } from './tree/schema.js';
import type { Embedder } from './types.js';

export interface ReplayOptions {
  config?: MemoryConfigInput;
  /** Dense-path embedder; null = BM25 only. */
  embedder?: Embedder | null;
  /** For teacher targets; skipped when absent, disabled, or the teacher role is offline. */
  llm?: LlmClient | null;
  /** Run seed (per-call top-k draws). @default 0 */
  seed?: number;
  /** Usage stage name. @default 'memory' */
  stage?: string;
  /** Retrieval paths for trajectories (figures per path). @default config.retrieval.mode */
  mode?: 'hybrid' | 'bm25' | 'dense';
  /** Personality targets by turn id a model read from model-written text (online-labels/); the offline reader for the rest. */
  personalityTargets?: ReadonlyMap<string, BigFive> | null;
}

const traceTurn = (turn: Turn): TraceTurn => ({
  id: turn.id,
  index: turn.index,
  time: turn.time,
  speaker: turn.speaker,
  text: turn.text,
  images: turn.images,
});

/**
 * Trace replay: walks a realized dialogue turn by turn through PersonaVLM's operational loop —
 * per round a semantic write decision and a PEM step, per chunk of w turns a PersonaTree op
 * list, per session end core, episodic and procedural consolidation — applying the gold target
 * of every step (derived from the plan: which turn expresses which slot) and recording it as a
 * self-contained trace, with a teacher target when a teacher role is configured. Questions are
 * answered (reasoning trajectories) over the memory state at their question time. Snapshots
 * are taken before the first session and after every session.
 *
 * @example
 * const memory = await replayMemory(plan, dialogue, { embedder: createOfflineEmbedder(), seed: 42 });
 */
export async function replayMemory(
  plan: UserPlan,
  dialogue: UserDialogue,
  options: ReplayOptions = {},
): Promise<UserMemory> {
  const index = indexPlan(plan);
  const memory = createPersonaMemory({ config: options.config ?? {}, embedder: options.embedder ?? null });
  const config = memory.config;
  const userId = plan.userId;
  const stage = options.stage ?? 'memory';
  const llm = options.llm ?? null;
  const teacher: TeacherContext | null =
    llm !== null && config.teacher && !llm.isOffline(config.teacherRole)
      ? {
          llm: teacherClient(llm),
          role: config.teacherRole,
          stage,
          treeAgreement: config.teacherTreeAgreement,
        }
      : null;
  memory.setCore(plan.enriched.coreMemory);
  memory.setPersonality((plan.personality[0] as UserPlan['personality'][number]).bigFive);
  const snapshots: MemorySnapshot[] = [memory.snapshot(plan.horizon.start)];
  let tree = createPersonaTree({
    initial: initialTreeValues(index),
    policy: config.tree,
    schema: loadTreeSchema(config.tree.schemaPath),
  });
  const initialTree = { ...tree.values };
  const versions: TreeVersion[] = [];
  const traces: MemoryTrace[] = [];
  const trajectories: ReasoningTrajectory[] = [];
  const known: KnownState = { preferences: new Map(), facts: new Map() };
  const pending: QaTarget[] = [...plan.qa].sort(
    (a, b) => Date.parse(a.questionTime) - Date.parse(b.questionTime) || (a.id < b.id ? -1 : 1),
  );
  let boundaryMismatches = 0;
  const teacherCalls: Array<Promise<void>> = [];
  const teacherFailures: string[] = [];
  const teacherTasks = config.teacherTasks as MemoryTaskName[];
  // Session spans: the session's traces wait for one call at the session end (state as it began).
  let spanItems: SpanItem[] = [];
  let spanState: SpanState | null = null;
  const background = (call: Promise<void>): void => {
    // A call that rejects (a budget stop, an outage) while the walk awaits something else must not
    // become an unhandled rejection that kills the process: it is rethrown by the Promise.all below.
    call.catch(() => {});
    teacherCalls.push(call);
  };

  const trace = (
    task: MemoryTaskName,
    sessionIndex: number,
    turn: Turn,
    input: Record<string, unknown>,
    gold: { text: string; value: unknown },
  ): void => {
    const record: MemoryTrace = {
      id: `${userId}:${task}:${traces.length}`,
      task,
      userId,
      sessionIndex,
      turnId: turn.id,
      // The step happens once everything in its input has been said (e.g. the assistant's reply).
      time: typeof input.time === 'string' ? input.time : turn.time,
      input,
      gold,
      teacher: null,
    };
    traces.push(record);
    // Gold targets drive the memory state, so teacher calls never block the walk: they run
    // concurrently (the llm layer bounds concurrency) and are awaited before the record is returned.
    if (teacher === null || !teacherTasks.includes(task)) return;
    const expected = task === 'tree_ops' ? gold.text : gold.value;
    if (config.teacherSpan === 'session') {
      spanItems.push({ trace: record, gold: expected });
      return;
    }
    background(
      askTeacher(teacher, task, input, expected).then((target) => {
        record.teacher = target;
        if (target === null) teacherFailures.push(task);
      }),
    );
  };
  const answerUntil = async (time: number): Promise<void> => {
    while (pending.length > 0 && Date.parse((pending[0] as QaTarget).questionTime) < time) {
      const qa = pending.shift() as QaTarget;
      const rng = createRng(options.seed ?? 0, 'memory', userId, qa.id);
      trajectories.push(
        await buildTrajectory(memory, qa, {
          rng,
          slot: index.slot,
          ...(options.mode === undefined ? {} : { mode: options.mode }),
        }),
      );
    }
  };

  for (const session of dialogue.sessions) {
    const first = session.turns[0] as Turn;
    await answerUntil(Date.parse(first.time));
    spanState = {
      core: memory.core,
      personality: BIG_FIVE_TRAITS.map((trait) => Math.round(memory.personality.p[trait] * 10) / 10),
      procedural: memory.procedural.map(({ key, sentence }) => ({ key, sentence })),
      tree: { ...tree.values },
    };
    const { newSession } = memory.observeTurn(first.time);
    if (!newSession) boundaryMismatches++;
    for (const turn of session.turns.slice(1)) {
      if (memory.observeTurn(turn.time).newSession) boundaryMismatches++;
    }
    const turns = session.turns;
    // PersonaTree windows of w dialogue rounds (a user turn and the assistant's reply; Inside
    // Out's w = 3): a chunk ends before the user turn that would open round w + 1, so every
    // chunk starts with the user (leading assistant turns join the first) and holds w rounds.
    const chunkEnds = roundChunkEnds(turns, config.tree.chunkTurns);
    let nextChunk = 0;
    for (let position = 0; position < turns.length; position++) {
      const turn = turns[position] as Turn;
      await answerUntil(Date.parse(turn.time));
      if (turn.speaker === 'user') {
        const reply = turns[position + 1]?.speaker === 'assistant' ? (turns[position + 1] as Turn) : null;
        const context = turns.slice(Math.max(0, position - config.contextTurns), position).map(traceTurn);
        const semantic = goldSemanticDecision(index, turn);
        trace(
          'semantic_write',
          session.index,
          turn,
          {
            time: reply?.time ?? turn.time,
            turn: traceTurn(turn),
            reply: reply === null ? null : traceTurn(reply),
            context,
          },
          {
            text: formatSemanticDecision(semantic.value),
            value: semantic.value,
          },
        );
        if (semantic.value.decision) {
          memory.addSemantic({
            id: `${userId}:M${memory.semantic.length}`,
            reason: semantic.value.reason,
            content: semantic.value.content ?? '',
            keywords: semantic.value.keywords,
            timestamp: turn.time,
            turnId: turn.id,
            sessionIndex: session.index,
            imageIds: turn.images,
            slotIds: semantic.slots.map((slot) => slot.id),
          });
        }
        observeSlots(index, known, semantic.slots);
        // Personality is read from several messages: the user turns of a longer context window.
        const recent = turns.slice(Math.max(0, position - PERSONALITY_CONTEXT_TURNS), position);
        const scores =
          options.personalityTargets?.get(turn.id) ??
          goldPersonalityScores([
            ...recent.filter((item) => item.speaker === 'user').map((item) => item.text),
            turn.text,
          ]);
        trace(
          'personality_inference',
          session.index,
          turn,
          {
            time: turn.time,
            turn: traceTurn(turn),
            context: recent.map(traceTurn),
            personality: describePersonality(memory.personality.p),
          },
          {
            text: formatPersonalityScores(scores),
            value: scores,
          },
        );
        memory.inferPersonality(scores);
      }
      if (chunkEnds.has(position)) {
        const chunkEnd = position + 1;
        const chunkTurns = turns.slice(nextChunk, chunkEnd);
        const gold = goldTreeOps(index, chunkTurns, tree.values);
        const opsText = formatTreeOps(gold.ops);
        trace(
          'tree_ops',
          session.index,
          turn,
          { time: turn.time, tree: { ...tree.values }, turns: chunkTurns.map(traceTurn) },
          { text: opsText, value: gold.ops },
        );
        const { tree: next, step } = applyTreeOps(tree, gold.ops);
        tree = next;
        versions.push({
          version: step.version,
          sessionIndex: session.index,
          turnIds: chunkTurns.map((item) => item.id),
          time: turn.time,
          ops: gold.ops,
          opsText,
          diff: step.diff,
        });
        nextChunk = chunkEnd;
      }
    }
    // Session end (PersonaVLM operational loop): consolidate core, episodic and procedural memory.
    const last = turns[turns.length - 1] as Turn;
    const sessionTurns = turns.map(traceTurn);
    const core = goldCore(index, known);
    trace(
      'core_update',
      session.index,
      last,
      { time: last.time, core: memory.core, turns: sessionTurns },
      { text: formatCoreMemory(core), value: core },
    );
    memory.setCore(core);
    const episodes = goldEpisodes(index, session, userId);
    trace(
      'episodic_summary',
      session.index,
      last,
      { time: last.time, sessionIndex: session.index, turns: sessionTurns },
      { text: formatEpisodes(episodes), value: episodes },
    );
    memory.addEpisodes(episodes);
    const before = [...memory.procedural];
    memory.setProcedural(goldProceduralUpdates(index, session, userId), goldProceduralDrops(index, session));
    trace(
      'procedural_update',
      session.index,
      last,
      { time: last.time, procedural: before, turns: sessionTurns },
      {
        text: formatProcedural(memory.procedural),
        value: memory.procedural,
      },
    );
    memory.sessionIndex = session.index;
    snapshots.push(memory.snapshot(last.time));
    if (teacher !== null && spanItems.length > 0 && spanState !== null) {
      const span = { state: spanState, sessionIndex: session.index, turns: sessionTurns };
      const items = spanItems;
      background(
        askSpanTeacher(teacher, teacherTasks, span, items, config.teacherSpanRounds).then((failed) => {
          teacherFailures.push(...failed);
        }),
      );
    }
    spanItems = [];
  }
  await answerUntil(Number.POSITIVE_INFINITY);
  await Promise.all(teacherCalls);
  // A teacher target that was asked for and not obtained is a failure of this user (quarantined
  // with a code the next run retries), never a silent null beside the gold target.
  if (teacherFailures.length > 0) {
    const tasks = [...new Set(teacherFailures)].join(', ');
    const message = `the teacher gave no valid answer for ${teacherFailures.length} memory-task target(s) (${tasks})`;
    if (config.teacherOnFailure === 'fail') {
      throw new RunStopError('LLM_SCHEMA_MISMATCH', `user ${plan.userId}: ${message}`, {
        hint: 'memory.teacherOnFailure is "fail"; check the teacher endpoint, then run the same command again (finished users are kept)',
      });
    }
    throw new PersonaForgeError('LLM_SCHEMA_MISMATCH', message, {
      hint: 'run the same command again to retry this user; check the teacher endpoint',
    });
  }

  const counts: Record<string, number> = {};
  for (const item of traces) counts[item.task] = (counts[item.task] ?? 0) + 1;
  const judged = traces.filter((item) => item.teacher !== null);
  const answered = trajectories.filter(
    (item) => plan.qa.find((qa) => qa.id === item.qaId)?.evidenceSlotIds.length !== 0,
  );
  return {
    schemaVersion: SCHEMA_VERSION,
    userId,
    offline: teacher === null,
    snapshots,
    traces,
    tree: {
      schemaId: tree.schema.id,
      chunkTurns: config.tree.chunkTurns,
      initial: initialTree,
      versions,
      final: { ...tree.values },
    },
    trajectories,
    stats: {
      traces: counts,
      teacherAgreement:
        judged.length === 0
          ? null
          : judged.filter((item) => item.teacher?.agrees === true).length / judged.length,
      firstRetrievalHitRate:
        answered.length === 0
          ? null
          : answered.filter((item) => item.firstRetrievalHit).length / answered.length,
      sessionBoundaryMismatches: boundaryMismatches,
    },
  };
}
