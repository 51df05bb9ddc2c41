/**
 * Full-text search over the dialogues, one user's record at a time (never the whole file in
 * memory): the users whose dialogue holds `text`, case-insensitively.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { DIALOGUE_FILE } from './build-index.js';
import type { IndexedUser } from './types.js';

export async function searchDialogues(runDir: string, users: IndexedUser[], text: string): Promise<string[]> {
  const needle = text.trim().toLowerCase();
  if (needle === '') return [];
  // As the text sits in the JSON line: quotes and backslashes escaped.
  const escaped = JSON.stringify(needle).slice(1, -1);
  const found: string[] = [];
  const handle = await open(join(runDir, DIALOGUE_FILE), 'r');
  try {
    let buffer = Buffer.alloc(0);
    for (const user of users) {
      if (user.dialogue === null) continue;
      const [offset, length] = user.dialogue;
      if (buffer.length < length) buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      if (buffer.subarray(0, bytesRead).toString('utf8').toLowerCase().includes(escaped))
        found.push(user.userId);
    }
  } finally {
    await handle.close();
  }
  return found;
}
