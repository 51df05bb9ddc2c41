/**
 * What the browser knows about the run as a whole, read once from its small files: validation.json
 * (per-user checks, quarantined units, dropped questions, rule examples, fidelity) and
 * quarantine.jsonl (every stage's quarantine records). The corpus files are never read here.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
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
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string =>
  typeof value === 'string' ? value : value == null ? '' : String(value);
const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

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
    let record: Record<string, unknown>;
    try {
      record = asRecord(JSON.parse(line));
    } catch (error) {
      throw new InputError(path, `line ${i + 1} is not valid JSON (${(error as Error).message})`);
    }
    const details = asRecord(record.details);
    const inputId = str(record.inputId);
    out.push({
      stage: str(record.stage),
      inputId,
      check: str(record.check ?? record.code),
      reason: str(record.reason),
      userId: str(details.userId) || inputId,
      unit: details.unit === undefined ? null : str(details.unit),
    });
  });
  return out;
}

export async function readRunFacts(runDir: string): Promise<RunFacts> {
  const validation = await readRunJson(join(runDir, 'validation.json'));
  const manifest = await readRunJson(join(runDir, 'manifest.json'));
  const quarantine = await readQuarantine(join(runDir, 'quarantine.jsonl'));
  const v = asRecord(validation);
  const validatedUsers = new Map<string, ValidatedUser>();
  for (const raw of asArray(v.users)) {
    const u = asRecord(raw);
    const failures: Record<string, number> = {};
    for (const [check, n] of Object.entries(asRecord(u.failures))) failures[check] = num(n);
    validatedUsers.set(str(u.userId), {
      split: str(u.split),
      sessions: num(u.sessions),
      turns: num(u.turns),
      imageTurns: num(u.imageTurns),
      qa: num(u.qa),
      failures,
      quarantined: u.quarantined === true,
    });
  }
  const units = asArray(v.units).map((raw) => {
    const u = asRecord(raw);
    return {
      userId: str(u.userId),
      unit: u.unit === 'session' ? 'session' : 'turn',
      id: str(u.id),
      check: str(u.check),
      reason: str(u.reason),
      turns: asArray(u.turns).map(str),
    } satisfies QuarantinedUnit;
  });
  const droppedQa = asArray(v.droppedQa).map((raw) => {
    const d = asRecord(raw);
    return { userId: str(d.userId), qaId: str(d.qaId), reason: str(d.reason) };
  });
  const examples: RuleExample[] = [];
  for (const section of ['rules', 'judges'])
    for (const [check, entry] of Object.entries(asRecord(v[section]))) {
      const prefix = section === 'judges' ? 'judge:' : '';
      for (const raw of asArray(asRecord(entry).examples)) {
        const e = asRecord(raw);
        examples.push({
          check: `${prefix}${check}`,
          userId: str(e.userId),
          location: str(e.location),
          reason: str(e.reason),
        });
      }
    }
  for (const raw of asArray(asRecord(v.dedup).examples)) {
    const e = asRecord(raw);
    examples.push({
      check: 'dedup',
      userId: str(e.userId),
      location: str(e.id),
      reason: `repeats ${str(e.duplicateOf)} (similarity ${num(e.similarity)})`,
    });
  }
  return { validation, manifest, validatedUsers, units, droppedQa, quarantine, examples };
}
