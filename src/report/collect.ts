import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BigFive } from '../schemas/common.js';
import type { UserDialogue } from '../schemas/dialogue.js';
import type { UserMemory } from '../schemas/memory.js';
import type { UserPlan } from '../schemas/plan.js';
import { readJsonl } from '../util/fs.js';

export interface EndpointUsage {
  calls: number;
  costUsd: number;
  promptTokens: number;
  completionTokens: number;
  cacheHits: number;
}

/** Everything the report draws, aggregated in one streaming pass over the run directory. */
export interface ReportData {
  name: string;
  users: number;
  turnsPerDialogue: number[];
  multimodal: { userTurns: number; imageTurns: number; perUser: number[] };
  preferenceMix: Record<string, number>;
  driftMix: Record<string, number>;
  qaByTask: Record<string, number>;
  qaByFamily: Record<string, number>;
  timelines: Array<{
    userId: string;
    sessions: Array<{ day: number; rounds: number }>;
    events: Array<{ day: number; kind: string; label: string }>;
  }>;
  personality: Array<{
    userId: string;
    planned: Array<{ day: number; bigFive: BigFive }>;
    tracked: Array<{ day: number; bigFive: BigFive }>;
  }>;
  validation: { failuresByCheck: Record<string, number>; judgeMode: string | null } | null;
  usage: { byEndpoint: Record<string, EndpointUsage>; totalCostUsd: number } | null;
  offline: Record<string, boolean>;
  quarantined: number;
}

const DAY = 86_400_000;

function day(time: string, start: string): number {
  return Math.round(((Date.parse(time) - Date.parse(start)) / DAY) * 10) / 10;
}

async function readOptionalJson(path: string): Promise<Record<string, unknown> | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Reads plan, dialogues, memory, validation.json and manifest.json of a run directory (each
 * optional except the plan) and aggregates what the charts need. Only `maxUsers` users get a
 * timeline and personality chart; the rest contribute to the distributions.
 *
 * @example const data = await collectReportData('out/quickstart', { maxUsers: 8 });
 */
