import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../errors/index.js';
import { UserDialogue } from '../schemas/dialogue.js';
import { UserMemory } from '../schemas/memory.js';
import { UserPlan } from '../schemas/plan.js';
import { readLines } from '../util/read-lines.js';
import type { UserBundle } from './types.js';

/** Where the upstream stages write their records, relative to the run directory. */
export const RUN_FILES = {
  plan: 'plan/plan.jsonl',
  synth: 'dialogues/dialogues.jsonl',
  memory: 'memory/memory.jsonl',
} as const;

export interface ReadRunOptions {
  /** A record that fails its schema, or a user missing downstream: reported, then skipped. */
  onSkip?: (userId: string, reason: string) => void;
}

/**
 * Streams the users of a run as {plan, dialogue, memory} bundles, joining the plan, dialogue
 * and memory files by `userId` (each file sorted by user id, as the runner writes them). Only
 * one user's records are held at a time. Without a memory file, `memory` is null.
 *
 * @example for await (const bundle of readRunBundles('out/quickstart')) console.log(bundle.plan.userId);
 */
export async function* readRunBundles(
  runDir: string,
  options: ReadRunOptions = {},
): AsyncGenerator<UserBundle> {
  const skip = options.onSkip ?? (() => {});
  const memoryPath = join(runDir, RUN_FILES.memory);
  const dialogues = readJsonLines(join(runDir, RUN_FILES.synth));
  const memories = existsSync(memoryPath) ? readJsonLines(memoryPath) : null;
  let dialogue = await pull(dialogues);
  let memory = memories === null ? null : await pull(memories);
  try {
    for await (const raw of readJsonLines(join(runDir, RUN_FILES.plan))) {
      const plan = UserPlan.safeParse(raw);
      const userId = String((raw as { userId?: unknown }).userId);
      if (!plan.success) {
        skip(userId, `plan record fails its schema: ${plan.error.issues[0]?.message ?? ''}`);
        continue;
      }
      while (dialogue !== null && dialogue.userId < userId) dialogue = await pull(dialogues);
      while (memories !== null && memory !== null && memory.userId < userId) memory = await pull(memories);
      if (dialogue === null || dialogue.userId !== userId) {
        skip(userId, 'no dialogue (quarantined by synth)');
        continue;
      }
      const parsedDialogue = UserDialogue.safeParse(dialogue.value);
      if (!parsedDialogue.success) {
        skip(userId, `dialogue fails its schema: ${parsedDialogue.error.issues[0]?.message ?? ''}`);
        continue;
      }
      let parsedMemory: UserMemory | null = null;
      if (memories !== null) {
        if (memory === null || memory.userId !== userId) {
          skip(userId, 'no memory record (quarantined by memory)');
          continue;
        }
        const result = UserMemory.safeParse(memory.value);
        if (!result.success) {
          skip(userId, `memory record fails its schema: ${result.error.issues[0]?.message ?? ''}`);
          continue;
        }
        parsedMemory = result.data;
      }
      yield { plan: plan.data, dialogue: parsedDialogue.data, memory: parsedMemory };
    }
  } finally {
    // Close the secondary files even when the driver ends first or the consumer stops early.
    await dialogues.return(undefined);
    await memories?.return(undefined);
  }
}

/** Parsed JSON Lines, pulled one at a time (no read-ahead: see `readLines`). */
async function* readJsonLines(path: string): AsyncGenerator<unknown> {
  let number = 0;
  for await (const line of readLines(path)) {
    number++;
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line);
    } catch (error) {
      throw new InputError(path, `line ${number} is not valid JSON: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
}

async function pull(iterator: AsyncIterator<unknown>): Promise<{ userId: string; value: unknown } | null> {
  const next = await iterator.next();
  if (next.done === true) return null;
  return { userId: String((next.value as { userId?: unknown }).userId), value: next.value };
}
