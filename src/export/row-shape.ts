/**
 * The shape every training row must have for ms-swift to train on it as intended: no message
 * with empty content (an empty assistant target teaches the model to say nothing) and exactly
 * one `<image>` tag per entry of `images` (ms-swift fills tags in order, so a quoted tag would
 * receive a real image). Shared by the export (which refuses to write such a row), `validate`
 * and the training preflight (which scans every row of every dataset file).
 *
 * @example rowShapeProblems({ messages: [{ role: 'user', content: '<image>hi' }], images: [] }) // ['1 <image> tags for 0 images']
 */
export function rowShapeProblems(row: { messages?: unknown; images?: unknown }): string[] {
  const problems: string[] = [];
  let tags = 0;
  if (Array.isArray(row.messages)) {
    row.messages.forEach((message: unknown, i) => {
      const m = (message ?? {}) as { role?: unknown; content?: unknown };
      const text = contentText(m.content);
      if (text.trim() === '') problems.push(`message ${i} (${String(m.role)}) is empty`);
      tags += countTags(text);
    });
  } else if (row.messages !== undefined && row.messages !== null) {
    problems.push('messages is not a list');
  }
  const images = Array.isArray(row.images) ? row.images.length : 0;
  if (tags !== images) problems.push(`${tags} <image> tags for ${images} images`);
  return problems;
}

function countTags(text: string): number {
  let count = 0;
  for (let at = text.indexOf('<image>'); at !== -1; at = text.indexOf('<image>', at + 7)) count++;
  return count;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) =>
      part !== null && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string'
        ? (part as { text: string }).text
        : '',
    )
    .join('');
}