export async function collectReportData(runDir: string, options: { maxUsers: number }): Promise<ReportData> {
  const data: ReportData = {
    name: '',
    users: 0,
    turnsPerDialogue: [],
    multimodal: { userTurns: 0, imageTurns: 0, perUser: [] },
    preferenceMix: {},
    driftMix: {},
    qaByTask: {},
    qaByFamily: {},
    timelines: [],
    personality: [],
    validation: null,
    usage: null,
    offline: {},
    quarantined: 0,
  };
  const starts = new Map<string, string>();
  for await (const record of readJsonl(join(runDir, 'plan/plan.jsonl'))) {
    const plan = record as UserPlan;
    data.users++;
    starts.set(plan.userId, plan.horizon.start);
    for (const pref of plan.preferences)
      data.preferenceMix[pref.category] = (data.preferenceMix[pref.category] ?? 0) + 1;
    for (const event of plan.drift) data.driftMix[event.type] = (data.driftMix[event.type] ?? 0) + 1;
    for (const qa of plan.qa) {
      const task = `${qa.family}: ${qa.task}`;
      data.qaByTask[task] = (data.qaByTask[task] ?? 0) + 1;
      data.qaByFamily[qa.family] = (data.qaByFamily[qa.family] ?? 0) + 1;
    }
    if (data.timelines.length < options.maxUsers) {
      const prefs = new Map(plan.preferences.map((p) => [p.id, p]));
      data.timelines.push({
        userId: plan.userId,
        sessions: plan.sessions.map((s) => ({ day: day(s.start, plan.horizon.start), rounds: s.rounds })),
        events: plan.drift.map((e) => ({
          day: day(e.time, plan.horizon.start),
          kind: e.type,
          label: `${prefs.get(e.preferenceId ?? e.previousPreferenceId ?? '')?.item ?? ''} — ${e.cause}`,
        })),
      });
      data.personality.push({
        userId: plan.userId,
        planned: plan.personality.map((p) => ({ day: day(p.time, plan.horizon.start), bigFive: p.bigFive })),
        tracked: [],
      });
    }
  }
  for await (const record of readJsonl(join(runDir, 'dialogues/dialogues.jsonl'), { allowMissing: true })) {
    const dialogue = record as UserDialogue;
    let userTurns = 0;
    let imageTurns = 0;
    for (const session of dialogue.sessions) {
      for (const turn of session.turns) {
        if (turn.speaker !== 'user') continue;
        userTurns++;
        if (turn.images.length > 0) imageTurns++;
      }
    }
    data.turnsPerDialogue.push(userTurns);
    data.multimodal.userTurns += userTurns;
    data.multimodal.imageTurns += imageTurns;
    data.multimodal.perUser.push(userTurns === 0 ? 0 : imageTurns / userTurns);
  }
  const tracked = new Map(data.personality.map((p) => [p.userId, p]));
  for await (const record of readJsonl(join(runDir, 'memory/memory.jsonl'), { allowMissing: true })) {
    const memory = record as UserMemory;
    const entry = tracked.get(memory.userId);
    const start = starts.get(memory.userId);
    if (entry === undefined || start === undefined) continue;
    entry.tracked = memory.snapshots.map((s) => ({
      day: Math.max(0, day(s.time, start)),
      bigFive: s.personality.p,
    }));
  }
  const validation = await readOptionalJson(join(runDir, 'validation.json'));
  if (validation !== null) data.validation = summarizeValidation(validation);
  const manifest = await readOptionalJson(join(runDir, 'manifest.json'));
  if (manifest !== null) {
    data.name = String((manifest.pipeline as { name?: string } | undefined)?.name ?? '');
    data.offline = (manifest.offline as Record<string, boolean> | undefined) ?? {};
    const usage = manifest.usage as
      | { byEndpoint?: Record<string, EndpointUsage>; total?: { costUsd?: number } }
      | undefined;
    if (usage?.byEndpoint !== undefined)
      data.usage = { byEndpoint: usage.byEndpoint, totalCostUsd: usage.total?.costUsd ?? 0 };
  }
  try {
    const text = await readFile(join(runDir, 'quarantine.jsonl'), 'utf8');
    data.quarantined = text.split('\n').filter((line) => line.trim() !== '').length;
  } catch {
    data.quarantined = 0;
  }
  return data;
}

/**
 * Accepts the validate stage's report: per-check failure counts either as
 * `checks: {name: {failures}}`, `checks: [{name, failures}]` or `failuresByCheck: {name: n}`.
 */
function summarizeValidation(validation: Record<string, unknown>): NonNullable<ReportData['validation']> {
  const failuresByCheck: Record<string, number> = {};
  const add = (name: string, value: unknown) => {
    const n =
      typeof value === 'number'
        ? value
        : Number(
            (value as { failures?: unknown; failed?: unknown; count?: unknown })?.failures ??
              (value as { failed?: unknown })?.failed ??
              (value as { count?: unknown })?.count ??
              0,
          );
    failuresByCheck[name] = (failuresByCheck[name] ?? 0) + (Number.isFinite(n) ? n : 0);
  };
  for (const key of ['checks', 'rules', 'judges', 'dedup', 'failuresByCheck']) {
    const section = validation[key];
    if (Array.isArray(section))
      for (const item of section) add(String((item as { name?: unknown }).name ?? key), item);
    else if (section !== null && typeof section === 'object') {
      for (const [name, value] of Object.entries(section)) {
        if (
          typeof value === 'number' ||
          (value !== null &&
            typeof value === 'object' &&
            ('failures' in value || 'failed' in value || 'count' in value))
        )
          add(name, value);
      }
    }
  }
  const judgeMode = (validation.judgeMode ??
    (validation.judges as { mode?: unknown } | undefined)?.mode ??
    null) as string | null;
  return { failuresByCheck, judgeMode: judgeMode === null ? null : String(judgeMode) };
}
