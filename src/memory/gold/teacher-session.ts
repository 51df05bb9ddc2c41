import { z } from 'zod';
import type { ChatMessage, LlmClient } from '../../llm/types.js';
import type { EpisodicEntry, ProceduralEntry, TeacherTarget } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';
import { tokenize } from '../retrieval/tokenize.js';
import { formatCoreMemory, formatEpisodes, formatProcedural } from './targets.js';

// Lenient model-output schemas (STYLE.md): only the fields compared.
const CoreAnswer = z.object({
  human: z.record(z.string(), z.string()),
  persona: z.record(z.string(), z.string()).nullish(),
});
const EpisodesAnswer = z.object({
  episodes: z.array(
    z.object({
      topic_summary: z.string(),
      keywords: z.array(z.string()).nullish(),
      source_dialog_indices: z.array(z.number().int()),
    }),
  ),
});
const ProceduralAnswer = z.object({ entries: z.array(z.object({ key: z.string(), sentence: z.string() })) });

function sameSet<T>(left: Set<T>, right: Set<T>): boolean {
  return left.size === right.size && [...left].every((item) => right.has(item));
}

/** Token-set F1 of two sentences. */
function tokenF1(left: string, right: string): number {
  const a = new Set(tokenize(left));
  const b = new Set(tokenize(right));
  const common = [...a].filter((token) => b.has(token)).length;
  return common === 0 ? 0 : (2 * common) / (a.size + b.size);
}

const clauses = (core: Pick<CoreMemory, 'human'>) =>
  new Set(
    String(core.human.preferences ?? '')
      .split(';')
      .map((clause) => clause.trim().toLowerCase())
      .filter((clause) => clause !== ''),
  );

/**
 * Teacher targets of the session-end tasks and their agreement with gold: core memory agrees on
 * the name and the set of preference clauses; episodes when they cover the same turns with at
 * most one segment more or fewer; procedural memory when it has at most `maxEntries` entries and
 * every sentence on each side has a token-F1 ≥ 0.5 counterpart on the other.
 *
 * @example
 * await askSessionTeacher(context, 'core_update', base, model, goldCore);
 */
export async function askSessionTeacher(
  context: { llm: LlmClient; role: string; maxProcedural?: number },
  task: 'core_update' | 'episodic_summary' | 'procedural_update',
  base: { messages: ChatMessage[]; stage: string; temperature: number },
  model: string,
  gold: unknown,
): Promise<TeacherTarget | null> {
  if (task === 'core_update') {
    const result = await context.llm.safeStructured(context.role, {
      ...base,
      schema: CoreAnswer,
      schemaName: task,
    });
    if (!result.ok) return null;
    const value = { human: result.value.human, persona: result.value.persona ?? {} } as CoreMemory;
    const expected = gold as CoreMemory;
    const agrees = value.human.name === expected.human.name && sameSet(clauses(value), clauses(expected));
    return { model, text: formatCoreMemory(value), value, agrees };
  }
  if (task === 'episodic_summary') {
    const result = await context.llm.safeStructured(context.role, {
      ...base,
      schema: EpisodesAnswer,
      schemaName: task,
    });
    if (!result.ok) return null;
    const expected = gold as EpisodicEntry[];
    const covered = result.value.episodes.flatMap((episode) => episode.source_dialog_indices);
    const wanted = expected.flatMap((episode) => episode.turnIndices);
    const agrees =
      covered.length === wanted.length &&
      sameSet(new Set(covered), new Set(wanted)) &&
      Math.abs(result.value.episodes.length - expected.length) <= 1;
    const value = result.value.episodes.map((episode, index) => ({
      id: `teacher-${index}`,
      sessionIndex: 0,
      summary: episode.topic_summary,
      keywords: episode.keywords ?? [],
      turnIndices: episode.source_dialog_indices,
      start: '',
      end: '',
      slotIds: [],
    }));
    return { model, text: formatEpisodes(value), value: result.value.episodes, agrees };
  }
  const result = await context.llm.safeStructured(context.role, {
    ...base,
    schema: ProceduralAnswer,
    schemaName: task,
  });
  if (!result.ok) return null;
  const expected = (gold as ProceduralEntry[]).map((entry) => entry.sentence);
  const sentences = result.value.entries.map((entry) => entry.sentence);
  const covers = (from: string[], to: string[]) => from.every((a) => to.some((b) => tokenF1(a, b) >= 0.5));
  const agrees =
    sentences.length <= (context.maxProcedural ?? 5) &&
    covers(expected, sentences) &&
    covers(sentences, expected);
  const entries = result.value.entries.map((entry) => ({
    id: '',
    key: entry.key,
    sentence: entry.sentence,
    updatedAt: '',
    slotIds: [],
  }));
  return { model, text: formatProcedural(entries), value: result.value.entries, agrees };
}
