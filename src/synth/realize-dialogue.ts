import { SynthError } from '../errors/index.js';
import type { LlmClient } from '../llm/types.js';
import { SCHEMA_VERSION } from '../schemas/common.js';
import type { DialogueSession, Turn, UserDialogue } from '../schemas/dialogue.js';
import type { EvidenceSlot, Preference, SessionPlan, UserPlan } from '../schemas/plan.js';
import { SynthConfig, type SynthConfigInput } from '../schemas/synth-config.js';
import { generateBehaviors } from './behaviors.js';
import { checkChunkSlots, emptyMeaningCounts, type MeaningCounts } from './check.js';
import { slotExpectations } from './meaning/index.js';
import { createPlanView, type PlanView } from './plan-view.js';
import type { ChunkRound, CompactState, RealizedRound, Realizer } from './realizer.js';
import { checkRoundLabels } from './round-labels/index.js';

export interface RealizeDialogueOptions {
  realizer: Realizer;
  /** The `synth:` section; defaults documented in `SynthConfig`. */
  config?: SynthConfigInput;
  /** Judge for unsure slot checks (role `judge`); without it unsure counts as missing. */
  llm?: LlmClient;
  /** Seed of the behavior-log generator. @default 0 */
  seed?: number;
  /** Stage name billed for judge calls. @default 'synth' */
  stage?: string;
  /** Checked between chunks: an aborted run stops with the signal's reason. */
  signal?: AbortSignal;
}

/** Statistics of one realization, for reports and tests. */
export interface RealizeStats {
  /** Realizer calls (first tries and regenerations). */
  chunks: number;
  regenerations: number;
  judgeCalls: number;
  /** Photo and correction checks of model-written turns (round-labels/). */
  labelCalls?: number;
  /** Planned chunks, and how many needed 0, 1, 2 … regenerations (index = regenerations). */
  regenerationsPerChunk?: number[];
  /** What the meaning check read and what the judge decided. */
  meaning?: MeaningCounts;
}

const IMAGE = /<image>|<img>/g;

/** Exactly one `<image>` per planned image in the user text (extra ones dropped, missing ones prepended). */
export function normalizeImagePlaceholders(text: string, count: number): string {
  let seen = 0;
  let out = text
    .replace(IMAGE, () => (++seen <= count ? '<image>' : ''))
    .replace(/ {2,}/g, ' ')
    .trim();
  for (; seen < count; seen++) out = `<image> ${out}`;
  return out;
}

function profileLine(plan: UserPlan): string {
  const p = plan.enriched.persona;
  return `${p.name}, ${p.age}, ${p.gender}, ${p.occupation} in ${p.location.city}; ${p.family}. ${plan.enriched.roleDescription}`;
}

/** Active preferences, those the chunk's slots refer to first, capped at `limit`. */
function promptPreferences(view: PlanView, time: string, slots: EvidenceSlot[], limit: number): Preference[] {
  const refs = new Set(slots.map((slot) => slot.refId));
  for (const event of view.plan.drift) {
    if (refs.has(event.id)) {
      if (event.preferenceId !== null) refs.add(event.preferenceId);
      if (event.previousPreferenceId !== null) refs.add(event.previousPreferenceId);
    }
  }
  const active = view.activePreferences(time);
  const referenced = view.plan.preferences.filter((pref) => refs.has(pref.id));
  const rest = active.filter((pref) => !refs.has(pref.id));
  return [...referenced, ...rest].slice(0, Math.max(limit, referenced.length));
}

/** Preference ids a slot makes known to the assistant. */
function knownFrom(view: PlanView, slot: EvidenceSlot): string[] {
  if (slot.kind === 'preference') return [slot.refId];
  const event = view.plan.drift.find((d) => d.id === slot.refId);
  return event?.preferenceId != null ? [event.preferenceId] : [];
}

/** Plan invariants the realizer relies on; a violation quarantines the user instead of dropping a slot silently. */
function checkPlan(plan: UserPlan, view: PlanView): void {
  let previousEnd = Number.NEGATIVE_INFINITY;
  plan.sessions.forEach((session, position) => {
    if (session.index !== position) {
      throw new SynthError(
        plan.userId,
        'invalid_plan_sessions',
        `session at position ${position} has index ${session.index}`,
        {
          hint: 'session indices must be 0, 1, 2, … in order',
        },
      );
    }
    const start = view.roundTime(session, 0);
    if (!(start > previousEnd)) {
      throw new SynthError(
        plan.userId,
        'invalid_plan_times',
        `session ${session.index} starts at ${session.start}, before the previous session ended`,
        {
          hint: 'regenerate the plan: sessions must not overlap',
        },
      );
    }
    previousEnd = view.roundTime(session, session.rounds - 1) + session.roundGapMinutes * 60_000;
    const outside = [...session.noise.map((n) => n.round), ...session.images.map((i) => i.round)].filter(
      (r) => r >= session.rounds,
    );
    if (outside.length > 0) {
      throw new SynthError(
        plan.userId,
        'invalid_plan_rounds',
        `session ${session.index} has ${session.rounds} rounds but plans noise/images at round(s) ${outside.join(', ')}`,
      );
    }
  });
  const orphan = plan.slots.filter((slot) => {
    const session = plan.sessions[slot.sessionIndex];
    return session === undefined || slot.round >= session.rounds;
  });
  if (orphan.length > 0) {
    throw new SynthError(
      plan.userId,
      'invalid_plan_slots',
      `evidence slot(s) bound to rounds that do not exist: ${orphan.map((slot) => `${slot.id} (S${slot.sessionIndex} round ${slot.round})`).join(', ')}`,
      {
        details: orphan.map((slot) => slot.id),
      },
    );
  }
}

