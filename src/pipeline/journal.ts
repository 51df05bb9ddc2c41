import { mkdir, open, readFile, rm, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';

/** One finished unit of a map stage: its output record or why it was quarantined. */
export type JournalEntry =
  | { userId: string; ok: true; record: unknown }
  | { userId: string; ok: false; reason: string; code?: string };

/**
 * Append-only journal of finished records, so a killed stage (even kill -9) resumes where it
 * stopped. Each entry is one line, fsynced in small batches; a torn last line from a crash is
 * cut off on load. The final output is rebuilt from the journal in input order, which makes a
 * resumed run byte-identical to an uninterrupted one.
 */
export class StageJournal {
  private handle: Awaited<ReturnType<typeof open>> | null = null;
  private opening: Promise<Awaited<ReturnType<typeof open>>> | null = null;
  private pending = 0;

  constructor(readonly path: string) {}

  /** Reads every complete entry; truncates a torn tail so appends start on a clean line. */
  async load(): Promise<Map<string, string>> {
    const entries = new Map<string, string>();
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return entries;
      throw error;
    }
    let goodBytes = 0;
    let offset = 0;
    while (offset < text.length) {
      const end = text.indexOf('\n', offset);
      if (end === -1) break;
      const line = text.slice(offset, end);
      try {
        const entry = JSON.parse(line) as JournalEntry;
        entries.set(entry.userId, line);
        goodBytes += Buffer.byteLength(line, 'utf8') + 1;
      } catch {
        break;
      }
      offset = end + 1;
    }
    if (goodBytes < Buffer.byteLength(text, 'utf8')) await truncate(this.path, goodBytes);
    return entries;
  }

  async append(entry: JournalEntry): Promise<string> {
    if (this.handle === null) {
      // Concurrent first appends share one open() so no handle is orphaned.
      this.opening ??= mkdir(dirname(this.path), { recursive: true }).then(() => open(this.path, 'a'));
      this.handle = await this.opening;
    }
    const line = JSON.stringify(entry);
    await this.handle.write(`${line}\n`);
    this.pending++;
    if (this.pending >= 16) await this.flush();
    return line;
  }

  async flush(): Promise<void> {
    if (this.handle !== null && this.pending > 0) {
      await this.handle.sync();
      this.pending = 0;
    }
  }

  async close(): Promise<void> {
    await this.flush();
    await this.handle?.close();
    this.handle = null;
    this.opening = null;
  }

  async remove(): Promise<void> {
    await this.close();
    await rm(this.path, { force: true });
  }
}
