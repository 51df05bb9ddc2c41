import { createReadStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { StageJournal } from './journal.js';
import { RETRYABLE_CODES } from './run-map-stage.js';
import { stateDir } from './stage-state.js';
import type { MapStage } from './types.js';

/**
 * Re-opening a finished per-user stage: when a stage finished with users quarantined for a
 * reason that may pass (a model or network fault, a full disk), or a stage before it now has
 * other users, the next run of the same command processes those users only. The stage's
 * journal is rebuilt from its finished output (each kept record as the bytes it was written
 * with) and its quarantine, so the ordinary resume path skips everyone else.
 */

/** Users a finished stage quarantined with a retryable code (from `.state/<stage>.quarantine.jsonl`). */
export async function retryableQuarantined(runDir: string, stage: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(join(stateDir(runDir), `${stage}.quarantine.jsonl`), 'utf8');
  } catch {
    return [];
  }
  const users: string[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const record = JSON.parse(line) as { inputId?: unknown; code?: unknown };
      if (
        typeof record.code === 'string' &&
        RETRYABLE_CODES.has(record.code) &&
        typeof record.inputId === 'string'
      )
        users.push(record.inputId);
    } catch {
      // a damaged line names no user; the stage's output decides
    }
  }
  return users;
}

/**
 * Writes the stage's journal from its output file and quarantine records (retryable ones left
 * out, so those users run again), and the fingerprint file, so `runMapStage` resumes it.
 */
export async function reopenMapStage(runDir: string, stage: MapStage, fingerprint: string): Promise<void> {
  const journalPath = join(stateDir(runDir), `${stage.name}.journal.jsonl`);
  await rm(journalPath, { force: true });
  const journal = new StageJournal(journalPath);
  const kept = new Set<string>();
  try {
    const lines = createInterface({
      input: createReadStream(join(runDir, stage.output)),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    for await (const line of lines) {
      if (line === '') continue;
      let userId: unknown;
      try {
        userId = (JSON.parse(line) as { userId?: unknown }).userId;
      } catch {
        continue; // a damaged line: that user is processed again
      }
      if (typeof userId !== 'string') continue;
      kept.add(userId);
      await journal.appendRecordJson(userId, line);
    }
    let quarantine = '';
    try {
      quarantine = await readFile(join(stateDir(runDir), `${stage.name}.quarantine.jsonl`), 'utf8');
    } catch {
      quarantine = '';
    }
    for (const line of quarantine.split('\n')) {
      if (line === '') continue;
      try {
        const record = JSON.parse(line) as { inputId?: unknown; reason?: unknown; code?: unknown };
        const code = typeof record.code === 'string' ? record.code : 'ERROR';
        if (typeof record.inputId !== 'string' || kept.has(record.inputId) || RETRYABLE_CODES.has(code))
          continue;
        await journal.appendFailure(record.inputId, String(record.reason ?? 'unknown'), code);
      } catch {
        // a damaged line names no user
      }
    }
  } finally {
    await journal.close();
  }
  await writeFile(join(stateDir(runDir), `${stage.name}.fingerprint`), `${fingerprint}\n`);
}