/**
 * Realizes a plan into a `UserDialogue`: per session, chunk by chunk, from a compact state
 * (profile, personality at the time, relevant preferences, running summary, last turns, the
 * slots to express). After each chunk every required slot is checked (lexical, then a judge when
 * unsure); a failing chunk is regenerated up to `maxRegenerations` times, then a `SynthError`
 * (`slots_not_expressed`) is thrown so the runner quarantines the user.
 *
 * @example
 * const dialogue = await realizeDialogue(plan, { realizer: createOfflineRealizer({ seed: 42 }) });
 */
export async function realizeDialogue(
  plan: UserPlan,
  options: RealizeDialogueOptions,
  stats: RealizeStats = { chunks: 0, regenerations: 0, judgeCalls: 0 },
): Promise<UserDialogue> {
  const config = SynthConfig.parse(options.config ?? {});
  const view = createPlanView(plan);
  checkPlan(plan, view);
  const known = new Set<string>();
  const sessions: DialogueSession[] = [];

  for (const session of plan.sessions) {
    const turns: Turn[] = [];
    const summary: string[] = [];
    const recent: CompactState['recent'] = [];
    const gapMs = session.roundGapMinutes * 60_000;
    for (
      let chunkStart = 0, chunkIndex = 0;
      chunkStart < session.rounds;
      chunkStart += config.chunkRounds, chunkIndex++
    ) {
      const rounds: ChunkRound[] = [];
      for (let r = chunkStart; r < Math.min(session.rounds, chunkStart + config.chunkRounds); r++) {
        rounds.push({
          round: r,
          time: view.roundTime(session, r),
          slots: view.slotsFor(session.index, r),
          noise: view.noiseFor(session.index, r),
          images: view.imagesFor(session.index, r),
        });
      }
      const time = new Date(rounds[0]!.time).toISOString();
      const slots = rounds.flatMap((round) => round.slots);
      const active = view.activePreferences(time);
      const state: CompactState = {
        profile: profileLine(plan),
        personality: view.personalityAt(time),
        preferences: promptPreferences(view, time, slots, config.promptPreferences),
        known: active.filter((pref) => known.has(pref.id)),
        summary: summary.slice(-config.summaryItems),
        recent: config.recentTurns === 0 ? [] : recent.slice(-config.recentTurns),
      };
      options.signal?.throwIfAborted();
      const realized = await realizeChecked(options, config, view, session, chunkIndex, rounds, state, stats);
      for (let i = 0; i < rounds.length; i++) {
        const round = rounds[i]!;
        const text = realized[i]!;
        const base = `${plan.userId}:S${session.index}:T`;
        turns.push({
          id: `${base}${2 * round.round}`,
          index: 2 * round.round,
          round: round.round,
          time: new Date(round.time).toISOString(),
          speaker: 'user',
          text: text.user,
          images: round.images,
          slots: round.slots.map((slot) => slot.id),
          noise: round.noise,
        });
        turns.push({
          id: `${base}${2 * round.round + 1}`,
          index: 2 * round.round + 1,
          round: round.round,
          time: new Date(round.time + gapMs * config.replyDelayFraction).toISOString(),
          speaker: 'assistant',
          text: text.assistant,
          images: [],
          slots: [],
          noise: round.noise,
        });
        recent.push({ speaker: 'user', text: text.user }, { speaker: 'assistant', text: text.assistant });
        for (const slot of round.slots) {
          summary.push(slot.statement);
          for (const id of knownFrom(view, slot)) known.add(id);
        }
        if (round.noise !== null && round.slots.length === 0) summary.push(`a ${round.noise} aside`);
      }
      if (recent.length > config.recentTurns) recent.splice(0, recent.length - config.recentTurns);
      summary.push(`chunk ${chunkIndex + 1}: talked about ${session.topics.join(', ')}`);
      if (summary.length > config.summaryItems) summary.splice(0, summary.length - config.summaryItems);
    }
    sessions.push({
      index: session.index,
      start: turns[0]!.time,
      end: turns[turns.length - 1]!.time,
      topics: session.topics,
      turns,
    });
  }

  return {
    schemaVersion: SCHEMA_VERSION,
    userId: plan.userId,
    realizer: options.realizer.name,
    offline: options.realizer.offline,
    sessions,
    behaviors: config.behaviors.enabled
      ? generateBehaviors(plan, { seed: options.seed ?? 0, config: config.behaviors })
      : [],
  };
}

