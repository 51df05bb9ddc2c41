/**
 * One user's page, read from the three byte spans the index holds for the user (plan, dialogue,
 * memory) and the run's small validation facts: never more of the corpus than this one user.
 */
import { join } from 'node:path';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import { DIALOGUE_FILE, MEMORY_FILE, PLAN_FILE } from './build-index.js';
import { readSpan } from './read-span.js';
import type { RunFacts } from './run-facts.js';
import type { IndexedUser, Removal, UserPage, ViewPreference, ViewQuestion, ViewSession } from './types.js';
import { type ChartPlan, personalitySvg, timelineSvg } from './user-charts.js';

/** The parts of a plan record the page reads (the record itself is validated by the pipeline). */
interface PlanRecord extends ChartPlan {
  enriched?: { persona?: { name?: string; description?: string } };
  preferences: ViewPreference[];
  drift: Array<ChartPlan['drift'][number] & { id: string }>;
  goals?: Array<{ description: string; states?: Array<{ time: string; status: string }> }>;
  images?: Array<{ id: string; path: string; caption?: string }>;
  slots?: Array<{ id: string; kind: string; statement?: string }>;
  qa?: Array<{
    id: string;
    family: string;
    task: string;
    questionTime: string;
    question: string;
    answer: string;
    answerType: string;
    choices?: string[] | null;
    correctIndex?: number | null;
    evidenceSlotIds?: string[];
    unanswerable?: boolean;
  }>;
}

interface DialogueRecord {
  sessions: Array<{
    index: number;
    start: string;
    end: string;
    topics?: string[];
    turns: Array<{
      id: string;
      round: number;
      time: string;
      speaker: string;
      text: string;
      images?: string[];
      slots?: string[];
      noise?: string | null;
    }>;
  }>;
}

interface MemoryRecord {
  snapshots?: Array<{ time: string; sessionIndex: number; personality?: { p?: Record<string, number> } }>;
  stats?: { traces?: Record<string, number> };
}

/**
 * @example const page = await readUserPage('out/quickstart', entry, facts);
 */
