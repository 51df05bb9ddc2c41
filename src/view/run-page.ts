/**
 * The run page's own small collector (validation.json + manifest.json + quarantine.jsonl): a
 * go/no-go verdict, the stages, the fidelity table and every alarm with the records behind it.
 */
import type { RunFacts } from './run-facts.js';
import type { Alarm, FidelityLine, RunPage } from './types.js';

/** The rule whose failures are the records behind a fidelity figure. */
const FIGURE_CHECK: Record<string, string> = {
  drift_meaning_errors: 'drift_meaning',
  preference_meaning_errors: 'drift_meaning',
  unanswerable_qa: 'qa_evidence',
  gold_in_prompt: 'gold_in_prompt',
  correction_retractions: 'correction_scope',
  personality_target_unsupported: 'personality_evidence',
  photo_text_contradictions: 'photo_description',
  visual_distractors_true: 'visual_distractors',
};

/** Above this share of users quarantined the corpus is not the one that was planned. */
const MAX_QUARANTINED_SHARE = 0.1;

const rec = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const numOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

export function collectRunPage(facts: RunFacts): RunPage {
  const manifest = rec(facts.manifest);
  const validation = rec(facts.validation);
  const totals: Record<string, number> = {};
  for (const [key, value] of Object.entries(rec(validation.totals)))
    if (typeof value === 'number') totals[key] = value;

  const fidelity: FidelityLine[] = Object.entries(rec(validation.fidelity)).map(([name, raw]) => {
    const f = rec(raw);
    return {
      name,
      description: String(f.description ?? name),
      value: Number(f.value ?? 0),
      unit: String(f.unit ?? '%'),
      target: numOrNull(f.target),
      kind: String(f.kind ?? 'max'),
      count: numOrNull(f.count),
      of: numOrNull(f.of),
      ok: typeof f.ok === 'boolean' ? f.ok : null,
      check: FIGURE_CHECK[name] ?? null,
    };
  });

  const examplesOf = (check: string) =>
    facts.examples
      .filter((e) => e.check === check)
      .map((e) => ({ userId: e.userId, location: e.location, reason: e.reason }));
  const alarms: Alarm[] = [];
  for (const [section, prefix] of [
    ['rules', ''],
    ['judges', 'judge:'],
  ] as const)
    for (const [name, raw] of Object.entries(rec(validation[section]))) {
      const entry = rec(raw);
      const failures = Number(entry.failures ?? 0);
      if (failures <= 0) continue;
      const check = `${prefix}${name}`;
      alarms.push({
        check,
        description: String(entry.description ?? `${section.slice(0, -1)} ${name}`),
        failures,
        users: Number(entry.users ?? new Set(examplesOf(check).map((e) => e.userId)).size),
        records: examplesOf(check),
      });
    }
  const dedup = rec(validation.dedup);
  if (Number(dedup.duplicateUtterances ?? 0) > 0)
    alarms.push({
      check: 'dedup_utterance',
      description: 'near-duplicate user utterances',
      failures: Number(dedup.duplicateUtterances),
      users: [...facts.validatedUsers.values()].filter((u) => (u.failures.dedup_utterance ?? 0) > 0).length,
      records: examplesOf('dedup_utterance'),
    });

  const grouped = new Map<string, RunPage['quarantine'][number]>();
  for (const record of facts.quarantine) {
    const reason = record.reason.replace(/^user "[^"]*": /, '').replace(/\S+:S\d+(:T\d+)?/g, '<unit>');
    const key = `${record.stage}\u0000${reason}`;
    const entry = grouped.get(key) ?? { stage: record.stage, reason, count: 0, users: [] };
    entry.count++;
    if (!entry.users.includes(record.userId)) entry.users.push(record.userId);
    grouped.set(key, entry);
  }

  const stages = (Array.isArray(manifest.stages) ? manifest.stages : []).map((raw) => {
    const s = rec(raw);
    return {
      name: String(s.name ?? ''),
      in: numOrNull(s.in),
      out: numOrNull(s.out),
      quarantined: numOrNull(s.quarantined),
      status: String(s.status ?? ''),
    };
  });

  const status = String(manifest.status ?? (facts.manifest === null ? 'no manifest' : 'unknown'));
  const reasons: string[] = [];
  if (facts.manifest === null) reasons.push('no manifest.json: not a finished run');
  else if (status !== 'complete') reasons.push(`the run is ${status}, not complete`);
  const users = totals.users ?? facts.validatedUsers.size;
  const quarantinedUsers =
    totals.quarantinedUsers ?? [...facts.validatedUsers.values()].filter((u) => u.quarantined).length;
  if (facts.validation === null) reasons.push('no validation.json: the corpus was not validated');
  else if (users === 0 || quarantinedUsers >= users) reasons.push('no user is left for training');
  else if (quarantinedUsers / users > MAX_QUARANTINED_SHARE)
    reasons.push(
      `${quarantinedUsers} of ${users} users quarantined (more than ${MAX_QUARANTINED_SHARE * 100}%)`,
    );
  for (const line of fidelity)
    if (line.ok === false)
      reasons.push(
        `${line.name} is ${line.value}${line.unit === '%' ? '%' : ` ${line.unit}`}, target ${line.kind === 'max' ? '≤' : '≈'} ${line.target}`,
      );

  const pipeline = rec(manifest.pipeline);
  const offline: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(rec(manifest.offline)))
    if (typeof value === 'boolean') offline[key] = value;
  return {
    name: String(pipeline.name ?? ''),
    status,
    offline,
    verdict: reasons.length === 0 ? 'go' : 'no-go',
    reasons,
    totals,
    stages,
    fidelity,
    alarms,
    quarantine: [...grouped.values()].sort((a, b) => b.count - a.count),
  };
}
