import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BigFive } from '../schemas/common.js';
import type { UserDialogue } from '../schemas/dialogue.js';
import type { UserMemory } from '../schemas/memory.js';
import { decodeUserMemoryFields } from '../schemas/memory-record-codec.js';
import type { UserPlan } from '../schemas/plan.js';
import { readJsonl } from '../util/fs.js';
import type { ExportChecks } from './export-checks.js';
import type { RunHeader } from './run-header.js';

export interface EndpointUsage {
  calls: number;
  costUsd: number;
  promptTokens: number;
  completionTokens: number;
  cacheHits: number;
}

/** One fidelity figure as the report shows it. */
export interface FidelityRow {
  description: string;
  value: number;
  unit: string;
  target: number | null;
  kind: string;
  ok: boolean | null;
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
  validation: {
    failuresByCheck: Record<string, number>;
    judgeMode: string | null;
    /** validation.json's `fidelity` section (measured vs target), empty for older runs. */
    fidelity: Record<string, FidelityRow>;
  } | null;
  usage: { byEndpoint: Record<string, EndpointUsage>; totalCostUsd: number } | null;
  offline: Record<string, boolean>;
  quarantined: number;
  /** Distinct users quarantined by any stage. */
  quarantinedUsers: number;
  /** The most common quarantine reasons, with counts and up to three quarantined ids each. */
  topReasons: Array<{ stage: string; reason: string; count: number; examples: string[] }>;
  /** Users left in the last per-user output (dialogues, else plan). */
  usersLeft: number;
  /** The go/no-go header (`collectRunHeader`); absent when the caller has none. */
  header?: RunHeader;
  /** Exported mix, token lengths and sample rows (`collectExportChecks`); absent without export/. */
  exportChecks?: ExportChecks;
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
 * Reads plan, dialogues, memory, validation.json and quarantine.jsonl of a run directory (each
 * optional except the plan) and aggregates what the charts need; what the run is (name, offline
 * roles, usage) comes from `options.run`, so the report is a function of the data files. Only `maxUsers` users get a
 * timeline and personality chart; the rest contribute to the distributions.
 *
 * @example const data = await collectReportData('out/quickstart', { maxUsers: 8 });
 */
export interface ReportRun {
  name: string;
  offline: Record<string, boolean>;
  usage?: { byEndpoint: Record<string, EndpointUsage>; totalCostUsd: number };
}

async function countLines(path: string, missing: number): Promise<number> {
  try {
    const text = await readFile(path, 'utf8');
    return text.split('\n').filter((line) => line.trim() !== '').length;
  } catch {
    return missing;
  }
}

export async function collectReportData(
  runDir: string,
  options: { maxUsers: number; run?: ReportRun },
): Promise<ReportData> {
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
    quarantinedUsers: 0,
    topReasons: [],
    usersLeft: 0,
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
    // Only the snapshots are read: a packed record decodes nothing else.
    const memory = decodeUserMemoryFields(record as UserMemory, ['snapshots']);
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
  // What this run is: from the caller (the running pipeline), never from a manifest an earlier
  // attempt left behind, so the same data files always give the same report.
  if (options.run !== undefined) {
    data.name = options.run.name;
    data.offline = options.run.offline;
    if (options.run.usage !== undefined) data.usage = options.run.usage;
  }
  try {
    const text = await readFile(join(runDir, 'quarantine.jsonl'), 'utf8');
    const records = text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(
        (line) =>
          JSON.parse(line) as {
            stage?: string;
            inputId?: string;
            reason?: string;
            details?: { userId?: string; unit?: string };
          },
      );
    data.quarantined = records.length;
    // A quarantined round, session or question names its user in `details`; the user is kept.
    data.quarantinedUsers = new Set(
      records.filter((r) => r.details?.unit === undefined).map((r) => r.inputId),
    ).size;
    const counts = new Map<string, { stage: string; reason: string; count: number; examples: string[] }>();
    for (const record of records) {
      const reason = String(record.reason ?? '').replace(/^user "[^"]*": /, '');
      const key = `${record.stage}\u0000${reason}`;
      const entry = counts.get(key) ?? { stage: String(record.stage ?? ''), reason, count: 0, examples: [] };
      entry.count++;
      const where = [record.inputId, record.details?.unit].filter((v) => v !== undefined).join(' ');
      if (entry.examples.length < 3 && where !== '') entry.examples.push(where);
      counts.set(key, entry);
    }
    data.topReasons = [...counts.values()]
      .sort((a, b) => b.count - a.count || (a.reason < b.reason ? -1 : 1))
      .slice(0, 10);
  } catch {
    data.quarantined = 0;
  }
  data.usersLeft = await countLines(join(runDir, 'dialogues/dialogues.jsonl'), data.users);
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
  const fidelity: Record<string, FidelityRow> = {};
  const section = validation.fidelity;
  if (section !== null && typeof section === 'object')
    for (const [name, value] of Object.entries(section as Record<string, Partial<FidelityRow>>)) {
      if (typeof value?.value !== 'number') continue;
      fidelity[name] = {
        description: String(value.description ?? name),
        value: value.value,
        unit: String(value.unit ?? '%'),
        target: typeof value.target === 'number' ? value.target : null,
        kind: String(value.kind ?? 'max'),
        ok: typeof value.ok === 'boolean' ? value.ok : null,
      };
    }
  return { failuresByCheck, judgeMode: judgeMode === null ? null : String(judgeMode), fidelity };
}
