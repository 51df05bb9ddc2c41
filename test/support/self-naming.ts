import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Makes the first `users` users of a finished run say their own full name (" I am <name>." after
 * every user turn) in dialogues/dialogues.jsonl: a defect validate counts (the self_naming figure
 * goes off target), not a rule failure. The names come from the run's plan, not from a lexicon.
 * Returns the file's text before and after.
 */
export async function plantSelfNaming(
  run: string,
  users = 2,
): Promise<{ original: string; tampered: string }> {
  const names = new Map(
    (await readFile(join(run, 'plan/plan.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .map((plan) => [plan.userId, plan.enriched.persona.name as string]),
  );
  const path = join(run, 'dialogues/dialogues.jsonl');
  const original = await readFile(path, 'utf8');
  const lines = original
    .trim()
    .split('\n')
    .map((line, i) => {
      const dialogue = JSON.parse(line);
      if (i < users)
        for (const session of dialogue.sessions)
          for (const turn of session.turns)
            if (turn.speaker === 'user') turn.text += ` I am ${names.get(dialogue.userId)}.`;
      return JSON.stringify(dialogue);
    });
  const tampered = `${lines.join('\n')}\n`;
  await writeFile(path, tampered);
  return { original, tampered };
}
