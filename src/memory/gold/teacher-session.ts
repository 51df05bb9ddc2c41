import { z } from 'zod';
import type { EpisodicEntry, ProceduralEntry, TeacherTarget } from '../../schemas/memory.js';
import type { CoreMemory } from '../../schemas/persona.js';
import { tokenize } from '../retrieval/tokenize.js';
import { formatCoreMemory, formatEpisodes, formatProcedural } from './targets.js';

// Lenient model-output schemas (STYLE.md): only the fields compared.
export const CoreAnswer = z.object({
  human: z.record(z.string(), z.string()),
  persona: z.record(z.string(), z.string()).nullish(),
});
export const EpisodesAnswer = z.object({
  episodes: z.array(
    z.object({
      topic_summary: z.string(),
      keywords: z.array(z.string()).nullish(),
      source_dialog_indices: z.array(z.number().int()),
    }),
  ),
});
export const ProceduralAnswer = z.object({
  entries: z.array(z.object({ key: z.string(), sentence: z.string() })),
});

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
 * most one segment more or fewer; procedural memory when it has at most `maxProcedural` entries and
 * every sentence on each side has a token-F1 ≥ 0.5 counterpart on the other.
 *
 * @example
 * sessionTarget('core_update', answer, 'qwen', goldCore).agrees
 */
export function sessionTarget(
  task: 'core_update' | 'episodic_summary' | 'procedural_update',
  answer: unknown,
  model: string,
  gold: unknown,
  maxProcedural = 5,
): TeacherTarget {
  if (task === 'core_update') {
    const answered = answer as z.infer<typeof CoreAnswer>;
    const value = { human: answered.human, persona: answered.persona ?? {} } as CoreMemory;
    const expected = gold as CoreMemory;
    const agrees = value.human.name === expected.human.name && sameSet(clauses(value), clauses(expected));
    return { model, text: formatCoreMemory(value), value, agrees };
  }
  if (task === 'episodic_summary') {
    const answered = answer as z.infer<typeof EpisodesAnswer>;
    const expected = gold as EpisodicEntry[];
    const covered = answered.episodes.flatMap((episode) => episode.source_dialog_indices);
    const wanted = expected.flatMap((episode) => episode.turnIndices);
    const agrees =
      covered.length === wanted.length &&
      sameSet(new Set(covered), new Set(wanted)) &&
      Math.abs(answered.episodes.length - expected.length) <= 1;
    const value = answered.episodes.map((episode, index) => ({
      id: `teacher-${index}`,
      sessionIndex: 0,
      summary: episode.topic_summary,
      keywords: episode.keywords ?? [],
      turnIndices: episode.source_dialog_indices,
      start: '',
      end: '',
      slotIds: [],
    }));
    return { model, text: formatEpisodes(value), value: answered.episodes, agrees };
  }
  const answered = answer as z.infer<typeof ProceduralAnswer>;
  const expected = (gold as ProceduralEntry[]).map((entry) => entry.sentence);
  const sentences = answered.entries.map((entry) => entry.sentence);
  const covers = (from: string[], to: string[]) => from.every((a) => to.some((b) => tokenF1(a, b) >= 0.5));
  const agrees =
    sentences.length <= maxProcedural && covers(expected, sentences) && covers(sentences, expected);
  const entries = answered.entries.map((entry) => ({
    id: '',
    key: entry.key,
    sentence: entry.sentence,
    updatedAt: '',
    slotIds: [],
  }));
  return { model, text: formatProcedural(entries), value: answered.entries, agrees };
}
