/**
 * What the browser knows about the run as a whole, read once from its small files: validation.json
 * (per-user checks, quarantined units, dropped questions, rule examples, fidelity) and
 * quarantine.jsonl (every stage's quarantine records). The corpus files are never read here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { parseAt, QuarantineLine, ValidationSections } from './schemas.js';
import type { QuarantinedUnit, RuleExample } from './types.js';

/** One quarantine.jsonl record. */
export interface QuarantineRecord {
  stage: string;
  inputId: string;
  check: string;
  reason: string;
  userId: string;
  /** `turn`, `session`, `question` for a part of a user; null for the whole user. */
  unit: string | null;
}

/** Per-user figures of validation.json's `users`. */
export interface ValidatedUser {
  split: string;
  sessions: number;
  turns: number;
  imageTurns: number;
  qa: number;
  failures: Record<string, number>;
  quarantined: boolean;
}

export interface RunFacts {
  /** validation.json as written (null when the run has none). */
  validation: Record<string, unknown> | null;
  manifest: Record<string, unknown> | null;
  validatedUsers: Map<string, ValidatedUser>;
  units: QuarantinedUnit[];
  droppedQa: Array<{ userId: string; qaId: string; reason: string }>;
  quarantine: QuarantineRecord[];
  /** Rule, judge and dedup examples, by user. */
  examples: RuleExample[];
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A JSON file of the run, or null when absent; a file that is there but unreadable is an error naming it. */
export async function readRunJson(path: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return asRecord(JSON.parse(text));
  } catch (error) {
    throw new InputError(path, `not valid JSON (${(error as Error).message})`);
  }
}

async function readQuarantine(path: string): Promise<QuarantineRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const out: QuarantineRecord[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch (error) {
      throw new InputError(path, `line ${i + 1} is not valid JSON (${(error as Error).message})`);
    }
    const record = parseAt(QuarantineLine, raw, `${path} line ${i + 1}`);
    out.push({
      stage: record.stage,
      inputId: record.inputId,
      check: record.check ?? record.code ?? '',
      reason: record.reason,
      userId: record.details?.userId ?? record.inputId,
      unit: record.details?.unit ?? null,
    });
  });
  return out;
}

export async function readRunFacts(runDir: string): Promise<RunFacts> {
  const validationPath = join(runDir, 'validation.json');
  const validation = await readRunJson(validationPath);
  const manifest = await readRunJson(join(runDir, 'manifest.json'));
  const quarantine = await readQuarantine(join(runDir, 'quarantine.jsonl'));
  const v = parseAt(ValidationSections, validation ?? {}, validationPath);
  const validatedUsers = new Map<string, ValidatedUser>(
    v.users.map((u) => [
      u.userId,
      {
        split: u.split,
        sessions: u.sessions,
        turns: u.turns,
        imageTurns: u.imageTurns,
        qa: u.qa,
        failures: u.failures,
        quarantined: u.quarantined,
      },
    ]),
  );
  const units: QuarantinedUnit[] = v.units.map((u) => ({
    userId: u.userId,
    unit: u.unit,
    id: u.id,
    check: u.check,
    reason: u.reason,
    turns: u.turns,
  }));
  const droppedQa = v.droppedQa.map((d) => ({ userId: d.userId, qaId: d.qaId, reason: d.reason }));
  const examples: RuleExample[] = [];
  for (const [check, entry] of Object.entries(v.rules))
    for (const e of entry.examples)
      examples.push({ check, userId: e.userId, location: e.location ?? '', reason: e.reason ?? '' });
  for (const [check, entry] of Object.entries(v.judges))
    for (const e of entry.examples)
      examples.push({
        check: `judge:${check}`,
        userId: e.userId,
        location: e.location ?? '',
        reason: e.reason ?? '',
      });
  for (const e of v.dedup.examples)
    examples.push({
      check: 'dedup_utterance',
      userId: e.userId,
      location: e.id ?? '',
      reason: `repeats ${e.duplicateOf ?? '?'} (similarity ${e.similarity ?? '?'})`,
    });
  return { validation, manifest, validatedUsers, units, droppedQa, quarantine, examples };
}