export async function readUserPage(runDir: string, user: IndexedUser, facts: RunFacts): Promise<UserPage> {
  const missing: string[] = [];
  const read = async <T>(file: string, span: IndexedUser['plan']): Promise<T | null> => {
    if (span === null) {
      missing.push(file);
      return null;
    }
    return readSpan<T>(join(runDir, file), span);
  };
  const plan = await read<PlanRecord>(PLAN_FILE, user.plan);
  const dialogue = await read<DialogueRecord>(DIALOGUE_FILE, user.dialogue);
  const rawMemory = await read<Record<string, unknown>>(MEMORY_FILE, user.memory);
  const memory =
    rawMemory === null ? null : (decodeUserMemoryFields(rawMemory, ['snapshots']) as MemoryRecord);

  // What validation took out of this user.
  const turnRemoval = new Map<string, Removal>();
  const sessionRemoval = new Map<number, Removal>();
  for (const unit of facts.units) {
    if (unit.userId !== user.userId) continue;
    const removal = { check: unit.check, reason: unit.reason, id: unit.id };
    if (unit.unit === 'session') sessionRemoval.set(Number(/:S(\d+)$/.exec(unit.id)?.[1] ?? -1), removal);
    for (const turn of unit.turns) turnRemoval.set(turn, removal);
  }
  const dropped = new Map<string, Removal>();
  for (const d of facts.droppedQa)
    if (d.userId === user.userId)
      dropped.set(d.qaId, { check: 'evidence_quarantined', reason: d.reason, id: d.qaId });

  const slots = new Map((plan?.slots ?? []).map((s) => [s.id, s]));
  const images = new Map((plan?.images ?? []).map((i) => [i.id, i]));
  const turnsBySlot = new Map<string, string[]>();
  for (const session of dialogue?.sessions ?? [])
    for (const turn of session.turns)
      for (const slot of turn.slots ?? []) turnsBySlot.set(slot, [...(turnsBySlot.get(slot) ?? []), turn.id]);

  const questions: ViewQuestion[] = (plan?.qa ?? []).map((qa) => ({
    id: qa.id,
    family: qa.family,
    task: qa.task,
    time: qa.questionTime,
    question: qa.question,
    answer: qa.answer,
    answerType: qa.answerType,
    choices: qa.choices ?? null,
    correctIndex: qa.correctIndex ?? null,
    unanswerable: qa.unanswerable === true,
    evidenceSlots: qa.evidenceSlotIds ?? [],
    evidenceTurns: [...new Set((qa.evidenceSlotIds ?? []).flatMap((id) => turnsBySlot.get(id) ?? []))],
    dropped: dropped.get(qa.id) ?? null,
  }));
  const evidenceOf = new Map<string, string[]>();
  for (const q of questions)
    for (const turn of q.evidenceTurns) evidenceOf.set(turn, [...(evidenceOf.get(turn) ?? []), q.id]);

  const sessions: ViewSession[] = (dialogue?.sessions ?? []).map((session) => ({
    index: session.index,
    start: session.start,
    end: session.end,
    topics: session.topics ?? [],
    quarantined: sessionRemoval.get(session.index) ?? null,
    turns: session.turns.map((turn) => ({
      id: turn.id,
      round: turn.round,
      time: turn.time,
      speaker: turn.speaker,
      text: turn.text,
      images: (turn.images ?? []).map((id) => {
        const image = images.get(id);
        return {
          id,
          url:
            image === undefined ? null : `/images/${image.path.split('/').map(encodeURIComponent).join('/')}`,
          caption: image?.caption ?? '',
        };
      }),
      slots: (turn.slots ?? []).map((id) => ({
        id,
        kind: slots.get(id)?.kind ?? '',
        statement: slots.get(id)?.statement ?? '',
      })),
      noise: turn.noise ?? null,
      quarantined: turnRemoval.get(turn.id) ?? null,
      evidenceOf: evidenceOf.get(turn.id) ?? [],
    })),
  }));

  const items = new Map((plan?.preferences ?? []).map((p) => [p.id, p.item]));
  const tracked = (memory?.snapshots ?? [])
    .filter((s) => s.personality?.p !== undefined)
    .map((s) => ({
      time: s.time,
      bigFive: s.personality?.p as Parameters<typeof personalitySvg>[1][number]['bigFive'],
    }));
  return {
    userId: user.userId,
    split: user.split,
    quarantine: user.quarantine,
    flags: user.flags,
    persona:
      plan?.enriched?.persona === undefined
        ? null
        : { name: plan.enriched.persona.name ?? '', description: plan.enriched.persona.description ?? '' },
    charts:
      plan === null ? null : { timeline: timelineSvg(plan), personality: personalitySvg(plan, tracked) },
    preferences: (plan?.preferences ?? []).map((p) => ({
      id: p.id,
      item: p.item,
      polarity: p.polarity,
      category: p.category,
      validFrom: p.validFrom,
      validUntil: p.validUntil,
      origin: p.origin,
    })),
    drift: (plan?.drift ?? []).map((e) => ({
      id: e.id,
      type: e.type,
      time: e.time,
      cause: e.cause,
      item: items.get(e.preferenceId ?? e.previousPreferenceId ?? '') ?? '',
    })),
    goals: (plan?.goals ?? []).map((g) => ({ description: g.description, states: g.states ?? [] })),
    sessions,
    questions,
    targetCounts: memory?.stats?.traces ?? {},
    userQuarantine: facts.quarantine
      .filter((r) => r.userId === user.userId && r.unit === null)
      .map((r) => ({ stage: r.stage, check: r.check, reason: r.reason })),
    examples: facts.examples.filter((e) => e.userId === user.userId),
    missing,
  };
}
