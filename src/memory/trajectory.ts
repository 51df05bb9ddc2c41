import { canonicalAnswer, NOT_IN_MEMORY } from '../qa/answer-convention.js';
import type { ReasoningTrajectory, RetrieveQuery, TrajectoryStep } from '../schemas/memory.js';
import type { EvidenceSlot, QaTarget } from '../schemas/plan.js';
import type { Rng } from '../util/rng.js';
import type { PersonaMemory } from './persona/persona-memory.js';
import { formatMemoryBlock, formatMinute } from './retrieval/format-block.js';
import { drawTopK, retrieve } from './retrieval/retrieve.js';
import type { RetrievedEntry, TopK } from './types.js';

export interface TrajectoryOptions {
  /** Seeded stream for per-call top-k (training ranges) when `config.retrieval.sampleTopK`. */
  rng: Rng;
  /** Evidence slots of the plan (to label hits and to plan follow-up queries). */
  slot: (id: string) => EvidenceSlot | undefined;
  mode?: 'hybrid' | 'bm25' | 'dense';
}

const DAY = 86_400_000;

function retrieveTag(query: RetrieveQuery): string {
  return `<retrieve>${JSON.stringify(query)}</retrieve>`;
}

/**
 * The queries a trajectory tries in order (at most `maxRetrievals`): the target's retrieval
 * keywords over all time; then the question's own words; then the evidence keywords inside a
 * window of ±1 day around the evidence. Every later query only runs if the earlier ones
 * returned no evidence.
 */
function plannedQueries(qa: QaTarget, slots: EvidenceSlot[]): RetrieveQuery[] {
  const first = qa.retrievalKeywords.length > 0 ? qa.retrievalKeywords.join(', ') : qa.question;
  const queries: RetrieveQuery[] = [{ keywords: first, start_time: null, end_time: null }];
  queries.push({ keywords: qa.question, start_time: null, end_time: null });
  if (slots.length > 0) {
    const times = slots.map((slot) => Date.parse(slot.time));
    queries.push({
      keywords: [...new Set(slots.flatMap((slot) => slot.keywords))].join(', '),
      start_time: formatMinute(new Date(Math.min(...times) - DAY).toISOString()),
      end_time: formatMinute(new Date(Math.max(...times) + DAY).toISOString()),
    });
  }
  return queries;
}

/**
 * Builds the `<think>` → `<retrieve>{json}` → (memory block) → … → `<answer>` trajectory of one
 * QA target over the memory state at its question time (PersonaVLM response stage, SPEC.md §1):
 * at most `maxRetrievals` retrievals, no entry returned twice, per-call k drawn from the training
 * ranges. Offline, the answer is the plan's answer only once a retrieval returned evidence (or
 * for unanswerable targets); otherwise the trajectory ends with an explicit "not in memory".
 *
 * @example
 * const trajectory = await buildTrajectory(memory, qa, { rng, slot: index.slot });
 */
export async function buildTrajectory(
  memory: PersonaMemory,
  qa: QaTarget,
  options: TrajectoryOptions,
): Promise<ReasoningTrajectory> {
  const config = memory.config.retrieval;
  const evidence = new Set(qa.evidenceSlotIds);
  const slots = qa.evidenceSlotIds.flatMap((id) => options.slot(id) ?? []);
  const queries = plannedQueries(qa, slots).slice(0, config.maxRetrievals);
  const seen = new Set<string>();
  const steps: TrajectoryStep[] = [];
  const messages: string[] = [];
  const found: RetrievedEntry[] = [];
  let firstRetrievalHit = false;
  for (const [index, query] of queries.entries()) {
    const topK: TopK = config.sampleTopK ? drawTopK(options.rng, config) : { ...config.topK };
    const result = await retrieve(memory, {
      keywords: query.keywords,
      startTime: query.start_time,
      endTime: query.end_time,
      topK,
      exclude: seen,
      asOf: qa.questionTime,
      mode: options.mode,
    });
    for (const entry of result.entries) seen.add(entry.id);
    const hits = result.entries.filter((entry) => entry.slotIds.some((id) => evidence.has(id)));
    if (index === 0) firstRetrievalHit = hits.length > 0;
    found.push(...hits);
    const think =
      index === 0
        ? `The user asks: "${qa.question}" This depends on what I know about them, so I should search memory for ${query.keywords}.`
        : `The previous search did not surface anything that answers this. I will try ${query.start_time === null ? 'different keywords' : 'the evidence keywords within a narrower time window'}: ${query.keywords}.`;
    const block = formatMemoryBlock(result);
    steps.push({
      think,
      retrieve: query,
      retrievedIds: result.entries.map((entry) => entry.id),
      retrievedBlock: block,
      topK,
    });
    messages.push(`<think>${think}</think>\n${retrieveTag(query)}`);
    if (hits.length > 0 || (qa.unanswerable && index === 0)) break;
  }
  const evidenceRetrieved = found.length > 0;
  let answer: string;
  let think: string;
  if (evidenceRetrieved) {
    const cited = found.map((entry) => `[${formatMinute(entry.time)}] ${entry.text}`).join(' ');
    answer = canonicalAnswer(qa);
    const option = answer === qa.answer ? '' : ` That is option ${answer}.`;
    think = `Memory says: ${cited} Based on this, the answer is: ${qa.answer}.${option}`;
  } else if (qa.unanswerable || evidence.size === 0) {
    answer = canonicalAnswer(qa);
    const option = answer === qa.answer ? '' : ` That is option ${answer}.`;
    think = `Nothing in memory answers this, so the honest answer is that it is unknown: ${qa.answer}.${option}`;
  } else {
    think =
      'After searching, memory holds nothing that answers this, so I cannot answer it from what I know.';
    answer = NOT_IN_MEMORY;
  }
  steps.push({ think, retrieve: null, retrievedIds: [], retrievedBlock: null, topK: null });
  messages.push(`<think>${think}</think>\n<answer>${answer}</answer>`);
  return {
    qaId: qa.id,
    questionTime: qa.questionTime,
    question: qa.question,
    steps,
    answer,
    messages,
    retrievals: steps.length - 1,
    firstRetrievalHit,
    evidenceRetrieved,
    offline: true,
  };
}
