import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The files whose text two runs of the same data must share. */
export const RUN_DATA_FILES = [
  'plan/plan.jsonl',
  'dialogues/dialogues.jsonl',
  'memory/memory.jsonl',
  'validation.json',
  'export/sft/train.jsonl',
  'report.html',
];

/**
 * The text of a run's data files (`<missing>` for one that is not there). report.html's run header
 * records provenance and what each invocation spent (a resumed run splits that across invocations),
 * so it is left out; the rest of the report depends only on the data.
 */
export async function runDataText(dir: string, files: readonly string[] = RUN_DATA_FILES): Promise<string[]> {
  return Promise.all(
    files.map((rel) =>
      readFile(join(dir, rel), 'utf8').then(
        (text) =>
          rel === 'report.html' ? text.replace(/<header class="run-header"[\s\S]*?<\/header>/, '') : text,
        () => '<missing>',
      ),
    ),
  );
}
