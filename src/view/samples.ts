/**
 * The samples page: exported rows of one file and task, read by their spans, as chat messages
 * with token counts (gpt-tokenizer, the count the export's budgets use).
 */
import { join } from 'node:path';
import { countTokens } from '../util/tokens.js';
import { readSpan } from './read-span.js';
import type { SampleFile, SampleRow } from './types.js';

export interface SampleQuery {
  file: string;
  task?: string;
  user?: string;
  offset: number;
  limit: number;
}

/** Per file, its rows' count by task (what the samples page offers to pick). */
export function sampleCatalogue(
  files: SampleFile[],
): Array<{ file: string; kind: string; split: string; tasks: Record<string, number> }> {
  return files.map((file) => {
    const tasks: Record<string, number> = {};
    for (const row of file.rows) tasks[row.task] = (tasks[row.task] ?? 0) + 1;
    return { file: file.path, kind: file.kind, split: file.split, tasks };
  });
}

const contentText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content
          .map((part) =>
            typeof part === 'string'
              ? part
              : String(
                  (part as { text?: unknown }).text ?? `[${(part as { type?: unknown }).type ?? 'part'}]`,
                ),
          )
          .join('')
      : JSON.stringify(content);

export async function readSamples(
  runDir: string,
  files: SampleFile[],
  query: SampleQuery,
): Promise<{ total: number; rows: SampleRow[] }> {
  const file = files.find((f) => f.path === query.file);
  if (file === undefined) return { total: 0, rows: [] };
  const chosen = file.rows.filter(
    (row) =>
      (query.task === undefined || row.task === query.task) &&
      (query.user === undefined || row.user === query.user),
  );
  const rows: SampleRow[] = [];
  for (const span of chosen.slice(query.offset, query.offset + query.limit)) {
    const record = await readSpan<Record<string, unknown>>(join(runDir, file.path), [
      span.offset,
      span.length,
    ]);
    const messages = (Array.isArray(record.messages) ? record.messages : []).map((raw) => {
      const m = raw as { role?: unknown; content?: unknown };
      const content = contentText(m.content);
      return { role: String(m.role ?? ''), content, tokens: countTokens(content) };
    });
    const extra: Record<string, string> = {};
    for (const [key, value] of Object.entries(record))
      if (!['id', 'user_id', 'task', 'messages'].includes(key))
        extra[key] = typeof value === 'string' ? value : JSON.stringify(value);
    rows.push({
      id: String(record.id ?? ''),
      user: span.user,
      task: span.task,
      file: file.path,
      messages,
      tokens: messages.reduce((sum, m) => sum + m.tokens, 0),
      extra,
    });
  }
  return { total: chosen.length, rows };
}