async function realizeChecked(
  options: RealizeDialogueOptions,
  config: SynthConfig,
  view: PlanView,
  session: SessionPlan,
  chunkIndex: number,
  rounds: ChunkRound[],
  state: CompactState,
  stats: RealizeStats,
): Promise<RealizedRound[]> {
  let missing: EvidenceSlot[] = [];
  let hints: string[] = [];
  let problem = '';
  stats.regenerationsPerChunk ??= [];
  stats.meaning ??= emptyMeaningCounts();
  const perChunk = stats.regenerationsPerChunk;
  const meaning = stats.meaning;
  for (let attempt = 0; attempt <= config.maxRegenerations; attempt++) {
    if (attempt > 0) stats.regenerations++;
    stats.chunks++;
    const out = await options.realizer.realizeChunk({
      view,
      session,
      chunkIndex,
      rounds,
      state,
      attempt,
      missing,
      hints,
    });
    const byRound = new Map(out.map((round) => [round.round, round]));
    // Models sometimes renumber rounds (1-based, chunk-relative): with the right count, align by position.
    const positional = out.length === rounds.length && rounds.some((round) => !byRound.has(round.round));
    const aligned = rounds.map((round, i) => (positional ? out[i] : byRound.get(round.round)));
    if (
      aligned.some(
        (round) => round === undefined || round.user.trim() === '' || round.assistant.trim() === '',
      )
    ) {
      problem = 'the realizer returned missing or empty turns';
      missing = rounds.flatMap((round) => round.slots);
      hints = [`write every listed round (${rounds.map((round) => round.round).join(', ')}), none empty`];
      continue;
    }
    const fixed = rounds.map((round, i) => ({
      round: round.round,
      user: normalizeImagePlaceholders(aligned[i]!.user, round.images.length),
      assistant: aligned[i]!.assistant.replace(IMAGE, '').trim() || '…',
    }));
    const check = await checkChunkSlots(
      rounds.map((round, i) => ({ slots: round.slots, user: fixed[i]!.user })),
      {
        ...(options.llm === undefined ? {} : { llm: options.llm }),
        unsureFraction: config.judgeWhenKeywordFraction,
        stage: options.stage ?? 'synth',
        meaning: (slot) => ({
          expectations: slotExpectations(view.plan, slot),
          cause:
            slot.kind === 'drift'
              ? (view.plan.drift.find((d) => d.id === slot.refId && d.visibility === 'explicit')?.cause ??
                null)
              : null,
        }),
      },
    );
    stats.judgeCalls += check.judgeCalls;
    meaning.unsure += check.meaning.unsure;
    meaning.contradicts += check.meaning.contradicts;
    meaning.undecided += check.meaning.undecided;
    for (const key of ['yes', 'no', 'opposite'] as const) meaning.judged[key] += check.meaning.judged[key];
    // Photo and correction turns a model wrote are checked by a model (round-labels/).
    const labels = await checkRoundLabels(
      options.llm,
      view,
      session.index,
      rounds.map((round, i) => ({ ...round, user: fixed[i]!.user })),
      { stage: options.stage ?? 'synth', modelWritten: !options.realizer.offline },
    );
    stats.labelCalls = (stats.labelCalls ?? 0) + labels.calls;
    if (check.missing.length === 0 && labels.problems.length === 0) {
      perChunk[attempt] = (perChunk[attempt] ?? 0) + 1;
      return fixed;
    }
    missing = check.missing;
    hints = missing.map(
      (slot) => `round ${slot.round} ${check.reasons.get(slot.id) ?? `must say ${slot.statement}`}`,
    );
    hints.push(...labels.problems.map((p) => `round ${p.round} ${p.reason}`));
    problem = [
      ...(missing.length === 0
        ? []
        : [
            `slots not expressed: ${missing
              .map((slot) => {
                const reason = check.reasons.get(slot.id);
                return `${slot.id} [${slot.keywords.join(', ')}]${reason === undefined ? '' : ` (${reason})`}`;
              })
              .join('; ')}`,
          ]),
      ...labels.problems.map((p) => `round ${p.round} (${p.prompt}) ${p.reason}`),
    ].join('; ');
  }
  throw new SynthError(
    view.plan.userId,
    'slots_not_expressed',
    `session ${session.index} chunk ${chunkIndex}: ${problem} after ${config.maxRegenerations + 1} attempts`,
    {
      details: { session: session.index, chunk: chunkIndex, missing: missing.map((slot) => slot.id) },
      hint: 'raise synth.maxRegenerations or use a stronger realizer model',
    },
  );
}
