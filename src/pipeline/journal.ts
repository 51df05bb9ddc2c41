import { createReadStream } from 'node:fs';
import { mkdir, open, rm, truncate } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeWriteError, writeAll } from '../util/fs.js';

/** Where one finished user's line sits in the journal. */
export interface JournalLocation {
  offset: number;
  length: number;
  ok: boolean;
}

const HEAD = /^\{"userId":("(?:[^"\\]|\\.)*"),"ok":(true|false)/;

/**
 * Append-only journal of finished records, so a killed stage (even kill -9) resumes where it
 * stopped. Each entry is one line `{"userId":…,"ok":true,"record":…}` (or `"ok":false` with a
 * reason), written in one call and fsynced in small batches; a line without its newline is a
 * torn write from a crash and is cut off on load. Loading keeps only byte offsets, and the
 * final output is copied out of the journal record by record, so memory stays flat however
 * large the records are.
 */
export class StageJournal {
  private handle: Awaited<ReturnType<typeof open>> | null = null;
  private opening: Promise<Awaited<ReturnType<typeof open>>> | null = null;
  private pending = 0;

  constructor(readonly path: string) {}

  /** Indexes every complete entry by user id; truncates a torn tail so appends start clean. */
  async load(): Promise<Map<string, JournalLocation>> {
    const entries = new Map<string, JournalLocation>();
    let chunkStart = 0;
    let lineStart = 0;
    let head: Buffer[] = [];
    let headLength = 0;
    try {
      for await (const chunk of createReadStream(this.path, {
        highWaterMark: 1 << 20,
      }) as AsyncIterable<Buffer>) {
        let position = 0;
        while (position < chunk.length) {
          const newline = chunk.indexOf(10, position);
          const end = newline === -1 ? chunk.length : newline;
          if (headLength < 256) {
            const piece = Buffer.from(chunk.subarray(position, Math.min(end, position + 256 - headLength)));
            head.push(piece);
            headLength += piece.length;
          }
          if (newline === -1) break;
          const lineEnd = chunkStart + newline;
          const match = HEAD.exec(Buffer.concat(head).toString('utf8'));
          // A damaged line is passed over (its user is processed again); the lines after it stay.
          if (match !== null) {
            entries.set(JSON.parse(match[1] as string) as string, {
              offset: lineStart,
              length: lineEnd - lineStart,
              ok: match[2] === 'true',
            });
          }
          lineStart = lineEnd + 1;
          head = [];
          headLength = 0;
          position = newline + 1;
        }
        chunkStart += chunk.length;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return entries;
      throw error;
    }
    if (lineStart < chunkStart) await truncate(this.path, lineStart);
    return entries;
  }

  async appendRecord(userId: string, record: unknown): Promise<void> {
    await this.write(`{"userId":${JSON.stringify(userId)},"ok":true,"record":${JSON.stringify(record)}}`);
  }

  /** A record already serialized (a worker thread sent its JSON text). */
  async appendRecordJson(userId: string, json: string): Promise<void> {
    await this.write(`{"userId":${JSON.stringify(userId)},"ok":true,"record":${json}}`);
  }

  async appendFailure(userId: string, reason: string, code: string): Promise<void> {
    await this.write(JSON.stringify({ userId, ok: false, reason, code }));
  }

  /**
   * Reads entries back in the given order: the record's own JSON text for successes (bytes as
   * written, so output is byte-identical however the stage was interrupted), the parsed entry
   * for failures.
   */
  async *readBack(
    order: string[],
    entries: Map<string, JournalLocation>,
  ): AsyncGenerator<
    { userId: string; ok: true; json: string } | { userId: string; ok: false; reason: string; code: string }
  > {
    // Nothing was journaled (the stage had no input, or every user was resumed elsewhere).
    if (entries.size === 0) return;
    const file = await open(this.path, 'r');
    try {
      for (const userId of order) {
        const location = entries.get(userId);
        if (location === undefined) continue;
        const buffer = Buffer.alloc(location.length);
        await file.read(buffer, 0, location.length, location.offset);
        if (location.ok) {
          const headBytes = Buffer.byteLength(`{"userId":${JSON.stringify(userId)},"ok":true,"record":`);
          yield { userId, ok: true, json: buffer.toString('utf8', headBytes, buffer.length - 1) };
        } else {
          const entry = JSON.parse(buffer.toString('utf8')) as { reason?: string; code?: string };
          yield { userId, ok: false, reason: entry.reason ?? 'unknown', code: entry.code ?? 'ERROR' };
        }
      }
    } finally {
      await file.close();
    }
  }

  /** Appends run one after another, so a line written in several pieces is never interleaved. */
  private queue: Promise<void> = Promise.resolve();

  private write(line: string): Promise<void> {
    const next = this.queue.then(async () => {
      if (this.handle === null) {
        this.opening ??= mkdir(dirname(this.path), { recursive: true }).then(() => open(this.path, 'a'));
        this.handle = await this.opening;
      }
      try {
        await writeAll(this.handle, `${line}\n`);
      } catch (error) {
        throw await describeWriteError(this.path, error);
      }
      this.pending++;
      if (this.pending >= 16) await this.flush();
    });
    // A failed append fails its caller; later appends still run.
    this.queue = next.catch(() => {});
    return next;
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
